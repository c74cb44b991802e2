"""The one route from a TritonGPU type to its layout.

A ``tensor<...xT, #layout>`` or ``!ttg.memdesc<...xT, #shared, ...>`` carries a ``#ttg``
layout attribute; the attribute knows its :mod:`tileopt.layouts` encoding
(``to_encoding()``), and the encoding knows its linear layout for a shape. Every pass and
analysis asks here, so both steps are taken once per attribute and once per type (xDSL
attributes are immutable and hashable, so they key the caches).
"""

from __future__ import annotations

from functools import lru_cache

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute

from tileopt.dialects.ttg_attrs import LayoutAttr
from tileopt.dialects.ttg_types import MemDescType
from tileopt.layouts.encodings import Encoding, to_linear_layout
from tileopt.layouts.linear_layout import LayoutError, LinearLayout


def layout_attr_of(type_or_layout: Attribute) -> Attribute | None:
    """The layout attribute of a tensor or memdesc type (a layout is its own); None when
    there is none (a scalar, a tensor without encoding)."""
    if isinstance(type_or_layout, (TensorType, MemDescType)):
        type_or_layout = type_or_layout.encoding
    if isinstance(type_or_layout, LayoutAttr):
        return type_or_layout
    return None


@lru_cache(maxsize=None)
def encoding_of(type_or_layout: Attribute) -> Encoding:
    """The encoding dataclass of a tensor/memdesc type or of a layout attribute."""
    layout = layout_attr_of(type_or_layout)
    if layout is None:
        raise LayoutError(f"{type_or_layout} has no TritonGPU layout")
    return layout.to_encoding()


@lru_cache(maxsize=None)
def linear_layout_of(ty: TensorType | MemDescType) -> LinearLayout:
    """Which register/lane/warp/block (or shared-memory offset) holds each element of ``ty``."""
    return to_linear_layout(encoding_of(ty), ty.get_shape())
