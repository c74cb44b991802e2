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
