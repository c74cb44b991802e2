"""What libdevice's bodies and the lowering's histogram need of tileopt-run, on hand-written
NVPTX kernels whose expected values are worked out by hand: per-thread local memory
(``alloca``), the module's initialised globals, named struct types, shared-memory atomics
(with their race rules), ``llvm.assume`` and the bit intrinsics."""

from __future__ import annotations

import numpy as np
import pytest

from tileopt.run.launch import compile_source, run_kernel
from tileopt.run.memory import KernelFault

HEAD = """target triple = "nvptx64-nvidia-cuda"
@global_smem = external addrspace(3) global [0 x i8], align 16
@table = internal addrspace(1) global [4 x i32] [i32 7, i32 -1, i32 1000, i32 42], align 4
%pair = type { float, i32 }
"""
TAIL = """
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.assume(i1)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.bitreverse.i32(i32)
attributes #0 = { "nvvm.reqntid"="128" }
"""


def run(body: str, args, grid=(1,), checks=True, params="ptr addrspace(1) %out"):
    kernel = (f"define ptx_kernel void @k({params}) #0 {{\nentry:\n"
              f"  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n{body}\n}}\n")
    compiled = compile_source(HEAD + kernel + TAIL, "k.ll")
    compiled.shared_bytes = 256
    return run_kernel(compiled, args, grid, checks=checks)


STORE_T = """
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void"""


def test_alloca_is_private_to_each_thread():
    # every thread fills its own [4 x i32] with t, t+1, t+2, t+3 and reads back element
    # t % 4: the same frame offset names a different byte in each thread
    r = run("""
  %a = alloca [4 x i32], align 4
  call void @llvm.lifetime.start.p0(i64 16, ptr %a)
  br label %fill
fill:
  %i = phi i32 [ 0, %entry ], [ %i1, %fill ]
  %e = getelementptr [4 x i32], ptr %a, i32 0, i32 %i
  %x = add i32 %t, %i
  store i32 %x, ptr %e, align 4
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 4
  br i1 %more, label %fill, label %read
read:
  %k = and i32 %t, 3
  %q = getelementptr [4 x i32], ptr %a, i32 0, i32 %k
  %v = load i32, ptr %q, align 4""" + STORE_T, [np.zeros(128, np.int32)])
    t = np.arange(128)
    assert (r.outputs[0] == t + t % 4).all()


def test_local_access_past_the_frame_is_an_error():
    with pytest.raises(KernelFault, match=r"out-of-bounds local load of 4 bytes at byte "
                                          r"offset 16 \(the thread's frame has 16 bytes\)"):
        run("""
  %a = alloca [4 x i32], align 4
  %q = getelementptr [4 x i32], ptr %a, i32 0, i32 4
  %v = load i32, ptr %q, align 4""" + STORE_T, [np.zeros(128, np.int32)])


def test_local_memory_through_its_address_space():
    r = run("""
  %a = alloca i32, align 4, addrspace(5)
  store i32 %t, ptr addrspace(5) %a, align 4
  %g = addrspacecast ptr addrspace(5) %a to ptr
  %w = load i32, ptr %g, align 4
  %v = mul i32 %w, 3""" + STORE_T, [np.zeros(128, np.int32)])
    assert (r.outputs[0] == 3 * np.arange(128)).all()


def test_a_global_with_an_initializer_is_read():
    r = run("""
  %k = and i32 %t, 3
  %q = getelementptr [4 x i32], ptr addrspace(1) @table, i32 0, i32 %k
  %v = load i32, ptr addrspace(1) %q, align 4""" + STORE_T, [np.zeros(128, np.int32)])
    assert (r.outputs[0] == np.array([7, -1, 1000, 42])[np.arange(128) % 4]).all()


def test_a_global_read_past_its_end_names_it():
    with pytest.raises(KernelFault, match=r"out-of-bounds load of 4 bytes at byte offset 16 "
                                          r"of global @table \(16 bytes\)"):
        run("""
  %q = getelementptr [4 x i32], ptr addrspace(1) @table, i32 0, i32 4
  %v = load i32, ptr addrspace(1) %q, align 4""" + STORE_T, [np.zeros(128, np.int32)])


def test_named_struct_types_are_their_bodies():
    r = run("""
  %a = alloca [2 x %pair], align 4
  %f = getelementptr [2 x %pair], ptr %a, i32 0, i32 1, i32 1
  store i32 %t, ptr %f, align 4
  %w = load i32, ptr %f, align 4
  %s = insertvalue %pair undef, i32 %w, 1
  %x = extractvalue %pair %s, 1
  %base = ptrtoint ptr %a to i64
  %at = ptrtoint ptr %f to i64
  %d = sub i64 %at, %base
  %d32 = trunc i64 %d to i32
  %v = add i32 %x, %d32""" + STORE_T, [np.zeros(128, np.int32)])
    # the second pair's i32 lies 8 + 4 bytes into the frame slot
    assert (r.outputs[0] == np.arange(128) + 12).all()


