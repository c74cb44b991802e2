"""AMDGPU semantics of tileopt-run on tiny hand-written kernels: DPP controls with their
row/bank masks and bound_ctrl, permlanex16, ds_bpermute/ds_permute, ballot, mbcnt,
readlane/readfirstlane, buffer range checks, atomics, the target's arch. Each expected
lane value is worked out by hand from the AMD ISA documents (CDNA3 for gfx942, RDNA3 for
gfx1100): thread t holds x = 100 + t, so the value a lane got names its source lane."""

from __future__ import annotations

import numpy as np
import pytest

from tileopt.ir import TileoptError
from tileopt.run.launch import compile_source, run_kernel
from tileopt.run.memory import KernelFault

HEAD = 'target triple = "amdgcn-amd-amdhsa"\n'


def run(body: str, arch: str = "gfx942", threads: int = 64, out_type: str = "i32",
        extra_args=(), params: str = "", grid=(1,), block: str = "%b"):
    """Kernel @k(ptr %out, params); in its entry %t = workitem.id.x, %b = workgroup.id.x and
    %x = 100 + %t (i32); ``body`` computes %r, stored to out[block * threads + t]."""
    kernel = f"""define amdgpu_kernel void @k(ptr addrspace(1) %out{params}) #0 {{
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %b = call i32 @llvm.amdgcn.workgroup.id.x()
  %x = add i32 %t, 100
  %xf = sitofp i32 %x to float
{body}
  %bt = mul i32 {block}, {threads}
  %i = add i32 %bt, %t
  %p = getelementptr {out_type}, ptr addrspace(1) %out, i32 %i
  store {out_type} %r, ptr addrspace(1) %p, align 4
  ret void
}}
attributes #0 = {{ "amdgpu-flat-work-group-size"="1,{threads}" }}
"""
    dtype = {"i32": np.int32, "i64": np.int64, "float": np.float32}[out_type]
    blocks = int(np.prod(grid))
    out = np.full(threads * blocks, -7, dtype)
    return run_kernel(compile_source(HEAD + kernel, "k.ll", arch=arch), [out, *extra_args],
                      grid).outputs[0]


def dpp(ctrl: int, row_mask: int = 15, bank_mask: int = 15, bound: bool = True,
        arch: str = "gfx942", threads: int = 64):
    """update.dpp(old = -1, x, ctrl, row_mask, bank_mask, bound_ctrl) in every lane."""
    return run(f"  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %x, i32 {ctrl}, "
               f"i32 {row_mask}, i32 {bank_mask}, i1 {str(bound).lower()})", arch, threads)


# ------------------------------------------------------------------ DPP

def test_quad_perm():
    # 0xB1 = [1, 0, 3, 2]: lane i of a quad reads quad lane ctrl[2i+1:2i]
    assert list(dpp(0xB1)[:8]) == [101, 100, 103, 102, 105, 104, 107, 106]
    # 0x1B = [3, 2, 1, 0]
    assert list(dpp(0x1B)[4:8]) == [107, 106, 105, 104]


def test_row_shift_right_and_bound_ctrl():
    r = dpp(0x111)                      # row_shr:1, bound_ctrl: an invalid source gives 0
    assert list(r[:3]) == [0, 100, 101]
    assert list(r[15:18]) == [114, 0, 116]
    r = dpp(0x111, bound=False)         # without it the lane keeps old (-1)
    assert list(r[:2]) == [-1, 100] and r[16] == -1 and r[48] == -1
    r = dpp(0x118)                      # row_shr:8
    assert (r[:8] == 0).all() and list(r[8:10]) == [100, 101] and r[63] == 155


def test_row_shift_left_and_rotate():
    r = dpp(0x102)                      # row_shl:2: lane reads lane + 2 of its row
    assert list(r[12:16]) == [114, 115, 0, 0] and r[16] == 118
    r = dpp(0x121)                      # row_ror:1: lane reads (lane - 1) mod 16 of its row
    assert list(r[:2]) == [115, 100] and r[16] == 131


