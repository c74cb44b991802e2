"""The TritonAMDGPU dialect (``amdg``): AMD-specific ops Triton 3.6 emits at TritonGPU level.

Buffer ops address global memory as a uniform base pointer plus a tensor of 32-bit offsets
(``amdg.buffer_load %base[%offsets], %mask, %other : tensor<...>``), which lowers to
``buffer_load_*`` with hardware bounds checking; ``amdg.buffer_load_to_local`` copies
straight into LDS. ``amdg.in_thread_transpose`` reshuffles the elements a thread holds,
``amdg.extract_slice`` / ``amdg.concat`` cut and join register tensors, and
``amdg.cond_barrier`` is a barrier only for the threads whose predicate is true.

Syntax follows ``third_party/amd/include/Dialect/TritonAMDGPU/IR/TritonAMDGPUOps.td``
(Triton 3.6 renamed the dialect prefix from ``amdgpu`` to ``amdg``). Operand types that
Triton infers are inferred here too: ``%base`` is ``!tt.ptr<element>``, offsets are
``i32`` and the mask ``i1`` tensors of the result's shape and encoding.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, TensorType, i1, i32, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tileopt.dialects.assembly import (
    RMW_PREFIX,
    StaticOffsetsOp,
    parse_attr_dict_split,
    parse_cache_keywords,
    parse_enum_prefix,
    print_attr_dict,
    print_cache_keywords,
    print_enum_prefix,
    print_rmw_prefix,
    print_types,
)
from tileopt.dialects.canonicalization import attach_on_first_use
from tileopt.dialects.effects import (
    ReadsGlobal,
    ReadsGlobalWritesShared,
    ReadsWritesGlobal,
    Synchronizes,
    WritesGlobal,
)
from tileopt.dialects.triton_version import note_spelling, prints_39
from tileopt.dialects.tt_types import (
    MEM_SEMANTIC,
    MEM_SYNC_SCOPE,
    PointerType,
    same_shape_with_element,
)
from tileopt.dialects.ttg import (
    parse_short_memdesc,
    tensor_shape,
)
from tileopt.dialects.ttg_types import AsyncTokenType, MemDescType, print_memdesc_body

_CLAUSE_PROPS = ["cache"]


def _parse_stride_and_cache(parser: Parser) -> tuple[UnresolvedOperand | None, dict]:
    """``oilist(cacheModifier = x)`` and ``(stride = %s)?``, accepted in either order."""
    stride = None
    props: dict[str, Attribute] = {}
    for _ in range(2):
        props.update(parse_cache_keywords(parser, [] if "cache" in props else ["cacheModifier"]))
        if stride is None and parser.parse_optional_keyword("stride") is not None:
            parser.parse_punctuation("=")
            stride = parser.parse_unresolved_operand()
    return stride, props


def _print_cache_and_stride(printer: Printer, op: Operation, stride) -> None:
    print_cache_keywords(printer, op)
    if stride is not None:
        printer.print_string(" stride = ")
        printer.print_operand(stride)


def _base_pointer_type(result_type: Attribute) -> Attribute:
    element = result_type.get_element_type() if isinstance(result_type, TensorType) else result_type
    return PointerType(element)


def _parse_buffer_address(parser: Parser) -> tuple[UnresolvedOperand, UnresolvedOperand]:
    """``%base[%offsets]``."""
    ptr = parser.parse_unresolved_operand()
    parser.parse_punctuation("[")
    offsets = parser.parse_unresolved_operand()
    parser.parse_punctuation("]")
    return ptr, offsets


def _print_buffer_address(
    printer: Printer, op: Operation, trailing: Sequence[SSAValue | None] = ()
) -> None:
    """``%base[%offsets]``, then ``, %x`` for each of ``trailing`` the op has."""
    printer.print_operand(op.ptr)
    printer.print_string("[")
    printer.print_operand(op.offsets)
    printer.print_string("]")
    for value in trailing:
        if value is not None:
            printer.print_string(", ")
            printer.print_operand(value)


def _parse_buffer_tail(
    parser: Parser, op_type: type[IRDLOperation]
) -> tuple[UnresolvedOperand | None, dict, dict, Attribute, Attribute | None]:
    """What follows the operands of buffer_load/store/atomic_rmw: the stride and cache
    clauses, the attr-dict and ``: T`` (Triton 3.6) or ``: !tt.ptr<E> -> T`` (3.9). Gives
    (stride, properties, attributes, T, the pointer type where the text gives it)."""
    stride, clause_props = _parse_stride_and_cache(parser)
    props, attrs = parse_attr_dict_split(parser, op_type)
    parser.parse_punctuation(":")
    data_type = parser.parse_type()
    ptr_type = None
    if parser.parse_optional_punctuation("->") is not None:
        note_spelling("3.9")
        ptr_type, data_type = data_type, parser.parse_type()
    return stride, {**clause_props, **props}, attrs, data_type, ptr_type


def _print_buffer_tail(printer: Printer, op: Operation, data_type: Attribute,
                       elide: Sequence[str] = ()) -> None:
    _print_cache_and_stride(printer, op, op.stride)
    print_attr_dict(printer, op, elide=[*_CLAUSE_PROPS, *elide])
    if prints_39():
        print_types(printer, [op.ptr.type, data_type], " -> ")
    else:
        print_types(printer, [data_type])


def _resolve_buffer_operands(
    parser: Parser, data_type: Attribute, ptr: UnresolvedOperand, offsets: UnresolvedOperand,
    stride: UnresolvedOperand | None, mask: UnresolvedOperand | None,
    ptr_type: Attribute | None = None,
) -> tuple[SSAValue, SSAValue, list[SSAValue], list[SSAValue]]:
    """Base pointer, offsets, stride and mask of an access to ``data_type``, with the
    types Triton infers from it (the pointer's, where the text does not give it)."""
    return (
        parser.resolve_operand(ptr, ptr_type or _base_pointer_type(data_type)),
        parser.resolve_operand(offsets, same_shape_with_element(data_type, i32)),
        [parser.resolve_operand(stride, i32)] if stride else [],
        [parser.resolve_operand(mask, same_shape_with_element(data_type, i1))] if mask else [],
    )


def _verify_buffer_operands(op_name: str, data_type: Attribute, ptr, offsets, mask) -> None:
    if not isinstance(data_type, TensorType):
        raise VerifyException(f"{op_name}: the data must be a tensor, got {data_type}")
    if not isinstance(ptr.type, PointerType) or ptr.type.pointee_type != data_type.element_type:
        raise VerifyException(
            f"{op_name}: base pointer {ptr.type} does not point to {data_type.element_type}"
        )
    if offsets.type != same_shape_with_element(data_type, i32):
        raise VerifyException(
            f"{op_name}: offsets must be {same_shape_with_element(data_type, i32)}, "
            f"got {offsets.type}"
        )
    if mask is not None and mask.type != same_shape_with_element(data_type, i1):
        raise VerifyException(f"{op_name}: mask must be {same_shape_with_element(data_type, i1)}")


@irdl_op_definition
class BufferLoadOp(IRDLOperation):
    """``amdg.buffer_load %base[%offsets] [, %mask [, %other]]``: bounds-checked global load."""

    name = "amdg.buffer_load"

    ptr = operand_def(PointerType)
    offsets = operand_def(TensorType)
    stride = opt_operand_def(i32)
    mask = opt_operand_def(TensorType)
    other = opt_operand_def(TensorType)
    cache = opt_prop_def(IntegerAttr)
    result = result_def(TensorType)

    traits = traits_def(ReadsGlobal())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> BufferLoadOp:
        ptr, offsets = _parse_buffer_address(parser)
        mask = other = None
        if parser.parse_optional_punctuation(","):
            mask = parser.parse_unresolved_operand()
            if parser.parse_optional_punctuation(","):
                other = parser.parse_unresolved_operand()
        stride, props, attrs, result_type, ptr_type = _parse_buffer_tail(parser, cls)
        operands = [
            *_resolve_buffer_operands(parser, result_type, ptr, offsets, stride, mask, ptr_type),
            [parser.resolve_operand(other, result_type)] if other else [],
        ]
        return cls.build(
            operands=operands, result_types=[result_type], properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_buffer_address(printer, self, (self.mask, self.other))
        _print_buffer_tail(printer, self, self.result.type)

    def verify_(self) -> None:
        _verify_buffer_operands(self.name, self.result.type, self.ptr, self.offsets, self.mask)
        if self.other is not None and self.other.type != self.result.type:
            raise VerifyException(f"{self.name}: 'other' must have the result type")


@irdl_op_definition
class BufferStoreOp(IRDLOperation):
    """``amdg.buffer_store %value, %base[%offsets] [, %mask]``: bounds-checked global store."""

    name = "amdg.buffer_store"

    value = operand_def(TensorType)
    ptr = operand_def(PointerType)
    offsets = operand_def(TensorType)
    stride = opt_operand_def(i32)
    mask = opt_operand_def(TensorType)
    cache = opt_prop_def(IntegerAttr)

    traits = traits_def(WritesGlobal())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> BufferStoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        ptr, offsets = _parse_buffer_address(parser)
        mask = parser.parse_unresolved_operand() if parser.parse_optional_punctuation(",") else None
        stride, props, attrs, value_type, ptr_type = _parse_buffer_tail(parser, cls)
        operands = [
            parser.resolve_operand(value, value_type),
            *_resolve_buffer_operands(parser, value_type, ptr, offsets, stride, mask, ptr_type),
        ]
        return cls.build(operands=operands, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        _print_buffer_address(printer, self, (self.mask,))
        _print_buffer_tail(printer, self, self.value.type)

    def verify_(self) -> None:
        _verify_buffer_operands(self.name, self.value.type, self.ptr, self.offsets, self.mask)


@irdl_op_definition
class BufferAtomicRMWOp(IRDLOperation):
    """``amdg.buffer_atomic_rmw fadd, acq_rel, gpu, %v, %base[%offsets] [, %mask]``."""

    name = "amdg.buffer_atomic_rmw"

    ptr = operand_def(PointerType)
    offsets = operand_def(TensorType)
    value = operand_def(TensorType)
    stride = opt_operand_def(i32)
    mask = opt_operand_def(TensorType)
    atomic_rmw_op = prop_def(IntegerAttr)
    sem = prop_def(IntegerAttr)
    scope = prop_def(IntegerAttr)
    cache = opt_prop_def(IntegerAttr)
    result = result_def(TensorType)

    traits = traits_def(ReadsWritesGlobal())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> BufferAtomicRMWOp:
        rmw, sem, scope = parse_enum_prefix(parser, RMW_PREFIX)
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        ptr, offsets = _parse_buffer_address(parser)
        mask = parser.parse_unresolved_operand() if parser.parse_optional_punctuation(",") else None
        stride, props, attrs, result_type, ptr_type = _parse_buffer_tail(parser, cls)
        ptr_v, offsets_v, stride_v, mask_v = _resolve_buffer_operands(
            parser, result_type, ptr, offsets, stride, mask, ptr_type)
        value_v = parser.resolve_operand(value, result_type)
        return cls.build(
            operands=[ptr_v, offsets_v, value_v, stride_v, mask_v],
            result_types=[result_type],
            properties={**props, "atomic_rmw_op": rmw, "sem": sem, "scope": scope},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        print_rmw_prefix(printer, self)
        printer.print_operand(self.value)
        printer.print_string(", ")
        _print_buffer_address(printer, self, (self.mask,))
        _print_buffer_tail(printer, self, self.result.type, elide=["atomic_rmw_op", "sem", "scope"])

    def verify_(self) -> None:
        _verify_buffer_operands(self.name, self.result.type, self.ptr, self.offsets, self.mask)
        if self.value.type != self.result.type:
            raise VerifyException(f"{self.name}: the value must have the result type")


@irdl_op_definition
class BufferAtomicCASOp(IRDLOperation):
    """``amdg.buffer_atomic_cas acq_rel, gpu, %cmp, %val, %base[%offsets] : T``: where the
    memory at each offset holds ``cmp``, store ``val``; the old values are the result."""

    name = "amdg.buffer_atomic_cas"

    ptr = operand_def(PointerType)
    offsets = operand_def(TensorType)
    cmp = operand_def(TensorType)
    val = operand_def(TensorType)
    stride = opt_operand_def(i32)
    sem = prop_def(IntegerAttr)
    scope = prop_def(IntegerAttr)
    result = result_def(TensorType)

    traits = traits_def(ReadsWritesGlobal())

    @classmethod
    def parse(cls, parser: Parser) -> BufferAtomicCASOp:
        sem, scope = parse_enum_prefix(parser, (MEM_SEMANTIC, MEM_SYNC_SCOPE))
        cmp = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        val = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        ptr, offsets = _parse_buffer_address(parser)
        stride, props, attrs, result_type, ptr_type = _parse_buffer_tail(parser, cls)
        ptr_v, offsets_v, stride_v, _ = _resolve_buffer_operands(
            parser, result_type, ptr, offsets, stride, None, ptr_type)
        return cls.build(
            operands=[ptr_v, offsets_v, parser.resolve_operand(cmp, result_type),
                      parser.resolve_operand(val, result_type), stride_v],
            result_types=[result_type],
            properties={**props, "sem": sem, "scope": scope},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        print_enum_prefix(printer, [(MEM_SEMANTIC, self.sem), (MEM_SYNC_SCOPE, self.scope)])
        printer.print_operand(self.cmp)
        printer.print_string(", ")
        printer.print_operand(self.val)
        printer.print_string(", ")
        _print_buffer_address(printer, self)
        _print_buffer_tail(printer, self, self.result.type, elide=["sem", "scope"])

    def verify_(self) -> None:
        _verify_buffer_operands(self.name, self.result.type, self.ptr, self.offsets, None)
        if not self.cmp.type == self.val.type == self.result.type:
            raise VerifyException(f"{self.name}: cmp and val must have the result type")


@irdl_op_definition
class BufferLoadToLocalOp(IRDLOperation):
    """``amdg.buffer_load_to_local %base[%offsets] [mask = %m] [other = %o] [stride = %s]
    into %buf``: a buffer load whose data goes straight to LDS (async, like cp.async)."""

    name = "amdg.buffer_load_to_local"

    dest = operand_def(MemDescType)
    ptr = operand_def(PointerType)
    offsets = operand_def(TensorType)
    mask = opt_operand_def(TensorType)
    other = opt_operand_def(TensorType)
    stride = opt_operand_def(i32)
    cache = opt_prop_def(IntegerAttr)
    contiguity = opt_prop_def(IntegerAttr)  # elements per access the copy may assume (1)
    token = result_def(AsyncTokenType())

    traits = traits_def(ReadsGlobalWritesShared())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> BufferLoadToLocalOp:
        ptr, offsets = _parse_buffer_address(parser)
        clauses: dict[str, UnresolvedOperand] = {}
        for keyword in ("mask", "other", "stride"):
            if parser.parse_optional_keyword(keyword) is not None:
                parser.parse_punctuation("=")
                clauses[keyword] = parser.parse_unresolved_operand()
        cache_props = parse_cache_keywords(parser, ["cacheModifier"])
        parser.parse_keyword("into")
        dest = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        if parser.parse_optional_punctuation("<") is not None:
            pointee = parser.parse_type()
            parser.parse_punctuation(">")
            ptr_type: Attribute = PointerType(pointee)
        else:
            ptr_type = parser.parse_type()
        parser.parse_punctuation("[")
        offsets_type = parser.parse_type()
        parser.parse_punctuation("]")
        other_type = None
        if parser.parse_optional_punctuation("->") is None:
            other_type = parser.parse_type()
            parser.parse_punctuation("->")
        dest_type = parse_short_memdesc(parser)
        mask_type = same_shape_with_element(offsets_type, i1)
        operands = [
            parser.resolve_operand(dest, dest_type),
            parser.resolve_operand(ptr, ptr_type),
            parser.resolve_operand(offsets, offsets_type),
            [parser.resolve_operand(clauses["mask"], mask_type)] if "mask" in clauses else [],
            [parser.resolve_operand(clauses["other"], other_type)] if "other" in clauses else [],
            [parser.resolve_operand(clauses["stride"], i32)] if "stride" in clauses else [],
        ]
        return cls.build(
            operands=operands,
            result_types=[AsyncTokenType()],
            properties={**cache_props, **props},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_buffer_address(printer, self)
        for keyword, value in (("mask", self.mask), ("other", self.other), ("stride", self.stride)):
            if value is not None:
                printer.print_string(f" {keyword} = ")
                printer.print_operand(value)
        print_cache_keywords(printer, self)
        printer.print_string(" into ")
        printer.print_operand(self.dest)
        print_attr_dict(printer, self, elide=_CLAUSE_PROPS,
                        defaults={"contiguity": IntegerAttr(1, i32)})
        printer.print_string(" : <")
        assert isinstance(self.ptr.type, PointerType)
        printer.print_attribute(self.ptr.type.pointee_type)
        printer.print_string(">[")
        printer.print_attribute(self.offsets.type)
        printer.print_string("] ")  # then the optional other type: "]  ->" without it
        if self.other is not None:
            printer.print_attribute(self.other.type)
        printer.print_string(" -> ")
        assert isinstance(self.dest.type, MemDescType)
        print_memdesc_body(printer, self.dest.type)

    def verify_(self) -> None:
        dest = self.dest.type
        assert isinstance(dest, MemDescType)
        if not dest.is_mutable:
            raise VerifyException(f"{self.name}: cannot store into immutable memory")
        if tensor_shape(self.offsets.type) != tuple(dest.get_shape()):
            raise VerifyException(f"{self.name}: offsets and destination shapes differ")


@irdl_op_definition
class InThreadTransposeOp(IRDLOperation):
    """``amdg.in_thread_transpose``: permute the elements each thread holds (same data)."""

    name = "amdg.in_thread_transpose"

    src = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def verify_(self) -> None:
        if tensor_shape(self.src.type) != tensor_shape(self.result.type):
            raise VerifyException(f"{self.name}: source and result shapes differ")
        if self.src.type.get_element_type() != self.result.type.get_element_type():
            raise VerifyException(f"{self.name}: source and result element types differ")


@irdl_op_definition
class ExtractSliceOp(StaticOffsetsOp):
    """``amdg.extract_slice %t [0, 32] : tensor<..> to tensor<..>``: a static register slice."""

    name = "amdg.extract_slice"

    source = operand_def(TensorType)
    static_offsets = prop_def(DenseArrayBase)
    result = result_def(TensorType)

    traits = traits_def(Pure())
    # The custom assembly (StaticOffsetsOp): where the offsets live, how they print.
    OFFSETS: ClassVar[str] = "static_offsets"
    OFFSETS_TYPE: ClassVar[Attribute] = i64
    GAP: ClassVar[str] = " "
    ARROW: ClassVar[str] = "to"

    def verify_(self) -> None:
        src, res = tensor_shape(self.source.type), tensor_shape(self.result.type)
        offsets = self.static_offsets.get_values()
        if src is None or res is None or not len(src) == len(res) == len(offsets):
            raise VerifyException(f"{self.name}: source, result and offsets need the same rank")
        for off, s, r in zip(offsets, src, res):
            if off < 0 or off + r > s:
                raise VerifyException(f"{self.name}: slice [{off}, {off + r}) is out of {s}")


@irdl_op_definition
class ConcatOp(IRDLOperation):
    """``amdg.concat %a, %b, ... : T, T, ... -> R``: join register tensors along dim 0..n."""

    name = "amdg.concat"

    sources = var_operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())
    assembly_format = "$sources attr-dict `:` type($sources) `->` type($result)"

    def verify_(self) -> None:
        total = sum(math.prod(tensor_shape(s.type) or ()) for s in self.sources)
        if total != math.prod(tensor_shape(self.result.type) or ()):
            raise VerifyException(
                f"{self.name}: the sources hold {total} elements, the result a different number"
            )


@irdl_op_definition
class AsyncWaitOp(IRDLOperation):
    """``amdg.async_wait %t... {num_inst = N : i32}``: wait until at most N direct-to-LDS
    load instructions are in flight (``tritonamdgpu-update-async-wait-count`` makes it from
    a ``ttg.async_wait``, which counts commit groups)."""

    name = "amdg.async_wait"

    asyncToken = var_operand_def(AsyncTokenType())
    num_inst = prop_def(IntegerAttr[IntegerType])
    retToken = result_def(AsyncTokenType())

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Synchronizes())
    assembly_format = "$asyncToken attr-dict"

    @classmethod
    def waiting_for(cls, tokens: Sequence[SSAValue], num_inst: int) -> AsyncWaitOp:
        return cls.create(operands=list(tokens), result_types=[AsyncTokenType()],
                          properties={"num_inst": IntegerAttr(num_inst, i32)})


@irdl_op_definition
class CondBarrierOp(IRDLOperation):
    """``amdg.cond_barrier %pred``: s_barrier for the threads whose predicate is true."""

    name = "amdg.cond_barrier"

    pred = operand_def(i1)

    traits = traits_def(Synchronizes())
    assembly_format = "attr-dict $pred"


class SchedHintVariant(StrEnum):
    """Which instruction-scheduling recipe the AMD lowering applies to a loop body."""

    NONE = "none"
    ATTENTION = "attention"


@irdl_attr_definition
class SchedHintVariantAttr(EnumAttribute[SchedHintVariant]):
    """``#amdg.SchedHintVariant<attention>``."""

    name = "amdg.SchedHintVariant"

    @classmethod
    def parse_parameter(cls, parser):
        with parser.in_angle_brackets():
            return parser.parse_str_enum(cls.enum_type)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)


@irdl_op_definition
class InstructionSchedHintOp(IRDLOperation):
    """``amdg.instruction_sched_hint {variant = #amdg.SchedHintVariant<attention>}``: marks a
    loop body for the AMD scheduler; the lowering replaces it with sched barriers. It has an
    effect so that nothing deletes or moves it."""

    name = "amdg.instruction_sched_hint"

    variant = prop_def(SchedHintVariantAttr)

    traits = traits_def(Synchronizes())
    assembly_format = "attr-dict"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, variant: SchedHintVariant = SchedHintVariant.NONE):
        super().__init__(properties={"variant": SchedHintVariantAttr(variant)})


AMDGPU_OPS = [
    BufferLoadOp,
    BufferStoreOp,
    BufferAtomicRMWOp,
    BufferAtomicCASOp,
    BufferLoadToLocalOp,
    InThreadTransposeOp,
    ExtractSliceOp,
    ConcatOp,
    AsyncWaitOp,
    CondBarrierOp,
    InstructionSchedHintOp,
]

AMDGPU = Dialect("amdg", AMDGPU_OPS, [SchedHintVariantAttr])
# Its folders: imported at the first lookup.
attach_on_first_use(AMDGPU, "tileopt.dialects.amdgpu_canonicalize")

__all__ = ["AMDGPU", *[op.__name__ for op in AMDGPU_OPS]]
