"""The TritonGPU dialect (``ttg``): layouts, shared-memory descriptors and the ops between them.

TritonGPU IR is Triton IR in which every tensor carries a layout. This module defines the ops
Triton 3.6 prints at that level with their custom assembly (``ttg.convert_layout``,
``ttg.local_alloc``, ``ttg.local_load``, ``ttg.async_copy_global_to_local``, ...), their
memory effects (so generic CSE/DCE/LICM neither merge nor drop nor hoist an op they must not)
and Triton's verifiers. Attributes live in ``ttg_attrs``, types in ``ttg_types``; both are
re-exported here. Reference: ``include/triton/Dialect/TritonGPU/IR/TritonGPUOps.td``.

``verify_layouts_against_module(module)`` checks what no single op can see: that the module
carries sane ``ttg.num-warps`` / ``ttg.threads-per-warp`` / ``ttg.num-ctas`` / ``ttg.target``
attributes and that every blocked/MMA layout used in it distributes exactly that many lanes
and warps. ``num_warps(op)``, ``threads_per_warp(op)`` and ``num_ctas(op)`` are the one
lookup of those attributes for every pass.
"""

from __future__ import annotations

import math
from itertools import chain, compress
from operator import attrgetter, not_
from collections.abc import Iterator, Sequence
from typing import ClassVar, TypeVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
    i1,
    i32,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    opt_operand_def,
    opt_prop_def,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import EffectInstance, MemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from tileopt.dialects.assembly import (
    StaticOffsetsOp,
    parse_attr_dict_split,
    parse_cache_keywords,
    parse_operands,
    print_attr_dict,
    print_cache_keywords,
    print_types,
)
from tileopt.dialects.effects import (
    ALLOC,
    SHARED,
    WRITE,
    FreesShared,
    ReadsGlobalWritesShared,
    ReadsShared,
    Synchronizes,
    WritesShared,
)
from tileopt.dialects.canonicalization import attach_on_first_use
from tileopt.dialects.traits import type_str
from tileopt.layouts.encodings import subslice_splits_swizzle
from tileopt.layouts.linear_layout import LayoutError
from tileopt.dialects.triton_version import note_spelling
from tileopt.dialects.tt_types import (
    PointerType,
    element_type,
    i1_same_shape,
    pointee_type,
)
from tileopt.dialects.ttg_attrs import (
    TTG_ATTRIBUTES,
    AMDMfmaEncodingAttr,
    AMDRotatingSharedEncodingAttr,
    AMDWmmaEncodingAttr,
    BlockedEncodingAttr,
    DotOperandEncodingAttr,
    LinearEncodingAttr,
    NvidiaMmaEncodingAttr,
    NVMMASharedEncodingAttr,
    PaddedSharedEncodingAttr,
    SharedMemorySpaceAttr,
    SliceEncodingAttr,
    SwizzledSharedEncodingAttr,
    TritonGPULayoutAttr,
    ints_of,
    is_distributed_layout,
    is_shared_layout,
    layout_rank,
)
from tileopt.dialects.ttg_types import (
    TTG_TYPES,
    AsyncTokenType,
    MemDescType,
    parse_memdesc_body,
    print_memdesc_body,
)

# --------------------------------------------------------------------------------------
# Memory resources and effects
# --------------------------------------------------------------------------------------


class LocalAllocEffects(MemoryEffect):
    """Triton's rule: an immutable allocation not yet placed by the allocator is pure.

    That lets CSE/DCE merge or drop ``ttg.local_alloc %t`` copies early; once the buffer is
    mutable or has an ``allocation.offset`` it allocates (and writes, when initialised).
    """

    @classmethod
    def get_effects(cls, op: Operation) -> frozenset[EffectInstance]:
        result_type = op.results[0].type
        mutable = isinstance(result_type, MemDescType) and result_type.is_mutable
        if not mutable and "allocation.offset" not in op.attributes:
            return frozenset()
        # Tied to the result, as in Triton: an unused, uninitialised buffer is dead code.
        buffer = op.results[0]
        found = {EffectInstance(ALLOC, buffer, SHARED)}
        if op.operands:
            found.add(EffectInstance(WRITE, buffer, SHARED))
        return frozenset(found)


# --------------------------------------------------------------------------------------
# Shapes and element types, for the verifiers
# --------------------------------------------------------------------------------------


def tensor_shape(ty: Attribute) -> tuple[int, ...] | None:
    if isinstance(ty, (TensorType, MemDescType)):
        return tuple(ty.get_shape())
    return None


def _shape_str(shape: Sequence[int] | None) -> str:
    return "x".join(str(d) for d in shape) if shape else "scalar"


def _require_same_shape_and_element(what: str, a: Attribute, b: Attribute) -> None:
    if tensor_shape(a) != tensor_shape(b):
        raise VerifyException(
            f"{what}: shapes differ ({_shape_str(tensor_shape(a))} vs "
            f"{_shape_str(tensor_shape(b))})"
        )
    if tensor_shape(a) is not None and element_type(a) != element_type(b):
        raise VerifyException(
            f"{what}: element types differ ({element_type(a)} vs {element_type(b)})"
        )