def test_mirrors():
    r = dpp(0x140)                      # row_mirror: lane i of a row reads 15 - i
    assert list(r[:2]) == [115, 114] and r[17] == 130
    r = dpp(0x141)                      # row_half_mirror: lane i of 8 reads 7 - i
    assert list(r[:2]) == [107, 106] and r[9] == 114


def test_row_broadcasts_with_row_mask():
    # row_bcast:15 writing rows 1 and 3 only (row_mask 0b1010): row r gets lane 15 of r - 1
    r = dpp(0x142, row_mask=0b1010)
    assert (r[:16] == -1).all() and (r[16:32] == 115).all()
    assert (r[32:48] == -1).all() and (r[48:] == 147).all()
    # all rows written: row 0 has no previous row, so no source: 0 with bound_ctrl
    r = dpp(0x142)
    assert (r[:16] == 0).all() and (r[16:32] == 115).all() and (r[32:48] == 131).all()
    # row_bcast:31 to rows 2 and 3; rows 0 and 1 have no source: keep old without bound_ctrl
    r = dpp(0x143, bound=False)
    assert (r[:32] == -1).all() and (r[32:] == 131).all()


def test_bank_mask_limits_the_written_lanes():
    # row_shr:4 with banks 2 and 3 (lanes 8-15 of each row) only, as Triton's scans do
    r = dpp(0x114, bank_mask=0b1100)
    assert (r[:8] == -1).all() and list(r[8:12]) == [104, 105, 106, 107]
    assert (r[16:24] == -1).all() and r[31] == 127


def test_whole_wave_shifts_and_rotates_on_gfx9():
    assert list(dpp(0x130)[[0, 62, 63]]) == [101, 163, 0]      # wave_shl:1
    assert list(dpp(0x134)[[0, 63]]) == [101, 100]              # wave_rol:1
    assert list(dpp(0x138)[[0, 1, 63]]) == [0, 100, 162]        # wave_shr:1
    assert list(dpp(0x13C)[[0, 1]]) == [163, 100]               # wave_ror:1


def test_dpp_source_in_an_inactive_lane_is_invalid():
    """Only the even lanes run the DPP: row_shr:1 then reads odd, inactive lanes."""
    body = """  %odd = and i32 %t, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %even, label %join
even:
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %x, i32 273, i32 15, i32 15, i1 {bc})
  %q = call i32 @llvm.amdgcn.update.dpp.i32(i32 -1, i32 %x, i32 274, i32 15, i32 15, i1 {bc})
  %dq = add i32 %d, %q
  br label %join
join:
  %r = phi i32 [ %dq, %even ], [ 5, %entry ]"""
    r = run(body.format(bc="false"))
    # lane 2: row_shr:1 reads lane 1 (inactive: keeps -1), row_shr:2 reads lane 0 (100)
    assert list(r[:4]) == [-2, 5, 99, 5]
    r = run(body.format(bc="true"))
    assert list(r[:4]) == [0, 5, 100, 5]


def test_gfx10_dpp_modes_on_gfx1100():
    r = dpp(0x153, arch="gfx1100", threads=32)   # row_share:3: lane 3 of the row
    assert r[0] == 103 and r[17] == 119
    r = dpp(0x161, arch="gfx1100", threads=32)   # row_xmask:1: lane i ^ 1 of the row
    assert list(r[16:18]) == [117, 116]


@pytest.mark.parametrize("arch,ctrl", [("gfx1100", 0x142), ("gfx1100", 0x130),
                                       ("gfx942", 0x150), ("gfx942", 0x100)])
def test_dpp_control_of_another_family_is_an_error(arch, ctrl):
    with pytest.raises(KernelFault, match=f"DPP control {hex(ctrl)} is not a"):
        dpp(ctrl, arch=arch, threads=64)


def test_mov_dpp():
    r = run("  %r = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %x, i32 177, i32 15, i32 15, i1 true)")
    assert list(r[:4]) == [101, 100, 103, 102]


def test_float_dpp_moves_the_bits():
    r = run("""  %f = call float @llvm.amdgcn.update.dpp.f32(float poison, float %xf, i32 273, i32 15, i32 15, i1 true)
  %r = fptosi float %f to i32""")
    assert list(r[:2]) == [0, 100]


