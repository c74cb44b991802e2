"""Types, enums and type helpers of the Triton `tt` dialect (Triton 3.6 spelling).

- ``PointerType``: ``!tt.ptr<f32>``, ``!tt.ptr<f16, 3>`` (the address space is printed
  only when it is not 1, Triton's default), ``!tt.ptr<tensor<64x32xf16>>`` (block pointer).
- ``TensorDescType``: ``!tt.tensordesc<tensor<128x64xf16>>`` (TMA descriptors).
- Triton's i32 enums (cache modifier, eviction policy, memory semantic, ...). MLIR stores an
  ``I32EnumAttr`` as a plain ``i32`` integer attribute: that is what the generic form and
  ``attr-dict`` print (``padding = 1 : i32``) and what custom assembly spells as a keyword
  (``cacheModifier = ca``). ``TritonEnum`` keeps exactly that storage and maps it to a
  Python ``StrEnum`` so passes read ``op.cache == CacheModifier.CA``.
- Helpers that mirror Triton's type functions (``getPointeeType``, ``getI1SameShape``, ...)
  used by the verifiers and by later passes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import prod
from typing import Generic, TypeVar

from xdsl.dialects.builtin import (
    i1,
    i32,
    BFloat16Type,
    ContainerType,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    TensorType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import AttrConstraint, VerificationContext, irdl_attr_definition
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tileopt.dialects.triton_version import note_spelling, prints_39

DEFAULT_ADDRESS_SPACE = 1
"""Triton's global memory; ``!tt.ptr<T>`` without a number means this."""


@irdl_attr_definition
class PointerType(ParametrizedAttribute, TypeAttribute):
    """``!tt.ptr<pointee[, address_space]>``: a pointer to a scalar or (block pointer) a tensor."""

    name = "tt.ptr"

    pointee_type: Attribute
    address_space: IntAttr

    def __init__(self, pointee_type: Attribute, address_space: int | IntAttr = DEFAULT_ADDRESS_SPACE):
        if isinstance(address_space, int):
            address_space = IntAttr(address_space)
        super().__init__(pointee_type, address_space)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, IntAttr]:
        with parser.in_angle_brackets():
            pointee = parser.parse_type()
            space = DEFAULT_ADDRESS_SPACE
            if parser.parse_optional_punctuation(",") is not None:
                space = parser.parse_integer(allow_boolean=False, allow_negative=False)
        return (pointee, IntAttr(space))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.pointee_type)
            if self.address_space.data != DEFAULT_ADDRESS_SPACE:
                printer.print_string(f", {self.address_space.data}")

    @property
    def is_block_pointer(self) -> bool:
        """A pointer to a whole tensor (``tl.make_block_ptr``)."""
        return isinstance(self.pointee_type, TensorType)


