"""Thread-local register moves (broadcast, expand_dims, trans, reshape, convert_layout),
checked against the layouts by brute force over every register, lane and warp."""

from __future__ import annotations

import pytest

from tileopt.conversion import register_maps
from tileopt.layouts.encodings import Blocked, Slice, to_linear_layout

B2 = Blocked((1, 4), (1, 32), (2, 2), (1, 0))
B3 = Blocked((1, 1, 4), (1, 32, 1), (2, 2, 1), (2, 1, 0))
T = Blocked((1, 4), (2, 16), (4, 1), (1, 0))
TT = Blocked((4, 1), (16, 2), (1, 4), (0, 1))

CASES = {
    "broadcast": (B2, [16, 1], B2, [16, 256], register_maps.zero_dims([1])),
    "expand_dims": (Slice(1, B2), [16], B2, [16, 1], register_maps.drop_dim(1)),
    "trans": (T, [64, 64], TT, [64, 64], register_maps.permute_dims([1, 0])),
    "reshape": (B2, [16, 256], B3, [16, 64, 4], register_maps.reshape([16, 64, 4], [16, 256])),
}


@pytest.mark.parametrize("name", CASES)
def test_register_map_moves_the_right_elements(name):
    src_enc, src_shape, dst_enc, dst_shape, dst_to_src = CASES[name]
    src, dst = to_linear_layout(src_enc, src_shape), to_linear_layout(dst_enc, dst_shape)
    mapping = register_maps.register_map(src, dst, dst_to_src)
    assert mapping is not None
    for r in range(dst.in_dim_size("register")):
        for lane in range(32):
            for warp in range(4):
                hw = {"lane": lane, "warp": warp, "block": 0}
                want = dst_to_src(tuple(dst.apply({"register": r, **hw}).values()))
                got = tuple(src.apply({"register": mapping[r], **hw}).values())
                assert got == want


def test_elements_changing_threads_have_no_register_map():
    src = to_linear_layout(Blocked((4,), (32,), (4,), (0,)), [1024])
    dst = to_linear_layout(Blocked((1,), (32,), (4,), (0,)), [1024])
    assert register_maps.register_map(src, dst) is None


def test_same_layout_is_the_identity():
    layout = to_linear_layout(T, [64, 64])
    assert register_maps.register_map(layout, layout) == list(range(layout.in_dim_size("register")))


# In-warp conversions (register_maps.warp_transfer): (src, dst, shape, expected kind).
ROWS = Blocked((1, 4), (1, 32), (1, 1), (1, 0))
LANE_ROWS = Blocked((1, 1), (2, 16), (1, 1), (0, 1))
SPREAD = Blocked((4, 1), (4, 8), (1, 4), (0, 1))
TALL = Blocked((1, 1), (16, 2), (1, 4), (0, 1))
WARP_CASES = {
    # the reduced row of a layer norm: selects on lane bit 0 only
    "selects": (Slice(1, ROWS), Slice(1, LANE_ROWS), [2], "selects"),
    # Inductor's looped-reduction result: selects, then one shuffle per register
    "shuffle": (Slice(1, SPREAD), Slice(1, TALL), [16], "shuffle"),
    "shuffle_back": (Slice(1, TALL), Slice(1, SPREAD), [16], "shuffle"),
    # a register bit trades places with a lane bit and no lane is broadcast: a swap stage
    # after the shuffle (Inductor's 2x512 persistent reduction, 8 -> 4 columns a thread)
    "transposition": (Blocked((1, 8), (1, 32), (1, 1), (1, 0)),
                      Blocked((1, 4), (1, 32), (1, 1), (1, 0)), [2, 512], "swap"),
    # two register bits trade places with lane bits: shared memory
    "two_transpositions": (Blocked((1, 16), (2, 16), (1, 1), (1, 0)),
                           Blocked((1, 4), (1, 32), (1, 1), (1, 0)), [4, 256], None),
    # elements change warp
    "across_warps": (Blocked((4,), (32,), (4,), (0,)), Blocked((1,), (32,), (4,), (0,)),
                     [1024], None),
}


def _simulate(plan, src, dst):
    """What each thread of a warp ends with, run step by step as the lowering emits it:
    every thread offers a register picked by its own id bits, reads a lane, then (a swap
    stage) swaps result registers by one of its lane bits."""
    transfer = plan.transfer
    lanes, warps = 32, src.in_dim_size("warp")
    for warp in range(warps):
        def offer(lane, base):
            register = base
            for dim, bit, mask in transfer.terms:
                if {"lane": lane, "warp": warp}[dim] >> bit & 1:
                    register ^= mask
            return src.apply({"register": register, "lane": lane, "warp": warp, "block": 0})

        for lane in range(lanes):
            read = lane
            if transfer.lane_map is not None:
                read = 0
                for j, column in enumerate(transfer.lane_map):
                    if lane >> j & 1:
                        read ^= column
            received = [offer(read ^ transfer.lane_offset[r], base)
                        for r, base in enumerate(transfer.base)]
            if plan.after is not None and lane >> plan.after[1] & 1:
                received = [received[r ^ (1 << plan.after[0])] for r in range(len(received))]
            for r, got in enumerate(received):
                want = dst.apply({"register": r, "lane": lane, "warp": warp, "block": 0})
                assert got == want, (lane, warp, r)


@pytest.mark.parametrize("name", WARP_CASES)
def test_warp_transfer(name):
    src_enc, dst_enc, shape, kind = WARP_CASES[name]
    src, dst = to_linear_layout(src_enc, shape), to_linear_layout(dst_enc, shape)
    plan = register_maps.warp_plan(src, dst)
    if kind is None:
        assert plan is None
        return
    assert plan is not None
    transfer = plan.transfer
    shuffles = transfer.lane_map is not None or any(transfer.lane_offset)
    assert shuffles == (kind in ("shuffle", "swap"))
    assert (plan.after is not None) == (kind == "swap")
    assert len(transfer.terms) <= register_maps.MAX_SELECT_TERMS
    _simulate(plan, src, dst)


def test_warp_transfer_of_a_register_permutation_reads_its_own_lane():
    src, dst = to_linear_layout(T, [64, 64]), to_linear_layout(T, [64, 64])
    plan = register_maps.warp_transfer(src, dst)
    assert plan.terms == () and plan.lane_map is None and not any(plan.lane_offset)
    assert list(plan.base) == list(range(src.in_dim_size("register")))
