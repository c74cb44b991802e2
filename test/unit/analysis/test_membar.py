"""Barrier placement between conflicting shared-memory accesses (Triton's Membar rules).

Each case states which accesses conflict and so where the barrier must go; the tests check
the ops the analysis names, then that ``insert_barriers`` puts real barrier ops there.
"""

from __future__ import annotations

import re

from tileopt.analysis.allocation import ModuleAllocation, SharedMemoryTarget
from tileopt.analysis.membar import analyze_barriers, insert_barriers, never
from tileopt.dialects.nvvm import Barrier0Op
from tileopt.ir import parse_module, print_module

SH = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
B = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
B2 = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"
MEM = f"!ttg.memdesc<32x32xf32, {SH}, #smem, mutable>"
T = f"tensor<32x32xf32, {B}>"
X = f"tensor<64x64xf32, {B}>"


def kernel(body: str, warps: int = 4) -> str:
    return f"""#smem = #ttg.shared_memory
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @k(%x: {X}, %t: {T}, %cond: i1, %n: i32) {{
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
{body}
    tt.return
  }}
}}
"""


def barriers_before(text: str, **options) -> list[str]:
    """The ops (by result name, else op name) the analysis puts a barrier before."""
    mod = parse_module(text)
    plan = analyze_barriers(mod, ModuleAllocation(mod, SharedMemoryTarget()), **options)
    return [op.results[0].name_hint if op.results else op.name for op in plan.ops]


STORE_A = f"    ttg.local_store %t, %a : {T} -> {MEM}"
LOAD_A = f"    %l = ttg.local_load %a : {MEM} -> {T}"
ALLOC_A = f"    %a = ttg.local_alloc : () -> {MEM}"
ALLOC_B = f"    %b = ttg.local_alloc : () -> {MEM}"
CVT = f"    %cv = ttg.convert_layout %x : {X} -> tensor<64x64xf32, {B2}>"
CVT2 = f"    %cv2 = ttg.convert_layout %x : {X} -> tensor<64x64xf32, {B2}>"


def test_read_after_write_needs_a_barrier():
    assert barriers_before(kernel("\n".join([ALLOC_A, STORE_A, LOAD_A]))) == ["l"]


def test_write_after_read_needs_a_barrier():
    store_again = f"    ttg.local_store %t, %a : {T} -> {MEM}"
    assert barriers_before(kernel("\n".join([ALLOC_A, LOAD_A, store_again]))) == [
        "ttg.local_store"]


def test_reads_alone_and_disjoint_buffers_need_none():
    load_again = f"    %l2 = ttg.local_load %a : {MEM} -> {T}"
    assert barriers_before(kernel("\n".join([ALLOC_A, LOAD_A, load_again]))) == []
    # a and b are live together, so at different bytes: writing a, then reading b, is fine.
    load_b = f"    %lb = ttg.local_load %b : {MEM} -> {T}"
    assert barriers_before(kernel("\n".join([ALLOC_A, ALLOC_B, STORE_A, load_b]))) == []


def test_an_existing_barrier_clears_pending_accesses():
    body = "\n".join([ALLOC_A, STORE_A, "    nvvm.barrier0", LOAD_A])
    assert barriers_before(kernel(body)) == []


def test_scratch_ops_reusing_bytes():
    # Two shared-memory conversions, both at offset 0: the second's write would clobber
    # what the first is still reading -> barrier before the second. Each one's internal
    # barrier is its lowering's business, so one conversion alone needs none.
    assert barriers_before(kernel(CVT)) == []
    assert barriers_before(kernel("\n".join([CVT, CVT2]))) == ["cv2"]


def test_scratch_write_after_explicit_write():
    # The conversion's scratch shares bytes with a (dead by then): its write conflicts
    # with a's pending store.
    dealloc = f"    ttg.local_dealloc %a : {MEM}"
    assert barriers_before(kernel("\n".join([ALLOC_A, STORE_A, dealloc, CVT]))) == ["cv"]


def test_loop_back_edge():
    # A store then a load in a loop: the load needs a barrier (RAW) and, coming round
    # again, the store does too (WAR against the previous iteration's load).
    body = f"""{ALLOC_A}
    scf.for %i = %c0 to %n step %c1 : i32 {{
      ttg.local_store %t, %a : {T} -> {MEM}
      %l = ttg.local_load %a : {MEM} -> {T}
    }}"""
    assert sorted(barriers_before(kernel(body))) == ["l", "ttg.local_store"]


def test_conditional_write_reaches_the_join():
    body = f"""{ALLOC_A}
    scf.if %cond {{
      ttg.local_store %t, %a : {T} -> {MEM}
    }}
{LOAD_A}"""
    assert barriers_before(kernel(body)) == ["l"]


def test_async_wait_is_followed_by_a_barrier():
    body = f"""{ALLOC_A}
    %w = ttg.async_wait {{num = 0 : i32}}
{LOAD_A}"""
    assert barriers_before(kernel(body)) == ["l"]


def test_warp_synchronous_conversion_keeps_pending_accesses():
    # 16x64 f32 from a blocked layout to an mma layout, both with warps [1, 4] along dim1:
    # every warp keeps its own columns, but the register/lane permutation has more than one
    # mixed swap, so the data goes through shared memory with only a warp-level barrier
    # inside. The store to a before it is then still pending for the load after it. With
    # warps along the other dim the conversion crosses warps, its CTA barrier inside
    # covers the store, and no barrier is added.
    mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8]}>"

    def text(warps: str) -> str:
        src = f"#ttg.blocked<{{sizePerThread = [4, 2], threadsPerWarp = [8, 4], warpsPerCTA = {warps}, order = [0, 1]}}>"
        return kernel(f"""    %y = arith.constant dense<0.0> : tensor<16x64xf32, {src}>
{ALLOC_A}
{STORE_A}
    %w = ttg.convert_layout %y : tensor<16x64xf32, {src}> -> tensor<16x64xf32, {mma}>
{LOAD_A}""")

    assert barriers_before(text("[1, 4]")) == ["l"]
    assert barriers_before(text("[4, 1]")) == []
    # A lowering that puts CTA barriers inside every scratch op opts out.
    assert barriers_before(text("[1, 4]"), warp_synchronous=never) == []


def test_insert_barriers_puts_ops_in_place():
    mod = parse_module(kernel("\n".join([CVT, CVT2])))
    inserted = insert_barriers(mod, Barrier0Op, ModuleAllocation(mod, SharedMemoryTarget()))
    assert len(inserted) == 1
    lines = [line.strip() for line in print_module(mod).splitlines()]
    index = lines.index("nvvm.barrier0")
    # Between the two conversions (%cv and %cv2 of the input, printed numbered).
    first = re.match(r"%(\d+) = ttg\.convert_layout", lines[index - 1])
    second = re.match(r"%(\d+) = ttg\.convert_layout", lines[index + 1])
    assert first and second and int(second.group(1)) == int(first.group(1)) + 1
