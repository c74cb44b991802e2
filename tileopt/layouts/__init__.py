"""Layouts: Triton's linear layouts and the map from every layout attribute to one.

- :mod:`~tileopt.layouts.linear_layout` -- :class:`LinearLayout`, the GF(2) algebra
  (product, compose, invert_and_compose, divide_left, free-variable masks, reshapes).
- :mod:`~tileopt.layouts.encodings` -- the ``#ttg.*`` layout attributes as dataclasses,
  :func:`to_linear_layout`, and per-thread queries (elements, vector width, orders).
- :mod:`~tileopt.layouts.tiling` -- fitting a layout tile to a tensor shape.
- :mod:`~tileopt.layouts.parse_text` -- read and print Triton's layout text.
- :mod:`~tileopt.layouts.from_attr` -- convert IR attributes (by parameter name).
- :mod:`~tileopt.layouts.views`, :mod:`~tileopt.layouts.picture` -- what the
  ``tileopt-layout`` tool prints and draws.

Nothing here imports xDSL, so all of it can be tested exhaustively with plain pytest.
"""

from tileopt.layouts.encodings import (
    AmdMfma,
    AmdRotatingShared,
    AmdWmma,
    Blocked,
    DotOperand,
    Encoding,
    Linear,
    NvidiaMma,
    NvmmaShared,
    Slice,
    SwizzledShared,
    to_linear_layout,
)
from tileopt.layouts.from_attr import encoding_from_attr
from tileopt.layouts.linear_layout import LayoutError, LinearLayout, divide_left, divide_right
from tileopt.layouts.parse_text import LayoutTextError, format_layout, parse_layout

__all__ = [
    "AmdMfma", "AmdRotatingShared", "AmdWmma", "Blocked", "DotOperand", "Encoding", "LayoutError",
    "LayoutTextError", "Linear", "LinearLayout", "NvidiaMma", "NvmmaShared", "Slice", "SwizzledShared",
    "divide_left", "divide_right", "encoding_from_attr", "format_layout", "parse_layout", "to_linear_layout",
]
