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
    _measure_vectors,
    invert,
    matrix_shape,
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


@pytest.mark.parametrize("name", PAIRS)
def test_measure_counts_what_the_addresses_give(name):
    """Conflicts and the distinct thread parts of the access addresses, measured by the
    linear shortcuts, against every lane's and register's address, for random maps."""
    src_enc, dst_enc, shape, element_bytes = PAIRS[name]
    packing = CoordPacking(shape)
    rng = random.Random(name)
    for layout in (to_linear_layout(src_enc, shape), to_linear_layout(dst_enc, shape)):
        for mixes in (0, 1, 2, 4, 8, 64) * 3:
            # Invertible: a permutation and a few row operations (sparse maps leave
            # thread bits out of some registers' offsets).
            columns = [1 << i for i in range(packing.bits)]
            for _ in range(mixes):
                i, j = rng.sample(range(packing.bits), 2)
                columns[i] ^= columns[j]
            rng.shuffle(columns)
            registers = layout.in_dim_size("register")
            side = _measure_vectors(layout, columns, packing, element_bytes, registers, BANKS)

            def offset(register, lane, warp):
                return xor_columns(columns, packing.pack(_element(layout, register, lane, warp)))

            lanes = [offset(0, lane, 0) * element_bytes for lane in range(32)]
            assert side.ways == conflict_ways(lanes, side.vector * element_bytes)
            thread_bits = 0
            for lane in range(32):
                for warp in range(4):
                    thread_bits |= offset(0, lane, warp)
            starts = {offset(r, 0, 0) & thread_bits for r in range(registers) if side.starts(r)}
            assert side.address_registers == len(starts)


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


# Inductor's rotary kernel (the conversion before its transposed store) under its
# autotuning configs, bf16 and f32 (../shared kernel caches): blocked layouts written as
# "sizePerThread/threadsPerWarp/warpsPerCTA/order" (r: order [1, 0], c: [0, 1]), and which
# sides Triton's PTX moves as 8x8 matrices of 16-bit elements (store, load; None: tileopt
# differs, where it takes fewer instructions or mirrors Triton's plan).
ROTARY = {
    (2, "32x32"): ("1x8/8x4/4x1/r", "8x1/4x8/1x4/c", (False, True)),
    (2, "64x64"): ("1x8/4x8/8x1/r", "8x1/8x4/1x8/c", None),
    (2, "2x512"): ("1x8/1x32/2x2/r", "2x1/1x32/1x4/c", (True, True)),
    (2, "1024x1"): ("8x1/32x1/4x1/c", "1x1/32x1/4x1/c", (True, True)),
    (2, "256x16"): ("1x8/16x2/8x1/r", "8x1/32x1/1x8/c", None),
    (4, "2x512"): ("1x4/1x32/1x4/r", "2x1/1x32/1x4/c", (False, True)),
    (4, "1024x1"): ("4x1/32x1/4x1/c", "1x1/32x1/4x1/c", (False, True)),
    (4, "16x256"): ("1x4/1x32/4x2/r", "4x1/4x8/1x8/c", (False, True)),
    (4, "256x16"): ("1x4/8x4/8x1/r", "4x1/32x1/2x4/c", (True, False)),
}


def _blocked(spec: str) -> Blocked:
    *sizes, order = spec.split("/")
    return Blocked(*(tuple(int(n) for n in size.split("x")) for size in sizes),
                   (1, 0) if order == "r" else (0, 1))


def _rotary(element_bytes, name):
    src, dst, _ = ROTARY[element_bytes, name]
    shape = [int(n) for n in name.split("x")]
    return to_linear_layout(_blocked(src), shape), to_linear_layout(_blocked(dst), shape), shape


