"""Shared-memory plans of layout conversions: exhaustive checks of the GF(2) construction.

For each pair of layouts the plan must be a bijection from tensor elements to offsets,
every vector access must cover consecutive offsets holding the registers it claims, and
the bank-conflict count it reports must be what the lanes' addresses really give.
"""

from __future__ import annotations

import random

import pytest

from tileopt.conversion.shared_layouts import (
    CoordPacking,
    SharedMemoryBanks,
    invert,
    plan_transfer,
)
from tileopt.layouts.encodings import Blocked, Slice, to_linear_layout
from tileopt.layouts.linear_layout import xor_columns

# NVIDIA's banks: 32 of 4 bytes.
BANKS = SharedMemoryBanks(count=32, width=4)
conflict_ways = BANKS.conflict_ways

PAIRS = {
    "transpose": (Blocked((4, 1), (16, 2), (1, 4), (0, 1)), Blocked((1, 4), (2, 16), (4, 1), (1, 0)),
                  [64, 64], 4),
    "pointers": (Blocked((4,), (32,), (4,), (0,)), Blocked((1,), (32,), (4,), (0,)), [1024], 8),
    "slice_to_blocked": (Slice(0, Blocked((1, 4), (1, 32), (4, 1), (1, 0))),
                         Blocked((1,), (32,), (4,), (0,)), [128], 4),
    "f16_rows_cols": (Blocked((1, 8), (4, 8), (4, 1), (1, 0)), Blocked((8, 1), (8, 4), (1, 4), (0, 1)),
                      [32, 64], 2),
    "bytes": (Blocked((1, 4), (2, 16), (4, 1), (1, 0)), Blocked((4, 1), (16, 2), (1, 4), (0, 1)),
              [64, 64], 1),
}


def test_invert_random_matrices():
    rng = random.Random(0)
    for bits in range(1, 12):
        for _ in range(20):
            while True:
                columns = [rng.randrange(1, 1 << bits) for _ in range(bits)]
                if len({xor_columns(columns, v) for v in range(1 << bits)}) == 1 << bits:
                    break
            inverse = invert(columns, bits)
            for v in range(1 << bits):
                assert xor_columns(inverse, xor_columns(columns, v)) == v


def test_conflict_ways_examples():
    assert conflict_ways([4 * lane for lane in range(32)], 4) == 1
    assert conflict_ways([128 * lane for lane in range(32)], 4) == 32
    assert conflict_ways([0] * 32, 4) == 1                       # one address: a broadcast
    assert conflict_ways([16 * lane for lane in range(32)], 16) == 1
    assert conflict_ways([32 * lane for lane in range(32)], 16) == 2
    assert conflict_ways([8 * (lane % 16) for lane in range(32)], 8) == 1


@pytest.mark.parametrize("name", PAIRS)
def test_plan_is_a_bijection_with_consecutive_vectors(name):
    src_enc, dst_enc, shape, element_bytes = PAIRS[name]
    src, dst = to_linear_layout(src_enc, shape), to_linear_layout(dst_enc, shape)
    plan = plan_transfer(src, dst, shape, element_bytes, src.in_dim_size("register"),
                         dst.in_dim_size("register"), BANKS)
    packing = CoordPacking(shape)
    offsets = {plan.offset(packing.unpack(v)) for v in range(1 << packing.bits)}
    assert offsets == set(range(1 << packing.bits))
    for layout, side in ((src, plan.store), (dst, plan.load)):
        assert side.vector * element_bytes <= 16
        for lane in range(32):
            for warp in range(4):
                for r in range(layout.in_dim_size("register")):
                    if not side.starts(r):
                        continue
                    where = [plan.offset(_element(layout, g, lane, warp)) for g in side.group(r)]
                    assert where == list(range(where[0], where[0] + side.vector))
        addresses = [plan.offset(_element(layout, 0, lane, 0)) * element_bytes for lane in range(32)]
        assert conflict_ways(addresses, side.vector * element_bytes) == side.ways


def _element(layout, register, lane, warp):
    out = layout.apply({"register": register, "lane": lane, "warp": warp, "block": 0})
    return [out[d] for d in layout.out_dims]


def test_transpose_plan_vectorises_the_reads():
    src_enc, dst_enc, shape, element_bytes = PAIRS["transpose"]
    src, dst = to_linear_layout(src_enc, shape), to_linear_layout(dst_enc, shape)
    plan = plan_transfer(src, dst, shape, element_bytes, 32, 32, BANKS)
    # The reads follow the barrier: 128-bit ones, conflict-free; the writes at most 2-way.
    assert plan.load.vector == 4 and plan.load.ways == 1
    assert plan.store.ways <= 2