# ------------------------------------------------------------------ permlane

def test_permlanex16_reads_the_other_row():
    # selects 0..15: lane i reads lane i of the other row of its 32-lane half
    r = run("  %r = call i32 @llvm.amdgcn.permlanex16.i32(i32 -1, i32 %x, i32 1985229328, "
            "i32 -19088744, i1 false, i1 false)", "gfx1100", 32)
    assert list(r[:2]) == [116, 117] and list(r[16:18]) == [100, 101]
    # all selects 15 (Triton's reductions): lane 15 of the other row
    r = run("  %r = call i32 @llvm.amdgcn.permlanex16.i32(i32 poison, i32 %x, i32 -1, i32 -1, "
            "i1 true, i1 false)", "gfx1100", 32)
    assert (r[:16] == 131).all() and (r[16:] == 115).all()


def test_permlanex16_does_not_exist_on_gfx942():
    with pytest.raises(KernelFault, match="permlanex16.* does not exist on gfx942"):
        run("  %r = call i32 @llvm.amdgcn.permlanex16.i32(i32 -1, i32 %x, i32 -1, i32 -1, "
            "i1 true, i1 false)")


# ------------------------------------------------------------------ ds_bpermute, ds_permute

@pytest.mark.parametrize("arch,wave", [("gfx942", 64), ("gfx1100", 32)])
def test_bpermute_reads_lane_addr_over_4_mod_the_wave(arch, wave):
    # address 4 * (t + 1) + 1024: the lane above, wrapping in the wave; high bits ignored
    r = run("""  %t1 = add i32 %t, 1
  %a4 = shl i32 %t1, 2
  %a = add i32 %a4, 1024
  %r = call i32 @llvm.amdgcn.ds.bpermute(i32 %a, i32 %x)""", arch, 128)
    assert list(r[:2]) == [101, 102]
    assert r[wave - 1] == 100 and r[2 * wave - 1] == 100 + wave


def test_bpermute_from_an_inactive_lane_gives_zero():
    r = run("""  %c = icmp ult i32 %t, 32
  br i1 %c, label %low, label %join
low:
  %t1 = add i32 %t, 1
  %a = shl i32 %t1, 2
  %v = call i32 @llvm.amdgcn.ds.bpermute(i32 %a, i32 %x)
  br label %join
join:
  %r = phi i32 [ %v, %low ], [ 5, %entry ]""")
    assert list(r[30:34]) == [131, 0, 5, 5]


def test_permute_writes_to_lane_addr_over_4():
    r = run("""  %m = sub i32 63, %t
  %a = shl i32 %m, 2
  %r = call i32 @llvm.amdgcn.ds.permute(i32 %a, i32 %x)""")
    assert list(r[:2]) == [163, 162] and r[63] == 100
    # every lane writes to lane 0: the highest lane wins, the others receive nothing (0)
    r = run("  %r = call i32 @llvm.amdgcn.ds.permute(i32 0, i32 %x)")
    assert r[0] == 163 and (r[1:] == 0).all()


@pytest.mark.parametrize("arch,wave", [("gfx942", 64), ("gfx1100", 32)])
def test_swizzle_bit_mode_and_quad_mode(arch, wave):
    # 0x401F: and 0x1F, or 0, xor 0x10: lane i reads lane i ^ 16 within its 32 lanes
    r = run("  %r = call i32 @llvm.amdgcn.ds.swizzle(i32 %x, i32 16415)", arch, wave)
    assert list(r[:2]) == [116, 117] and r[16] == 100 and r[31] == 115
    if wave == 64:
        assert r[32] == 148 and r[63] == 147
    # 0x00E0: and 0, or 7, xor 0: every lane of each 32 reads lane 7 of them
    r = run("  %r = call i32 @llvm.amdgcn.ds.swizzle(i32 %x, i32 224)", arch, wave)
    assert (r[:32] == 107).all()
    # 0x801B: quad mode, [3, 2, 1, 0]
    r = run("  %r = call i32 @llvm.amdgcn.ds.swizzle(i32 %x, i32 32795)", arch, wave)
    assert list(r[4:8]) == [107, 106, 105, 104]


