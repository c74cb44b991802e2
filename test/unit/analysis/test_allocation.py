"""Shared-memory allocation: scratch sizes, offsets and totals.

The expected sizes and offsets below are worked out by hand from Triton's rules (each case
says how). The corpus tests then compare the whole analysis with Triton 3.6 itself: every
offset Triton wrote in its per-pass dumps, and every kernel's ``shared`` bytes.
"""

from __future__ import annotations

import json
import re

import pytest

from tileopt.analysis.allocation import (
    ModuleAllocation,
    SharedMemoryTarget,
    attach_allocation_attributes,
    padded_shared_elements,
)
from tileopt.analysis.layout_conversion import (
    ConversionPath,
    conversion_path,
    minimal_conversion,
    warp_decomposition,
)
from tileopt.analysis.shared_swizzling import (
    REPS,
    complement_basis,
    intersection_basis,
    nullspace_basis,
    optimal_swizzling_ld_st,
    scratch_elements,
)
from tileopt.dialects.layout_of import encoding_of
from tileopt.ir import parse_module, print_module
from tileopt.layout_cli import LayoutReader
from tileopt.layouts import to_linear_layout
from tileopt.passes.registry import get_pass


def parse_layout(text: str):
    """The encoding of a layout written as text, read by the dialect."""
    return encoding_of(LayoutReader().layout(text))


TARGETS = ("cuda-sm80", "cuda-sm90", "hip-gfx942", "hip-gfx1100")
NV80, NV90, GENERIC = SharedMemoryTarget.nvidia(80), SharedMemoryTarget.nvidia(90), SharedMemoryTarget()


def module(body: str, warps: int = 4, target: str = "cuda:90", lanes: int = 32,
           aliases: str = "") -> str:
    return (f"#smem = #ttg.shared_memory\n{aliases}\n"
            f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, '
            f'ttg.target = "{target}", "ttg.threads-per-warp" = {lanes} : i32}} {{\n'
            f"{body}\n}}\n")


def total(text: str, target: SharedMemoryTarget = NV90) -> int:
    return ModuleAllocation(parse_module(text), target).shared_memory_size


def offsets(text: str, target: SharedMemoryTarget = NV90) -> dict[str, int]:
    """``allocation.offset`` per result name (``%x``) or op name, after the analysis."""
    mod = parse_module(text)
    allocation = ModuleAllocation(mod, target)
    found = {}
    for func_alloc in allocation.functions.values():
        for op in func_alloc.func.walk():
            offset = func_alloc.offset_of(op)
            if offset is not None:
                key = op.results[0].name_hint if op.results and op.results[0].name_hint else op.name
                found[key] = offset
    return found


BLOCKED_4X1 = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>"


# ------------------------------------------------------------------ GF(2) helpers


def test_nullspace_and_complement_by_hand():
    # span{0b011, 0b110} in 3 bits: the vectors orthogonal to both are {0, 0b111}.
    assert nullspace_basis([0b011, 0b110], 3) == [0b111]
    # Completing {0b011, 0b100} to all of GF(2)^3 needs one unit vector: bit 1.
    assert complement_basis([0b011, 0b100], 3) == [0b010]
    # Unit vectors: the intersection keeps the first list's order.
    assert intersection_basis([8, 1, 4], [4, 8, 2], 4) == [8, 4]
    # span{0b011, 0b100} ∩ span{0b111} = {0b111}.
    assert intersection_basis([0b011, 0b100], [0b111], 3) == [0b111]


# ------------------------------------------------------------------ scratch sizes


def _cvt(n: int, warps: int = 1) -> str:
    """A 1-D f32 conversion from 4 to 1 consecutive elements per thread."""
    src = f"#ttg.blocked<{{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [{warps}], order = [0]}}>"
    dst = f"#ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [{warps}], order = [0]}}>"
    return f"""  tt.func public @k(%a: tensor<{n}xf32, {src}>) -> tensor<{n}xf32, {dst}> {{
    %c = ttg.convert_layout %a : tensor<{n}xf32, {src}> -> tensor<{n}xf32, {dst}>
    tt.return %c : tensor<{n}xf32, {dst}>
  }}"""