def test_common_register_bases_vectorise_both_sides():
    src_enc, dst_enc, shape, element_bytes = PAIRS["pointers"]
    src, dst = to_linear_layout(src_enc, shape), to_linear_layout(dst_enc, shape)
    plan = plan_transfer(src, dst, shape, element_bytes, 8, 8, BANKS)
    # Both layouts hold elements 512 apart in one thread: 2 x 8 bytes per access each way.
    assert plan.store.vector == 2 and plan.load.vector == 2
    assert plan.store.ways == plan.load.ways == 1


# Inductor's rotary kernel (bf16, the conversion before its transposed store) under its
# autotuning configs: Triton moves one side, or both, as 8x8 matrices (ldmatrix/stmatrix).
ROTARY = {
    "32x32": (Blocked((1, 8), (8, 4), (4, 1), (1, 0)), Blocked((8, 1), (4, 8), (1, 4), (0, 1)),
              [32, 32]),
    "64x64": (Blocked((1, 8), (4, 8), (8, 1), (1, 0)), Blocked((8, 1), (8, 4), (1, 8), (0, 1)),
              [64, 64]),
    "2x512": (Blocked((1, 8), (1, 32), (2, 2), (1, 0)), Blocked((2, 1), (1, 32), (1, 4), (0, 1)),
              [2, 512]),
    "1024x1": (Blocked((8, 1), (32, 1), (4, 1), (0, 1)), Blocked((1, 1), (32, 1), (4, 1), (0, 1)),
               [1024, 1]),
    "256x16": (Blocked((1, 8), (16, 2), (8, 1), (1, 0)), Blocked((8, 1), (32, 1), (1, 8), (0, 1)),
               [256, 16]),
}


def _check_matrices(plan, layout, transpose, warps):
    """Every register word of ``layout`` is where ldmatrix/stmatrix (``transpose``) puts
    it: lane l holds row l // 4, columns 2 * (l % 4) + {0, 1} of matrix i (transposed:
    rows 2 * (l % 4) + {0, 1}, column l // 4), rows 16 contiguous aligned bytes."""
    registers = layout.in_dim_size("register")
    selectors = [1 << s for s in range(1, min(3, registers.bit_length() - 1))]
    for warp in range(warps):
        for start in range(0, registers, 2 << len(selectors)):
            rows = {}
            for i in range(1 << len(selectors)):
                lo = start | sum(s for t, s in enumerate(selectors) if i >> t & 1)
                for lane in range(32):
                    for k in (0, 1):
                        offset = 2 * plan.offset(_element(layout, lo | k, lane, warp))
                        row, column = ((2 * (lane % 4) + k, lane // 4) if transpose
                                       else (lane // 4, 2 * (lane % 4) + k))
                        base = offset - 2 * column
                        assert base % 16 == 0 and offset // 16 == base // 16
                        assert rows.setdefault((i, row), base) == base


@pytest.mark.parametrize("name", ROTARY)
def test_16_bit_conversions_move_8x8_matrices(name):
    src_enc, dst_enc, shape = ROTARY[name]
    src, dst = to_linear_layout(src_enc, shape), to_linear_layout(dst_enc, shape)
    warps = src.in_dim_size("warp")
    plan = plan_transfer(src, dst, shape, 2, src.in_dim_size("register"),
                         dst.in_dim_size("register"), BANKS, matrix_store=True, matrix_load=True)
    moved = [(layout, side) for layout, side in ((src, plan.store), (dst, plan.load))
             if side.matrix is not None]
    assert moved, "one side at least moves matrices, as Triton's does"
    for layout, side in moved:
        _check_matrices(plan, layout, side.matrix, warps)
        assert side.ways == 1
    # the other side: no 16-bit accesses (pairs at least, as Triton packs them)
    for side in (plan.store, plan.load):
        assert side.matrix is not None or side.vector >= 2


def test_rotary_32x32_is_tritons_plan():
    """Triton's PTX for it: one 16-byte st.shared.v4 and one ldmatrix.x4.trans a thread."""
    src_enc, dst_enc, shape = ROTARY["32x32"]
    src, dst = to_linear_layout(src_enc, shape), to_linear_layout(dst_enc, shape)
    plan = plan_transfer(src, dst, shape, 2, 8, 8, BANKS, matrix_store=True, matrix_load=True)
    assert (plan.store.vector, plan.store.accesses, plan.store.matrix) == (8, 1, None)
    assert (plan.load.matrix, plan.load.accesses) == (True, 1)


def test_no_matrices_without_the_instructions():
    src_enc, dst_enc, shape = ROTARY["32x32"]
    src, dst = to_linear_layout(src_enc, shape), to_linear_layout(dst_enc, shape)
    plan = plan_transfer(src, dst, shape, 2, 8, 8, BANKS)
    assert plan.store.matrix is None and plan.load.matrix is None
