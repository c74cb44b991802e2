"""Layouts: Triton's linear layouts and the map from every layout attribute to one.

- :mod:`~tileopt.layouts.linear_layout` -- :class:`LinearLayout`, the GF(2) algebra
  (product, compose, invert_and_compose, divide_left, free-variable masks, reshapes).
- :mod:`~tileopt.layouts.encodings` -- the ``#ttg.*`` layout attributes as dataclasses,
  :func:`to_linear_layout`, and per-thread queries (elements, vector width, orders).
- :mod:`~tileopt.layouts.tiling` -- fitting a layout tile to a tensor shape.
- :mod:`~tileopt.layouts.views`, :mod:`~tileopt.layouts.picture` -- what the
  ``tileopt-layout`` tool prints and draws.

Nothing here imports xDSL, so all of it can be tested exhaustively with plain pytest. The
IR attributes sit above this package: each ``#ttg`` attribute gives its dataclass with
``to_encoding()``, and ``tileopt.dialects.layout_of`` is the one route from a type to its
linear layout.
"""

from tileopt.layouts.encodings import Encoding, to_linear_layout
from tileopt.layouts.linear_layout import LayoutError, LinearLayout, divide_left, divide_right

__all__ = ["Encoding", "LayoutError", "LinearLayout", "divide_left", "divide_right", "to_linear_layout"]
