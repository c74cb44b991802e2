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

Parameters carry Triton's own names (``sizePerThread``, ``warpsPerCTA``, ``opIdx``, ...) so
code that maps layouts to linear layouts can bridge by name. Storage convention:
integer lists are ``ArrayAttr[IntAttr]``, integers and booleans are ``IntAttr`` (booleans
as 0/1), linear-layout bases are ``ArrayAttr[ArrayAttr[IntAttr]]``, parents are attributes.
``attr.as_dict()`` gives the same values as plain Python ints, bools and tuples.

Each class with a ``triton_alias`` is hoisted by the printer to a ``#<alias>`` definition at
the top of the file, as triton-opt does (``#blocked``, ``#mma``, ``#shared``, ``#smem``,
``#linear``); slices and dot operands are printed inline, as in Triton.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntAttr, IntegerAttr, IntegerType
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

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


def _product(values: Sequence[int]) -> int:
    result = 1
    for v in values:
        result *= v
    return result


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
# Field descriptions: how each parameter is read from / written to the `{...}` body
# --------------------------------------------------------------------------------------

INT, BOOL, INTS, BASES, ATTR = "int", "bool", "ints", "bases", "attr"


@dataclass(frozen=True)
class _Field:
    name: str
    kind: str  # INT, BOOL, INTS, BASES or ATTR
    required: bool = True


_CTA_FIELDS = ("CTAsPerCGA", "CTASplitNum", "CTAOrder")


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


class TritonGPULayoutAttr(ParametrizedAttribute):
    """Base of the ``#ttg.<layout><{...}>`` encodings: dictionary syntax, checks, as_dict."""

    FIELDS: ClassVar[tuple[_Field, ...]] = ()

    # --- to be specialised -----------------------------------------------------------
    @classmethod
    def _fill_defaults(cls, values: dict[str, Attribute]) -> None:
        """Give absent optional parameters their Triton default."""

    def _printed_fields(self) -> list[str]:
        """The keys printed, in Triton's order, leaving out those at their default."""
        return [f.name for f in self.FIELDS]

    def check(self) -> str | None:
        """A readable message if the parameters break one of Triton's rules."""
        return None

    # --- shared machinery ------------------------------------------------------------
    def verify(self) -> None:
        problem = self.check()
        if problem is not None:
            raise VerifyException(f"{self.name}: {problem}")

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
        for key, value in body.data.items():
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

    def print_parameters(self, printer: Printer) -> None:
        kinds = {f.name: f.kind for f in self.FIELDS}
        printer.print_string("<{")
        first = True
        for key in self._printed_fields():
            if not first:
                printer.print_string(", ")
            first = False
            printer.print_string(f"{key} = ")
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

    The parameters themselves are declared by each attribute class, in Triton's order.
    """

    @staticmethod
    def _fill_cta_defaults(values: dict[str, Attribute], rank: int) -> None:
        for name, default in zip(_CTA_FIELDS, single_cta(rank)):
            values.setdefault(name, default)

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

    def cta_fields(self) -> list[str]:
        return [] if self.cta_is_default() else list(_CTA_FIELDS)


def _cta_field_specs() -> tuple[_Field, ...]:
    return tuple(_Field(name, INTS, required=False) for name in _CTA_FIELDS)


# --------------------------------------------------------------------------------------
# Distributed layouts
# --------------------------------------------------------------------------------------


@triton_alias("blocked")
@irdl_attr_definition
class BlockedEncodingAttr(_CTAMixin, TritonGPULayoutAttr):
    """``#ttg.blocked``: each thread owns a sizePerThread block, tiled over lanes and warps."""

    name = "ttg.blocked"

    sizePerThread: ArrayAttr[IntAttr]
    threadsPerWarp: ArrayAttr[IntAttr]
    warpsPerCTA: ArrayAttr[IntAttr]
    order: ArrayAttr[IntAttr]
    CTAsPerCGA: ArrayAttr[IntAttr]
    CTASplitNum: ArrayAttr[IntAttr]
    CTAOrder: ArrayAttr[IntAttr]

    FIELDS = (
        _Field("sizePerThread", INTS),
        _Field("threadsPerWarp", INTS),
        _Field("warpsPerCTA", INTS),
        _Field("order", INTS),
        *_cta_field_specs(),
    )

    @classmethod
    def get(
        cls,
        sizePerThread: Sequence[int],
        threadsPerWarp: Sequence[int],
        warpsPerCTA: Sequence[int],
        order: Sequence[int],
        CTAsPerCGA: Sequence[int] | None = None,
        CTASplitNum: Sequence[int] | None = None,
        CTAOrder: Sequence[int] | None = None,
    ) -> BlockedEncodingAttr:
        rank = len(order)
        return cls(
            int_array(sizePerThread),
            int_array(threadsPerWarp),
            int_array(warpsPerCTA),
            int_array(order),
            int_array(CTAsPerCGA if CTAsPerCGA is not None else [1] * rank),
            int_array(CTASplitNum if CTASplitNum is not None else [1] * rank),
            int_array(CTAOrder if CTAOrder is not None else default_cta_order(rank)),
        )

    @classmethod
    def _fill_defaults(cls, values: dict[str, Attribute]) -> None:
        cls._fill_cta_defaults(values, _length(values, "sizePerThread"))

    def _printed_fields(self) -> list[str]:
        return ["sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", *self.cta_fields()]

    @property
    def rank(self) -> int:
        return len(self.order.data)

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
    return isinstance(
        layout,
        (
            BlockedEncodingAttr,
            SliceEncodingAttr,
            DotOperandEncodingAttr,
            NvidiaMmaEncodingAttr,
            AMDMfmaEncodingAttr,
            AMDWmmaEncodingAttr,
            LinearEncodingAttr,
        ),
    )


def is_shared_layout(layout: Attribute) -> bool:
    return isinstance(
        layout,
        (
            SwizzledSharedEncodingAttr,
            NVMMASharedEncodingAttr,
            AMDRotatingSharedEncodingAttr,
            PaddedSharedEncodingAttr,
        ),
    )


@irdl_attr_definition
class SliceEncodingAttr(TritonGPULayoutAttr):
    """``#ttg.slice``: the parent layout with dimension ``dim`` removed (reduce results)."""

    name = "ttg.slice"

    dim: IntAttr
    parent: Attribute

    FIELDS = (_Field("dim", INT), _Field("parent", ATTR))

    @classmethod
    def get(cls, dim: int, parent: Attribute) -> SliceEncodingAttr:
        return cls(IntAttr(dim), parent)

    def check(self) -> str | None:
        if not is_distributed_layout(self.parent):
            return "parent must be a distributed layout (blocked, mma, slice, ...)"
        rank = layout_rank(self.parent)
        if rank is None or rank <= 1:
            return "parent layout must have rank >= 2"
        if self.dim.data >= rank:
            return f"slice dim={self.dim.data} must be less than the parent rank={rank}"
        return None


@irdl_attr_definition
class DotOperandEncodingAttr(TritonGPULayoutAttr):
    """``#ttg.dot_op``: layout of operand ``opIdx`` (0 = A, 1 = B) of a dot with ``parent``."""

    name = "ttg.dot_op"

    opIdx: IntAttr
    parent: Attribute
    kWidth: IntAttr

    FIELDS = (_Field("opIdx", INT), _Field("parent", ATTR), _Field("kWidth", INT, False))

    @classmethod
    def get(cls, opIdx: int, parent: Attribute, kWidth: int = 0) -> DotOperandEncodingAttr:
        return cls(IntAttr(opIdx), parent, IntAttr(kWidth))

    @classmethod
    def _fill_defaults(cls, values: dict[str, Attribute]) -> None:
        values.setdefault("kWidth", IntAttr(0))

    def _printed_fields(self) -> list[str]:
        return ["opIdx", "parent"] + (["kWidth"] if self.kWidth.data != 0 else [])

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

    @classmethod
    def _fill_defaults(cls, values: dict[str, Attribute]) -> None:
        cls._fill_cta_defaults(values, _length(values, "warpsPerCTA"))

    def check_warps_and_cta(self) -> str | None:
        warps = ints_of(self.warpsPerCTA)  # type: ignore[attr-defined]
        if not all(_is_power_of_two(v) for v in warps):
            return f"every element of warpsPerCTA must be a power of two, got {_fmt(warps)}"
        return self.check_cta(len(warps))


@triton_alias("mma")
@irdl_attr_definition
class NvidiaMmaEncodingAttr(_MmaLayout):
    """``#ttg.nvidia_mma``: accumulator layout of mma.sync (v2, Ampere) or wgmma (v3, Hopper)."""

    name = "ttg.nvidia_mma"

    versionMajor: IntAttr
    versionMinor: IntAttr
    warpsPerCTA: ArrayAttr[IntAttr]
    CTAsPerCGA: ArrayAttr[IntAttr]
    CTASplitNum: ArrayAttr[IntAttr]
    CTAOrder: ArrayAttr[IntAttr]
    instrShape: ArrayAttr[IntAttr]

    FIELDS = (
        _Field("versionMajor", INT),
        _Field("versionMinor", INT, False),
        _Field("warpsPerCTA", INTS),
        *_cta_field_specs(),
        _Field("instrShape", INTS, False),
    )

    @classmethod
    def get(
        cls,
        versionMajor: int,
        versionMinor: int,
        warpsPerCTA: Sequence[int],
        instrShape: Sequence[int],
    ) -> NvidiaMmaEncodingAttr:
        return cls(
            IntAttr(versionMajor),
            IntAttr(versionMinor),
            int_array(warpsPerCTA),
            *single_cta(len(warpsPerCTA)),
            int_array(instrShape),
        )

    @classmethod
    def _fill_defaults(cls, values: dict[str, Attribute]) -> None:
        super()._fill_defaults(values)
        values.setdefault("versionMinor", IntAttr(0))
        values.setdefault("instrShape", ArrayAttr([]))

    def _printed_fields(self) -> list[str]:
        return ["versionMajor", "versionMinor", "warpsPerCTA", *self.cta_fields(), "instrShape"]

    def check(self) -> str | None:
        if self.versionMajor.data not in (1, 2, 3, 5):
            return f"versionMajor must be 1, 2, 3 or 5, got {self.versionMajor.data}"
        return self.check_warps_and_cta()


@triton_alias("mma")
@irdl_attr_definition
class AMDMfmaEncodingAttr(_MmaLayout):
    """``#ttg.amd_mfma``: accumulator layout of AMD CDNA matrix-core (MFMA) instructions."""

    name = "ttg.amd_mfma"

    version: IntAttr
    warpsPerCTA: ArrayAttr[IntAttr]
    instrShape: ArrayAttr[IntAttr]
    isTransposed: IntAttr
    CTAsPerCGA: ArrayAttr[IntAttr]
    CTASplitNum: ArrayAttr[IntAttr]
    CTAOrder: ArrayAttr[IntAttr]
    tilesPerWarp: ArrayAttr[IntAttr]
    elementBitWidth: IntAttr

    FIELDS = (
        _Field("version", INT),
        _Field("warpsPerCTA", INTS),
        _Field("instrShape", INTS),
        _Field("isTransposed", BOOL),
        *_cta_field_specs(),
        _Field("tilesPerWarp", INTS, False),
        _Field("elementBitWidth", INT, False),
    )

    @classmethod
    def get(
        cls,
        version: int,
        warpsPerCTA: Sequence[int],
        instrShape: Sequence[int],
        isTransposed: bool,
        tilesPerWarp: Sequence[int] | None = None,
        elementBitWidth: int = 32,
    ) -> AMDMfmaEncodingAttr:
        return cls(
            IntAttr(version),
            int_array(warpsPerCTA),
            int_array(instrShape),
            IntAttr(int(isTransposed)),
            *single_cta(len(warpsPerCTA)),
            int_array(tilesPerWarp if tilesPerWarp is not None else [1] * len(instrShape)),
            IntAttr(elementBitWidth),
        )

    @classmethod
    def _fill_defaults(cls, values: dict[str, Attribute]) -> None:
        super()._fill_defaults(values)
        values.setdefault("tilesPerWarp", int_array([1] * _length(values, "instrShape")))
        values.setdefault("elementBitWidth", IntAttr(32))

    def _printed_fields(self) -> list[str]:
        fields = ["version", "warpsPerCTA", "instrShape", "isTransposed", *self.cta_fields()]
        if any(v != 1 for v in ints_of(self.tilesPerWarp)):
            fields.append("tilesPerWarp")
        if self.elementBitWidth.data != 32:
            fields.append("elementBitWidth")
        return fields

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


@triton_alias("mma")
@irdl_attr_definition
class AMDWmmaEncodingAttr(_MmaLayout):
    """``#ttg.amd_wmma``: accumulator layout of AMD RDNA WMMA instructions."""

    name = "ttg.amd_wmma"

    version: IntAttr
    isTranspose: IntAttr
    warpsPerCTA: ArrayAttr[IntAttr]
    CTAsPerCGA: ArrayAttr[IntAttr]
    CTASplitNum: ArrayAttr[IntAttr]
    CTAOrder: ArrayAttr[IntAttr]
    instrShape: ArrayAttr[IntAttr]

    FIELDS = (
        _Field("version", INT),
        _Field("isTranspose", BOOL, False),
        _Field("warpsPerCTA", INTS),
        *_cta_field_specs(),
        _Field("instrShape", INTS, False),
    )

    @classmethod
    def get(
        cls,
        version: int,
        isTranspose: bool,
        warpsPerCTA: Sequence[int],
        instrShape: Sequence[int] = WMMA_DEFAULT_INSTR_SHAPE,
    ) -> AMDWmmaEncodingAttr:
        return cls(
            IntAttr(version),
            IntAttr(int(isTranspose)),
            int_array(warpsPerCTA),
            *single_cta(len(warpsPerCTA)),
            int_array(instrShape),
        )

    @classmethod
    def _fill_defaults(cls, values: dict[str, Attribute]) -> None:
        super()._fill_defaults(values)
        values.setdefault("isTranspose", IntAttr(0))
        values.setdefault("instrShape", int_array(WMMA_DEFAULT_INSTR_SHAPE))

    def _printed_fields(self) -> list[str]:
        fields = ["version", "isTranspose", "warpsPerCTA", *self.cta_fields()]
        if ints_of(self.instrShape) != WMMA_DEFAULT_INSTR_SHAPE:
            fields.append("instrShape")
        return fields

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


@triton_alias("linear")
@irdl_attr_definition
class LinearEncodingAttr(TritonGPULayoutAttr):
    """``#ttg.linear``: a linear layout given by its bases for register, lane, warp, block."""

    name = "ttg.linear"

    register: ArrayAttr[ArrayAttr[IntAttr]]
    lane: ArrayAttr[ArrayAttr[IntAttr]]
    warp: ArrayAttr[ArrayAttr[IntAttr]]
    block: ArrayAttr[ArrayAttr[IntAttr]]

    FIELDS = (
        _Field("register", BASES),
        _Field("lane", BASES),
        _Field("warp", BASES),
        _Field("block", BASES),
    )

    @classmethod
    def get(
        cls,
        register: Sequence[Sequence[int]],
        lane: Sequence[Sequence[int]],
        warp: Sequence[Sequence[int]],
        block: Sequence[Sequence[int]] = (),
    ) -> LinearEncodingAttr:
        return cls(bases_array(register), bases_array(lane), bases_array(warp), bases_array(block))

    @property
    def rank(self) -> int:
        for dim in (self.register, self.lane, self.warp, self.block):
            if dim.data:
                return len(dim.data[0].data)
        return 0

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

    FIELDS = (
        _Field("vec", INT),
        _Field("perPhase", INT),
        _Field("maxPhase", INT),
        _Field("order", INTS),
        *_cta_field_specs(),
    )

    @classmethod
    def get(cls, vec: int, perPhase: int, maxPhase: int, order: Sequence[int]):
        return cls(
            IntAttr(vec),
            IntAttr(perPhase),
            IntAttr(maxPhase),
            int_array(order),
            *single_cta(len(order)),
        )

    @classmethod
    def _fill_defaults(cls, values: dict[str, Attribute]) -> None:
        cls._fill_cta_defaults(values, _length(values, "order"))

    def _printed_fields(self) -> list[str]:
        return ["vec", "perPhase", "maxPhase", "order", *self.cta_fields()]

    def check(self) -> str | None:
        order = ints_of(self.order)
        if not _is_permutation(order):
            return f"order must be a permutation of 0..{len(order) - 1}, but was {_fmt(order)}"
        return self.check_cta(len(order))


@triton_alias("shared")
@irdl_attr_definition
class SwizzledSharedEncodingAttr(_SwizzledBase):
    """``#ttg.swizzled_shared``: XOR-swizzled shared memory (vec, perPhase, maxPhase)."""

    name = "ttg.swizzled_shared"

    vec: IntAttr
    perPhase: IntAttr
    maxPhase: IntAttr
    order: ArrayAttr[IntAttr]
    CTAsPerCGA: ArrayAttr[IntAttr]
    CTASplitNum: ArrayAttr[IntAttr]
    CTAOrder: ArrayAttr[IntAttr]


@triton_alias("shared")
@irdl_attr_definition
class AMDRotatingSharedEncodingAttr(_SwizzledBase):
    """``#ttg.amd_rotating_shared``: swizzled shared memory whose pattern rotates per block."""

    name = "ttg.amd_rotating_shared"

    vec: IntAttr
    perPhase: IntAttr
    maxPhase: IntAttr
    order: ArrayAttr[IntAttr]
    CTAsPerCGA: ArrayAttr[IntAttr]
    CTASplitNum: ArrayAttr[IntAttr]
    CTAOrder: ArrayAttr[IntAttr]


@triton_alias("shared")
@irdl_attr_definition
class NVMMASharedEncodingAttr(_CTAMixin, TritonGPULayoutAttr):
    """``#ttg.nvmma_shared``: the swizzled layout Hopper wgmma and TMA read directly."""

    name = "ttg.nvmma_shared"

    swizzlingByteWidth: IntAttr
    transposed: IntAttr
    elementBitWidth: IntAttr
    fp4Padded: IntAttr
    CTAsPerCGA: ArrayAttr[IntAttr]
    CTASplitNum: ArrayAttr[IntAttr]
    CTAOrder: ArrayAttr[IntAttr]

    FIELDS = (
        _Field("swizzlingByteWidth", INT),
        _Field("transposed", BOOL, False),
        _Field("elementBitWidth", INT),
        _Field("fp4Padded", BOOL, False),
        *_cta_field_specs(),
    )

    @classmethod
    def get(
        cls, swizzlingByteWidth: int, transposed: bool, elementBitWidth: int, fp4Padded: bool = False
    ) -> NVMMASharedEncodingAttr:
        return cls(
            IntAttr(swizzlingByteWidth),
            IntAttr(int(transposed)),
            IntAttr(elementBitWidth),
            IntAttr(int(fp4Padded)),
            *single_cta(2),
        )

    @classmethod
    def _fill_defaults(cls, values: dict[str, Attribute]) -> None:
        values.setdefault("transposed", IntAttr(0))
        values.setdefault("fp4Padded", IntAttr(0))
        cls._fill_cta_defaults(values, 2)

    def _printed_fields(self) -> list[str]:
        fields = ["swizzlingByteWidth", "transposed", "elementBitWidth"]
        if self.fp4Padded.data:
            fields.append("fp4Padded")
        return fields + self.cta_fields()

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
class PaddedSharedEncodingAttr(ParametrizedAttribute):
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


TTG_ATTRIBUTES = [
    BlockedEncodingAttr,
    SliceEncodingAttr,
    DotOperandEncodingAttr,
    NvidiaMmaEncodingAttr,
    AMDMfmaEncodingAttr,
    AMDWmmaEncodingAttr,
    LinearEncodingAttr,
    SwizzledSharedEncodingAttr,
    AMDRotatingSharedEncodingAttr,
    NVMMASharedEncodingAttr,
    PaddedSharedEncodingAttr,
    SharedMemorySpaceAttr,
]