@irdl_attr_definition
class TensorDescType(ParametrizedAttribute, TypeAttribute):
    """``!tt.tensordesc<tensor<...>>``: a TMA tensor descriptor of one block."""

    name = "tt.tensordesc"

    block_type: TensorType

    def __init__(self, block_type: TensorType):
        super().__init__(block_type)

    # Triton 3.6 writes the block as a tensor type, ``!tt.tensordesc<tensor<64x64xf16>>``;
    # 3.9 writes its shape and layout alone, ``!tt.tensordesc<64x64xf16, #shared>``.

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute]:
        def block() -> TensorType:
            shape, element = parser.parse_ranked_shape()
            encoding = (parser.parse_attribute()
                        if parser.parse_optional_punctuation(",") else NoneAttr())
            return TensorType(element, shape, encoding)

        with parser.in_angle_brackets():
            if parser.parse_optional_keyword("tensor") is None:
                note_spelling("3.9")
                return (block(),)
            with parser.in_angle_brackets():
                return (block(),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            if not prints_39():
                printer.print_attribute(self.block_type)
                return
            block = self.block_type
            printer.print_string("x".join(str(d) for d in block.get_shape()) + "x")
            printer.print_attribute(block.element_type)
            if not isinstance(block.encoding, NoneAttr):
                printer.print_string(", ")
                printer.print_attribute(block.encoding)


# ---------------------------------------------------------------------------------------
# Enums
# ---------------------------------------------------------------------------------------

E = TypeVar("E", bound=StrEnum)


class CacheModifier(StrEnum):
    NONE = "none"
    CA = "ca"
    CG = "cg"
    WB = "wb"
    CS = "cs"
    WT = "wt"
    CV = "cv"


class EvictionPolicy(StrEnum):
    NORMAL = "evict_normal"
    EVICT_FIRST = "evict_first"
    EVICT_LAST = "evict_last"


class MemSemantic(StrEnum):
    RELAXED = "relaxed"
    ACQUIRE = "acquire"
    RELEASE = "release"
    ACQUIRE_RELEASE = "acq_rel"


class MemSyncScope(StrEnum):
    GPU = "gpu"
    CTA = "cta"
    SYSTEM = "sys"


class RMWOp(StrEnum):
    AND = "and"
    OR = "or"
    XOR = "xor"
    ADD = "add"
    FADD = "fadd"
    MAX = "max"
    MIN = "min"
    UMAX = "umax"
    UMIN = "umin"
    XCHG = "exch"


class PaddingOption(StrEnum):
    PAD_ZERO = "zero"
    PAD_NAN = "nan"


class ProgramIDDim(StrEnum):
    X = "x"
    Y = "y"
    Z = "z"


class RoundingMode(StrEnum):
    RTZ = "rtz"
    RTNE = "rtne"


class PropagateNan(StrEnum):
    NONE = "none"
    ALL = "all"


class InputPrecision(StrEnum):
    TF32 = "tf32"
    TF32x3 = "tf32x3"
    IEEE = "ieee"
    BF16x3 = "bf16x3"
    BF16x6 = "bf16x6"


class ScaleDotElemType(StrEnum):
    E4M3 = "e4m3"
    E5M2 = "e5m2"
    E2M3 = "e2m3"
    E3M2 = "e3m2"
    E2M1 = "e2m1"
    BF16 = "bf16"
    FP16 = "fp16"


@dataclass(frozen=True)
class TritonEnum(Generic[E]):
    """One of Triton's ``I32EnumAttr``s: keyword spelling <-> ``i32`` storage."""

    name: str
    enum: type[E]
    codes: Mapping[E, int]

    def attr(self, value: E | str) -> IntegerAttr:
        return IntegerAttr(self.codes[self.enum(value)], i32)

    def value_of(self, attr: IntegerAttr) -> E:
        code = attr.value.data
        for member, member_code in self.codes.items():
            if member_code == code:
                return member
        raise VerifyException(f"{code} is not a valid {self.name} value")

    def verify(self, attr: Attribute, what: str) -> None:
        if not isinstance(attr, IntegerAttr) or attr.type != i32:
            raise VerifyException(f"'{what}' must be an i32 {self.name} attribute, got {attr}")
        if attr.value.data not in self.codes.values():
            allowed = ", ".join(f"{m.value} ({c})" for m, c in self.codes.items())
            raise VerifyException(
                f"'{what}' = {attr.value.data} is not a valid {self.name}; expected one of {allowed}"
            )

    def parse(self, parser: Parser) -> IntegerAttr:
        """Parse the keyword spelling, e.g. ``acq_rel``."""
        pos = parser.pos
        word = parser.parse_optional_identifier_or_str_literal()
        if word is None or word not in self.enum.__members__.values():
            allowed = ", ".join(m.value for m in self.enum)
            parser.raise_error(f"expected {self.name} ({allowed})", pos, parser.pos)
        return self.attr(word)

    def print(self, printer: Printer, attr: IntegerAttr) -> None:
        printer.print_string(self.value_of(attr).value)


def _codes(enum: type[E], first: int) -> dict[E, int]:
    return {member: first + i for i, member in enumerate(enum)}


CACHE_MODIFIER = TritonEnum("cache modifier", CacheModifier, _codes(CacheModifier, 1))
EVICTION_POLICY = TritonEnum("eviction policy", EvictionPolicy, _codes(EvictionPolicy, 1))
MEM_SEMANTIC = TritonEnum("memory semantic", MemSemantic, _codes(MemSemantic, 1))
MEM_SYNC_SCOPE = TritonEnum("memory sync scope", MemSyncScope, _codes(MemSyncScope, 1))
RMW_OP = TritonEnum("atomic rmw op", RMWOp, _codes(RMWOp, 1))
PADDING_OPTION = TritonEnum("padding option", PaddingOption, _codes(PaddingOption, 1))
PROGRAM_ID_DIM = TritonEnum("program id dimension", ProgramIDDim, _codes(ProgramIDDim, 0))
ROUNDING_MODE = TritonEnum("rounding mode", RoundingMode, _codes(RoundingMode, 0))
PROPAGATE_NAN = TritonEnum(
    "propagate nan", PropagateNan, {PropagateNan.NONE: 0, PropagateNan.ALL: 0xFFFF}
)
INPUT_PRECISION = TritonEnum("input precision", InputPrecision, _codes(InputPrecision, 0))
SCALE_DOT_ELEM_TYPE = TritonEnum(
    "scaled dot element type", ScaleDotElemType, _codes(ScaleDotElemType, 0)
)


# ---------------------------------------------------------------------------------------
# Type helpers (Triton's getPointeeType, getI1SameShape, ... and the TT_* constraints)
# ---------------------------------------------------------------------------------------

FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type)


def element_type(ty: Attribute) -> Attribute:
    """The element type of a tensor, vector or memdesc (any xDSL container type); any
    other type is its own element type."""
    return ty.get_element_type() if isinstance(ty, ContainerType) else ty


