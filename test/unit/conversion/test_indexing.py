"""The thread -> element map the lowering emits, run on the CPU for every thread.

``element_coordinates`` emits i32 shifts, masks and xors from a layout's bases; the
evaluator in ``llvm_eval`` runs them for each thread id and the result must be exactly
what the linear layout says for (register, lane, warp), for every kind of layout and for
warp sizes 32 and 64. The same for the shared-memory offsets of a conversion plan.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import i32
from xdsl.ir import Block

from tileopt.conversion.indexing import HardwareIds, apply_layout, element_coordinates
from tileopt.conversion.llvm_builder import LLVMBuilder
from tileopt.conversion.shared_layouts import SharedMemoryBanks, plan_transfer
from tileopt.conversion.target_hooks import TargetHooks
from tileopt.layouts.encodings import (
    AmdMfma,
    Blocked,
    DotOperand,
    Linear,
    NvidiaMma,
    Slice,
    to_linear_layout,
)

from .llvm_eval import evaluate


class ThreadIdHooks(TargetHooks):
    """Hooks whose thread id is the entry block's argument; nothing else is needed."""

    def __init__(self, warp_size: int, thread):
        self.warp_size = warp_size
        self._thread = thread

    def thread_id(self, b):
        return self._thread

    def __getattribute__(self, name):
        return object.__getattribute__(self, name)


for _name in list(TargetHooks.__abstractmethods__):
    if _name != "thread_id":
        setattr(ThreadIdHooks, _name, lambda self, *a, **k: None)
ThreadIdHooks.__abstractmethods__ = frozenset()

LAYOUTS = [
    (Blocked((4,), (32,), (4,), (0,)), [1024], 4, 32),
    (Blocked((4,), (32,), (4,), (0,)), [16], 4, 32),         # broadcast lanes and warps
    (Blocked((1, 4), (2, 16), (4, 1), (1, 0)), [64, 64], 4, 32),
    (Blocked((4, 1), (16, 2), (1, 4), (0, 1)), [64, 64], 4, 32),
    (Blocked((1, 1, 4), (1, 32, 1), (2, 2, 1), (2, 1, 0)), [16, 64, 4], 4, 32),
    (Slice(1, Blocked((1, 4), (1, 32), (2, 2), (1, 0))), [16], 4, 32),
    (Slice(0, Blocked((1, 4), (1, 32), (4, 1), (1, 0))), [128], 4, 32),
    (NvidiaMma(2, 0, (2, 2), (16, 8)), [64, 64], 4, 32),
    (NvidiaMma(3, 0, (4, 1), (16, 64, 16)), [64, 64], 4, 32),
    (DotOperand(0, NvidiaMma(2, 0, (2, 2), (16, 8)), 2), [64, 32], 4, 32),
    (AmdMfma(3, (2, 2), (32, 32), True), [64, 64], 4, 64),
    (Blocked((8,), (64,), (4,), (0,)), [2048], 4, 64),
    (Linear(((0, 1), (8, 0)), ((0, 2), (0, 4), (0, 8), (1, 0), (2, 0)), ((4, 0),)), [16, 16], 2, 32),
]


def _names(case):
    encoding, shape, warps, warp_size = case
    return f"{type(encoding).__name__}-{'x'.join(map(str, shape))}-w{warps}-ws{warp_size}"


@pytest.mark.parametrize("case", LAYOUTS, ids=[_names(c) for c in LAYOUTS])
def test_element_coordinates_match_layout(case):
    encoding, shape, warps, warp_size = case
    layout = to_linear_layout(encoding, shape)
    block = Block(arg_types=[i32])
    b = LLVMBuilder(block)
    ids = HardwareIds(b, ThreadIdHooks(warp_size, block.args[0]), warps)
    coords = element_coordinates(b, ids, layout)
    for tid in range(warps * warp_size):
        env = evaluate(block, {block.args[0]: tid})
        lane, warp = tid % warp_size, tid // warp_size
        for r, per_dim in enumerate(coords):
            expected = layout.apply({"register": r, "lane": lane, "warp": warp, "block": 0})
            got = [env[v] for v in per_dim]
            assert got == [expected[d] for d in layout.out_dims], (tid, r)


def test_thread_part_is_built_once_per_layout():
    layout = to_linear_layout(Blocked((4,), (32,), (4,), (0,)), [1024])
    block = Block(arg_types=[i32])
    b = LLVMBuilder(block)
    ids = HardwareIds(b, ThreadIdHooks(32, block.args[0]), 4)
    element_coordinates(b, ids, layout)
    count = len(list(block.ops))
    element_coordinates(b, ids, layout)
    assert len(list(block.ops)) == count  # everything reused: constants, ids, thread part



def test_lane_and_warp_bits_in_one_run_are_one_piece_of_the_thread_id():
    # Lanes then warps along one dim: the coordinate is the masked thread id itself,
    # not lane ^ (warp << 5), whose pieces ptxas would keep live across a dot loop.
    layout = to_linear_layout(Blocked((1,), (32,), (4,), (0,)), [128])
    block = Block(arg_types=[i32])
    b = LLVMBuilder(block)
    ids = HardwareIds(b, ThreadIdHooks(32, block.args[0]), 4)
    [[coord]] = element_coordinates(b, ids, layout)
    assert coord is ids.thread


PAIRS = [
    (Blocked((4, 1), (16, 2), (1, 4), (0, 1)), Blocked((1, 4), (2, 16), (4, 1), (1, 0)), [64, 64], 4),
    (Blocked((4,), (32,), (4,), (0,)), Blocked((1,), (32,), (4,), (0,)), [1024], 8),
    (Slice(0, Blocked((1, 4), (1, 32), (4, 1), (1, 0))), Blocked((1,), (32,), (4,), (0,)), [128], 4),
]


@pytest.mark.parametrize("src_enc,dst_enc,shape,element_bytes", PAIRS)
def test_shared_offsets_emitted_match_plan(src_enc, dst_enc, shape, element_bytes):
    src, dst = to_linear_layout(src_enc, shape), to_linear_layout(dst_enc, shape)
    plan = plan_transfer(src, dst, shape, element_bytes, src.in_dim_size("register"),
                         dst.in_dim_size("register"), SharedMemoryBanks(count=32, width=4))
    for layout in (src, dst):
        offsets = plan.hardware_offsets(layout, element_bytes)
        block = Block(arg_types=[i32])
        b = LLVMBuilder(block)
        ids = HardwareIds(b, ThreadIdHooks(32, block.args[0]), 4)
        [thread] = apply_layout(b, offsets.sublayout(["lane", "warp"], ["offset"]),
                                {"lane": ids.lane, "warp": ids.warp})
        registers = [offsets.apply({"register": r, "lane": 0, "warp": 0, "block": 0})["offset"]
                     for r in range(layout.in_dim_size("register"))]
        for tid in range(128):
            env = evaluate(block, {block.args[0]: tid})
            for r, constant in enumerate(registers):
                element = layout.apply({"register": r, "lane": tid % 32, "warp": tid // 32,
                                        "block": 0})
                coords = [element[d] for d in layout.out_dims]
                assert env[thread] ^ constant == plan.offset(coords) * element_bytes