def test_conversion_scratch_128_elements():
    # 128 x f32, 1 warp. Flat index bits 1..64: source registers {1, 2}, lanes {4..64};
    # destination registers {32, 64}, lanes {1..16}. No register bit is common, so nothing
    # can be a sequential round (rep): the whole tensor sits in shared memory, 512 bytes,
    # on every target (for NVIDIA the ldmatrix pairing picks vector {1, 2} and segments
    # {32, 64}, still no rep).
    text = module(_cvt(128), warps=1)
    for target in (NV80, NV90, GENERIC, SharedMemoryTarget("amd")):
        assert total(text, target) == 128 * 4


def test_conversion_scratch_reps_generic_vs_nvidia():
    # 512 x f32, 1 warp: source registers {1, 2, 128, 256}, destination {32, 64, 128, 256}.
    # Plain loads/stores: vector = common registers {128, 256} then {1, 2} (source registers
    # that are destination lanes); bank 1 bit; the 4 segment bits find no free unit bit, so
    # no rep: 512 elements (2048 bytes).
    # NVIDIA: ld.shared on the source side and ldmatrix (lanes 0, 1 are source registers)
    # on the destination side make vector {1, 2}, bank {4, 8, 16}, segment {32, 64, 128,
    # 256}; 128 and 256 are registers on both sides, so they become rounds: 512 / 4 = 128
    # elements (512 bytes), and with no bank conflict this pairing wins the tie on rounds.
    text = module(_cvt(512), warps=1)
    assert total(text, GENERIC) == 2048
    assert total(text, NV80) == 512
    assert total(text, NV90) == 512
    # 1024 elements: one more common register bit (512). Plain: it is the only free unit bit,
    # so it becomes the one segment bit and a rep: 1024 / 2 elements. NVIDIA: reps {128, 256,
    # 512}: 1024 / 8 elements.
    text = module(_cvt(1024), warps=1)
    assert total(text, GENERIC) == 512 * 4
    assert total(text, NV90) == 128 * 4


def test_swizzled_layout_of_the_generic_512_case():
    src = to_linear_layout(parse_layout(
        "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>"), (1024,))
    dst = to_linear_layout(parse_layout(
        "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>"), (1024,))
    smem = optimal_swizzling_ld_st(src, dst, 32)
    assert [b[0] for b in smem.get_bases("vector")] == [128, 256, 1, 2]
    assert [b[0] for b in smem.get_bases("bank")] == [4, 8, 16, 32, 64]
    assert [b[0] for b in smem.get_bases(REPS)] == [512]
    assert smem.get_bases("segment") == ()
    assert scratch_elements(src, dst, 32) == 512


def test_transpose_scratch_is_the_whole_tile():
    # 64x64 f32: source registers run along dim0 (and repeat along dim1), destination along
    # dim1 (repeating along dim0): no register bit in common, so no rounds: 64*64*4 bytes.
    src = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>"
    dst = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>"
    text = module(f"""  tt.func public @k(%a: tensor<64x64xf32, {src}>) -> tensor<64x64xf32, {dst}> {{
    %c = ttg.convert_layout %a : tensor<64x64xf32, {src}> -> tensor<64x64xf32, {dst}>
    tt.return %c : tensor<64x64xf32, {dst}>
  }}""")
    for target in (NV80, NV90, GENERIC):
        assert total(text, target) == 64 * 64 * 4