# --------------------------------------------------------------------------------------
# Ops
# --------------------------------------------------------------------------------------


@irdl_op_definition
class ConvertLayoutOp(IRDLOperation):
    """``ttg.convert_layout``: the same tensor in another layout (registers, shuffles or smem)."""

    name = "ttg.convert_layout"

    src = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        _require_same_shape_and_element("ttg.convert_layout", self.src.type, self.result.type)


@irdl_op_definition
class LocalAllocOp(IRDLOperation):
    """``ttg.local_alloc [%init]``: allocate a shared-memory buffer, optionally initialised."""

    name = "ttg.local_alloc"

    src = opt_operand_def(TensorType)
    alignment = opt_prop_def(IntegerAttr[IntegerType])
    result = result_def(MemDescType)

    traits = traits_def(LocalAllocEffects())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "($src^)? attr-dict `:` functional-type(operands, results)"

    def __init__(self, result_type: MemDescType, src: SSAValue | Operation | None = None):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        ty = self.result.type
        assert isinstance(ty, MemDescType)
        if self.src is None:
            if not ty.is_mutable:
                raise VerifyException(
                    "ttg.local_alloc: an allocation without an initial value must be mutable"
                )
            return
        src_ty = self.src.type
        if tensor_shape(src_ty) != tuple(ty.get_shape()):
            raise VerifyException(
                f"ttg.local_alloc: initial value shape {_shape_str(tensor_shape(src_ty))} "
                f"does not match the buffer shape {_shape_str(ty.get_shape())}"
            )
        if element_type(src_ty) != ty.get_element_type():
            raise VerifyException(
                f"ttg.local_alloc: initial value element type {element_type(src_ty)} does "
                f"not match the buffer element type {ty.get_element_type()}"
            )


@irdl_op_definition
class LocalLoadOp(IRDLOperation):
    """``ttg.local_load %buf [token %t]``: read a shared buffer into a distributed tensor."""

    name = "ttg.local_load"

    src = operand_def(MemDescType)
    token = opt_operand_def(AsyncTokenType())
    result = result_def(TensorType)

    traits = traits_def(ReadsShared())
    assembly_format = "$src (`token` $token^)? attr-dict `:` type($src) `->` type($result)"

    def __init__(
        self, src: SSAValue | Operation, result_type: Attribute, token: SSAValue | None = None
    ):
        super().__init__(operands=[src, token], result_types=[result_type])

    def verify_(self) -> None:
        _require_same_shape_and_element("ttg.local_load", self.src.type, self.result.type)


@irdl_op_definition
class LocalStoreOp(IRDLOperation):
    """``ttg.local_store %value, %buf``: write a distributed tensor into a shared buffer."""

    name = "ttg.local_store"

    src = operand_def(TensorType)
    dst = operand_def(MemDescType)

    traits = traits_def(WritesShared())
    assembly_format = "$src `,` $dst attr-dict `:` type($src) `->` type($dst)"

    def __init__(self, src: SSAValue | Operation, dst: SSAValue | Operation):
        super().__init__(operands=[src, dst])

    def verify_(self) -> None:
        dst = self.dst.type
        assert isinstance(dst, MemDescType)
        if not dst.is_mutable:
            raise VerifyException("ttg.local_store: cannot store into immutable memory")
        _require_same_shape_and_element("ttg.local_store", self.src.type, dst)


@irdl_op_definition
class LocalDeallocOp(IRDLOperation):
    """``ttg.local_dealloc %buf``: free a shared buffer explicitly."""

    name = "ttg.local_dealloc"

    src = operand_def(MemDescType)

    traits = traits_def(FreesShared())
    assembly_format = "$src attr-dict `:` type($src)"

    def __init__(self, src: SSAValue | Operation):
        super().__init__(operands=[src])


@irdl_op_definition
class MemDescIndexOp(IRDLOperation):
    """``ttg.memdesc_index %buf[%i]``: the i-th slice of a buffer along its leading dimension."""

    name = "ttg.memdesc_index"

    src = operand_def(MemDescType)
    index = operand_def(i32)
    result = result_def(MemDescType)

    traits = traits_def(Pure())
    assembly_format = "$src `[` $index `]` attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue | Operation, index: SSAValue | Operation, result_type):
        super().__init__(operands=[src, index], result_types=[result_type])

    def verify_(self) -> None:
        src, res = self.src.type, self.result.type
        assert isinstance(src, MemDescType) and isinstance(res, MemDescType)
        if self.index.type != i32:
            raise VerifyException(f"ttg.memdesc_index: index must be i32, got {self.index.type}")
        if tuple(res.get_shape()) != tuple(src.get_shape()[1:]):
            raise VerifyException(
                "ttg.memdesc_index: result shape must be the source shape without its "
                f"leading dimension ({_shape_str(src.get_shape()[1:])}), got "
                f"{_shape_str(res.get_shape())}"
            )
        if res.get_element_type() != src.get_element_type():
            raise VerifyException("ttg.memdesc_index: element types of source and result differ")
        if res.memorySpace != src.memorySpace:
            raise VerifyException("ttg.memdesc_index: memory spaces of source and result differ")
        # Triton indexes whole buffers only: not a view whose allocation is larger.
        if _alloc_shape(src) != src.get_shape() or _alloc_shape(res) != res.get_shape():
            raise VerifyException(
                "ttg.memdesc_index: alloc shape must match shape for both result and src, "
                f"got {_shape_str(src.get_shape())} allocated as "
                f"{_shape_str(_alloc_shape(src))} and {_shape_str(res.get_shape())} "
                f"allocated as {_shape_str(_alloc_shape(res))}"
            )