def test_assume_is_a_no_op():
    r = run("""
  %c = icmp ult i32 %t, 128
  call void @llvm.assume(i1 %c)
  %v = add i32 %t, 1""" + STORE_T, [np.zeros(128, np.int32)])
    assert (r.outputs[0] == np.arange(128) + 1).all()


@pytest.mark.parametrize("call, want", [
    # 0x12345678:0x9ABCDEF0 shifted left by 8, high word; right by 8, low word
    ("@llvm.fshl.i32(i32 305419896, i32 -1698898192, i32 8)", 0x3456789A),
    ("@llvm.fshr.i32(i32 305419896, i32 -1698898192, i32 8)", 0x789ABCDE),
    ("@llvm.fshl.i32(i32 305419896, i32 -1698898192, i32 32)", 0x12345678),  # mod 32
    ("@llvm.ctlz.i32(i32 4096, i1 false)", 19), ("@llvm.ctlz.i32(i32 0, i1 false)", 32),
    ("@llvm.cttz.i32(i32 4096, i1 false)", 12), ("@llvm.cttz.i32(i32 0, i1 false)", 32),
    ("@llvm.bitreverse.i32(i32 1)", -2 ** 31), ("@llvm.bitreverse.i32(i32 6)", 0x60000000),
])
def test_bit_intrinsics(call, want):
    r = run(f"  %v = call i32 {call}" + STORE_T, [np.zeros(128, np.int32)])
    assert (r.outputs[0] == np.int32(np.uint32(want & 0xFFFFFFFF).view(np.int32))).all()


# ------------------------------------------------------------------ shared-memory atomics

HISTOGRAM = """
  %b = and i32 %t, 3
  %s = getelementptr i32, ptr addrspace(3) @global_smem, i32 %b
  %first = icmp ult i32 %t, 4
  br i1 %first, label %init, label %count
init:
  store i32 0, ptr addrspace(3) %s, align 4
  br label %count
count:
{barrier1}
  %old = atomicrmw add ptr addrspace(3) %s, i32 %t monotonic, align 4
{barrier2}
  %v = load i32, ptr addrspace(3) %s, align 4""" + STORE_T
BARRIER = "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)"


def test_shared_atomics_add_every_thread():
    r = run(HISTOGRAM.format(barrier1=BARRIER, barrier2=BARRIER), [np.zeros(128, np.int32)],
            grid=(2,))
    assert r.reports == []
    t = np.arange(128)
    sums = [t[t % 4 == b].sum() for b in range(4)]   # each bin: the ids that fell in it
    assert (r.outputs[0] == np.array(sums)[t % 4]).all()


def test_a_read_of_atomic_results_before_a_barrier_is_a_race():
    r = run(HISTOGRAM.format(barrier1=BARRIER, barrier2=""), [np.zeros(128, np.int32)])
    assert r.reports[0].startswith("shared-memory race: thread (0,0,0) of block (0,0,0) reads "
                                   "byte offset 0, written by atomics of the same block")


def test_an_atomic_after_another_threads_store_needs_a_barrier():
    r = run(HISTOGRAM.format(barrier1="", barrier2=BARRIER), [np.zeros(128, np.int32)])
    assert r.reports[0].startswith("shared-memory race: thread (4,0,0) of block (0,0,0) "
                                   "updates byte offset 0, written by thread (0,0,0)")


def test_shared_atomics_in_inline_ptx():
    body = HISTOGRAM.format(barrier1=BARRIER, barrier2=BARRIER).replace(
        "  %old = atomicrmw add ptr addrspace(3) %s, i32 %t monotonic, align 4",
        '  %old = call i32 asm sideeffect "atom.shared.add.u32 $0, [ $1 + 0 ], $2;", '
        '"=r,r,r"(ptr addrspace(3) %s, i32 %t)')
    assert "atom.shared" in body
    r = run(body, [np.zeros(128, np.int32)])
    t = np.arange(128)
    assert r.reports == []
    assert (r.outputs[0] == np.array([t[t % 4 == b].sum() for b in range(4)])[t % 4]).all()


def test_an_atomic_on_uninitialised_shared_memory_is_reported():
    body = HISTOGRAM.format(barrier1=BARRIER, barrier2=BARRIER).replace(
        "  store i32 0, ptr addrspace(3) %s, align 4\n", "")
    r = run(body, [np.zeros(128, np.int32)])
    assert r.reports[0].startswith("atomic update of uninitialised shared memory at byte "
                                   "offset 0 by thread (0,0,0) of block (0,0,0)")
