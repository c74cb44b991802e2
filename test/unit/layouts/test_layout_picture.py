"""``tileopt-layout --png``: the legend names only the warps that own an element (the ones
that only hold copies in one entry), and the grid has row and column indices."""

from __future__ import annotations

from pathlib import Path

import pytest

from tileopt.layouts.encodings import Blocked, to_linear_layout
from tileopt.layouts.picture import _indices, draw_layout

PIL = pytest.importorskip("PIL.Image", reason="the pictures need Pillow")


def test_warps_that_only_hold_copies_share_one_legend_entry(tmp_path: Path):
    # 4 warps over 2 rows: warps 2 and 3 wrap around and hold copies of rows 0 and 1.
    layout = to_linear_layout(Blocked([1, 1], [1, 32], [4, 1], [1, 0]), [2, 32])
    drawn = draw_layout(layout, [2, 32], str(tmp_path / "b.png"))
    assert drawn.legend == ["warp 0", "warp 1", "warps 2, 3: copies only"]
    assert drawn.row_labels == [0, 1]
    assert drawn.col_labels == list(range(32))
    assert PIL.open(tmp_path / "b.png").format == "PNG"


def test_every_warp_owning_elements_is_listed(tmp_path: Path):
    layout = to_linear_layout(Blocked([1, 4], [8, 4], [4, 1], [1, 0]), [32, 16])
    drawn = draw_layout(layout, [32, 16], str(tmp_path / "a.png"))
    assert drawn.legend == [f"warp {w}" for w in range(4)]
    assert drawn.row_labels == list(range(32))


def test_indices_thin_out_where_they_would_not_fit():
    assert _indices(8, 20, 10) == list(range(8))
    # 4-pixel cells, labels up to 14 pixels: every 5th
    assert _indices(128, 4, 14) == list(range(0, 128, 5))
