"""``convert_layout`` through shared memory in several rounds (``split_rounds``), on the CPU.

The case is block_ptr_matmul's sm_90 epilogue (Triton 3.6's TTGIR in the corpus): a
64x64 f16 ``#nvidia_mma`` v3 accumulator to a ``#blocked`` layout, 8 KiB of data for the
2 KiB ``allocate-shared-memory-nv`` sets aside (one round of Triton's swizzled layout).

A round stores its elements at the addresses its *round* layouts give and loads them
back by the same addresses. So it is right when, within one round, the round layouts'
coordinates name elements consistently on both sides: one round coordinate is always one
tensor element, whichever thread and register (source or destination) holds it; and every
destination register is filled by exactly one round. Both are checked by enumerating
every thread and register, from the full layouts alone (not from the index arithmetic
``Rounds`` uses).
"""

from __future__ import annotations

import pytest

from tileopt.analysis.allocation import SharedMemoryTarget
from tileopt.analysis.shared_swizzling import scratch_elements
from tileopt.conversion.nvidia.hooks import NvidiaHooks
from tileopt.conversion.shared_layouts import plan_transfer
from tileopt.conversion.triton_gpu_to_llvm.convert_layout import split_rounds
from tileopt.conversion.triton_gpu_to_llvm.load_store import unique_registers
from tileopt.layouts.encodings import Blocked, NvidiaMma, to_linear_layout

SHAPE = [64, 64]
SRC = to_linear_layout(NvidiaMma(3, 0, (4, 1), (16, 64, 16)), SHAPE)
DST = to_linear_layout(Blocked((1, 1), (32, 1), (2, 2), (0, 1)), SHAPE)
THREADS = 128


def _coords(layout, register, thread):
    out = layout.apply({"register": register, "lane": thread % 32, "warp": thread // 32,
                        "block": 0})
    return tuple(out[d] for d in layout.out_dims)


@pytest.mark.parametrize("rounds_log2", [0, 1, 2])
def test_each_round_moves_whole_elements(rounds_log2):
    rounds = split_rounds(SRC, DST, SHAPE, rounds_log2)
    assert rounds.count == 1 << rounds_log2
    filled = set()
    for v in range(rounds.count):
        element_of = {}  # round coordinates -> full coordinates, this round
        for layout, part, index in ((SRC, rounds.src, rounds.src_register),
                                    (DST, rounds.dst, rounds.dst_register)):
            for thread in range(THREADS):
                for i in range(part.in_dim_size("register")):
                    full = _coords(layout, index(i, v), thread)
                    assert element_of.setdefault(_coords(part, i, thread), full) == full
                    if layout is DST:
                        filled.add((thread, index(i, v)))
        assert len(element_of) == SHAPE[0] * SHAPE[1] // rounds.count
    assert filled == {(t, r) for t in range(THREADS) for r in range(DST.in_dim_size("register"))}


def test_four_rounds_fit_the_scratch_the_allocator_sets_aside():
    allotted = scratch_elements(SRC, DST, 16, SharedMemoryTarget("nvidia", 90).conversion_tiles(16)) * 2
    assert allotted == 2048
    banks = NvidiaHooks(90).shared_memory_banks

    def plan_bytes(rounds_log2):
        rounds = split_rounds(SRC, DST, SHAPE, rounds_log2)
        return plan_transfer(rounds.src, rounds.dst, rounds.shape, 2,
                             len(unique_registers(rounds.src)[0]),
                             len(unique_registers(rounds.dst)[0]), banks).bytes

    assert plan_bytes(0) == 8192
    assert plan_bytes(2) <= allotted


def test_too_many_rounds_is_an_error():
    with pytest.raises(ValueError, match="coordinate bits are in registers on both sides"):
        split_rounds(SRC, DST, SHAPE, 6)