def _check_matrices(plan, layout, element_bytes, warps):
    """Every register of ``layout`` is where ldmatrix/stmatrix put it, by the PTX
    manual: lane l holds the 32-bit word at row l // 4, bytes 4 * (l % 4) of matrix i
    (16-bit elements: columns 2 * (l % 4) + {0, 1}; transposed: rows 2 * (l % 4) + {0, 1},
    column l // 4), each row 16 contiguous aligned bytes; the lowering's choice of which
    registers form a word and pick a matrix is read from ``matrix_shape``."""
    offsets = plan.hardware_offsets(layout, element_bytes)
    shape = matrix_shape(*([b[0] for b in offsets.get_bases(d)]
                           for d in ("register", "lane", "warp")), element_bytes)
    assert shape is not None
    halves = [0] if shape.pair is None else [0, 1 << shape.pair]
    word_bits = sum(halves) | sum(1 << s for s in shape.selectors)
    for warp in range(warps):
        for start in range(layout.in_dim_size("register")):
            if start & word_bits:
                continue
            rows = {}
            for i in range(1 << len(shape.selectors)):
                word = start | sum(1 << s for t, s in enumerate(shape.selectors) if i >> t & 1)
                for lane in range(32):
                    for k, half in enumerate(halves):
                        offset = element_bytes * plan.offset(_element(layout, word | half, lane,
                                                                      warp))
                        row, column = ((2 * (lane % 4) + k, lane // 4) if shape.transpose
                                       else (lane // 4, 2 * (lane % 4) + k))
                        base = offset - 2 * column
                        assert base % 16 == 0 and offset // 16 == base // 16
                        assert rows.setdefault((i, row), base) == base


@pytest.mark.parametrize("element_bytes,name", ROTARY)
def test_conversions_move_8x8_matrices(element_bytes, name):
    src, dst, shape = _rotary(element_bytes, name)
    warps = src.in_dim_size("warp")
    plan = plan_transfer(src, dst, shape, element_bytes, src.in_dim_size("register"),
                         dst.in_dim_size("register"), BANKS, matrix_store=True, matrix_load=True)
    moved = [(layout, side) for layout, side in ((src, plan.store), (dst, plan.load))
             if side.matrix is not None]
    assert moved, "one side at least moves matrices, as Triton's does"
    for layout, side in moved:
        _check_matrices(plan, layout, element_bytes, warps)
        assert side.ways == 1
        assert element_bytes == 2 or not side.matrix  # 32-bit words: never transposed
    expected = ROTARY[element_bytes, name][2]
    if expected is not None:
        assert (plan.store.matrix is not None, plan.load.matrix is not None) == expected
    # the other side: no 16-bit accesses (pairs at least, as Triton packs them)
    for side in (plan.store, plan.load):
        assert side.matrix is not None or side.vector * element_bytes >= 4


def test_rotary_32x32_is_tritons_plan():
    """Triton's PTX for it: one 16-byte st.shared.v4 and one ldmatrix.x4.trans a thread."""
    src, dst, shape = _rotary(2, "32x32")
    plan = plan_transfer(src, dst, shape, 2, 8, 8, BANKS, matrix_store=True, matrix_load=True)
    assert (plan.store.vector, plan.store.accesses, plan.store.matrix) == (8, 1, None)
    assert (plan.load.matrix, plan.load.accesses) == (True, 1)


def test_no_matrices_without_the_instructions():
    src, dst, shape = _rotary(2, "32x32")
    plan = plan_transfer(src, dst, shape, 2, 8, 8, BANKS)
    assert plan.store.matrix is None and plan.load.matrix is None


def test_reduction_output_keeps_its_vector_store():
    """Inductor's 16xf32 reduction outputs (``triton_red_fused_sum_1``, 4 warps): Triton's
    PTX writes each thread's 4 sums with one st.shared.v4; a stmatrix.x4 would cost the
    same, and at equal cost the plain store wins (no row addresses to compute)."""
    shape = [16]
    src = to_linear_layout(Slice(1, _blocked("4x1/4x8/1x4/c")), shape)
    dst = to_linear_layout(Slice(1, _blocked("1x1/16x2/1x4/c")), shape)
    plan = plan_transfer(src, dst, shape, 4, 4, 1, BANKS, matrix_store=True, matrix_load=True)
    assert (plan.store.matrix, plan.store.vector, plan.store.accesses) == (None, 4, 1)
    assert plan.load.accesses == 1