def _alloc_shape(ty: MemDescType) -> tuple[int, ...]:
    return tuple(dim.data for dim in ty.allocShape.data)


@irdl_op_definition
class MemDescSubsliceOp(StaticOffsetsOp):
    """``ttg.memdesc_subslice %buf[0, 32]``: a static sub-tile view of a buffer."""

    name = "ttg.memdesc_subslice"

    src = operand_def(MemDescType)
    offsets = prop_def(DenseArrayBase)
    result = result_def(MemDescType)

    traits = traits_def(Pure())
    # The custom assembly (StaticOffsetsOp): where the offsets live, how they print.
    OFFSETS: ClassVar[str] = "offsets"
    OFFSETS_TYPE: ClassVar[Attribute] = i32

    def verify_(self) -> None:
        src, res = self.src.type, self.result.type
        assert isinstance(src, MemDescType) and isinstance(res, MemDescType)
        offsets = self.offsets.get_values()
        if len(offsets) != src.get_num_dims() or res.get_num_dims() != src.get_num_dims():
            raise VerifyException(
                "ttg.memdesc_subslice: offsets, source and result must have the same rank"
            )
        for off, s, r in zip(offsets, src.get_shape(), res.get_shape()):
            if off < 0 or off + r > s:
                raise VerifyException(
                    f"ttg.memdesc_subslice: slice [{off}, {off + r}) is out of bounds of {s}"
                )
        if res.get_element_type() != src.get_element_type():
            raise VerifyException(
                "ttg.memdesc_subslice: result element type must match desc element type, "
                f"got {type_str(src.get_element_type())} and "
                f"{type_str(res.get_element_type())}"
            )
        # Triton's rules: a view is one tile of a grid of equal tiles, laid out (after
        # swizzling) as the first one is.
        for off, s, r in zip(offsets, src.get_shape(), res.get_shape()):
            if s == r and off:
                raise VerifyException(
                    f"ttg.memdesc_subslice: a non zero offset ({off}) found in a "
                    "dimension that is not being split"
                )
            if s != r and off % r:
                raise VerifyException(
                    f"ttg.memdesc_subslice: the split offset {off} may not touch the tile "
                    f"(it must be a multiple of the result's size {r})"
                )
        if src.get_shape() == res.get_shape():
            return
        if isinstance(src.encoding, PaddedSharedEncodingAttr) and \
                len(src.encoding.shape.data) < src.get_num_dims():
            raise VerifyException(
                "ttg.memdesc_subslice: a subslice of a lower-rank padded shared layout "
                f"(rank {len(src.encoding.shape.data)}) from a rank {src.get_num_dims()} "
                "buffer is not supported yet (as in Triton)"
            )
        if not hasattr(src.encoding, "to_encoding"):
            return
        try:
            dim = subslice_splits_swizzle(src.encoding.to_encoding(), _alloc_shape(src),
                                          src.get_shape(), res.get_shape())
        except LayoutError:
            return  # a layout tileopt cannot invert here (padded): not checked
        if dim is not None:
            raise VerifyException(
                f"ttg.memdesc_subslice: tiles of {_shape_str(res.get_shape())} along dim "
                f"{dim} split the swizzling pattern of {type_str(src.encoding)} (we don't "
                "support splitting along the swizzling pattern)"
            )


@irdl_op_definition
class MemDescTransOp(IRDLOperation):
    """``ttg.memdesc_trans %buf {order = array<i32: 1, 0>}``: a transposed view of a buffer."""

    name = "ttg.memdesc_trans"

    src = operand_def(MemDescType)
    order = prop_def(DenseArrayBase)
    result = result_def(MemDescType)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def verify_(self) -> None:
        src, res = self.src.type, self.result.type
        assert isinstance(src, MemDescType) and isinstance(res, MemDescType)
        order = self.order.get_values()
        if sorted(order) != list(range(src.get_num_dims())):
            raise VerifyException(
                f"ttg.memdesc_trans: order {list(order)} is not a permutation of the source rank"
            )
        expected = tuple(src.get_shape()[i] for i in order)
        if tuple(res.get_shape()) != expected:
            raise VerifyException(
                f"ttg.memdesc_trans: result shape must be {_shape_str(expected)}, got "
                f"{_shape_str(res.get_shape())}"
            )


