"""TritonGPU layout ("encoding") attributes, read and written in Triton's own syntax.

Every tensor in TritonGPU IR carries an encoding that says which thread holds which element:
distributed layouts (``#ttg.blocked``, ``#ttg.slice``, ``#ttg.dot_op``, ``#ttg.nvidia_mma``,
``#ttg.amd_mfma``, ``#ttg.amd_wmma``, ``#ttg.linear``) for registers, shared layouts
(``#ttg.swizzled_shared``, ``#ttg.nvmma_shared``, ``#ttg.amd_rotating_shared``,
``#ttg.padded_shared``) for ``!ttg.memdesc`` buffers, and the memory space
``#ttg.shared_memory``.

Syntax and defaults follow Triton 3.6 (``lib/Dialect/TritonGPU/IR/Dialect.cpp``): the body
is a dictionary ``<{key = value, ...}>`` printed in a fixed key order, and optional keys are
printed only when they differ from their default (the CTA layout ``CTAsPerCGA``/
``CTASplitNum``/``CTAOrder`` only when it is not the single-CTA default, ``kWidth`` only when
non-zero, ...).

Each layout declares its parameters once, in ``FIELDS`` (Triton's names: ``sizePerThread``,
``warpsPerCTA``, ``opIdx``, ...); the IRDL parameters, the syntax, the defaults, ``get``
and ``as_dict`` follow from that table, and ``to_encoding()`` hands the values to the
layout's dataclass in :mod:`tileopt.layouts`, where the linear-layout math lives.
Storage convention:
integer lists are ``ArrayAttr[IntAttr]``, integers and booleans are ``IntAttr`` (booleans
as 0/1), linear-layout bases are ``ArrayAttr[ArrayAttr[IntAttr]]``, parents are attributes.
``attr.as_dict()`` gives the same values as plain Python ints, bools and tuples.

Each class with a ``triton_alias`` is hoisted by the printer to a ``#<alias>`` definition at
the top of the file, as triton-opt does (``#blocked``, ``#mma``, ``#shared``, ``#smem``,
``#linear``); slices and dot operands are printed inline, as in Triton.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntAttr, IntegerAttr, IntegerType
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

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
from tileopt.dialects.triton_version import note_spelling, prints_39
from tileopt.layouts.linear_layout import LayoutError

# --------------------------------------------------------------------------------------
# Small value helpers
# --------------------------------------------------------------------------------------


def int_array(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr([IntAttr(int(v)) for v in values])


def bases_array(bases: Sequence[Sequence[int]]) -> ArrayAttr[ArrayAttr[IntAttr]]:
    return ArrayAttr([int_array(b) for b in bases])


def ints_of(attr: ArrayAttr[IntAttr]) -> tuple[int, ...]:
    return tuple(v.data for v in attr.data)


def bases_of(attr: ArrayAttr[ArrayAttr[IntAttr]]) -> tuple[tuple[int, ...], ...]:
    return tuple(ints_of(b) for b in attr.data)


def _is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


def _is_permutation(order: Sequence[int]) -> bool:
    return sorted(order) == list(range(len(order)))


def _fmt(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def triton_alias(alias: str):
    """Give an attribute class the alias triton-opt prints it under (``#blocked``, ...).

    Set after ``irdl_attr_definition`` because IRDL treats class fields as parameters.
    """

    def decorate(cls):
        cls.triton_alias = alias
        return cls

    return decorate


def default_cta_order(rank: int) -> tuple[int, ...]:
    return tuple(reversed(range(rank)))


def single_cta(rank: int) -> tuple[ArrayAttr[IntAttr], ArrayAttr[IntAttr], ArrayAttr[IntAttr]]:
    """CTAsPerCGA, CTASplitNum and CTAOrder of a layout over one CTA (Triton's default)."""
    return int_array([1] * rank), int_array([1] * rank), int_array(default_cta_order(rank))


def _length(values: dict[str, Attribute], key: str) -> int:
    """The length of the array parameter ``key`` read so far (0 when it is absent)."""
    return len(values[key].data) if key in values else 0  # type: ignore[attr-defined]


# --------------------------------------------------------------------------------------
# Parameter declarations: each layout lists its parameters once, in ``FIELDS``; the IRDL
# parameters, the `{...}` syntax, the defaults, ``get`` and ``as_dict`` all follow from it
# --------------------------------------------------------------------------------------

INT, BOOL, INTS, BASES, ATTR = "int", "bool", "ints", "bases", "attr"

_STORAGE: dict[str, Any] = {
    INT: IntAttr,
    BOOL: IntAttr,
    INTS: ArrayAttr[IntAttr],
    BASES: ArrayAttr[ArrayAttr[IntAttr]],
    ATTR: Attribute,
}

_REQUIRED = object()


@dataclass(frozen=True)
class _Field:
    """One parameter: its Triton name, kind, default and when printing leaves it out.

    ``default`` is a plain value, or a function of the parameters read so far (for
    defaults that depend on the rank); ``omit_if`` says of a stored value that Triton
    does not print it.
    """

    name: str
    kind: str  # INT, BOOL, INTS, BASES or ATTR
    default: Any = _REQUIRED
    omit_if: Callable[[Attribute], bool] | None = None

    def default_for(self, values: dict[str, Attribute]) -> Attribute | None:
        if self.default is _REQUIRED:
            return None
        value = self.default(values) if callable(self.default) else self.default
        return _stored(self.kind, value)


def _stored(kind: str, value: Any) -> Attribute:
    """A plain Python value as the parameter's storage (attributes pass through)."""
    if isinstance(value, Attribute):
        return value
    if kind in (INT, BOOL):
        return IntAttr(int(value))
    if kind == INTS:
        return int_array(value)
    if kind == BASES:
        return bases_array(value)
    raise TypeError(f"expected an attribute, got {value!r}")


_CTA_FIELDS = ("CTAsPerCGA", "CTASplitNum", "CTAOrder")


def _cta_fields(rank_of: str | int) -> tuple[_Field, ...]:
    """The CTA layout, single-CTA by default, of the rank of parameter ``rank_of`` (or a
    fixed rank). Printed all together, and only when it is not that default."""

    def rank(values: dict[str, Attribute]) -> int:
        return rank_of if isinstance(rank_of, int) else _length(values, rank_of)

    return (
        _Field("CTAsPerCGA", INTS, lambda values: [1] * rank(values)),
        _Field("CTASplitNum", INTS, lambda values: [1] * rank(values)),
        _Field("CTAOrder", INTS, lambda values: default_cta_order(rank(values))),
    )


def _params(**kinds: str) -> tuple[_Field, ...]:
    """Required parameters of the given kinds, in the order written."""
    return tuple(_Field(name, kind) for name, kind in kinds.items())


def layout_attr_definition(name: str, alias: str | None = None):
    """``irdl_attr_definition`` of the layout ``#name``, its IRDL parameters taken from
    ``cls.FIELDS``; ``alias`` is the name triton-opt hoists it under (``#blocked``, ...)."""

    def define(cls):
        cls.name = name
        cls.__annotations__ = {f.name: _STORAGE[f.kind] for f in cls.FIELDS}
        defined = irdl_attr_definition(cls)
        if alias is not None:
            defined.triton_alias = alias
        return defined

    return define


def _convert(parser: AttrParser, key: str, kind: str, value: Attribute, where: int) -> Attribute:
    """Turn one dictionary entry into the stored parameter, or report a readable error."""

    def scalar(v: Attribute) -> int:
        if not isinstance(v, IntegerAttr) or (
            isinstance(v.type, IntegerType) and v.type.width.data == 1
        ):
            parser.raise_error(f"expected an integer in '{key}'", where, parser.pos)
        if v.value.data < 0:
            parser.raise_error(f"expected an unsigned integer value in '{key}'", where, parser.pos)
        return v.value.data

    if kind == INT:
        return IntAttr(scalar(value))
    if kind == BOOL:
        if not (
            isinstance(value, IntegerAttr)
            and isinstance(value.type, IntegerType)
            and value.type.width.data == 1
        ):
            parser.raise_error(f"expected 'true' or 'false' for '{key}'", where, parser.pos)
        return IntAttr(1 if value.value.data != 0 else 0)
    if kind == INTS:
        if not isinstance(value, ArrayAttr):
            parser.raise_error(f"expected an array of integers for '{key}'", where, parser.pos)
        return ArrayAttr([IntAttr(scalar(v)) for v in value.data])
    if kind == BASES:
        if not isinstance(value, ArrayAttr) or not all(
            isinstance(b, ArrayAttr) for b in value.data
        ):
            parser.raise_error(f"expected an array of arrays for basis '{key}'", where, parser.pos)
        bases = []
        for basis in value.data:
            entries = []
            for v in basis.data:  # type: ignore[union-attr]
                if not isinstance(v, IntegerAttr):
                    parser.raise_error(f"expected integers in basis '{key}'", where, parser.pos)
                entries.append(IntAttr(v.value.data))
            bases.append(ArrayAttr(entries))
        return ArrayAttr(bases)
    return value  # ATTR


class LayoutAttr(ParametrizedAttribute):
    """A TritonGPU layout: an attribute that knows its encoding."""

    def to_encoding(self) -> Encoding:
        """The layout as its :mod:`tileopt.layouts` dataclass (the linear-layout math)."""
        raise LayoutError(f"layout '#{self.name}' has no linear-layout conversion here")

    def infer_expand_dims_encoding(self, axis: int) -> Attribute | None:
        """The layout of ``tt.expand_dims`` at ``axis`` of a tensor in this layout, None
        where there is none (TritonGPU's ``inferExpandDimsOpEncoding``, which the ``tt``
        dialect asks through the encoding, never naming ``ttg``): only a slice along
        ``axis`` expands, to its parent."""
        return None


class TritonGPULayoutAttr(LayoutAttr):
    """Base of the ``#ttg.<layout><{...}>`` encodings: dictionary syntax, checks, as_dict."""

    FIELDS: ClassVar[tuple[_Field, ...]] = ()

    # --- to be specialised -----------------------------------------------------------
    def check(self) -> str | None:
        """A readable message if the parameters break one of Triton's rules."""
        return None

    # --- shared machinery ------------------------------------------------------------
    def verify(self) -> None:
        problem = self.check()
        if problem is not None:
            raise VerifyException(f"{self.name}: {problem}")

    @classmethod
    def _fill_defaults(cls, values: dict[str, Attribute]) -> None:
        """Give absent optional parameters their Triton default."""
        for f in cls.FIELDS:
            if f.name not in values:
                default = f.default_for(values)
                if default is not None:
                    values[f.name] = default

    @classmethod
    def get(cls, *args: Any, **kwargs: Any):
        """The attribute from plain Python values: positional in ``FIELDS`` order with the
        CTA layout last, by Triton's names, or left out (or None) for the default."""
        names = [f.name for f in cls.FIELDS if f.name not in _CTA_FIELDS]
        names += [f.name for f in cls.FIELDS if f.name in _CTA_FIELDS]
        if len(args) > len(names):
            raise TypeError(f"{cls.__name__}.get takes at most {len(names)} values")
        fields = {f.name: f for f in cls.FIELDS}
        given = dict(zip(names, args), **kwargs)
        values = {k: _stored(fields[k].kind, v) for k, v in given.items() if v is not None}
        cls._fill_defaults(values)
        return cls(*(values[f.name] for f in cls.FIELDS))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        parser.parse_punctuation("<")
        body = parser.parse_attribute()
        if not isinstance(body, DictionaryAttr):
            parser.raise_error(f"#{cls.name} expects a dictionary body '<{{...}}>'", start)
        parser.parse_punctuation(">")
        fields = {f.name: f for f in cls.FIELDS}
        values: dict[str, Attribute] = {}
        for key, value in cls._read_entries(parser, dict(body.data), start).items():
            if key not in fields:
                parser.raise_error(f"#{cls.name}: unexpected key '{key}'", start, parser.pos)
            values[key] = _convert(parser, key, fields[key].kind, value, start)
        present_cta = [k for k in _CTA_FIELDS if k in values]
        if present_cta and len(present_cta) != len(_CTA_FIELDS):
            parser.raise_error(
                f"#{cls.name}: CTAsPerCGA, CTASplitNum, and CTAOrder must all be present "
                "or all be absent",
                start,
                parser.pos,
            )
        cls._fill_defaults(values)
        for f in cls.FIELDS:
            if f.name not in values:
                parser.raise_error(f"#{cls.name}: missing '{f.name}'", start, parser.pos)
        params = [values[f.name] for f in cls.FIELDS]
        try:
            cls.new(params)
        except VerifyException as err:
            parser.raise_error(str(err), start, parser.pos)
        return params

    @classmethod
    def _read_entries(cls, parser: AttrParser, entries: dict[str, Attribute],
                      start: int) -> dict[str, Attribute]:
        """The body's entries as ``FIELDS`` names them (a layout another Triton version
        spells differently translates that spelling here)."""
        return entries

    def _printed_fields(self) -> list[str]:
        """The keys printed, in Triton's order, leaving out those at their default."""
        names = []
        for f in self.FIELDS:
            if f.name in _CTA_FIELDS:
                if not self.cta_is_default():  # type: ignore[attr-defined]
                    names.append(f.name)
            elif f.omit_if is None or not f.omit_if(getattr(self, f.name)):
                names.append(f.name)
        return names

    def print_parameters(self, printer: Printer) -> None:
        kinds = {f.name: f.kind for f in self.FIELDS}
        printer.print_string("<{")
        first = True
        for key in self._printed_fields():
            if not first:
                printer.print_string(", ")
            first = False
            printer.print_string(f"{key} = ")
            if key not in kinds:
                self._print_entry(printer, key)
                continue
            value = getattr(self, key)
            kind = kinds[key]
            if kind == INT:
                printer.print_string(str(value.data))
            elif kind == BOOL:
                printer.print_string("true" if value.data else "false")
            elif kind == INTS:
                printer.print_string(_fmt(ints_of(value)))
            elif kind == BASES:
                printer.print_string(
                    "[" + ", ".join(_fmt(b) for b in bases_of(value)) + "]"
                )
            else:
                printer.print_attribute(value)
        printer.print_string("}>")

    def _print_entry(self, printer: Printer, key: str) -> None:
        """The value of a printed key that is no parameter (another version's spelling)."""
        raise KeyError(key)

    def as_dict(self) -> dict[str, Any]:
        """Parameters as plain Python values keyed by Triton's names."""
        result: dict[str, Any] = {}
        for f in self.FIELDS:
            value = getattr(self, f.name)
            if f.kind == INT:
                result[f.name] = value.data
            elif f.kind == BOOL:
                result[f.name] = bool(value.data)
            elif f.kind == INTS:
                result[f.name] = ints_of(value)
            elif f.kind == BASES:
                result[f.name] = bases_of(value)
            else:
                result[f.name] = value
        return result


class _CTAMixin:
    """The CTA layout (CTAsPerCGA, CTASplitNum, CTAOrder) that most layouts carry.

    The parameters themselves are declared by each attribute class (``_cta_fields``).
    """

    def cta_is_default(self) -> bool:
        rank = len(self.CTAOrder.data)
        return (
            ints_of(self.CTAsPerCGA) == (1,) * rank
            and ints_of(self.CTASplitNum) == (1,) * rank
            and ints_of(self.CTAOrder) == default_cta_order(rank)
        )

    def check_cta(self, rank: int) -> str | None:
        per_cga, split, order = (
            ints_of(self.CTAsPerCGA),
            ints_of(self.CTASplitNum),
            ints_of(self.CTAOrder),
        )
        if not len(per_cga) == len(split) == len(order) == rank:
            return (
                "CTAsPerCGA, CTASplitNum and CTAOrder must have the layout's rank "
                f"{rank}, got {_fmt(per_cga)}, {_fmt(split)}, {_fmt(order)}"
            )
        if not _is_permutation(order):
            return f"CTAOrder must be a permutation of 0..{rank - 1}, but was {_fmt(order)}"
        if any(v == 0 for v in per_cga + split):
            return "every element of CTAsPerCGA and CTASplitNum must be greater than 0"
        return None

    def cta(self) -> dict[str, tuple[int, ...]]:
        """The CTA layout as the encodings' keyword arguments."""
        return {
            "ctas_per_cga": ints_of(self.CTAsPerCGA),
            "cta_split_num": ints_of(self.CTASplitNum),
            "cta_order": ints_of(self.CTAOrder),
        }


# --------------------------------------------------------------------------------------
# Distributed layouts
# --------------------------------------------------------------------------------------


@layout_attr_definition("ttg.blocked", alias="blocked")
class BlockedEncodingAttr(_CTAMixin, TritonGPULayoutAttr):
    """``#ttg.blocked``: each thread owns a sizePerThread block, tiled over lanes and warps."""

    FIELDS = (
        *_params(sizePerThread=INTS, threadsPerWarp=INTS, warpsPerCTA=INTS, order=INTS),
        *_cta_fields("sizePerThread"),
    )

    @property
    def rank(self) -> int:
        return len(self.order.data)

    def to_encoding(self) -> Blocked:
        d = self.as_dict()
        return Blocked(d["sizePerThread"], d["threadsPerWarp"], d["warpsPerCTA"], d["order"],
                       **self.cta())

    def check(self) -> str | None:
        lists = {
            "sizePerThread": ints_of(self.sizePerThread),
            "threadsPerWarp": ints_of(self.threadsPerWarp),
            "warpsPerCTA": ints_of(self.warpsPerCTA),
            "order": ints_of(self.order),
        }
        if len({len(v) for v in lists.values()}) != 1:
            return (
                "sizePerThread, threadsPerWarp, warpsPerCTA and order must all have the "
                "same rank, got "
                + ", ".join(f"{k} = {_fmt(v)}" for k, v in lists.items())
            )
        for key in ("sizePerThread", "threadsPerWarp", "warpsPerCTA"):
            if not all(_is_power_of_two(v) for v in lists[key]):
                return f"every element of {key} must be a power of two, got {_fmt(lists[key])}"
        if not _is_permutation(lists["order"]):
            return (
                f"order must be a permutation of 0..{self.rank - 1}, "
                f"but was {_fmt(lists['order'])}"
            )
        return self.check_cta(self.rank)


def layout_rank(layout: Attribute) -> int | None:
    """The tensor rank a layout describes, or None for attributes that are not layouts."""
    if isinstance(layout, BlockedEncodingAttr):
        return layout.rank
    if isinstance(layout, _MmaLayout):
        return layout.rank
    if isinstance(layout, SliceEncodingAttr):
        parent = layout_rank(layout.parent)
        return None if parent is None else parent - 1
    if isinstance(layout, DotOperandEncodingAttr):
        return layout_rank(layout.parent)
    if isinstance(layout, LinearEncodingAttr):
        return layout.rank
    if isinstance(layout, (SwizzledSharedEncodingAttr, AMDRotatingSharedEncodingAttr)):
        return len(layout.order.data)
    if isinstance(layout, NVMMASharedEncodingAttr):
        return len(layout.CTAOrder.data)
    return None


def is_distributed_layout(layout: Attribute) -> bool:
    return isinstance(layout, DISTRIBUTED_LAYOUTS)


def is_shared_layout(layout: Attribute) -> bool:
    return isinstance(layout, SHARED_LAYOUTS)


def _parent_encoding(layout: Attribute) -> Encoding:
    if not isinstance(layout, LayoutAttr):
        raise LayoutError(f"the parent layout {layout} is not a TritonGPU layout")
    return layout.to_encoding()


@layout_attr_definition("ttg.slice")
class SliceEncodingAttr(TritonGPULayoutAttr):
    """``#ttg.slice``: the parent layout with dimension ``dim`` removed (reduce results)."""

    FIELDS = _params(dim=INT, parent=ATTR)

    def to_encoding(self) -> Slice:
        return Slice(self.dim.data, _parent_encoding(self.parent))

    def infer_expand_dims_encoding(self, axis: int) -> Attribute | None:
        return self.parent if self.dim.data == axis else None

    def check(self) -> str | None:
        if not is_distributed_layout(self.parent):
            return "parent must be a distributed layout (blocked, mma, slice, ...)"
        rank = layout_rank(self.parent)
        if rank is None or rank <= 1:
            return "parent layout must have rank >= 2"
        if self.dim.data >= rank:
            return f"slice dim={self.dim.data} must be less than the parent rank={rank}"
        return None


@layout_attr_definition("ttg.dot_op")
class DotOperandEncodingAttr(TritonGPULayoutAttr):
    """``#ttg.dot_op``: layout of operand ``opIdx`` (0 = A, 1 = B) of a dot with ``parent``."""

    FIELDS = (
        *_params(opIdx=INT, parent=ATTR),
        _Field("kWidth", INT, 0, omit_if=lambda v: v.data == 0),
    )

    def to_encoding(self) -> DotOperand:
        return DotOperand(self.opIdx.data, _parent_encoding(self.parent), self.kWidth.data)

    def check(self) -> str | None:
        op_idx, k_width, parent = self.opIdx.data, self.kWidth.data, self.parent
        if op_idx not in (0, 1):
            return f"opIdx can be 0 or 1, got {op_idx}"
        if isinstance(parent, NvidiaMmaEncodingAttr):
            major = parent.versionMajor.data
            if major in (2, 3) and k_width == 0:
                return "kWidth is mandatory for an Ampere or Hopper MMA parent"
            if major not in (2, 3) and k_width != 0:
                return "kWidth can only be non-zero for an Ampere or Hopper MMA parent"
            if major == 3 and op_idx != 0:
                return "opIdx must be 0 for a Hopper MMA parent (only A may be in registers)"
            return None
        if isinstance(parent, AMDMfmaEncodingAttr):
            return "kWidth is mandatory for an MFMA parent" if k_width == 0 else None
        if isinstance(parent, AMDWmmaEncodingAttr):
            allowed = {1: (8, 16), 2: (4, 8, 16), 3: (2, 8, 16)}.get(parent.version.data, ())
            if k_width not in allowed:
                return (
                    f"kWidth must be one of {list(allowed)} for WMMA v{parent.version.data}, "
                    f"got {k_width}"
                )
            return None
        if isinstance(parent, BlockedEncodingAttr):
            return "kWidth is not supported with a blocked parent" if k_width != 0 else None
        if isinstance(parent, LinearEncodingAttr):
            return None
        return "parent must be an MMA, MFMA, WMMA or blocked layout"


class _MmaLayout(_CTAMixin, TritonGPULayoutAttr):
    """The accumulator layouts of matrix instructions (nvidia_mma, amd_mfma, amd_wmma):
    warpsPerCTA fixes the rank, and each of its entries must be a power of two."""

    @property
    def rank(self) -> int:
        return len(self.warpsPerCTA.data)  # type: ignore[attr-defined]

    def check_warps_and_cta(self) -> str | None:
        warps = ints_of(self.warpsPerCTA)  # type: ignore[attr-defined]
        if not all(_is_power_of_two(v) for v in warps):
            return f"every element of warpsPerCTA must be a power of two, got {_fmt(warps)}"
        return self.check_cta(len(warps))


@layout_attr_definition("ttg.nvidia_mma", alias="mma")
class NvidiaMmaEncodingAttr(_MmaLayout):
    """``#ttg.nvidia_mma``: accumulator layout of mma.sync (v2, Ampere) or wgmma (v3, Hopper)."""

    FIELDS = (
        _Field("versionMajor", INT),
        _Field("versionMinor", INT, 0),
        _Field("warpsPerCTA", INTS),
        *_cta_fields("warpsPerCTA"),
        _Field("instrShape", INTS, ()),
    )

    def to_encoding(self) -> NvidiaMma:
        d = self.as_dict()
        return NvidiaMma(d["versionMajor"], d["versionMinor"], d["warpsPerCTA"], d["instrShape"],
                         **self.cta())

    def check(self) -> str | None:
        if self.versionMajor.data not in (1, 2, 3, 5):
            return f"versionMajor must be 1, 2, 3 or 5, got {self.versionMajor.data}"
        return self.check_warps_and_cta()


@layout_attr_definition("ttg.amd_mfma", alias="mma")
class AMDMfmaEncodingAttr(_MmaLayout):
    """``#ttg.amd_mfma``: accumulator layout of AMD CDNA matrix-core (MFMA) instructions."""

    # Triton 3.6's parser reads a missing version as 0 and isTransposed as false, and
    # skips keys it does not know (``isTranspose``, in some of Triton's own tests).
    FIELDS = (
        _Field("version", INT, 0),
        *_params(warpsPerCTA=INTS, instrShape=INTS),
        _Field("isTransposed", BOOL, False),
        *_cta_fields("warpsPerCTA"),
        _Field("tilesPerWarp", INTS, lambda values: [1] * _length(values, "instrShape"),
               omit_if=lambda v: all(t == 1 for t in ints_of(v))),
        _Field("elementBitWidth", INT, 32, omit_if=lambda v: v.data == 32),
    )

    @classmethod
    def _read_entries(cls, parser: AttrParser, entries: dict[str, Attribute],
                      start: int) -> dict[str, Attribute]:
        known = {f.name for f in cls.FIELDS}
        return {key: value for key, value in entries.items() if key in known}

    def to_encoding(self) -> AmdMfma:
        d = self.as_dict()
        return AmdMfma(d["version"], d["warpsPerCTA"], d["instrShape"], d["isTransposed"],
                       tiles_per_warp=d["tilesPerWarp"], element_bit_width=d["elementBitWidth"],
                       **self.cta())

    def check(self) -> str | None:
        if not 0 <= self.version.data <= 4:
            return f"version must be in the [0, 4] range, got {self.version.data}"
        shape = ints_of(self.instrShape)
        if len(shape) < 2 or (shape[0], shape[1]) not in ((32, 32), (16, 16), (64, 4), (4, 64)):
            return f"invalid instrShape {_fmt(shape)}: (mDim, nDim) must be 32x32, 16x16, 64x4 or 4x64"
        if self.elementBitWidth.data not in (32, 64):
            return f"elementBitWidth must be 32 or 64, got {self.elementBitWidth.data}"
        return self.check_warps_and_cta()


WMMA_DEFAULT_INSTR_SHAPE = (16, 16, 16)


def _bases_of_warps(warps: Sequence[int]) -> list[tuple[int, ...]]:
    """The warp bases of ``warpsPerCTA``: the last dimension first, each doubling."""
    rank = len(warps)
    bases = []
    for dim in reversed(range(rank)):
        step = 1
        while step < warps[dim]:
            bases.append(tuple(step if d == dim else 0 for d in range(rank)))
            step *= 2
    return bases


def _warps_of_bases(bases: Sequence[Sequence[int]]) -> tuple[int, ...] | None:
    """``warpsPerCTA`` whose warp bases are exactly ``bases``, None where there is none."""
    if not bases:
        return (1, 1)  # one warp: the text has no rank, and WMMA accumulators are 2-D
    rank = len(bases[0])
    warps = [1] * rank
    for basis in bases:
        moved = [d for d in range(rank) if basis[d]]
        if len(moved) != 1:
            return None
        warps[moved[0]] *= 2
    warps_tuple = tuple(warps)
    return warps_tuple if _bases_of_warps(warps_tuple) == [tuple(b) for b in bases] else None


@layout_attr_definition("ttg.amd_wmma", alias="mma")
class AMDWmmaEncodingAttr(_MmaLayout):
    """``#ttg.amd_wmma``: accumulator layout of AMD RDNA WMMA instructions."""

    FIELDS = (
        _Field("version", INT),
        _Field("isTranspose", BOOL, False),
        _Field("warpsPerCTA", INTS),
        *_cta_fields("warpsPerCTA"),
        _Field("instrShape", INTS, WMMA_DEFAULT_INSTR_SHAPE,
               omit_if=lambda v: ints_of(v) == WMMA_DEFAULT_INSTR_SHAPE),
    )

    def to_encoding(self) -> AmdWmma:
        d = self.as_dict()
        return AmdWmma(d["version"], d["isTranspose"], d["warpsPerCTA"], d["instrShape"],
                       **self.cta())

    # Triton 3.9 gives the warps as the bases of a linear layout, ``ctaLayout = {warp =
    # [[0, 1], [1, 0]]}``, where 3.6 writes ``warpsPerCTA = [2, 2]``: the same layout when
    # the bases fill the dimensions fastest-last-dimension first, as warpsPerCTA's do.

    @classmethod
    def _read_entries(cls, parser: AttrParser, entries: dict[str, Attribute],
                      start: int) -> dict[str, Attribute]:
        if "ctaLayout" not in entries:
            return entries
        note_spelling("3.9")
        cta = entries.pop("ctaLayout")
        if not isinstance(cta, DictionaryAttr) or set(cta.data) - {"warp"}:
            parser.raise_error(f"#{cls.name}: expected 'ctaLayout = {{warp = [...]}}'",
                               start, parser.pos)
        bases = bases_of(_convert(parser, "warp", BASES, cta.data.get("warp", ArrayAttr([])),
                                  start))
        warps = _warps_of_bases(bases)
        if warps is None or "warpsPerCTA" in entries:
            parser.raise_error(f"#{cls.name}: ctaLayout warp bases {list(bases)} are not "
                               "the dimension-ordered warps of a warpsPerCTA",
                               start, parser.pos)
        # As the text would give warpsPerCTA (integer literals), for the usual checks.
        return {**entries, "warpsPerCTA": ArrayAttr([IntegerAttr(w, 64) for w in warps])}

    def _printed_fields(self) -> list[str]:
        names = super()._printed_fields()
        if prints_39():
            names[names.index("warpsPerCTA")] = "ctaLayout"
        return names

    def _print_entry(self, printer: Printer, key: str) -> None:
        assert key == "ctaLayout"
        bases = _bases_of_warps(ints_of(self.warpsPerCTA))
        printer.print_string("{warp = [" + ", ".join(_fmt(b) for b in bases) + "]}")

    def check(self) -> str | None:
        version, shape = self.version.data, ints_of(self.instrShape)
        valid = {
            1: ((16, 16, 16),),
            2: ((16, 16, 16), (16, 16, 32)),
            3: ((16, 16, 4), (16, 16, 32), (16, 16, 64), (16, 16, 128)),
        }
        if version not in valid:
            return f"WMMA version must be in the [1, 3] range, got {version}"
        if shape not in valid[version]:
            return f"invalid WMMA v{version} instruction shape {_fmt(shape)}"
        return self.check_warps_and_cta()


@layout_attr_definition("ttg.linear", alias="linear")
class LinearEncodingAttr(TritonGPULayoutAttr):
    """``#ttg.linear``: a linear layout given by its bases for register, lane, warp, block."""

    FIELDS = _params(register=BASES, lane=BASES, warp=BASES, block=BASES)

    @classmethod
    def get(cls, register, lane, warp, block=()) -> LinearEncodingAttr:
        # ``block`` is required in the text but empty for one CTA.
        return super().get(register, lane, warp, block)

    @property
    def rank(self) -> int:
        for dim in (self.register, self.lane, self.warp, self.block):
            if dim.data:
                return len(dim.data[0].data)
        return 0

    def to_encoding(self) -> Linear:
        d = self.as_dict()
        return Linear(d["register"], d["lane"], d["warp"], d["block"])

    def check(self) -> str | None:
        rank = self.rank
        if rank == 0:
            return "an empty linear layout is not supported"
        for f in self.FIELDS:
            for basis in bases_of(getattr(self, f.name)):
                if len(basis) != rank:
                    return f"every basis must have {rank} entries, '{f.name}' has {_fmt(basis)}"
                if sum(1 for v in basis if v != 0) > 1:
                    return (
                        "in a distributed layout each basis must move in at most one "
                        f"dimension, '{f.name}' has {_fmt(basis)}"
                    )
        return None


# --------------------------------------------------------------------------------------
# Shared-memory layouts and the memory space
# --------------------------------------------------------------------------------------


class _SwizzledBase(_CTAMixin, TritonGPULayoutAttr):
    """Shared layouts described by vec / perPhase / maxPhase / order."""

    ENCODING: ClassVar[type[SwizzledShared]]

    FIELDS = (*_params(vec=INT, perPhase=INT, maxPhase=INT, order=INTS), *_cta_fields("order"))

    def to_encoding(self) -> SwizzledShared:
        d = self.as_dict()
        return self.ENCODING(d["vec"], d["perPhase"], d["maxPhase"], d["order"], **self.cta())

    def check(self) -> str | None:
        order = ints_of(self.order)
        if not _is_permutation(order):
            return f"order must be a permutation of 0..{len(order) - 1}, but was {_fmt(order)}"
        return self.check_cta(len(order))


@layout_attr_definition("ttg.swizzled_shared", alias="shared")
class SwizzledSharedEncodingAttr(_SwizzledBase):
    """``#ttg.swizzled_shared``: XOR-swizzled shared memory (vec, perPhase, maxPhase)."""

    ENCODING = SwizzledShared


@layout_attr_definition("ttg.amd_rotating_shared", alias="shared")
class AMDRotatingSharedEncodingAttr(_SwizzledBase):
    """``#ttg.amd_rotating_shared``: swizzled shared memory whose pattern rotates per block."""

    ENCODING = AmdRotatingShared


@layout_attr_definition("ttg.nvmma_shared", alias="shared")
class NVMMASharedEncodingAttr(_CTAMixin, TritonGPULayoutAttr):
    """``#ttg.nvmma_shared``: the swizzled layout Hopper wgmma and TMA read directly."""

    FIELDS = (
        _Field("swizzlingByteWidth", INT),
        _Field("transposed", BOOL, False),
        _Field("elementBitWidth", INT),
        _Field("fp4Padded", BOOL, False, omit_if=lambda v: not v.data),
        *_cta_fields(2),
    )

    def to_encoding(self) -> NvmmaShared:
        d = self.as_dict()
        return NvmmaShared(d["swizzlingByteWidth"], d["transposed"], d["elementBitWidth"],
                           d["fp4Padded"], **self.cta())

    def check(self) -> str | None:
        if self.swizzlingByteWidth.data not in (0, 32, 64, 128):
            return (
                "swizzlingByteWidth must be 0, 32, 64 or 128, "
                f"got {self.swizzlingByteWidth.data}"
            )
        if not _is_power_of_two(self.elementBitWidth.data):
            return f"elementBitWidth must be a power of two, got {self.elementBitWidth.data}"
        return self.check_cta(len(self.CTAOrder.data))


@triton_alias("shared")
@irdl_attr_definition
class PaddedSharedEncodingAttr(LayoutAttr):
    """``#ttg.padded_shared<[interval:+padding, ...] {order = [..], shape = [..]}>``.

    Only the short ``order``/``shape`` form (an identity offset mapping) is read; Triton
    prints that form whenever the layout allows it.
    """

    name = "ttg.padded_shared"

    intervals: ArrayAttr[IntAttr]
    paddings: ArrayAttr[IntAttr]
    order: ArrayAttr[IntAttr]
    shape: ArrayAttr[IntAttr]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        parser.parse_punctuation("<")
        parser.parse_punctuation("[")
        intervals: list[int] = []
        paddings: list[int] = []

        def pair() -> None:
            intervals.append(parser.parse_integer(allow_boolean=False, allow_negative=False))
            parser.parse_punctuation(":")
            parser.parse_punctuation("+")
            paddings.append(parser.parse_integer(allow_boolean=False, allow_negative=False))

        parser.parse_comma_separated_list(parser.Delimiter.NONE, pair)
        parser.parse_punctuation("]")
        body = parser.parse_attribute()
        parser.parse_punctuation(">")
        if not isinstance(body, DictionaryAttr) or set(body.data) != {"order", "shape"}:
            parser.raise_error(
                "#ttg.padded_shared: only the '{order = [...], shape = [...]}' form is supported",
                start,
                parser.pos,
            )
        order = _convert(parser, "order", INTS, body.data["order"], start)
        shape = _convert(parser, "shape", INTS, body.data["shape"], start)
        params = [int_array(intervals), int_array(paddings), order, shape]
        try:
            cls.new(params)
        except VerifyException as err:
            parser.raise_error(str(err), start, parser.pos)
        return params

    def print_parameters(self, printer: Printer) -> None:
        pairs = ", ".join(
            f"{i}:+{p}" for i, p in zip(ints_of(self.intervals), ints_of(self.paddings))
        )
        printer.print_string(
            f"<[{pairs}] {{order = {_fmt(ints_of(self.order))}, "
            f"shape = {_fmt(ints_of(self.shape))}}}>"
        )

    def verify(self) -> None:
        intervals, paddings = ints_of(self.intervals), ints_of(self.paddings)
        if len(intervals) != len(paddings) or not intervals:
            raise VerifyException("ttg.padded_shared: needs at least one interval:+padding pair")
        if not all(_is_power_of_two(v) for v in intervals + paddings):
            raise VerifyException("ttg.padded_shared: intervals and paddings must be powers of two")
        if len(set(intervals)) != len(intervals):
            raise VerifyException("ttg.padded_shared: interval values cannot have duplicates")
        if len(self.order.data) != len(self.shape.data) or not _is_permutation(ints_of(self.order)):
            raise VerifyException(
                "ttg.padded_shared: order must be a permutation with the rank of shape"
            )

    def to_encoding(self) -> SwizzledShared:
        # Padding only moves offsets; the linear part is the identity over the shape in
        # `order`, which is the swizzled map with nothing swizzled.
        return SwizzledShared(1, 1, 1, ints_of(self.order))

    def as_dict(self) -> dict[str, Any]:
        return {
            "intervals": ints_of(self.intervals),
            "paddings": ints_of(self.paddings),
            "order": ints_of(self.order),
            "shape": ints_of(self.shape),
        }


@triton_alias("smem")
@irdl_attr_definition
class SharedMemorySpaceAttr(ParametrizedAttribute):
    """``#ttg.shared_memory``: the memory space of shared-memory (LDS) descriptors."""

    name = "ttg.shared_memory"


DISTRIBUTED_LAYOUTS = (
    BlockedEncodingAttr,
    SliceEncodingAttr,
    DotOperandEncodingAttr,
    NvidiaMmaEncodingAttr,
    AMDMfmaEncodingAttr,
    AMDWmmaEncodingAttr,
    LinearEncodingAttr,
)
SHARED_LAYOUTS = (
    SwizzledSharedEncodingAttr,
    AMDRotatingSharedEncodingAttr,
    NVMMASharedEncodingAttr,
    PaddedSharedEncodingAttr,
)
TTG_ATTRIBUTES = [*DISTRIBUTED_LAYOUTS, *SHARED_LAYOUTS, SharedMemorySpaceAttr]