def test_conversion_paths():
    # Lanes and warps spread along dim1 and dim0 only, so the order only renumbers the two
    # registers of each thread: [8, 64] covered exactly, 2x2 elements per thread.
    row = parse_layout("#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>")
    col = parse_layout("#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]}>")
    assert conversion_path(row, row, (8, 64)) is ConversionPath.NONE
    assert conversion_path(row, col, (8, 64)) is ConversionPath.REGISTERS
    # The same layout written as #ttg.linear: nothing moves.
    linear = parse_layout("#ttg.linear<{register = [[0, 1], [1, 0]], lane = [[0, 2], [0, 4], [0, 8], "
                          "[0, 16], [0, 32]], warp = [[2, 0], [4, 0]], block = []}>")
    assert conversion_path(row, linear, (8, 64)) is ConversionPath.NONE
    # Warps along rows vs along columns: data crosses warps -> shared memory.
    a = parse_layout(BLOCKED_4X1)
    d = parse_layout("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>")
    assert conversion_path(a, d, (64, 64)) is ConversionPath.SHARED_MEMORY


def _linear_1d(registers, lanes) -> object:
    regs = ", ".join(f"[{r}]" for r in registers)
    lns = ", ".join(f"[{l}]" for l in lanes)
    return parse_layout(f"#ttg.linear<{{register = [{regs}], lane = [{lns}], warp = [], block = []}}>")


def test_warp_shuffle_or_shared_memory_inside_a_warp():
    # 128 elements in one warp. Source: registers hold elements {1, 4}, lanes {2, 8..64};
    # destination: registers {2, 4}, lanes {1, 8..64}. Register bit 0 trades places with
    # lane bit 0 (one mixed transposition, (r0 l0)); everything else is fixed: shuffles.
    src = _linear_1d([1, 4], [2, 8, 16, 32, 64])
    dst = _linear_1d([2, 4], [1, 8, 16, 32, 64])
    src_ll, dst_ll = to_linear_layout(src, (128,)), to_linear_layout(dst, (128,))
    assert minimal_conversion(src_ll, dst_ll).out_dims == ["register", "lane"]
    decomposition = warp_decomposition(src_ll, dst_ll, 32)
    assert decomposition.mixed_transpositions == ((0, 0),)
    assert conversion_path(src, dst, (128,)) is ConversionPath.WARP_SHUFFLE
    # Both register bits trade with lane bits 0 and 1: two transpositions, which Triton
    # sends through shared memory.
    src2 = _linear_1d([1, 2], [4, 8, 16, 32, 64])
    dst2 = _linear_1d([4, 8], [1, 2, 16, 32, 64])
    decomposition = warp_decomposition(to_linear_layout(src2, (128,)), to_linear_layout(dst2, (128,)), 32)
    assert decomposition.mixed_transpositions == ((0, 0), (1, 1))
    assert conversion_path(src2, dst2, (128,)) is ConversionPath.SHARED_MEMORY


def test_reduce_scratch():
    # 64x128 f32, warps [4, 1]: along axis 0 the 4 warps each keep a partial for all 128
    # columns -> 4 x 128 x 4 bytes. Along axis 1 a single warp holds each row: no scratch.
    def reduce(axis: int, result: str) -> str:
        return module(f"""  tt.func public @k(%a: tensor<64x128xf32, {BLOCKED_4X1}>) -> {result} {{
    %r = "tt.reduce"(%a) <{{axis = {axis} : i32}}> ({{
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      tt.reduce.return %s : f32
    }}) : (tensor<64x128xf32, {BLOCKED_4X1}>) -> {result}
    tt.return %r : {result}
  }}""")
    assert total(reduce(0, f"tensor<128xf32, #ttg.slice<{{dim = 0, parent = {BLOCKED_4X1}}}>>")) == 2048
    assert total(reduce(1, f"tensor<64xf32, #ttg.slice<{{dim = 1, parent = {BLOCKED_4X1}}}>>")) == 0


