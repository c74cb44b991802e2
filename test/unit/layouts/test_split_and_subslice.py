"""``split_last_dim`` (tt.split/tt.join's layout rule) and ``subslice_splits_swizzle``
(ttg.memdesc_subslice's), on layouts whose answer follows from their definitions."""

from __future__ import annotations

import pytest

from tileopt.layouts.encodings import (
    Blocked, SwizzledShared, split_last_dim, subslice_splits_swizzle, to_linear_layout,
)
from tileopt.layouts.linear_layout import LayoutError


def test_split_of_a_blocked_pair_is_the_blocked_layout_without_it():
    # the pair is the fastest register dim: removing it leaves the 1-D blocked layout
    joined = Blocked((2, 2), (32, 1), (4, 1), (1, 0))
    half = Blocked((2,), (32,), (4,), (0,))
    assert split_last_dim(joined, [256, 2]) == to_linear_layout(half, [256])


def test_split_keeps_the_other_registers_in_order():
    joined = Blocked((1, 4, 2), (2, 16, 1), (4, 1, 1), (2, 1, 0))
    assert split_last_dim(joined, [8, 64, 2]) == to_linear_layout(
        Blocked((1, 4), (2, 16), (4, 1), (1, 0)), [8, 64])
    assert split_last_dim(joined, [8, 64, 2]) != to_linear_layout(
        Blocked((1, 1), (2, 16), (4, 1), (1, 0)), [8, 64])


def test_split_needs_the_pair_in_one_thread():
    across_lanes = Blocked((1, 1), (16, 2), (4, 1), (1, 0))
    with pytest.raises(LayoutError, match="one thread's registers"):
        split_last_dim(across_lanes, [64, 2])


def test_subslice_across_the_swizzle_period_is_refused():
    # rows r and r + 4 of a maxPhase-8 layout XOR their columns differently
    shared = SwizzledShared(2, 1, 8, (1, 0))
    assert subslice_splits_swizzle(shared, [32, 16], [32, 16], [4, 16]) == 0
    # whole periods of 8 rows, or column halves within a row, keep every tile alike
    assert subslice_splits_swizzle(shared, [32, 16], [32, 16], [8, 16]) is None
    assert subslice_splits_swizzle(shared, [32, 16], [32, 16], [32, 8]) is None


def test_subslice_of_an_unswizzled_layout_is_always_fine():
    plain = SwizzledShared(1, 1, 1, (1, 0))
    assert subslice_splits_swizzle(plain, [32, 16], [32, 16], [4, 2]) is None
