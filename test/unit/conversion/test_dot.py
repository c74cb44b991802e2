"""The shared ``tt.dot`` lowering: tiling by coordinates, and the FMA dot of blocked
layouts evaluated on the CPU for every thread (``dot_harness``)."""

from __future__ import annotations

import pytest

from tileopt.conversion.target_hooks import MatrixInstruction
from tileopt.conversion.triton_gpu_to_llvm.dot import TilingError, tile_dot, tile_operand
from tileopt.conversion.triton_gpu_to_llvm.lowering import LoweringError
from tileopt.layouts.encodings import Blocked, DotOperand, to_linear_layout
from tileopt.layouts.linear_layout import LinearLayout

from .dot_harness import check_dot, lower_dot
from .llvm_eval import evaluate
from .test_indexing import ThreadIdHooks

HOOKS = ThreadIdHooks(32, None)


def _per_thread(block, inputs):
    return [evaluate(block, env) for env in inputs]


def _blocked(spt, tpw, wpc, order=(1, 0)):
    return (f"#ttg.blocked<{{sizePerThread = {list(spt)}, threadsPerWarp = {list(tpw)}, "
            f"warpsPerCTA = {list(wpc)}, order = {list(order)}}}>")


def _types(parent, m, n, k, ty):
    return (f"tensor<{m}x{k}x{ty}, #ttg.dot_op<{{opIdx = 0, parent = {parent}}}>>",
            f"tensor<{k}x{n}x{ty}, #ttg.dot_op<{{opIdx = 1, parent = {parent}}}>>",
            f"tensor<{m}x{n}x{ty}, {parent}>")


FMA_CASES = [
    # (sizePerThread, threadsPerWarp, warpsPerCTA, order, M, N, K, type, warps)
    ((2, 2), (4, 8), (2, 2), (1, 0), 16, 32, 4, "f32", 4),
    ((4, 4), (8, 4), (1, 4), (1, 0), 32, 64, 8, "f32", 4),
    ((1, 4), (16, 2), (2, 1), (0, 1), 32, 16, 2, "i32", 2),
    # The tensor is smaller than the layout: lanes and warps repeat elements.
    ((1, 1), (4, 8), (2, 2), (1, 0), 4, 4, 4, "f32", 4),
    # More elements than the layout covers: each thread holds several tiles.
    ((1, 2), (8, 4), (1, 1), (1, 0), 16, 16, 8, "f64", 1),
]


@pytest.mark.parametrize("case", FMA_CASES, ids=lambda c: f"{c[4]}x{c[5]}x{c[6]}-{c[7]}")
def test_fma_dot_evaluates_to_the_product(case):
    spt, tpw, wpc, order, m, n, k, ty, warps = case
    a, b, c = _types(_blocked(spt, tpw, wpc, order), m, n, k, ty)
    dot, fl, block = lower_dot(HOOKS, a, b, c, warps=warps)
    muls = [op for op in block.ops if op.name in ("llvm.intr.fmuladd", "llvm.mul")]
    distinct = fl.layouts.of(dot.results[0].type)
    # One multiply-add per distinct accumulator element of the thread, per k.
    assert len(muls) == k * len(set(_register_coords(distinct)))
    check_dot(dot, fl, block, warps, ty == "i32", _per_thread)


def _register_coords(layout):
    return [tuple(layout.apply({"register": r, "lane": 0, "warp": 0, "block": 0}).values())
            for r in range(layout.in_dim_size("register"))]


def test_fma_dot_needs_promoted_operands():
    parent = _blocked((2, 2), (4, 8), (2, 2))
    a, b, _ = _types(parent, 16, 32, 4, "f16")
    with pytest.raises(LoweringError, match="one element type"):
        lower_dot(HOOKS, a, b, f"tensor<16x32xf32, {parent}>")


def test_no_matrix_unit_is_an_error():
    mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
    a = f"tensor<32x16xf16, #ttg.dot_op<{{opIdx = 0, parent = {mma}, kWidth = 2}}>>"
    b = f"tensor<16x16xf16, #ttg.dot_op<{{opIdx = 1, parent = {mma}, kWidth = 2}}>>"
    with pytest.raises(LoweringError, match="no matrix instruction"):
        lower_dot(HOOKS, a, b, f"tensor<32x16xf32, {mma}>")


# -------------------------------------------------------------------- tiling by coordinates

def _fragment(register, lane, rows, cols):
    return LinearLayout({"register": register, "lane": lane}, [("dim0", rows), ("dim1", cols)])


# A made-up 2x2x2 instruction over 2 lanes: lane 0 holds row 0, lane 1 row 1; each holds
# its row's two elements of A, one column of B and C.
TOY = MatrixInstruction(
    2, 2, 2,
    a=_fragment([(0, 1)], [(1, 0)], 2, 2),
    b=_fragment([(1, 0)], [(0, 1)], 2, 2),
    c=_fragment([(0, 1)], [(1, 0)], 2, 2),
)


def _layout(register, lane, warp, rows, cols):
    return LinearLayout({"register": register, "lane": lane, "warp": warp},
                        [("dim0", rows), ("dim1", cols)])


def test_tiles_are_found_by_coordinates():
    # Registers in another order than the fragment's, and two tiles along K.
    a = _layout([(0, 2), (0, 1)], [(1, 0)], [], 2, 4)
    b = _layout([(2, 0), (1, 0)], [(0, 1)], [], 4, 2)
    c = _layout([(0, 1)], [(1, 0)], [], 2, 2)
    tiling = tile_dot(a, b, c, TOY)
    assert tiling.steps == [([0, 2], [0, 2], (0, 0)), ([1, 3], [1, 3], (0, 0))]


def test_a_lane_that_holds_another_element_is_an_error():
    a = _layout([(0, 1)], [(0, 0)], [], 2, 2)  # every lane holds row 0
    with pytest.raises(TilingError, match="lane bases"):
        tile_operand(a, TOY.a, (2, 2), "operand A")


def test_operands_must_agree_on_the_warps_rows():
    a = _layout([(0, 1)], [(1, 0)], [(2, 0)], 4, 2)
    b = _layout([(1, 0)], [(0, 1)], [(0, 0)], 2, 2)
    c_same = _layout([(0, 1)], [(1, 0)], [(2, 0)], 4, 2)
    c_other = _layout([(0, 1), (2, 0)], [(1, 0)], [(0, 0)], 4, 2)
    tile_dot(a, b, c_same, TOY)
    with pytest.raises(TilingError, match="not the same rows"):
        tile_dot(a, b, c_other, TOY)


def test_a_warp_that_splits_a_tile_is_an_error():
    a = _layout([(0, 1)], [(1, 0)], [(0, 1)], 2, 2)
    with pytest.raises(TilingError, match="split"):
        tile_operand(a, TOY.a, (2, 2), "operand A")


def test_fma_layouts_of_the_encodings_tile():
    blocked = Blocked((2, 2), (4, 8), (2, 2), (1, 0))
    a = to_linear_layout(DotOperand(0, blocked), [16, 8])
    with pytest.raises(TilingError):
        # B's K must be A's: a 4-deep B does not meet an 8-deep A.
        from tileopt.conversion.triton_gpu_to_llvm.dot import FMA
        tile_dot(a, to_linear_layout(DotOperand(1, blocked), [4, 32]),
                 to_linear_layout(blocked, [16, 32]), FMA)
