"""GPU semantics of tileopt-run on small hand-written NVPTX kernels, each expected value
worked out by hand (IEEE rounding, PTX's shfl.sync lane rules, atomics in thread order)."""

from __future__ import annotations

import numpy as np
import pytest

from tileopt.run.launch import compile_source, run_kernel
from tileopt.ir import TileoptError
from tileopt.run.memory import KernelFault

HEAD = """target triple = "nvptx64-nvidia-cuda"
@global_smem = external addrspace(3) global [0 x i8], align 16
"""
TAIL = """
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare float @llvm.fma.f32(float, float, float)
declare i32 @llvm.vector.reduce.or.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
attributes #0 = { "nvvm.reqntid"="128" }
"""


def run(body: str, args, grid=(1,), params="ptr addrspace(1) %out"):
    """Run kernel @k(params), 128 threads a block; body follows %t = tid.x in its entry."""
    kernel = (f"define ptx_kernel void @k({params}) #0 {{\nentry:\n"
              f"  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n{body}\n}}\n")
    return run_kernel(compile_source(HEAD + kernel + TAIL, "k.ll"), args, grid)


def test_divergent_if_else_reconverges_with_phi():
    out = np.zeros(128, np.int32)
    r = run("""
  %odd = and i32 %t, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %even, label %other
even:
  %a = mul i32 %t, 10
  br label %join
other:
  %b = sub i32 0, %t
  br label %join
join:
  %v = phi i32 [ %a, %even ], [ %b, %other ]
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void""", [out])
    t = np.arange(128)
    assert (r.outputs[0] == np.where(t % 2 == 0, 10 * t, -t)).all()