def test_reduce_of_two_operands_adds_their_bytes():
    # 1024 elements, 4 per thread, 4 warps along the only axis: 4 partials of (f32 + i16).
    layout = "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
    text = module(f"""  tt.func public @k(%a: tensor<1024xf32, {layout}>, %b: tensor<1024xi16, {layout}>) -> (f32, i16) {{
    %r:2 = "tt.reduce"(%a, %b) <{{axis = 0 : i32}}> ({{
    ^bb0(%x: f32, %xi: i16, %y: f32, %yi: i16):
      %s = arith.addf %x, %y : f32
      tt.reduce.return %s, %xi : f32, i16
    }}) : (tensor<1024xf32, {layout}>, tensor<1024xi16, {layout}>) -> (f32, i16)
    tt.return %r#0, %r#1 : f32, i16
  }}""")
    assert total(text) == 4 * (4 + 2)


def test_scan_scratch():
    # cumsum over 512 f32, 1 per thread, 32 lanes, 4 warps: 4 blocks of 128 along the axis;
    # one partial per warp per block: 4 warps x 1 x 1 x 4 blocks x 4 bytes = 64.
    layout = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
    text = module(f"""  tt.func public @k(%a: tensor<512xf32, {layout}>) -> tensor<512xf32, {layout}> {{
    %r = "tt.scan"(%a) <{{axis = 0 : i32, reverse = false}}> ({{
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      tt.scan.return %s : f32
    }}) : (tensor<512xf32, {layout}>) -> tensor<512xf32, {layout}>
    tt.return %r : tensor<512xf32, {layout}>
  }}""")
    assert total(text) == 64
    # One warp along the axis: the scan stays inside warps, no scratch.
    assert total(text.replace("warpsPerCTA = [4]", "warpsPerCTA = [1]").replace(
        '"ttg.num-warps" = 4', '"ttg.num-warps" = 1')) == 0


@pytest.mark.parametrize("bins, expected", [(16, 32 * 4), (256, 256 * 4)])
def test_histogram_scratch(bins, expected):
    # One i32 counter per bin, but at least one per lane of a warp.
    layout = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
    text = module(f"""  tt.func public @k(%a: tensor<1024xi32, {layout}>) -> tensor<{bins}xi32, {layout}> {{
    %r = tt.histogram %a : tensor<1024xi32, {layout}> -> tensor<{bins}xi32, {layout}>
    tt.return %r : tensor<{bins}xi32, {layout}>
  }}""")
    assert total(text) == expected


def test_atomic_scratch():
    layout = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"

    def atomic(n: int, elem: str, use: bool) -> str:
        ret = f"tensor<{n}x{elem}, {layout}>"
        kind = "fadd" if elem.startswith("f") else "add"
        result, returned = (f" -> {ret}", f" %r : {ret}") if use else ("", "")
        return module(f"""  tt.func public @k(%p: tensor<{n}x!tt.ptr<{elem}>, {layout}>, %v: {ret}){result} {{
    %r = tt.atomic_rmw {kind}, acq_rel, gpu, %p, %v : (tensor<{n}x!tt.ptr<{elem}>, {layout}>, {ret}) -> {ret}
    tt.return{returned}
  }}""")
    # 128 elements on 128 threads: no copies, so no broadcast through shared memory.
    assert total(atomic(128, "i32", True)) == 0
    # 64 elements on 128 threads: each held twice -> one slot per element.
    assert total(atomic(64, "i32", True)) == 64 * 4
    assert total(atomic(64, "f16", True)) == 64 * 2
    # An unused result needs nothing.
    assert total(atomic(64, "i32", False)) == 0
    scalar = module("""  tt.func public @k(%p: !tt.ptr<i32>, %v: i32) -> i32 {
    %r = tt.atomic_rmw add, acq_rel, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
    tt.return %r : i32
  }""")
    assert total(scalar) == 4


def test_padded_shared_elements():
    # 1024 elements, 4 padding elements after every 256: 3 paddings (none after the last).
    assert padded_shared_elements([256], [4], 1024) == 1024 + 3 * 4
    assert padded_shared_elements([256], [4], 1000) == 1000 + 3 * 4