@irdl_op_definition
class MemDescReshapeOp(IRDLOperation):
    """``ttg.memdesc_reshape``: a view of a buffer under a new shape (same element count)."""

    name = "ttg.memdesc_reshape"

    src = operand_def(MemDescType)
    result = result_def(MemDescType)

    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def verify_(self) -> None:
        src, res = self.src.type, self.result.type
        assert isinstance(src, MemDescType) and isinstance(res, MemDescType)
        if math.prod(src.get_shape()) != math.prod(res.get_shape()):
            raise VerifyException("ttg.memdesc_reshape: the number of elements must not change")
        if src.get_element_type() != res.get_element_type():
            raise VerifyException("ttg.memdesc_reshape: element types differ")


def parse_short_memdesc(parser: Parser) -> MemDescType:
    """A memdesc type in an op's short form ``<...>``; the full ``!ttg.memdesc<...>`` too."""
    if parser.parse_optional_punctuation("<") is not None:
        return MemDescType.new(parse_memdesc_body(parser, opened=True))
    start = parser.pos
    ty = parser.parse_type()
    if not isinstance(ty, MemDescType):
        parser.raise_error(f"expected a !ttg.memdesc type, got {ty}", start, parser.pos)
    return ty


def pointee_element(ptr_tensor_type: Attribute) -> Attribute | None:
    """T for a ``tensor<...x!tt.ptr<T>>`` (None if it is not a tensor of pointers)."""
    if isinstance(ptr_tensor_type, TensorType) and isinstance(
        ptr_tensor_type.element_type, PointerType
    ):
        return ptr_tensor_type.element_type.pointee_type
    return None