def test_loops_with_a_trip_count_per_thread():
    out = np.zeros(128, np.int32)
    r = run("""
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %s1 = add i32 %s, %i
  %i1 = add i32 %i, 1
  %done = icmp sgt i32 %i1, %t
  br i1 %done, label %exit, label %loop
exit:
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %s1, ptr addrspace(1) %p, align 4
  ret void""", [out])
    t = np.arange(128)
    assert (r.outputs[0] == t * (t + 1) // 2).all()


def test_barrier_under_divergent_control_flow_is_an_error():
    with pytest.raises(KernelFault, match=r"barrier reached by 64 of the 128 live threads"):
        run("""
  %c = icmp ult i32 %t, 64
  br i1 %c, label %low, label %exit
low:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %exit
exit:
  ret void""", [np.zeros(1, np.int32)])


def test_half_and_bfloat_round_to_nearest_even():
    out = np.zeros(4, np.uint16)
    r = run("""
  %first = icmp eq i32 %t, 0
  br i1 %first, label %go, label %exit
go:
  %a = fadd half 0xH6800, 0xH3C00
  %b = fadd half 0xH6800, 0xH4200
  %c = fptrunc float 0x3FF0100000000000 to bfloat
  %d = fptrunc float 0x3FF0300000000000 to bfloat
  %p1 = getelementptr half, ptr addrspace(1) %out, i32 1
  %p2 = getelementptr half, ptr addrspace(1) %out, i32 2
  %p3 = getelementptr half, ptr addrspace(1) %out, i32 3
  store half %a, ptr addrspace(1) %out, align 2
  store half %b, ptr addrspace(1) %p1, align 2
  store bfloat %c, ptr addrspace(1) %p2, align 2
  store bfloat %d, ptr addrspace(1) %p3, align 2
  br label %exit
exit:
  ret void""", [out])
    # 2048 + 1 = 2049 ties to 2048 (0x6800); 2048 + 3 = 2051 ties to 2052 (0x6802);
    # 1 + 2^-8 ties to 1.0 (0x3F80); 1 + 3 * 2^-8 ties to 1 + 2^-6 (0x3F82)
    assert list(r.outputs[0]) == [0x6800, 0x6802, 0x3F80, 0x3F82]


@pytest.mark.parametrize("call, want", [
    # down by 1, clamp 31: lane 31 keeps its own value
    ("shfl.sync.down.i32(i32 -1, i32 %t, i32 1, i32 31)", lambda l: np.where(l < 31, l + 1, l)),
    # up by 2: lanes 0 and 1 keep their own value
    ("shfl.sync.up.i32(i32 -1, i32 %t, i32 2, i32 0)", lambda l: np.where(l >= 2, l - 2, l)),
    # idx 3 within 8-lane segments (c = (32 - 8) << 8 | 31)
    ("shfl.sync.idx.i32(i32 -1, i32 %t, i32 3, i32 6175)", lambda l: l // 8 * 8 + 3),
    ("shfl.sync.bfly.i32(i32 -1, i32 %t, i32 5, i32 31)", lambda l: l ^ 5),
])
def test_shuffle_modes(call, want):
    out = np.zeros(128, np.int32)
    r = run(f"""
  %v = call i32 @llvm.nvvm.{call}
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void""", [out])
    t = np.arange(128)
    assert (r.outputs[0] == t // 32 * 32 + want(t % 32)).all()


def test_shuffle_outside_its_member_mask_is_an_error():
    with pytest.raises(KernelFault, match="shfl.sync with member mask 0xffffffff executed by "
                                          "lanes 0xffff"):
        run("""
  %l = and i32 %t, 31
  %c = icmp ult i32 %l, 16
  br i1 %c, label %half, label %exit
half:
  %v = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %t, i32 1, i32 31)
  br label %exit
exit:
  ret void""", [np.zeros(1, np.int32)])


def test_atomic_add_returns_each_old_value_once():
    counter, old = np.zeros(1, np.int32), np.zeros(256, np.int32)
    r = run("""
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %v = call i32 asm sideeffect "mov.u32 $0, 0x0;\\0A\\09atom.global.gpu.acq_rel.add.u32 $0, [ $1 + 0 ], $2;", "=r,l,r"(ptr addrspace(1) %counter, i32 1)
  %bt = mul i32 %b, 128
  %i = add i32 %bt, %t
  %p = getelementptr i32, ptr addrspace(1) %old, i32 %i
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void""", [counter, old], grid=(2,),
            params="ptr addrspace(1) %counter, ptr addrspace(1) %old")
    assert r.outputs[0][0] == 256
    assert sorted(r.outputs[1]) == list(range(256))


def test_predicated_vector_load_keeps_the_default_where_the_guard_is_off():
    src = np.arange(8, dtype=np.int32) + 100
    out = np.zeros((128, 2), np.int32)
    r = run("""
  %on = icmp ult i32 %t, 4
  %e = mul i32 %t, 2
  %a = getelementptr i32, ptr addrspace(1) %src, i32 %e
  %v = call { i32, i32 } asm sideeffect "mov.u32 $0, $3;\\0A\\09mov.u32 $1, $3;\\0A\\09@$4 ld.global.v2.b32 { $0, $1 }, [ $2 + 0 ];", "=r,=r,l,r,b"(ptr addrspace(1) %a, i32 -7, i1 %on)
  %x = extractvalue { i32, i32 } %v, 0
  %y = extractvalue { i32, i32 } %v, 1
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %e
  %o1 = getelementptr i32, ptr addrspace(1) %o, i32 1
  store i32 %x, ptr addrspace(1) %o, align 4
  store i32 %y, ptr addrspace(1) %o1, align 4
  ret void""", [src, out], params="ptr addrspace(1) %src, ptr addrspace(1) %out")
    want = np.full((128, 2), -7)
    want[:4] = src.reshape(4, 2)
    assert (r.outputs[1] == want).all()


def test_unsupported_ptx_is_named():
    with pytest.raises(KernelFault, match="unsupported PTX instruction 'prmt'"):
        run("""
  %v = call i32 asm sideeffect "prmt.b32 $0, $1, $1, 0;", "=r,r"(i32 0)
  ret void""", [np.zeros(1, np.int32)])
    with pytest.raises(KernelFault, match=r"unsupported cvt form '\.rn\.f16x2\.f32'"):
        run("""
  %v = call i32 asm sideeffect "cvt.rn.f16x2.f32 $0, $1, $1;", "=r,r"(i32 0)
  ret void""", [np.zeros(1, np.int32)])


def test_instruction_outside_the_subset_is_an_error_at_its_line():
    with pytest.raises(TileoptError) as err:
        compile_source(HEAD + "define ptx_kernel void @k(i32 %x) #0 {\nentry:\n"
                       "  switch i32 %x, label %entry []\n}\n" + TAIL, "k.ll")
    assert err.value.format() == "k.ll:5: error: 'switch' is not supported by tileopt-run yet"


def test_fma_rounds_once():
    """(1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 is halfway between two floats; + 2^-60 puts the
    exact sum above it: 1 + 2^-11 + 2^-23 (0x3F801001). Through float64 the 2^-60 is lost
    and the tie goes to even, 1 + 2^-11: the double rounding fma must not do."""
    out = np.zeros(1, np.int32)
    r = run("""
  %f = call float @llvm.fma.f32(float 0x3FF0010000000000, float 0x3FF0010000000000, float 0x3C30000000000000)
  %b = bitcast float %f to i32
  store i32 %b, ptr addrspace(1) %out, align 4
  ret void""", [out])
    assert r.outputs[0][0] == 0x3F801001


def test_vector_reductions():
    """What LLVM's SLP vectoriser makes of a chain of ors/adds: per thread, lanes t, t+1,
    4 and 8 or to t|(t+1)|12, and add to 2t+13."""
    out = np.zeros((128, 2), np.int32)
    r = run("""
  %t1 = add i32 %t, 1
  %v0 = insertelement <4 x i32> <i32 0, i32 0, i32 4, i32 8>, i32 %t, i32 0
  %v = insertelement <4 x i32> %v0, i32 %t1, i32 1
  %o = call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> %v)
  %s = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %v)
  %i = mul i32 %t, 2
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %o, ptr addrspace(1) %p, align 4
  %q = getelementptr i32, ptr addrspace(1) %p, i32 1
  store i32 %s, ptr addrspace(1) %q, align 4
  ret void""", [out])
    t = np.arange(128)
    assert (r.outputs[0][:, 0] == (t | (t + 1) | 12)).all()
    assert (r.outputs[0][:, 1] == 2 * t + 13).all()


def test_the_nvidia_lowerings_memory_asm_forms():
    """Cache hints with a createpolicy operand, a guarded store, red and atom (cas, max)
    as the NVIDIA lowering spells them."""
    src = np.arange(128, dtype=np.float32)
    out = np.zeros(128, np.float32)
    total, cells = np.zeros(1, np.float32), np.array([5, -3], np.int32)
    r = run("""
  %e = getelementptr float, ptr addrspace(1) %src, i32 %t
  %pol = call i64 asm "createpolicy.fractional.L2::evict_last.b64 $0, 1.0;", "=l"()
  %v = call i32 asm sideeffect "mov.u32 $0, 0x0;\\0A\\09ld.global.L1::evict_last.L2::cache_hint.b32 { $0 }, [ $1 + 0 ], $2;", "=r,l,l"(ptr addrspace(1) %e, i64 %pol)
  %even = trunc i32 %t to i1
  %keep = xor i1 %even, true
  %o = getelementptr float, ptr addrspace(1) %out, i32 %t
  call void asm sideeffect "@$2 st.global.L1::evict_first.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %v, ptr addrspace(1) %o, i1 %keep)
  call void asm sideeffect "red.global.gpu.relaxed.add.f32 [ $0 + 0 ], $1;", "l,r"(ptr addrspace(1) %total, i32 %v)
  %c1 = getelementptr i32, ptr addrspace(1) %cells, i32 1
  %old = call i32 asm sideeffect "mov.u32 $0, 0x0;\\0A\\09atom.global.gpu.acq_rel.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r"(ptr addrspace(1) %cells, i32 5, i32 %t)
  %m = call i32 asm sideeffect "mov.u32 $0, 0x0;\\0A\\09atom.global.gpu.relaxed.max.s32 $0, [ $1 + 0 ], $2;", "=r,l,r"(ptr addrspace(1) %c1, i32 %t)
  ret void""", [src, out, total, cells],
            params="ptr addrspace(1) %src, ptr addrspace(1) %out, ptr addrspace(1) %total, "
                   "ptr addrspace(1) %cells")
    want = np.where(np.arange(128) % 2 == 0, np.arange(128), 0)
    assert (r.outputs[1] == want).all()          # odd threads' stores were guarded off
    assert r.outputs[2][0] == 127 * 128 / 2      # exact in f32 at this size
    # the cas from 5 succeeds for one thread only; max over -3 and 0..127 is 127
    assert r.outputs[3][1] == 127 and r.outputs[3][0] in range(128)


# ------------------------------------------------------------------ the checkers, without the corpus

# every thread stores the float its neighbour (t + 1) % 128 put in shared memory
READ_NEXT = """
  %t1 = add i32 %t, 1
  %n = and i32 %t1, 127
  %s1 = getelementptr float, ptr addrspace(3) @global_smem, i32 %n
  %v = load float, ptr addrspace(3) %s1, align 4
  %o = getelementptr float, ptr addrspace(1) %out, i32 %t
  store float %v, ptr addrspace(1) %o, align 4
  ret void"""
EXCHANGE = """
  %s = getelementptr float, ptr addrspace(3) @global_smem, i32 %t
  %f = uitofp i32 %t to float
  store float %f, ptr addrspace(3) %s, align 4
{barrier}""" + READ_NEXT
BARRIER = "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)"


def run_shared(body: str, args, checks=True):
    text = HEAD + ("define ptx_kernel void @k(ptr addrspace(1) %out) #0 {\nentry:\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n" + body + "\n}\n") + TAIL
    compiled = compile_source(text, "k.ll")
    compiled.shared_bytes = 512
    return run_kernel(compiled, args, (2,), checks=checks)


def test_exchange_through_shared_memory_with_a_barrier_is_clean():
    r = run_shared(EXCHANGE.format(barrier=BARRIER), [np.zeros(128, np.float32)])
    assert r.reports == []
    assert (r.outputs[0] == (np.arange(128) + 1) % 128).all()


def test_exchange_without_the_barrier_is_a_race():
    r = run_shared(EXCHANGE.format(barrier=""), [np.zeros(128, np.float32)])
    assert r.reports[0].startswith(
        "shared-memory race: thread (0,0,0) of block (0,0,0) reads byte offset 4, written by "
        "thread (1,0,0) of the same block since the last barrier")
    # lock step: the numbers are right all the same, only the checker sees the race
    unchecked = run_shared(EXCHANGE.format(barrier=""), [np.zeros(128, np.float32)], False)
    assert unchecked.reports == [] and (unchecked.outputs[0] == (np.arange(128) + 1) % 128).all()


def test_read_before_any_write_is_uninitialised():
    body = EXCHANGE.format(barrier=BARRIER).replace(
        "  store float %f, ptr addrspace(3) %s, align 4\n", "")
    r = run_shared(body, [np.zeros(128, np.float32)])
    assert r.reports[0].startswith("read of uninitialised shared memory at byte offset 4 by "
                                   "thread (0,0,0) of block (0,0,0)")


def test_store_past_the_buffer():
    with pytest.raises(KernelFault, match=r"out-of-bounds store of 4 bytes at byte offset 508 "
                                          r"of argument 0 \(arg0, 508 bytes\) by thread "
                                          r"\(127,0,0\) of block \(0,0,0\)"):
        run_shared(EXCHANGE.format(barrier=BARRIER), [np.zeros(127, np.float32)])


# ------------------------------------------------------------------ cp.async groups, without the corpus

COPY = """
  %s = getelementptr float, ptr addrspace(3) @global_smem, i32 %t
  %g = getelementptr float, ptr addrspace(1) %src, i32 %t
  %in = icmp ult i32 %t, 100
  %size = select i1 %in, i32 4, i32 0
  call void asm sideeffect "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"(ptr addrspace(3) %s, ptr addrspace(1) %g, i32 %size)
  call void @llvm.nvvm.cp.async.commit.group()
{wait}
{barrier}""" + READ_NEXT
WAIT = "  call void @llvm.nvvm.cp.async.wait.group(i32 0)"


def run_copy(wait: str, barrier: str):
    src = np.arange(1, 101, dtype=np.float32)             # 100 floats: copies past it are
    text = HEAD + ("define ptx_kernel void @k(ptr addrspace(1) %src, ptr addrspace(1) %out) #0"
                   " {\nentry:\n  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n" +
                   COPY.format(wait=wait, barrier=barrier) + "\n}\n") + TAIL + \
        "declare void @llvm.nvvm.cp.async.commit.group()\n" \
        "declare void @llvm.nvvm.cp.async.wait.group(i32)\n"
    compiled = compile_source(text, "k.ll")
    compiled.shared_bytes = 512
    return run_kernel(compiled, [src, np.full(128, np.nan, np.float32)], (2,))


def test_cp_async_zero_fills_past_src_size():
    """Threads 100.. copy 0 of 4 bytes (their source is past the buffer: not read)."""
    r = run_copy(WAIT, BARRIER)
    assert r.reports == []
    nxt = (np.arange(128) + 1) % 128
    assert (r.outputs[1] == np.where(nxt < 100, nxt + 1, 0)).all()


def test_read_of_a_copy_not_waited_for_is_reported():
    r = run_copy("", BARRIER)
    assert r.reports[0].startswith(
        "thread (0,0,0) of block (0,0,0) reads shared memory at byte offset 4, the destination "
        "of a cp.async whose group has not been waited for"), r.reports


def test_copy_read_by_another_thread_needs_a_barrier_after_the_wait():
    r = run_copy(WAIT, "")
    assert r.reports[0].startswith(
        "shared-memory race: thread (0,0,0) of block (0,0,0) reads byte offset 4, written by "
        "thread (1,0,0) of the same block since the last barrier"), r.reports


def test_unknown_cp_form_is_named():
    with pytest.raises(KernelFault, match=r"unsupported cp form '.async.bulk.shared"):
        run_copy(WAIT, BARRIER.replace(
            "call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)",
            'call void asm sideeffect "cp.async.bulk.shared.global [ $0 + 0 ], [ $1 + 0 ], 16;", '
            '"r,l"(ptr addrspace(3) %s, ptr addrspace(1) %g)'))