# ------------------------------------------------------------------ offsets


SHARED = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
S1 = "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>"
D1 = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>"
B16 = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>"


def test_buffers_reuse_memory_of_dead_ones():
    # a: 32x32xf32 = 4096 B, live to the end; b: 16x16xf32 = 1024 B, dead before the
    # conversion (512 B scratch). Largest first: a at 0; b in the slot above a (4096); the
    # conversion's lifetime misses b's, so it takes the same slot: 4096. Total 5120.
    text = module(f"""  tt.func public @k(%x: tensor<128xf32, {S1}>) {{
    %a = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, {SHARED}, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<16x16xf32, {SHARED}, #smem, mutable>
    ttg.local_dealloc %b : !ttg.memdesc<16x16xf32, {SHARED}, #smem, mutable>
    %c = ttg.convert_layout %x : tensor<128xf32, {S1}> -> tensor<128xf32, {D1}>
    ttg.local_dealloc %a : !ttg.memdesc<32x32xf32, {SHARED}, #smem, mutable>
    tt.return
  }}""", warps=1)
    assert offsets(text) == {"a": 0, "b": 4096, "c": 4096}
    assert total(text) == 5120


def test_scratch_offsets_are_128_byte_aligned():
    # a: 9x16xf32 = 576 B, live across the conversion. a first (larger) at 0; the scratch
    # goes above it, at 576 rounded up to 640. Total 640 + 512.
    text = module(f"""  tt.func public @k(%x: tensor<128xf32, {S1}>) {{
    %a = ttg.local_alloc : () -> !ttg.memdesc<9x16xf32, {SHARED}, #smem, mutable>
    %c = ttg.convert_layout %x : tensor<128xf32, {S1}> -> tensor<128xf32, {D1}>
    ttg.local_dealloc %a : !ttg.memdesc<9x16xf32, {SHARED}, #smem, mutable>
    tt.return
  }}""", warps=1)
    assert offsets(text) == {"a": 0, "c": 640}
    assert total(text) == 1152


def test_loop_keeps_buffers_used_inside_it_alive():
    # Ops numbered in post order (the loop body before the scf.for): a lives [2, 4), b from
    # its alloc to the scf.for that reads it inside, [4, 9), the conversion [5, 6).
    # Largest first: a (4096 B) at 0; b (1024 B) is not live with a, so also at 0; the
    # conversion (512 B) is live with b and goes above it, at 1024. Total: 4096.
    text = module(f"""  tt.func public @k(%x: tensor<128xf32, {S1}>, %n: i32) {{
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, {SHARED}, #smem, mutable>
    ttg.local_dealloc %a : !ttg.memdesc<32x32xf32, {SHARED}, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<16x16xf32, {SHARED}, #smem, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {{
      %c = ttg.convert_layout %x : tensor<128xf32, {S1}> -> tensor<128xf32, {D1}>
      %l = ttg.local_load %b : !ttg.memdesc<16x16xf32, {SHARED}, #smem, mutable> -> tensor<16x16xf32, {B16}>
    }}
    tt.return
  }}""", warps=1)
    assert offsets(text) == {"a": 0, "b": 0, "c": 1024}
    assert total(text) == 4096


def test_pass_writes_offsets_and_total():
    """Triton's rule gives this conversion one 512-byte round of its ldmatrix layout on
    sm_80 (2048 bytes with plain loads and stores). tileopt's lowering can split it into
    rounds down to 512 bytes (convert_layout.convert_scratch), so each pass gives Triton's
    size and the lowering works in rounds within it (conversion/shared_memory.py)."""
    text = module(_cvt(512), warps=1, target="cuda:80")
    assert total(text, NV80) == 512 and total(text, GENERIC) == 2048
    mod = parse_module(text)
    pass_cls = get_pass("allocate-shared-memory-nv")
    assert pass_cls is not None
    pass_cls(compute_capability=80).apply(None, mod)
    printed = print_module(mod)
    assert "ttg.shared = 512 : i32" in printed
    assert re.search(r"ttg\.convert_layout %arg0 \{allocation\.offset = 0 : i32\}", printed)
    mod = parse_module(text)
    get_pass("allocate-shared-memory")().apply(None, mod)
    assert "ttg.shared = 2048 : i32" in print_module(mod)


