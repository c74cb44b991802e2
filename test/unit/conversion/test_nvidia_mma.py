"""``mma.sync`` against the PTX ISA's fragment layouts, exhaustively.

The fragment layouts are written here from the PTX ISA's "Matrix Fragments for mma.m16n8k16
/ m16n8k8 / m16n8k32" sections, in the ISA's own case-by-case form, independently of
``tileopt/conversion/nvidia/mma.py``. Two checks:

- each emitter fragment (a linear layout) puts every element of every lane where the ISA
  says;
- whole dots on Triton's ``#nvidia_mma`` v2 / ``dot_op`` layouts are lowered, and the
  emitted ops are run for every lane of every warp: packing, bitcasts and the inline asm,
  whose operand groups ``{$i..}`` are read from the asm string and executed as the ISA
  defines the instruction (gather the fragments of all 32 lanes, multiply, scatter D).
  Every result register must hold ``A @ B + C`` at its element.
"""

from __future__ import annotations

import re

import pytest

from tileopt.conversion.nvidia.hooks import NvidiaHooks
from tileopt.conversion.nvidia.mma import M16N8K8_TF32, M16N8K16, M16N8K32_S8

from .dot_harness import check_dot, lower_dot, run_lockstep
from .llvm_eval import MASK32


def _g_t(lane):
    return lane >> 2, lane % 4


# ---------------------------------------------------------------- the PTX ISA's fragments

def packed_a(per_register):
    """A of m16n8k16 (2 f16/bf16 per register) and m16n8k32 (4 s8): elements ai."""
    def formula(i, lane):
        g, t = _g_t(lane)
        row = g if i < per_register or 2 * per_register <= i < 3 * per_register else g + 8
        col = t * per_register + (i % per_register)
        return row, col if i < 2 * per_register else col + 4 * per_register
    return formula


def packed_b(per_register):
    """B of m16n8k16 and m16n8k32: elements bi."""
    def formula(i, lane):
        g, t = _g_t(lane)
        row = t * per_register + (i % per_register)
        return (row if i < per_register else row + 4 * per_register), g
    return formula


k16_a, k16_b = packed_a(2), packed_b(2)
k32_s8_a, k32_s8_b = packed_a(4), packed_b(4)


def c_16x8(i, lane):
    g, t = _g_t(lane)
    row = g if i < 2 else g + 8
    return row, t * 2 + (i & 1)


def k8_tf32_a(i, lane):
    g, t = _g_t(lane)
    row = g if i in (0, 2) else g + 8
    col = t if i in (0, 1) else t + 4
    return row, col


def k8_tf32_b(i, lane):
    g, t = _g_t(lane)
    return (t if i == 0 else t + 4), g


ISA = {
    # name: (instruction fields, A, B, C formulas, elements of A, B, C per thread)
    "m16n8k16": (M16N8K16, k16_a, k16_b, c_16x8, 8, 4, 4),
    "m16n8k8.tf32": (M16N8K8_TF32, k8_tf32_a, k8_tf32_b, c_16x8, 4, 2, 4),
    "m16n8k32.s8": (M16N8K32_S8, k32_s8_a, k32_s8_b, c_16x8, 16, 8, 4),
}


@pytest.mark.parametrize("name", ISA)
def test_fragments_are_the_isa_layouts(name):
    fields, fa, fb, fc, na, nb, nc = ISA[name]
    for layout, formula, count in ((fields["a"], fa, na), (fields["b"], fb, nb),
                                   (fields["c"], fc, nc)):
        assert layout.in_dim_size("register") == count
        assert layout.in_dim_size("lane") == 32
        for lane in range(32):
            for i in range(count):
                at = layout.apply({"register": i, "lane": lane})
                assert (at["dim0"], at["dim1"]) == formula(i, lane), (name, lane, i)


# ---------------------------------------------------------------- running the emitted IR

_SHAPES = {"m16n8k16": (16, 8, 16), "m16n8k8": (16, 8, 8), "m16n8k32": (16, 8, 32)}
_FORMULAS = {"m16n8k16": (k16_a, k16_b), "m16n8k8": (k8_tf32_a, k8_tf32_b),
             "m16n8k32": (k32_s8_a, k32_s8_b)}
_GROUP = re.compile(r"\{([^}]*)\}")


def _elements(word):
    """The elements of a 32-bit register, lowest bits first (a packed vector or one)."""
    return list(word) if isinstance(word, tuple) else [word]