@irdl_op_definition
class AsyncCopyGlobalToLocalOp(IRDLOperation):
    """``ttg.async_copy_global_to_local %ptrs, %buf [mask %m] [other %o]``: cp.async-style copy.

    Reads global memory, writes the shared buffer asynchronously; the data is there only
    after the ``ttg.async_wait`` on its commit group.
    """

    name = "ttg.async_copy_global_to_local"

    src = operand_def(TensorType)
    result = operand_def(MemDescType)
    mask = opt_operand_def(TensorType)
    other = opt_operand_def(Attribute)
    cache = opt_prop_def(IntegerAttr)
    evict = opt_prop_def(IntegerAttr)
    isVolatile = opt_prop_def(IntegerAttr)
    contiguity = opt_prop_def(IntegerAttr)
    token = result_def(AsyncTokenType())

    traits = traits_def(ReadsGlobalWritesShared())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    # Triton's DefaultValuedAttrs: MLIR leaves them out of the text when they hold these.
    _DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "isVolatile": IntegerAttr(0, i1), "contiguity": IntegerAttr(1, i32)}

    @classmethod
    def parse(cls, parser: Parser) -> AsyncCopyGlobalToLocalOp:
        src, dst = parse_operands(parser, 2)
        mask: UnresolvedOperand | None = None
        other: UnresolvedOperand | None = None
        if parser.parse_optional_keyword("mask"):
            mask = parser.parse_unresolved_operand()
        if parser.parse_optional_keyword("other"):
            other = parser.parse_unresolved_operand()
        cache_props = parse_cache_keywords(parser, ["cacheModifier", "evictionPolicy"])
        props, attrs = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        dst_type = parse_short_memdesc(parser)
        operands: list = [parser.resolve_operand(src, src_type), parser.resolve_operand(dst, dst_type)]
        # Triton infers the mask and other types from the pointer tensor.
        operands.append([parser.resolve_operand(mask, i1_same_shape(src_type))] if mask else [])
        operands.append(
            [parser.resolve_operand(other, pointee_type(src_type))] if other else []
        )
        return cls.build(
            operands=operands,
            result_types=[AsyncTokenType()],
            properties={**cache_props, **props},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        printer.print_string(", ")
        printer.print_operand(self.result)
        if self.mask is not None:
            printer.print_string(" mask ")
            printer.print_operand(self.mask)
        if self.other is not None:
            printer.print_string(" other ")
            printer.print_operand(self.other)
        print_cache_keywords(printer, self)
        print_attr_dict(printer, self, elide=["cache", "evict"], defaults=self._DEFAULTS)
        print_types(printer, [self.src.type])
        printer.print_string(" -> ")
        dst_type = self.result.type
        assert isinstance(dst_type, MemDescType)
        print_memdesc_body(printer, dst_type)

    def verify_(self) -> None:
        src, dst = self.src.type, self.result.type
        assert isinstance(dst, MemDescType)
        if not dst.is_mutable:
            raise VerifyException(
                "ttg.async_copy_global_to_local: cannot store into immutable memory"
            )
        if tensor_shape(src) != tuple(dst.get_shape()):
            raise VerifyException(
                "ttg.async_copy_global_to_local: pointer tensor shape "
                f"{_shape_str(tensor_shape(src))} does not match the buffer shape "
                f"{_shape_str(dst.get_shape())}"
            )
        pointee = pointee_element(src)
        if pointee is None:
            raise VerifyException(
                f"ttg.async_copy_global_to_local: src must be a tensor of pointers, got {src}"
            )
        if pointee != dst.get_element_type():
            raise VerifyException(
                f"ttg.async_copy_global_to_local: pointers to {pointee} cannot fill a buffer "
                f"of {dst.get_element_type()}"
            )
        if self.mask is not None and tensor_shape(self.mask.type) != tensor_shape(src):
            raise VerifyException("ttg.async_copy_global_to_local: mask shape differs from src")


@irdl_op_definition
class AsyncCommitGroupOp(IRDLOperation):
    """``ttg.async_commit_group tokens %t...``: close a group of async copies."""

    name = "ttg.async_commit_group"

    inputTokens = var_operand_def(AsyncTokenType())
    asyncToken = result_def(AsyncTokenType())

    traits = traits_def(Synchronizes())
    assembly_format = "(`tokens` $inputTokens^)? attr-dict"

    def __init__(self, tokens: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[list(tokens)], result_types=[AsyncTokenType()])


@irdl_op_definition
class AsyncWaitOp(IRDLOperation):
    """``ttg.async_wait %t... {num = N : i32}``: wait until at most N groups are in flight."""

    name = "ttg.async_wait"

    asyncToken = var_operand_def(AsyncTokenType())
    num = prop_def(IntegerAttr[IntegerType])
    retToken = result_def(AsyncTokenType())

    traits = traits_def(Synchronizes())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$asyncToken attr-dict"

    def __init__(self, tokens: Sequence[SSAValue | Operation], num: int):
        super().__init__(
            operands=[list(tokens)],
            properties={"num": IntegerAttr(num, i32)},
            result_types=[AsyncTokenType()],
        )


# ``ttg.barrier``'s address spaces (Triton 3.9's ``TTG_AddrSpace`` bit enum), in the
# order the printer joins them with ``|``; ``all`` names every bit, ``none`` no bit.
BARRIER_ADDRESS_SPACES = {"local": 1, "global_read": 2, "global_write": 4,
                          "tensor_read": 8, "tensor_write": 16}
_ALL_ADDRESS_SPACES = sum(BARRIER_ADDRESS_SPACES.values())


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """``ttg.barrier local``: every thread of the CTA waits here, and the memory traffic of
    the named address spaces (``local|global_read|...``, ``all``, ``none``) before it is
    visible to all of them after. Triton 3.9's membar inserts ``ttg.barrier local``."""

    name = "ttg.barrier"

    addrSpace = prop_def(IntegerAttr)

    traits = traits_def(Synchronizes())

    def __init__(self, address_spaces: int = BARRIER_ADDRESS_SPACES["local"]):
        super().__init__(properties={"addrSpace": IntegerAttr(address_spaces, i32)})

    @classmethod
    def parse(cls, parser: Parser) -> BarrierOp:
        note_spelling("3.9")  # 3.6 wrote gpu.barrier
        start = parser.pos
        mask = 0
        while True:
            word = parser.parse_identifier()
            if word == "all":
                mask |= _ALL_ADDRESS_SPACES
            elif word != "none":
                if word not in BARRIER_ADDRESS_SPACES:
                    parser.raise_error(f"ttg.barrier: unknown address space '{word}' (one "
                                       f"of none, all, {', '.join(BARRIER_ADDRESS_SPACES)})",
                                       start, parser.pos)
                mask |= BARRIER_ADDRESS_SPACES[word]
            if parser.parse_optional_punctuation("|") is None:
                break
        props, attrs = parse_attr_dict_split(parser, cls)
        return cls.build(properties={**props, "addrSpace": IntegerAttr(mask, i32)},
                         attributes=attrs)

    def print(self, printer: Printer) -> None:
        mask = self.addrSpace.value.data
        if mask == _ALL_ADDRESS_SPACES:
            words = ["all"]
        else:
            words = [w for w, bit in BARRIER_ADDRESS_SPACES.items() if mask & bit] or ["none"]
        printer.print_string(" " + "|".join(words))
        print_attr_dict(printer, self, elide=["addrSpace"])

    @property
    def orders_local(self) -> bool:
        """Whether it orders shared-memory (LDS) traffic, what membar needs."""
        return bool(self.addrSpace.value.data & BARRIER_ADDRESS_SPACES["local"])


@irdl_op_definition
class GlobalScratchAllocOp(IRDLOperation):
    """``ttg.global_scratch_alloc {nbytes = 128 : i32, alignment = 128 : i32} :
    !tt.ptr<i8>``: per-program global memory (a TMA descriptor's, for one), placed by
    ``tritongpu-global-scratch-memory-allocation``."""

    name = "ttg.global_scratch_alloc"

    nbytes = prop_def(IntegerAttr)
    alignment = prop_def(IntegerAttr)
    result = result_def(PointerType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"


TTG_OPS = [
    ConvertLayoutOp,
    LocalAllocOp,
    LocalLoadOp,
    LocalStoreOp,
    LocalDeallocOp,
    MemDescIndexOp,
    MemDescSubsliceOp,
    MemDescTransOp,
    MemDescReshapeOp,
    AsyncCopyGlobalToLocalOp,
    AsyncCommitGroupOp,
    AsyncWaitOp,
    BarrierOp,
    GlobalScratchAllocOp,
]

TTG = Dialect("ttg", TTG_OPS, [*TTG_ATTRIBUTES, *TTG_TYPES])
# Folders and patterns that need no layout arithmetic: imported at the first lookup.
attach_on_first_use(TTG, "tileopt.dialects.ttg_canonicalize")


# --------------------------------------------------------------------------------------
# Module-level attributes and checks
# --------------------------------------------------------------------------------------

_D = TypeVar("_D")

NUM_WARPS, THREADS_PER_WARP, NUM_CTAS, TARGET = (
    "ttg.num-warps",
    "ttg.threads-per-warp",
    "ttg.num-ctas",
    "ttg.target",
)


def _lookup_int(op: Operation | None, key: str, default: _D) -> int | _D:
    """``key`` on ``op`` or its closest ancestor that sets it: the module, usually, but a
    warp-specialised region may carry its own ``ttg.num-warps`` (Triton's
    ``lookupNumWarps``)."""
    while op is not None:
        attr = op.attributes.get(key)
        if isinstance(attr, IntegerAttr):
            return attr.value.data
        op = op.parent_op()
    return default


def num_warps(op: Operation, default: _D = 4) -> int | _D:
    """Warps per CTA where ``op`` runs."""
    return _lookup_int(op, NUM_WARPS, default)


def threads_per_warp(op: Operation, default: _D = 32) -> int | _D:
    """Lanes per warp of the module ``op`` is in."""
    return _lookup_int(op, THREADS_PER_WARP, default)


def num_ctas(op: Operation, default: _D = 1) -> int | _D:
    """CTAs per cluster of the module ``op`` is in."""
    return _lookup_int(op, NUM_CTAS, default)


def target_name(op: Operation) -> str | None:
    """The ``ttg.target`` (``cuda:90``, ``hip:gfx942``) of the module ``op`` is in, if set."""
    while op is not None:
        attr = op.attributes.get(TARGET)
        if attr is not None:
            return attr.data if isinstance(attr, StringAttr) else None
        op = op.parent_op()
    return None


def _module_int(module: ModuleOp, key: str) -> tuple[int | None, str | None]:
    value = module.attributes.get(key)
    if value is None:
        return None, None
    if not isinstance(value, IntegerAttr) or value.type != i32:
        return None, f"module attribute \"{key}\" must be an i32 integer, got {value}"
    if value.value.data <= 0:
        return None, f"module attribute \"{key}\" must be positive, got {value.value.data}"
    return value.value.data, None


def layouts_in_type(ty: Attribute) -> Iterator[Attribute]:
    """Every layout in a type: its encoding and, for slices/dot operands, their parents."""
    stack: list[Attribute] = []
    if isinstance(ty, TensorType) and isinstance(ty.encoding, Attribute):
        stack.append(ty.encoding)
    elif isinstance(ty, MemDescType):
        stack.append(ty.encoding)
    while stack:
        layout = stack.pop()
        yield layout
        if isinstance(layout, (SliceEncodingAttr, DotOperandEncodingAttr)):
            stack.append(layout.parent)


def _check_layout(layout: Attribute, warps: int | None, lanes: int | None) -> str | None:
    if isinstance(layout, BlockedEncodingAttr):
        tpw, wpc = ints_of(layout.threadsPerWarp), ints_of(layout.warpsPerCTA)
        if lanes is not None and math.prod(tpw) != lanes:
            return (
                f"blocked layout threadsPerWarp {list(tpw)} has {math.prod(tpw)} threads but "
                f"the module has {THREADS_PER_WARP} = {lanes}"
            )
        if warps is not None and math.prod(wpc) != warps:
            return (
                f"blocked layout warpsPerCTA {list(wpc)} has {math.prod(wpc)} warps but the "
                f"module has {NUM_WARPS} = {warps}"
            )
    elif isinstance(layout, (NvidiaMmaEncodingAttr, AMDMfmaEncodingAttr, AMDWmmaEncodingAttr)):
        wpc = ints_of(layout.warpsPerCTA)
        if warps is not None and math.prod(wpc) != warps:
            kind = layout.name.removeprefix("ttg.")
            return (
                f"{kind} layout warpsPerCTA {list(wpc)} has {math.prod(wpc)} warps but the "
                f"module has {NUM_WARPS} = {warps}"
            )
    elif isinstance(layout, LinearEncodingAttr):
        n_lanes, n_warps = 2 ** len(layout.lane.data), 2 ** len(layout.warp.data)
        if lanes is not None and n_lanes != lanes:
            return (
                f"linear layout has {len(layout.lane.data)} lane bases ({n_lanes} threads) "
                f"but the module has {THREADS_PER_WARP} = {lanes}"
            )
        if warps is not None and n_warps != warps:
            return (
                f"linear layout has {len(layout.warp.data)} warp bases ({n_warps} warps) "
                f"but the module has {NUM_WARPS} = {warps}"
            )
    return None


def _op_types(op: Operation) -> list[Attribute]:
    # ``_type``/``_operands``/``_args``: xDSL 0.74's fields behind ``type``, ``operands``
    # and ``args`` (this runs on every op whenever a module is verified)
    types = [value._type for value in op.results]  # noqa: SLF001
    types += [value._type for value in op._operands]  # noqa: SLF001
    for region in op.regions:
        for block in region.blocks:
            types += [arg._type for arg in block._args]  # noqa: SLF001
    return types


def _rank_mismatch(ty: Attribute) -> str | None:
    """Triton's rule that a distributed layout describes tensors of its own rank."""
    if not isinstance(ty, TensorType) or not isinstance(ty.encoding, Attribute):
        return None
    rank = layout_rank(ty.encoding)
    tensor_rank = len(ty.get_shape())
    if rank is None or rank == tensor_rank:
        return None
    return (f"layout has rank {rank}, but the tensor it's attached to has rank "
            f"{tensor_rank}")


def _shared_tensor_problem(ty: Attribute) -> str | None:
    """Triton's rule that tensor operands and results have distributed layouts (a shared
    layout belongs to a memdesc); like Triton, at the op that uses the value."""
    if isinstance(ty, TensorType) and is_shared_layout(ty.encoding):
        return ("Non-distributed layout is not allowed in tensor type. Got "
                f"{type_str(ty)}; a shared layout belongs to a !ttg.memdesc")
    return None


def _layout_problem(ty: Attribute, warps: int | None, lanes: int | None, scope: str,
                    checked: dict[tuple[Attribute, int | None], str | None]) -> str | None:
    """The rank and layout rules for one type of an op (``checked``: the verdict of each
    layout under a warp count, shared by the calls of one check)."""
    if (rank_problem := _rank_mismatch(ty)) is not None:
        return rank_problem
    for layout in layouts_in_type(ty):
        if (layout, warps) not in checked:
            found = _check_layout(layout, warps, lanes)
            if found is not None and scope != "module":
                found = found.replace("the module has", f"the {scope} has")
            checked[layout, warps] = found
        if checked[layout, warps] is not None:
            return checked[layout, warps]
    return None


_TYPE = attrgetter("_type")  # xDSL 0.74's field behind an SSA value's ``type``
_RESULTS = attrgetter("results")
_OPERANDS = attrgetter("_operands")
_REGIONS = attrgetter("regions")


class LayoutVerdicts:
    """The types that passed :func:`find_layout_problem`'s per-type rules under one
    module setting (warps, lanes), by identity, for a caller that checks one module
    again and again (the verifier after each pass): a type object recurs on many ops
    and in every check, and checking one hashes its layouts. Each entry holds its type,
    so that its id is not reused. Only types that passed are entered."""

    __slots__ = ("setting", "as_value", "as_type")

    def __init__(self) -> None:
        self.setting: tuple[int | None, int | None] | None = None
        # passed the shared-tensor rule (the type of a result or operand) / the rank
        # and layout rules (any type of an op: results, operands, its blocks' arguments)
        self.as_value: dict[object, Attribute] = {}
        self.as_type: dict[object, Attribute] = {}

    def under(self, setting: tuple[int | None, int | None]) -> LayoutVerdicts:
        if setting != self.setting:
            self.setting, self.as_value, self.as_type = setting, {}, {}
        return self

    def all_pass(self, ops: Sequence[Operation], warps: int | None,
                 lanes: int | None) -> bool:
        """Whether every type of ``ops`` passes, type by type: those known to pass are
        skipped by C-level ``map``s (no Python frame per op), the others checked and
        entered. False as soon as one fails (which op reports it is for the caller's
        walk to find)."""
        values = list(map(_TYPE, chain(chain.from_iterable(map(_RESULTS, ops)),
                                       chain.from_iterable(map(_OPERANDS, ops)))))
        arguments = [arg._type  # noqa: SLF001
                     for op in compress(ops, map(_REGIONS, ops)) for region in op.regions
                     for block in region.blocks for arg in block._args]  # noqa: SLF001
        as_value, as_type = self.as_value, self.as_type
        if all(map(as_value.__contains__, map(id, values))) and \
                all(map(as_type.__contains__, map(id, values))) and \
                all(map(as_type.__contains__, map(id, arguments))):
            return True  # (the common case, after the first check)
        checked: dict[tuple[Attribute, int | None], str | None] = {}
        for ty in compress(values, map(not_, map(as_value.__contains__, map(id, values)))):
            if id(ty) not in as_value:
                if _shared_tensor_problem(ty) is not None:
                    return False
                as_value[id(ty)] = ty
        values += arguments
        for ty in compress(values, map(not_, map(as_type.__contains__, map(id, values)))):
            if id(ty) not in as_type:
                if _layout_problem(ty, warps, lanes, "module", checked) is not None:
                    return False
                as_type[id(ty)] = ty
        return True


def find_layout_problem(module: ModuleOp, ops: Sequence[Operation] | None = None,
                        verdicts: LayoutVerdicts | None = None
                        ) -> tuple[Operation, str] | None:
    """The first op (or the module itself) that breaks a module-level TritonGPU rule.

    Rules: ``ttg.num-warps``, ``ttg.threads-per-warp`` and ``ttg.num-ctas`` are positive
    i32s, ``ttg.target`` is a ``"backend:arch"`` string, and every blocked / MMA / linear
    layout used by an op distributes exactly the module's lanes and warps. Modules without
    these attributes (plain Triton IR) are only checked for those they have. The message
    does not name the op, so callers can add its position. ``ops`` (in walk order): only
    these ops' types are checked, where the others are known to pass (the incremental
    verifier's re-checked ops, the module's attributes unchanged), else every op of the
    module. ``verdicts``: the types known to pass from earlier calls on this module
    (each type that passes is added).
    """
    warps, problem = _module_int(module, NUM_WARPS)
    if problem is None:
        lanes, problem = _module_int(module, THREADS_PER_WARP)
    if problem is None:
        _, problem = _module_int(module, NUM_CTAS)
    target = module.attributes.get(TARGET)
    if problem is None and target is not None and (
        not isinstance(target, StringAttr) or ":" not in target.data
    ):
        problem = (
            f"module attribute {TARGET} must be a string like \"cuda:90\" or "
            f"\"hip:gfx942\", got {target}"
        )
    if problem is not None:
        return module, problem
    if ops is None:
        ops = list(module.walk())
    # A function's own ``ttg.num-warps`` overrides the module's for the ops inside it (as
    # Triton's lookupNumWarps reads it); such functions are rare, so the common case keeps
    # one warp count, checks type by type, and keeps the verdicts.
    scoped = {id(f): f for f in module.body.ops if NUM_WARPS in f.attributes}
    if scoped:
        # types that passed, by (identity, warps) (a type object recurs on many ops)
        verdicts = LayoutVerdicts()
    else:
        verdicts = (verdicts or LayoutVerdicts()).under((warps, lanes))
        if verdicts.all_pass(ops, warps, lanes):
            return None
    # Which op reports the problem: the first one, in walk order, with a failing type.
    as_value, as_type = verdicts.as_value, verdicts.as_type
    checked: dict[tuple[Attribute, int | None], str | None] = {}
    for op in ops:
        op_warps, scope = warps, "module"
        if scoped:
            func = op
            while func is not None and id(func) not in scoped:
                func = func.parent_op()
            if func is not None:
                op_warps, problem = _module_int(scoped[id(func)], NUM_WARPS)
                if problem is not None:
                    return func, problem.replace("module attribute", "function attribute")
                scope = "function"
        for value in (*op.results, *op._operands):  # noqa: SLF001 (see _op_types)
            ty = value._type  # noqa: SLF001
            if id(ty) not in as_value:
                if (shared := _shared_tensor_problem(ty)) is not None:
                    return op, shared
                as_value[id(ty)] = ty
        for ty in _op_types(op):
            key = (id(ty), op_warps) if scoped else id(ty)
            if key not in as_type:
                if (found := _layout_problem(ty, op_warps, lanes, scope, checked)) is not None:
                    return op, found
                as_type[key] = ty
    return None


def verify_layouts_against_module(module: ModuleOp) -> None:
    """``find_layout_problem`` as an exception: ``'<op>' op: <what is wrong>``."""
    found = find_layout_problem(module)
    if found is not None:
        op, message = found
        raise VerifyException(f"'{op.name}' op: {message}")


__all__ = [
    "TTG",
    "verify_layouts_against_module",
    "find_layout_problem",
    "LayoutVerdicts",
    "layouts_in_type",
    # attributes
    "TritonGPULayoutAttr",
    "BlockedEncodingAttr",
    "SliceEncodingAttr",
    "DotOperandEncodingAttr",
    "NvidiaMmaEncodingAttr",
    "AMDMfmaEncodingAttr",
    "AMDWmmaEncodingAttr",
    "LinearEncodingAttr",
    "SwizzledSharedEncodingAttr",
    "AMDRotatingSharedEncodingAttr",
    "NVMMASharedEncodingAttr",
    "PaddedSharedEncodingAttr",
    "SharedMemorySpaceAttr",
    "layout_rank",
    "is_distributed_layout",
    "is_shared_layout",
    # types
    "MemDescType",
    "AsyncTokenType",
    # ops
    *[op.__name__ for op in TTG_OPS],
]