# ------------------------------------------------------------------ ballot, mbcnt, readlane

def test_ballot_of_active_lanes_only():
    r = run("""  %m3 = urem i32 %t, 3
  %z = icmp eq i32 %m3, 0
  %c = icmp ult i32 %t, 70
  br i1 %c, label %some, label %join
some:
  %v = call i64 @llvm.amdgcn.ballot.i64(i1 %z)
  br label %join
join:
  %r = phi i64 [ %v, %some ], [ 5, %entry ]""", threads=128, out_type="i64")
    first = sum(1 << lane for lane in range(64) if lane % 3 == 0)
    second = sum(1 << (t - 64) for t in range(64, 70) if t % 3 == 0)  # lanes 0..5 of wave 1
    assert r[0] == np.uint64(first).view(np.int64) and r[64] == second and r[70] == 5


def test_ballot_i32_needs_a_wave_of_32():
    r = run("""  %z = icmp ult i32 %t, 3
  %r = call i32 @llvm.amdgcn.ballot.i32(i1 %z)""", "gfx1100", 32)
    assert (r == 7).all()
    with pytest.raises(KernelFault, match="ballot.i32 in a wave of 64 lanes"):
        run("""  %z = icmp ult i32 %t, 3
  %r = call i32 @llvm.amdgcn.ballot.i32(i1 %z)""")


def test_mbcnt_counts_mask_bits_below_the_lane():
    # mbcnt.hi(-1, mbcnt.lo(-1, 0)) is the lane id
    r = run("""  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %r = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)""", threads=128)
    assert (r == np.arange(128) % 64).all()
    # odd lanes only (0xAAAAAAAA in both halves), plus 10
    r = run("""  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1431655766, i32 10)
  %r = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1431655766, i32 %lo)""")
    assert list(r[[0, 1, 2, 5, 32, 33, 40, 63]]) == [10, 10, 11, 12, 26, 26, 30, 41]


def test_readlane_and_readfirstlane():
    r = run("  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %x, i32 63)", threads=128)
    assert (r[:64] == 163).all() and (r[64:] == 227).all()
    r = run("""  %c = icmp uge i32 %t, 5
  br i1 %c, label %some, label %join
some:
  %v = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  br label %join
join:
  %r = phi i32 [ %v, %some ], [ 0, %entry ]""", threads=128)
    assert list(r[4:6]) == [0, 105] and r[63] == 105 and r[64] == 164


# ------------------------------------------------------------------ ids, barriers, math

def test_workgroup_ids_and_block_size_from_the_kernel_attribute():
    r = run("""  %y = call i32 @llvm.amdgcn.workgroup.id.y()
  %y2 = mul i32 %y, 2
  %lin = add i32 %y2, %b
  %y1000 = mul i32 %y, 1000
  %r = add i32 %y1000, %b""", threads=128, grid=(2, 3), block="%lin")
    # block (x, y) is at x + 2y; 128 threads a block, from "amdgpu-flat-work-group-size"
    want = np.array([0, 1, 1000, 1001, 2000, 2001])
    assert (r.reshape(6, 128) == want[:, None]).all()


def test_s_barrier_under_divergent_control_flow_is_an_error():
    with pytest.raises(KernelFault, match="barrier reached by 32 of the 64 live threads"):
        run("""  %c = icmp ult i32 %t, 32
  br i1 %c, label %low, label %join
low:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  br label %join
join:
  call void @llvm.amdgcn.s.waitcnt(i32 49279)
  call void @llvm.amdgcn.sched.barrier(i32 0)
  %r = add i32 %x, 0""")


def test_amd_math():
    r = run("""  %s = call float @llvm.amdgcn.sqrt.f32(float 16.0)
  %l = call float @llvm.amdgcn.log.f32(float 8.0)
  %e = call float @llvm.amdgcn.exp2.f32(float 3.0)
  %q = call float @llvm.amdgcn.rsq.f32(float 4.0)
  %c = call float @llvm.amdgcn.rcp.f32(float 8.0)
  %n = call float @llvm.amdgcn.sin.f32(float 0.25)
  %a = fadd float %s, %l
  %a2 = fadd float %a, %e
  %a3 = fmul float %a2, %q
  %a4 = fadd float %a3, %c
  %a5 = fadd float %a4, %n
  %r = fmul float %a5, 8.0""", out_type="float")
    # (4 + log2 8 + 2^3) / 2 + 1/8 + sin(2 pi / 4) = 7.625 + 1 -> * 8
    assert np.allclose(r, 69.0)