def _mma(asm: str, operands: list[list]) -> list[tuple]:
    """``mma.sync`` for the 32 lanes: ``operands[lane]`` are the asm's inputs; D per lane."""
    shape = re.search(r"m16n8k\d+", asm).group(0)
    m, n, k = _SHAPES[shape]
    fa, fb = _FORMULAS[shape]
    integer = ".s32." in asm
    groups = [[int(x.strip()[1:]) for x in g.split(",")] for g in _GROUP.findall(asm)]
    d_ops, a_ops, b_ops, c_ops = groups
    outputs = len(d_ops)

    def gather(ops, formula, rows, cols):
        matrix = [[None] * cols for _ in range(rows)]
        for lane in range(32):
            values = []
            for op in ops:
                # Inputs follow the outputs in the operand numbering.
                values += _elements(operands[lane][op - outputs])
            for i, value in enumerate(values):
                r, c = formula(i, lane)
                assert matrix[r][c] is None
                matrix[r][c] = value
        return matrix

    a = gather(a_ops, fa, m, k)
    b = gather(b_ops, fb, k, n)
    c = gather(c_ops, c_16x8, m, n)
    d = [[sum(a[i][x] * b[x][j] for x in range(k)) + c[i][j] for j in range(n)]
         for i in range(m)]
    if integer:
        d = [[v & MASK32 for v in row] for row in d]
    per_lane = [tuple(d[r][col] for r, col in (c_16x8(i, lane) for i in range(4)))
                for lane in range(32)]
    if outputs == 2:  # f16 accumulators: element pairs in f16x2 registers
        return [(lane[0:2], lane[2:4]) for lane in per_lane]
    return per_lane


def _signed(value):
    return value - (1 << 32) if value >> 31 else value


def _mma_asm(asm, operands):
    if ".s32." in asm:
        operands = [[_signed(v) if isinstance(v, int) else v for v in lane] for lane in operands]
    return _mma(asm, operands)


def run_warp(block, inputs):
    """Evaluate ``block`` for 32 lanes in lock step, ``mma.sync`` as the ISA defines it."""
    return run_lockstep(block, inputs, _mma_asm)


def _mma_types(warps, m, n, k, ty, k_width, acc):
    mma = (f"#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = {list(warps)}, "
           "instrShape = [16, 8]}>")
    return (f"tensor<{m}x{k}x{ty}, #ttg.dot_op<{{opIdx = 0, parent = {mma}, kWidth = {k_width}}}>>",
            f"tensor<{k}x{n}x{ty}, #ttg.dot_op<{{opIdx = 1, parent = {mma}, kWidth = {k_width}}}>>",
            f"tensor<{m}x{n}x{acc}, {mma}>")


MMA_CASES = [
    # (warpsPerCTA, M, N, K, type, kWidth, acc, precision, instructions per thread)
    ((2, 2), 64, 64, 32, "f16", 2, "f32", "ieee", 2 * 4 * 2),
    ((2, 2), 64, 32, 16, "bf16", 2, "f32", "ieee", 2 * 2 * 1),
    ((4, 1), 64, 16, 16, "f16", 2, "f32", "ieee", 1 * 2 * 1),
    ((1, 4), 16, 64, 32, "f16", 2, "f32", "ieee", 1 * 2 * 2),
    ((2, 2), 32, 32, 16, "f32", 1, "f32", "tf32", 1 * 2 * 2),
    # benchmarks/gpu's dot_tf32_64x64x32
    ((2, 2), 64, 64, 32, "f32", 1, "f32", "tf32", 2 * 4 * 4),
    ((2, 2), 32, 32, 64, "i8", 4, "i32", "ieee", 1 * 2 * 2),
    ((2, 2), 32, 32, 32, "f16", 2, "f16", "ieee", 1 * 2 * 2),
    # A tensor smaller than the warps' tiles: warps 2 and 3 repeat warps 0 and 1.
    ((2, 2), 16, 16, 16, "f16", 2, "f32", "ieee", 1 * 1 * 1),
]


@pytest.mark.parametrize("case", MMA_CASES,
                         ids=lambda c: f"w{c[0][0]}x{c[0][1]}-{c[1]}x{c[2]}x{c[3]}-{c[4]}")
def test_mma_dot_runs_as_the_isa_defines(case):
    warps, m, n, k, ty, k_width, acc, precision, count = case
    a, b, c = _mma_types(warps, m, n, k, ty, k_width, acc)
    dot, fl, block = lower_dot(NvidiaHooks(80), a, b, c, warps=warps[0] * warps[1],
                               precision=precision)
    asms = [op for op in block.ops if op.name == "llvm.inline_asm"]
    assert len(asms) == count
    check_dot(dot, fl, block, warps[0] * warps[1], acc == "i32", run_warp)


def test_f32_without_tf32_has_no_mma():
    # The verifier refuses such a tt.dot now (Triton 3.6's rule for an nvidia_mma
    # result), before the lowering's own check is reached.
    from tileopt.ir.diagnostics import TileoptError
    a, b, c = _mma_types((2, 2), 32, 32, 16, "f32", 1, "f32")
    with pytest.raises(TileoptError, match="mma v2 cannot multiply f32 by f32 with input "
                                           "precision ieee"):
        lower_dot(NvidiaHooks(80), a, b, c)


def test_a_k_width_that_splits_the_fragment_is_an_error():
    from tileopt.conversion.triton_gpu_to_llvm.lowering import LoweringError
    a, b, c = _mma_types((2, 2), 32, 32, 32, "f16", 4, "f32")
    with pytest.raises(LoweringError, match="lane bases"):
        lower_dot(NvidiaHooks(80), a, b, c)
