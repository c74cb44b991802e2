"""``broadcast_stays_in_threads``: when a tt.broadcast may change layout (Triton 3.9)."""

from __future__ import annotations

from tileopt.layouts.encodings import Blocked, broadcast_stays_in_threads


def test_same_lanes_along_the_kept_dim_more_registers_along_the_broadcast_one():
    # corpus-3.9 hip-gfx1100 matmul: 1x128 in [1, 8] per thread -> 64x128 in [4, 8].
    row = Blocked((1, 8), (2, 16), (8, 1), (1, 0))
    tile = Blocked((4, 8), (2, 16), (8, 1), (1, 0))
    assert broadcast_stays_in_threads(row, (1, 128), tile, (64, 128))


def test_a_layout_that_moves_the_row_between_lanes_is_refused():
    row = Blocked((1, 8), (2, 16), (8, 1), (1, 0))
    other = Blocked((1, 4), (1, 32), (8, 1), (1, 0))
    assert not broadcast_stays_in_threads(row, (1, 128), other, (64, 128))


def test_the_same_layout_always_stays():
    column = Blocked((1, 1), (32, 1), (4, 1), (0, 1))
    assert broadcast_stays_in_threads(column, (128, 1), column, (128, 64))