def encoding_of(ty: Attribute) -> Attribute | None:
    if isinstance(ty, TensorType) and not isinstance(ty.encoding, NoneAttr):
        return ty.encoding
    return None


def shape_of(ty: Attribute) -> tuple[int, ...] | None:
    """The tensor shape, or None for a scalar."""
    return ty.get_shape() if isinstance(ty, TensorType) else None


def num_elements(ty: TensorType) -> int:
    return prod(ty.get_shape())


_DERIVED: dict[tuple[int, int], tuple[Attribute, Attribute, Attribute]] = {}
"""(id(tensor type), id(element type)) -> (the two, the tensor type derived from
them): the op verifiers derive the type an operand or result must have on every
verification (after each pass), and building a tensor type (its parameters verified)
costs more than the check. The entry holds the two, so that their ids are not reused.
Types are immutable: the same object serves every caller."""
_DERIVED_LIMIT = 4096


def _tensor_with_element(ty: TensorType, element: Attribute) -> TensorType:
    """``ty``'s shape and encoding with ``element`` (remembered, ``_DERIVED``)."""
    key = (id(ty), id(element))
    found = _DERIVED.get(key)
    if found is None:
        if len(_DERIVED) >= _DERIVED_LIMIT:
            _DERIVED.clear()
        found = _DERIVED[key] = (ty, element,
                                 TensorType(element, ty.get_shape(), ty.encoding))
    return found[2]  # type: ignore[return-value]


def same_shape_with_element(ty: Attribute, element: Attribute) -> Attribute:
    """``ty`` with its element type replaced (scalar in, scalar out)."""
    if isinstance(ty, TensorType):
        return _tensor_with_element(ty, element)
    return element


def i1_same_shape(ty: Attribute) -> Attribute:
    return same_shape_with_element(ty, i1)


def is_float(ty: Attribute) -> bool:
    # f8 variants are builtin types in xDSL too, but all named Float8*Type; accept any float.
    return isinstance(ty, FLOAT_TYPES) or type(ty).__name__.startswith("Float8")


def is_int(ty: Attribute) -> bool:
    return isinstance(ty, IntegerType)


def is_bool_like(ty: Attribute) -> bool:
    return element_type(ty) == i1


def is_ptr_like(ty: Attribute) -> bool:
    """TT_PtrLike: a scalar pointer or a tensor of (scalar) pointers."""
    return isinstance(element_type(ty), PointerType) and not is_tensor_ptr(ty)


def is_tensor_ptr(ty: Attribute) -> bool:
    """TT_TensorPtr: a pointer to a tensor (block pointer)."""
    return isinstance(ty, PointerType) and ty.is_block_pointer


@dataclass(frozen=True)
class PtrLikeConstraint(AttrConstraint):
    """IRDL constraint for TT_PtrLike (``!tt.ptr<T>`` or ``tensor<...x!tt.ptr<T>>``), for
    ``operand_def(PtrLikeConstraint())`` in dialects that take Triton pointers."""

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not is_ptr_like(attr):
            raise VerifyException(f"expected a pointer or a tensor of pointers, got {attr}")

    def mapping_type_vars(self, type_var_mapping) -> PtrLikeConstraint:
        return self


def pointee_type(ty: Attribute) -> Attribute:
    """What loading through ``ty`` yields (Triton's ``getPointeeType``)."""
    if isinstance(ty, TensorType) and isinstance(ty.element_type, PointerType):
        return _tensor_with_element(ty, ty.element_type.pointee_type)
    if isinstance(ty, PointerType):
        return ty.pointee_type
    return ty


def pointer_type_same_shape(ty: Attribute, address_space: int = DEFAULT_ADDRESS_SPACE) -> Attribute:
    """Pointers to the elements of ``ty``, in ``ty``'s shape (``getPointerTypeSameShape``)."""
    if isinstance(ty, TensorType):
        return TensorType(PointerType(ty.element_type, address_space), ty.get_shape(), ty.encoding)
    return PointerType(ty, address_space)


def bit_width(ty: Attribute) -> int | None:
    """Bit width of a scalar integer, index (64) or float type; None for anything else
    (callers pass ``element_type(ty)`` for the elements of a tensor)."""
    if isinstance(ty, IntegerType):
        return ty.width.data
    if isinstance(ty, IndexType):
        return 64
    bitwidth = getattr(ty, "bitwidth", None)
    return bitwidth if isinstance(bitwidth, int) else None


__all__ = [
    "PointerType",
    "TensorDescType",
    "PtrLikeConstraint",
    "TritonEnum",
    "CacheModifier",
    "EvictionPolicy",
    "MemSemantic",
    "MemSyncScope",
    "RMWOp",
    "PaddingOption",
    "ProgramIDDim",
    "RoundingMode",
    "PropagateNan",
    "InputPrecision",
    "ScaleDotElemType",
]