# ------------------------------------------------------------------ against Triton 3.6


def _dump_around(passes_root, target: str, kernel: str, pass_name: str):
    """The IR Triton fed to ``pass_name`` and the IR it produced (stored dumps are taken
    before each pass; an unchanged one is not stored)."""
    folder = passes_root / target / "passes" / kernel
    order = (folder / "ORDER.txt").read_text().splitlines()[1:]
    index = next(i for i, line in enumerate(order) if line.split()[0].split("-", 1)[1] == pass_name + ".mlir")
    stored = sorted(folder.glob("*.mlir"))
    number = lambda p: int(p.name.split("-", 1)[0])  # noqa: E731
    position = int(order[index].split("-", 1)[0])
    before = [p for p in stored if number(p) <= position][-1]
    after = [p for p in stored if number(p) > position][0]
    return before, after


def _corpus_cases(corpus):
    cases = []
    for target in TARGETS:
        for meta in sorted((corpus / target).glob("*.json")):
            cases.append((target, meta.stem))
    return cases


def test_offsets_match_triton_on_every_corpus_kernel(corpus, passes_root):
    """The exact IR Triton allocated, allocated again by tileopt: every op's offset and
    the total are Triton's."""
    mismatches = []
    for target, kernel in _corpus_cases(corpus):
        pass_name = "allocate-shared-memory-nv" if target.startswith("cuda") else "allocate-amdgpu-shared-memory"
        before, after = _dump_around(passes_root, target, kernel, pass_name)
        mod = parse_module(before.read_text(), str(before))
        allocation = ModuleAllocation(mod, SharedMemoryTarget.from_module(mod))
        attach_allocation_attributes(mod, allocation)
        ours = re.findall(r"allocation\.offset = (\d+)", print_module(mod))
        theirs_text = after.read_text()
        theirs = re.findall(r"allocation\.offset = (\d+)", theirs_text)
        shared = int(re.search(r"ttg\.shared = (\d+)", theirs_text).group(1))
        if ours != theirs or allocation.shared_memory_size != shared:
            mismatches.append((target, kernel, ours, theirs, allocation.shared_memory_size, shared))
    assert not mismatches


def test_shared_bytes_table_against_corpus_json(corpus, capsys):
    """From each corpus ``.ttgir`` (Triton's ``make_ttgir`` output) through
    ``convert-scf-to-cf`` and ``allocate-shared-memory``: tileopt's ``ttg.shared`` beside
    the ``shared`` bytes in Triton's ``.json``. Printed as a table (``pytest -s``)."""
    scf_to_cf = get_pass("convert-scf-to-cf")
    rows, mismatches = [], []
    for target, kernel in _corpus_cases(corpus):
        expected = json.loads((corpus / target / f"{kernel}.json").read_text())["shared"]
        path = corpus / target / f"{kernel}.ttgir"
        mod = parse_module(path.read_text(), str(path))
        scf_to_cf().apply(None, mod)
        ours = ModuleAllocation(mod, SharedMemoryTarget.from_module(mod)).shared_memory_size
        rows.append((target, kernel, ours, expected))
        if ours != expected:
            mismatches.append((target, kernel, ours, expected))
    with capsys.disabled():
        print("\n  target       kernel              tileopt  triton")
        for target, kernel, ours, expected in rows:
            mark = "" if ours == expected else "   <-- differs"
            print(f"  {target:12} {kernel:18} {ours:8} {expected:7}{mark}")
    assert not mismatches
