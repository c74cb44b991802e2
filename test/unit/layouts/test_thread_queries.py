"""Per-thread queries read off the linear layout: element counts, vector widths, orders.

Expected values are worked out from the layout definitions (e.g. a [1, 4] sizePerThread
blocked layout repeated twice down and four times across a 64x64 tensor holds 2 x 16
elements per thread, 4 of them contiguous along dim 1).
"""

from __future__ import annotations

import pytest

from tileopt.layouts.encodings import (
    AmdMfma,
    Blocked,
    DotOperand,
    NvidiaMma,
    NvmmaShared,
    Slice,
    SwizzledShared,
    get_contig_per_thread,
    get_contig_per_warp,
    get_elems_per_thread,
    get_matrix_order,
    get_order,
    get_order_for_dot_operand,
    get_rep_order,
    get_thread_order,
    get_threads_per_warp,
    get_total_elems_per_thread,
    get_warp_order,
    get_warps_per_cta,
)

BLOCKED = Blocked([1, 4], [8, 4], [4, 1], [1, 0])
MMA = NvidiaMma(2, 0, [2, 2], [16, 8])


@pytest.mark.parametrize(
    "encoding,shape,elems,contig,order",
    [
        (BLOCKED, [64, 64], [2, 16], [1, 4], [1, 0]),
        (BLOCKED, [16, 16], [1, 4], [1, 4], [1, 0]),  # warps 2, 3 hold copies; registers do not
        (Blocked([2, 2], [4, 8], [2, 2], [0, 1]), [16, 64], [2, 4], [2, 2], [0, 1]),  # a 2x2 block
        (MMA, [64, 64], [4, 8], [1, 2], [1, 0]),  # 2x4 mma tiles of 2x2 values
        (NvidiaMma(3, 0, [4, 1], [16, 64, 16]), [64, 64], [2, 16], [1, 2], [1, 0]),
        (AmdMfma(3, [2, 2], [32, 32, 8], True), [64, 64], [1, 16], [1, 4], [1, 0]),
        (AmdMfma(3, [2, 2], [32, 32, 8], False), [64, 64], [16, 1], [4, 1], [0, 1]),
        (DotOperand(0, MMA, 2), [64, 32], [4, 8], [1, 2], [1, 0]),
        (DotOperand(1, MMA, 2), [32, 64], [8, 4], [2, 1], [0, 1]),
        (Slice(1, BLOCKED), [64], [2], [1], [0]),
        (Slice(0, BLOCKED), [64], [16], [4], [0]),
    ],
    ids=lambda v: type(v).__name__ if not isinstance(v, list) else str(v),
)
def test_elems_contig_and_order(encoding, shape, elems, contig, order):
    assert get_elems_per_thread(encoding, shape) == elems
    assert get_total_elems_per_thread(encoding, shape) == elems[0] * (elems[1] if len(elems) > 1 else 1)
    assert get_contig_per_thread(encoding, shape) == contig
    assert get_order(encoding, shape) == order


def test_thread_and_warp_counts_and_orders():
    assert get_threads_per_warp(BLOCKED, [64, 64]) == [8, 4]
    assert get_warps_per_cta(BLOCKED, [64, 64]) == [4, 1]
    assert get_warps_per_cta(BLOCKED, [16, 16]) == [2, 1]  # two warps only repeat data
    assert get_thread_order(BLOCKED, [64, 64]) == [1, 0]
    # Warps move only along dim 0, so dim 0 comes first (Triton reads it off the layout too).
    assert get_warp_order(BLOCKED, [64, 64]) == [0, 1]
    assert get_warp_order(MMA, [64, 64]) == [1, 0]  # Ampere walks warps along N first
    assert get_warp_order(NvidiaMma(3, 0, [4, 2], [16, 64, 16]), [128, 128]) == [0, 1]
    assert get_contig_per_warp(BLOCKED, [64, 64]) == [8, 16]  # one warp covers 8x16


def test_rep_and_matrix_orders():
    assert get_matrix_order(2, True) == [1, 0] and get_matrix_order(3, False) == [1, 2, 0]
    assert get_order_for_dot_operand(0, 2, k_contig=True) == [1, 0]
    assert get_order_for_dot_operand(1, 2, k_contig=True) == [0, 1]
    assert get_rep_order(MMA) == [1, 0]
    assert get_rep_order(DotOperand(1, MMA, 2)) == [0, 1]
    assert get_rep_order(Slice(0, Blocked([1, 1, 4], [1, 32, 1], [2, 2, 1], [2, 1, 0]))) == [1, 0]


def test_shared_orders():
    assert get_order(SwizzledShared(8, 1, 8, [0, 1]), [64, 64]) == [0, 1]
    assert get_order(NvmmaShared(128, False, 16), [64, 64]) == [1, 0]
    assert get_order(NvmmaShared(128, True, 16), [64, 64]) == [0, 1]