# ------------------------------------------------------------------ buffers

BUFFER = ", ptr addrspace(1) %in"


def _rsrc(records: int, base: str = "%in") -> str:
    return (f"  %rs = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1("
            f"ptr addrspace(1) {base}, i16 0, i64 {records}, i32 159744)\n")


def test_buffer_load_past_num_records_gives_zero():
    x = np.arange(64, dtype=np.int32) + 1
    r = run(_rsrc(40) + """  %o = shl i32 %t, 2
  %r = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %rs, i32 %o, i32 0, i32 0)""",
            extra_args=[x], params=BUFFER)
    # 40 bytes: ten elements; the buffer holds more, but the range check is the resource's
    assert (r[:10] == x[:10]).all() and (r[10:] == 0).all()


def test_triton_mask_offset_is_not_out_of_bounds():
    """Triton's masked-off lanes use offset 0x80000000 with num_records 0x7FFFFFFE: far past
    the array, not an error, and 0."""
    x = np.arange(16, dtype=np.int32) + 1
    r = run(_rsrc(2147483646) + """  %o = shl i32 %t, 2
  %c = icmp ult i32 %t, 16
  %m = select i1 %c, i32 %o, i32 -2147483648
  %r = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %rs, i32 %m, i32 0, i32 0)""",
            extra_args=[x], params=BUFFER)
    assert (r[:16] == x).all() and (r[16:] == 0).all()


def test_buffer_access_inside_num_records_but_outside_the_array_is_out_of_bounds():
    x = np.arange(16, dtype=np.int32)
    with pytest.raises(KernelFault, match=r"out-of-bounds load of 4 bytes at byte offset 64 of "
                                          r"argument 1 .* by thread \(16,0,0\)"):
        run(_rsrc(2147483646) + """  %o = shl i32 %t, 2
  %r = call i32 @llvm.amdgcn.raw.ptr.buffer.load.i32(ptr addrspace(8) %rs, i32 %o, i32 0, i32 0)""",
            extra_args=[x], params=BUFFER)


def launch(kernel_body: str, params: str, args, arch: str = "gfx942"):
    """A kernel of one 64-lane wave with ``params``; %t and %x as in run()."""
    kernel = HEAD + f"""define amdgpu_kernel void @k({params}) #0 {{
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %x = add i32 %t, 100
{kernel_body}
  ret void
}}
attributes #0 = {{ "amdgpu-flat-work-group-size"="1,64" }}
"""
    return run_kernel(compile_source(kernel, "k.ll", arch=arch), args, (1,)).outputs


def test_buffer_store_past_num_records_is_dropped_dword_by_dword():
    # thread t stores <2 x i32> (x, -x) at byte 8t of a 36-byte resource: threads 0-3 whole,
    # thread 4 its first dword (byte 32) only, the rest nothing
    out = launch("""  %rs = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %out, i16 0, i64 36, i32 159744)
  %o = shl i32 %t, 3
  %n = sub i32 0, %x
  %v0 = insertelement <2 x i32> poison, i32 %x, i64 0
  %v = insertelement <2 x i32> %v0, i32 %n, i64 1
  call void @llvm.amdgcn.raw.ptr.buffer.store.v2i32(<2 x i32> %v, ptr addrspace(8) %rs, i32 %o, i32 0, i32 0)""",
                 "ptr addrspace(1) %out", [np.full(128, -7, np.int32)])[0]
    assert list(out[:11]) == [100, -100, 101, -101, 102, -102, 103, -103, 104, -7, -7]
    assert (out[9:] == -7).all()


