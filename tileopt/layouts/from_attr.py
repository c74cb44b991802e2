"""Bridge from IR layout attributes to the encoding dataclasses, by parameter name.

The xDSL attributes of ``tileopt.dialects`` carry Triton's parameter names
(``sizePerThread``, ``opIdx``, ...). :func:`encoding_from_attr` reads any object that looks
like that -- it needs a ``name`` such as ``"ttg.blocked"`` and either an ``as_dict()``
method or the parameters as attributes -- so this package never imports xDSL. Values may be
plain ints, bools and lists, or xDSL-style wrappers exposing ``.data`` (``IntAttr``,
``ArrayAttr``) or ``.value.data`` (``IntegerAttr``); parents are attributes of the same kind.
"""

from __future__ import annotations

from typing import Any

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
)
from tileopt.layouts.linear_layout import LayoutError

_MISSING = object()


def _plain(value: Any) -> Any:
    """Unwrap xDSL-like containers into ints, bools, lists (attributes with a name stay)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if _is_layout_attr(value):
        return value
    if hasattr(value, "get_values") and callable(value.get_values):  # DenseArrayBase
        return [_plain(v) for v in value.get_values()]
    if hasattr(value, "data"):
        return _plain(value.data)
    if hasattr(value, "value"):  # IntegerAttr -> IntAttr -> int
        return _plain(value.value)
    raise LayoutError(f"cannot read a layout parameter from {type(value).__name__}")


def _is_layout_attr(value: Any) -> bool:
    name = getattr(value, "name", None)
    return isinstance(name, str) and name.startswith(("ttg.", "triton_gpu."))


class _Reader:
    def __init__(self, attr: Any) -> None:
        self.attr = attr
        self.name = attr.name
        as_dict = getattr(attr, "as_dict", None)
        self.values = as_dict() if callable(as_dict) else None

    def get(self, key: str, default: Any = _MISSING) -> Any:
        if self.values is not None and key in self.values:
            raw = self.values[key]
        else:
            raw = getattr(self.attr, key, _MISSING)
            if raw is _MISSING:
                snake = "".join("_" + c.lower() if c.isupper() else c for c in key)
                raw = getattr(self.attr, snake, _MISSING)
        if raw is _MISSING:
            if default is _MISSING:
                raise LayoutError(f"{self.name} attribute has no '{key}' parameter")
            return default
        return _plain(raw)

    def ints(self, key: str, default: Any = _MISSING) -> tuple[int, ...] | None:
        value = self.get(key, default)
        return None if value is None else tuple(int(v) for v in value)

    def flag(self, key: str, default: Any = _MISSING) -> bool:
        return bool(self.get(key, default))

    def cta(self) -> dict[str, Any]:
        return {
            "ctas_per_cga": self.ints("CTAsPerCGA", None),
            "cta_split_num": self.ints("CTASplitNum", None),
            "cta_order": self.ints("CTAOrder", None),
        }

    def parent(self) -> Encoding:
        parent = self.get("parent")
        return encoding_from_attr(parent)


def encoding_from_attr(attr: Any) -> Encoding:
    """The encoding dataclass for an IR layout attribute (see the module docstring)."""
    if isinstance(attr, (Blocked, Slice, DotOperand, NvidiaMma, AmdMfma, AmdWmma, Linear,
                         SwizzledShared, NvmmaShared)):
        return attr
    name = getattr(attr, "name", None)
    if not isinstance(name, str):
        raise LayoutError(f"{type(attr).__name__} is not a layout attribute (it has no name)")
    kind = name.split(".", 1)[-1]
    r = _Reader(attr)
    if kind == "blocked":
        return Blocked(r.ints("sizePerThread"), r.ints("threadsPerWarp"), r.ints("warpsPerCTA"),
                       r.ints("order"), **r.cta())
    if kind == "slice":
        return Slice(int(r.get("dim")), r.parent())
    if kind == "dot_op":
        return DotOperand(int(r.get("opIdx")), r.parent(), int(r.get("kWidth", 0)))
    if kind == "nvidia_mma":
        return NvidiaMma(int(r.get("versionMajor")), int(r.get("versionMinor", 0)),
                         r.ints("warpsPerCTA"), r.ints("instrShape"), **r.cta())
    if kind == "amd_mfma":
        return AmdMfma(int(r.get("version")), r.ints("warpsPerCTA"), r.ints("instrShape"),
                       r.flag("isTransposed"), tiles_per_warp=r.ints("tilesPerWarp", None),
                       element_bit_width=int(r.get("elementBitWidth", 32) or 32), **r.cta())
    if kind == "amd_wmma":
        transposed = r.get("isTranspose", None)
        if transposed is None:
            transposed = r.get("isTransposed", False)
        return AmdWmma(int(r.get("version")), bool(transposed), r.ints("warpsPerCTA"),
                       r.ints("instrShape", None) or (16, 16, 16), **r.cta())
    if kind == "linear":
        return Linear(*(r.get(d, []) for d in ("register", "lane", "warp", "block")))
    if kind in ("swizzled_shared", "amd_rotating_shared"):
        cls = SwizzledShared if kind == "swizzled_shared" else AmdRotatingShared
        return cls(int(r.get("vec")), int(r.get("perPhase")), int(r.get("maxPhase")),
                   r.ints("order"), **r.cta())
    if kind == "nvmma_shared":
        bits = r.get("elementBitWidth", None)
        return NvmmaShared(int(r.get("swizzlingByteWidth")), r.flag("transposed", False),
                           None if bits is None else int(bits), r.flag("fp4Padded", False), **r.cta())
    raise LayoutError(f"layout '#{name}' has no linear-layout conversion here")