def test_buffer_atomics_and_cmpswap():
    hist = np.zeros(4, np.int32)
    cells = np.array([5, 6], np.int32)
    r = run(_rsrc(8, "%h") + """  %q = and i32 %t, 3
  %o = shl i32 %q, 2
  %old = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.add.i32(i32 1, ptr addrspace(8) %rs, i32 %o, i32 0, i32 0)
  %rc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %cells, i16 0, i64 8, i32 159744)
  %sw = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.cmpswap.i32(i32 %x, i32 5, ptr addrspace(8) %rc, i32 0, i32 0, i32 0)
  %r = add i32 %old, 0""", extra_args=[hist, cells], params=", ptr addrspace(1) %h, ptr addrspace(1) %cells")
    # 8 bytes: bins 0 and 1 get their 16 adds each, bins 2 and 3 are past num_records
    # thread order: threads 0, 1 find 0, 4, 5 find 1; bins 2, 3 are out of range (0)
    assert list(r[:8]) == [0, 0, 0, 0, 1, 1, 0, 0] and r[60] == 15 and r[63] == 0


def test_atomic_results_in_memory():
    hist = np.zeros(4, np.int32)
    cells = np.array([5, 6], np.int32)
    out = launch("""  %q = and i32 %t, 3
  %o = shl i32 %q, 2
  %rs = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %h, i16 0, i64 8, i32 159744)
  %old = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.add.i32(i32 1, ptr addrspace(8) %rs, i32 %o, i32 0, i32 0)
  %rc = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %cells, i16 0, i64 8, i32 159744)
  %sw = call i32 @llvm.amdgcn.raw.ptr.buffer.atomic.cmpswap.i32(i32 %x, i32 5, ptr addrspace(8) %rc, i32 0, i32 0, i32 0)
  %p1 = getelementptr i32, ptr addrspace(1) %cells, i32 1
  %a = atomicrmw add ptr addrspace(1) %p1, i32 %t syncscope("agent") monotonic, align 4
  %cx = cmpxchg ptr addrspace(1) %h, i32 999, i32 0 syncscope("agent") acq_rel monotonic, align 4""",
                 "ptr addrspace(1) %h, ptr addrspace(1) %cells", [hist, cells])
    # 16 adds in bins 0 and 1; bins 2, 3 past num_records (8 bytes) untouched; the cmpxchg
    # never matches 999
    assert list(out[0]) == [16, 16, 0, 0]
    # thread 0 swaps 5 for 100; the others find 100, not 5; then cell 1 gets 6 + sum(t)
    assert list(out[1]) == [100, 6 + sum(range(64))]


def test_cmpxchg_returns_the_old_value_and_success():
    out = launch("""  %c = cmpxchg ptr addrspace(1) %out, i32 0, i32 %x syncscope("agent") monotonic monotonic, align 4
  %old = extractvalue { i32, i1 } %c, 0
  %ok = extractvalue { i32, i1 } %c, 1
  %okw = zext i1 %ok to i32
  %k = mul i32 %okw, 1000
  %v = add i32 %old, %k
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %t
  %p1 = getelementptr i32, ptr addrspace(1) %p, i32 1
  store i32 %v, ptr addrspace(1) %p1, align 4""", "ptr addrspace(1) %out",
                 [np.zeros(65, np.int32)])[0]
    # thread 0 finds 0 and stores 100 (success: 1000 + 0); the others find 100 and fail;
    # out[0] is then overwritten by nothing (thread t stores at t + 1)
    assert out[0] == 100 and out[1] == 1000 and (out[2:] == 100).all()


# ------------------------------------------------------------------ the arch

def test_amd_llvm_ir_needs_its_arch():
    kernel = HEAD + """define amdgpu_kernel void @k() #0 {
  ret void
}
attributes #0 = { "amdgpu-flat-work-group-size"="1,64" }
"""
    with pytest.raises(TileoptError, match="--arch gfx942 or gfx1100"):
        run_kernel(compile_source(kernel, "k.ll"), [], (1,))
    with pytest.raises(TileoptError, match="--arch gfx1100 disagrees with the module's target "
                                           "gfx942"):
        compile_source(kernel.replace('"1,64"', '"1,64" "target-cpu"="gfx942"'), "k.ll",
                       arch="gfx1100")
