"""Ops that touch global memory: ``tt.load``, ``tt.store``, the atomics and the tensor
descriptor (TMA) loads and stores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import i1, i32, i64, DenseArrayBase, IntegerAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, operand_def, opt_operand_def,
    opt_prop_def, prop_def, result_def, traits_def, var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import EffectInstance, MemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from tileopt.dialects.assembly import (
    RMW_PREFIX, parse_attr_dict_split, parse_attrs_and_types, parse_cache_keywords,
    parse_enum_prefix, parse_operands, print_attr_dict, print_cache_keywords,
    print_enum_prefix, print_types,
)
from tileopt.dialects.effects import (
    GLOBAL, READ, WRITE, ReadsGlobal, ReadsWritesGlobal, WritesGlobal,
)
from tileopt.dialects.traits import (
    SameLoadStoreOperandsAndResultEncoding, SameOperandsAndResultEncoding,
    SameOperandsAndResultShape, type_str,
)
from tileopt.dialects.tt_types import (
    CACHE_MODIFIER, EVICTION_POLICY, MEM_SEMANTIC, MEM_SYNC_SCOPE, PADDING_OPTION, RMW_OP,
    CacheModifier, EvictionPolicy, MemSemantic, MemSyncScope, PaddingOption, PointerType,
    RMWOp, TensorDescType, TritonEnum, i1_same_shape, is_ptr_like, is_tensor_ptr, num_elements,
    pointee_type,
)
from tileopt.dialects.tt.common import _parse_operand_list_in_brackets, _require_tensor


# ---------------------------------------------------------------------------------------
# Loads and stores
# ---------------------------------------------------------------------------------------


class LoadEffects(MemoryEffect):
    """A load reads; a volatile load also counts as a write, so it is never removed or merged."""

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance]:
        effects = {EffectInstance(READ, resource=GLOBAL)}
        if isinstance(op, LoadOp) and op.is_volatile:
            effects.add(EffectInstance(WRITE, resource=GLOBAL))
        return effects


_EMPTY_I32_ARRAY = DenseArrayBase.from_list(i32, [])
_CACHE_NONE = CACHE_MODIFIER.attr(CacheModifier.NONE)
_EVICT_NORMAL = EVICTION_POLICY.attr(EvictionPolicy.NORMAL)
_FALSE = IntegerAttr(0, i1)


def _verify_ptr_operand(op: Operation, ptr_type: Attribute, allow_block_ptr: bool) -> None:
    if is_ptr_like(ptr_type) or (allow_block_ptr and is_tensor_ptr(ptr_type)):
        return
    allowed = "a pointer, a tensor of pointers" + (" or a block pointer" if allow_block_ptr else "")
    raise VerifyException(f"pointer operand must be {allowed}, got {type_str(ptr_type)}")


def _verify_mask(op: Operation, mask: SSAValue | None, ptr_type: Attribute) -> None:
    """The mask is i1 in the pointer operand's shape (Triton's getI1SameShape)."""
    if mask is None:
        return
    expected = i1_same_shape(pointee_type(ptr_type)) if not is_tensor_ptr(ptr_type) else i1
    if mask.type != expected:
        raise VerifyException(
            f"mask must be {type_str(expected)} to match the pointer operand "
            f"{type_str(ptr_type)}, got {type_str(mask.type)}"
        )


def _verify_boundary_check(op: Operation, ptr_type: Attribute) -> None:
    check = op.properties.get("boundaryCheck")
    if not isinstance(check, DenseArrayBase) or not check.get_values():
        return
    if not is_tensor_ptr(ptr_type):
        raise VerifyException(f"boundaryCheck is only allowed with block pointers")
    assert isinstance(ptr_type, PointerType) and isinstance(ptr_type.pointee_type, TensorType)
    rank = len(ptr_type.pointee_type.get_shape())
    for dim in check.get_values():
        if not 0 <= int(dim) < rank:
            raise VerifyException(
                f"boundaryCheck dimension {int(dim)} is out of range for a "
                f"rank-{rank} block"
            )


class _LoadStore(IRDLOperation):
    """What tt.load and tt.store share: ``cache`` and ``evict`` (as the enums they stand
    for), the checks on the pointer, value, mask and keywords, and the written form
    ``%ptr, ... cacheModifier = .. {attrs} : <pointer type>``."""

    boundaryCheck = prop_def(DenseArrayBase, default_value=_EMPTY_I32_ARRAY)
    cache = prop_def(IntegerAttr, default_value=_CACHE_NONE)
    evict = prop_def(IntegerAttr, default_value=_EVICT_NORMAL)

    traits = traits_def(SameLoadStoreOperandsAndResultEncoding())

    _DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "boundaryCheck": _EMPTY_I32_ARRAY,
        "cache": _CACHE_NONE,
        "evict": _EVICT_NORMAL,
    }

    @property
    def cache_modifier(self) -> CacheModifier:
        return CACHE_MODIFIER.value_of(self.cache)

    @property
    def eviction_policy(self) -> EvictionPolicy:
        return EVICTION_POLICY.value_of(self.evict)

    def _verify_access(self, what: str, value_type: Attribute) -> None:
        """``value_type`` (what is loaded or stored, called ``what``) is the pointee."""
        ptr_type = self.ptr.type
        _verify_ptr_operand(self, ptr_type, allow_block_ptr=True)
        expected = pointee_type(ptr_type)
        if value_type != expected:
            raise VerifyException(
                f"{what} type {type_str(value_type)} must be what the pointer "
                f"operand points to: {type_str(expected)}"
            )
        _verify_mask(self, self.mask, ptr_type)
        _verify_boundary_check(self, ptr_type)
        CACHE_MODIFIER.verify(self.cache, "cache")
        EVICTION_POLICY.verify(self.evict, "evict")

    @classmethod
    def _parse_keywords_and_type(cls, parser: Parser) -> tuple[dict, dict, Attribute]:
        """The properties (defaults filled in), the attributes and the pointer type."""
        props = parse_cache_keywords(parser)
        more_props, attrs = parse_attr_dict_split(parser, cls)
        props |= more_props
        for name, default in cls._DEFAULTS.items():
            props.setdefault(name, default)
        parser.parse_punctuation(":")
        return props, attrs, parser.parse_type()

    def _print_access(self, printer: Printer, values: Sequence[SSAValue | None]) -> None:
        printer.print_string(" ")
        printer.print_list([v for v in values if v is not None], printer.print_operand)
        print_cache_keywords(printer, self)
        print_attr_dict(printer, self, elide=("cache", "evict"), defaults=self._DEFAULTS)
        print_types(printer, [self.ptr.type])


@irdl_op_definition
class LoadOp(_LoadStore):
    """``tt.load %ptr, %mask, %other cacheModifier = ca {isVolatile = true} : tensor<..>``

    The result type is not printed: it is what the pointer operand points to."""

    name = "tt.load"

    ptr = operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    padding = opt_prop_def(IntegerAttr)
    isVolatile = prop_def(IntegerAttr, default_value=_FALSE)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(LoadEffects())

    _DEFAULTS: ClassVar[dict[str, Attribute]] = {**_LoadStore._DEFAULTS, "isVolatile": _FALSE}

    def __init__(
        self,
        ptr: SSAValue | Operation,
        mask: SSAValue | Operation | None = None,
        other: SSAValue | Operation | None = None,
        *,
        cache: CacheModifier | str = CacheModifier.NONE,
        evict: EvictionPolicy | str = EvictionPolicy.NORMAL,
        is_volatile: bool = False,
        boundary_check: Sequence[int] = (),
        padding: PaddingOption | str | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        ptr = SSAValue.get(ptr)
        super().__init__(
            operands=[ptr, [mask] if mask is not None else [], [other] if other is not None else []],
            result_types=[pointee_type(ptr.type)],
            properties={
                "boundaryCheck": DenseArrayBase.from_list(i32, boundary_check),
                "cache": CACHE_MODIFIER.attr(cache),
                "evict": EVICTION_POLICY.attr(evict),
                "isVolatile": IntegerAttr(int(is_volatile), i1),
                "padding": PADDING_OPTION.attr(padding) if padding is not None else None,
            },
            attributes=dict(attributes or {}),
        )

    @property
    def is_volatile(self) -> bool:
        return bool(self.isVolatile.value.data)

    def verify_(self) -> None:
        self._verify_access("result", self.result.type)
        if self.other is not None and self.other.type != self.result.type:
            raise VerifyException(
                f"other must have the loaded type {type_str(self.result.type)}, got "
                f"{type_str(self.other.type)}"
            )
        if self.other is not None and self.mask is None:
            raise VerifyException("other requires a mask")
        if self.padding is not None:
            PADDING_OPTION.verify(self.padding, "padding")

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        ptr = parser.parse_unresolved_operand()
        mask = other = None
        if parser.parse_optional_punctuation(",") is not None:
            mask = parser.parse_unresolved_operand()
            if parser.parse_optional_punctuation(",") is not None:
                other = parser.parse_unresolved_operand()
        props, attrs, ptr_type = cls._parse_keywords_and_type(parser)
        loaded = pointee_type(ptr_type)
        operands: list = [parser.resolve_operand(ptr, ptr_type), [], []]
        if mask is not None:
            operands[1] = [parser.resolve_operand(mask, i1_same_shape(loaded))]
        if other is not None:
            operands[2] = [parser.resolve_operand(other, loaded)]
        return cls.build(
            operands=operands, result_types=[loaded], properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        self._print_access(printer, (self.ptr, self.mask, self.other))


@irdl_op_definition
class StoreOp(_LoadStore):
    """``tt.store %ptr, %value, %mask : tensor<1024x!tt.ptr<f32>>``"""

    name = "tt.store"

    ptr = operand_def()
    value = operand_def()
    mask = opt_operand_def()

    traits = traits_def(WritesGlobal())

    def __init__(
        self,
        ptr: SSAValue | Operation,
        value: SSAValue | Operation,
        mask: SSAValue | Operation | None = None,
        *,
        cache: CacheModifier | str = CacheModifier.NONE,
        evict: EvictionPolicy | str = EvictionPolicy.NORMAL,
        boundary_check: Sequence[int] = (),
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[ptr, value, [mask] if mask is not None else []],
            properties={
                "boundaryCheck": DenseArrayBase.from_list(i32, boundary_check),
                "cache": CACHE_MODIFIER.attr(cache),
                "evict": EVICTION_POLICY.attr(evict),
            },
            attributes=dict(attributes or {}),
        )

    def verify_(self) -> None:
        self._verify_access("value", self.value.type)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        ptr, value = parse_operands(parser, 2)
        mask = None
        if parser.parse_optional_punctuation(",") is not None:
            mask = parser.parse_unresolved_operand()
        props, attrs, ptr_type = cls._parse_keywords_and_type(parser)
        stored = pointee_type(ptr_type)
        operands: list = [
            parser.resolve_operand(ptr, ptr_type),
            parser.resolve_operand(value, stored),
            [parser.resolve_operand(mask, i1_same_shape(stored))] if mask is not None else [],
        ]
        return cls.build(operands=operands, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        self._print_access(printer, (self.ptr, self.value, self.mask))


# ---------------------------------------------------------------------------------------
# Atomics
# ---------------------------------------------------------------------------------------


class _AtomicOp(IRDLOperation):
    """``tt.<op> <keywords>, %ptr, ... : (operand types) -> result type``: the keywords are
    the enum properties in ``KEYWORDS``, in order; subclasses declare the operands."""

    KEYWORDS: ClassVar[tuple[tuple[str, TritonEnum], ...]]

    sem = prop_def(IntegerAttr)
    scope = prop_def(IntegerAttr)
    result = result_def()

    traits = traits_def(
        SameOperandsAndResultShape(), SameOperandsAndResultEncoding(), ReadsWritesGlobal()
    )

    def _verify_keywords_and_ptr(self) -> None:
        for name, spec in self.KEYWORDS:
            spec.verify(self.properties[name], name)
        _verify_ptr_operand(self, self.ptr.type, allow_block_ptr=False)

    @classmethod
    def _parse_keywords(cls, parser: Parser) -> dict[str, Attribute]:
        names = [name for name, _ in cls.KEYWORDS]
        return dict(zip(names, parse_enum_prefix(parser, [spec for _, spec in cls.KEYWORDS])))

    @staticmethod
    def _parse_attrs_and_types(
        parser: Parser, names: Sequence[UnresolvedOperand], error: str
    ) -> tuple[list[SSAValue], Attribute, dict[str, Attribute]]:
        """``{attrs} : (operand types) -> result type`` after the operands ``names``."""
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        func_type = parser.parse_function_type()
        if len(func_type.inputs) != len(names) or len(func_type.outputs) != 1:
            parser.raise_error(error)
        operands = [parser.resolve_operand(n, t) for n, t in zip(names, func_type.inputs)]
        return operands, func_type.outputs.data[0], attrs

    def print(self, printer: Printer) -> None:
        print_enum_prefix(printer, [(spec, self.properties[name]) for name, spec in self.KEYWORDS])
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self, elide=tuple(name for name, _ in self.KEYWORDS))
        printer.print_string(" : (")
        printer.print_list(self.operand_types, printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class AtomicRMWOp(_AtomicOp):
    """``tt.atomic_rmw add, acq_rel, gpu, %ptr, %val, %mask : (tensor<..>, ..) -> tensor<..>``"""

    name = "tt.atomic_rmw"

    KEYWORDS: ClassVar = tuple(zip(("atomic_rmw_op", "sem", "scope"), RMW_PREFIX))

    atomic_rmw_op = prop_def(IntegerAttr)
    ptr = operand_def()
    val = operand_def()
    mask = opt_operand_def()

    def __init__(
        self,
        op: RMWOp | str,
        ptr: SSAValue | Operation,
        val: SSAValue | Operation,
        mask: SSAValue | Operation | None = None,
        sem: MemSemantic | str = MemSemantic.ACQUIRE_RELEASE,
        scope: MemSyncScope | str = MemSyncScope.GPU,
    ):
        val = SSAValue.get(val)
        super().__init__(
            operands=[ptr, val, [mask] if mask is not None else []],
            result_types=[val.type],
            properties={
                "atomic_rmw_op": RMW_OP.attr(op),
                "scope": MEM_SYNC_SCOPE.attr(scope),
                "sem": MEM_SEMANTIC.attr(sem),
            },
        )

    @property
    def rmw_op(self) -> RMWOp:
        return RMW_OP.value_of(self.atomic_rmw_op)

    def verify_(self) -> None:
        self._verify_keywords_and_ptr()
        if pointee_type(self.ptr.type) != self.val.type:
            raise VerifyException(
                f"pointer {type_str(self.ptr.type)} must point to the value "
                f"type {type_str(self.val.type)}"
            )
        if self.result.type != self.val.type:
            raise VerifyException("result type must match the value type")
        _verify_mask(self, self.mask, self.ptr.type)

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        props = cls._parse_keywords(parser)
        names = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        operands, result_type, attrs = cls._parse_attrs_and_types(
            parser, names, "type must be (operand types) -> result type"
        )
        return cls.build(
            operands=[operands[0], operands[1], operands[2:]],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )


@irdl_op_definition
class AtomicCASOp(_AtomicOp):
    """``tt.atomic_cas acq_rel, gpu, %ptr, %cmp, %val : (!tt.ptr<i32>, i32, i32) -> i32``"""

    name = "tt.atomic_cas"

    KEYWORDS: ClassVar = (("sem", MEM_SEMANTIC), ("scope", MEM_SYNC_SCOPE))

    ptr = operand_def()
    cmp = operand_def()
    val = operand_def()

    def __init__(
        self,
        ptr: SSAValue | Operation,
        cmp: SSAValue | Operation,
        val: SSAValue | Operation,
        sem: MemSemantic | str = MemSemantic.ACQUIRE_RELEASE,
        scope: MemSyncScope | str = MemSyncScope.GPU,
    ):
        val = SSAValue.get(val)
        super().__init__(
            operands=[ptr, cmp, val],
            result_types=[val.type],
            properties={"scope": MEM_SYNC_SCOPE.attr(scope), "sem": MEM_SEMANTIC.attr(sem)},
        )

    def verify_(self) -> None:
        self._verify_keywords_and_ptr()
        pointee = pointee_type(self.ptr.type)
        for what, value in (("cmp", self.cmp), ("val", self.val)):
            if value.type != pointee:
                raise VerifyException(
                    f"{what} must have the pointee type {type_str(pointee)}, got "
                    f"{type_str(value.type)}"
                )
        if self.result.type != pointee:
            raise VerifyException("result type must match the pointee type")

    @classmethod
    def parse(cls, parser: Parser) -> AtomicCASOp:
        props = cls._parse_keywords(parser)
        operands, result_type, attrs = cls._parse_attrs_and_types(
            parser, parse_operands(parser, 3), "type must be (ptr, cmp, val) -> result"
        )
        return cls.build(
            operands=operands, result_types=[result_type], properties=props, attributes=attrs
        )


# ---------------------------------------------------------------------------------------
# Tensor descriptors (TMA)
# ---------------------------------------------------------------------------------------


def _verify_descriptor_block(op: Operation, desc: Attribute, tensor: Attribute) -> None:
    if not isinstance(desc, TensorDescType):
        raise VerifyException(f"expects a !tt.tensordesc, got {type_str(desc)}")
    block = desc.block_type
    value = _require_tensor(tensor, "tensor", op.name)
    if block.element_type != value.element_type:
        raise VerifyException(
            f"descriptor block and tensor element types must match, but got "
            f"descriptor element type {type_str(block.element_type)} and tensor element type "
            f"{type_str(value.element_type)}"
        )
    if num_elements(block) != num_elements(value):
        raise VerifyException(
            f"descriptor block and tensor must have the same number of elements, "
            f"but got descriptor block with {num_elements(block)} elements tensor with "
            f"{num_elements(value)} elements"
        )


def _parse_desc_and_indices(parser: Parser) -> tuple[UnresolvedOperand, list[UnresolvedOperand]]:
    """``%desc[%i, %j]``"""
    return parser.parse_unresolved_operand(), _parse_operand_list_in_brackets(parser)


def _print_desc_and_indices(printer: Printer, desc: SSAValue, indices: Sequence[SSAValue]) -> None:
    printer.print_string(" ")
    printer.print_operand(desc)
    printer.print_string("[")
    printer.print_list(indices, printer.print_operand)
    printer.print_string("]")


def _parse_short_type(parser: Parser, cls: type[Attribute]) -> Attribute:
    """A ``tt`` type as ODS prints one of its own dialect, ``<f16>`` for ``!tt.ptr<f16>``
    (the full spelling is read too)."""
    if parser._current_token.kind != MLIRTokenKind.LESS:
        return parser.parse_type()
    return cls.new(cls.parse_parameters(parser))


@irdl_op_definition
class MakeTensorDescOp(IRDLOperation):
    """``tt.make_tensor_descriptor %base, [%m, %k], [%stride_m, %c1] : <f16>, <128x64xf16>``:
    a descriptor of the tensor at ``%base`` with those sizes (i32) and strides (i64),
    read a ``<128x64xf16>`` block at a time."""

    name = "tt.make_tensor_descriptor"

    base = operand_def(PointerType)
    shape = var_operand_def(i32)
    strides = var_operand_def(i64)
    padding = opt_prop_def(IntegerAttr)
    result = result_def(TensorDescType)

    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def verify_(self) -> None:
        block = self.result.type.block_type
        if len(self.shape) != len(self.strides) or len(self.shape) != len(block.get_shape()):
            raise VerifyException(
                f"expected {len(block.get_shape())} sizes and strides for a block of rank "
                f"{len(block.get_shape())}, got {len(self.shape)} and {len(self.strides)}")
        if self.base.type.pointee_type != block.element_type:
            raise VerifyException(f"base pointer {type_str(self.base.type)} does not point "
                                  f"to the block's {type_str(block.element_type)}")

    @classmethod
    def parse(cls, parser: Parser) -> MakeTensorDescOp:
        base = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        shape = _parse_operand_list_in_brackets(parser)
        parser.parse_punctuation(",")
        strides = _parse_operand_list_in_brackets(parser)
        props, attrs = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        base_type = _parse_short_type(parser, PointerType)
        parser.parse_punctuation(",")
        result_type = _parse_short_type(parser, TensorDescType)
        return cls.build(
            operands=[parser.resolve_operand(base, base_type),
                      [parser.resolve_operand(v, i32) for v in shape],
                      [parser.resolve_operand(v, i64) for v in strides]],
            result_types=[result_type], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.base)
        for values in (self.shape, self.strides):
            printer.print_string(", [")
            printer.print_list(values, printer.print_operand)
            printer.print_string("]")
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        self.base.type.print_parameters(printer)
        printer.print_string(", ")
        self.result.type.print_parameters(printer)


@irdl_op_definition
class DescriptorLoadOp(IRDLOperation):
    """``tt.descriptor_load %desc[%i, %j] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>``"""

    name = "tt.descriptor_load"

    desc = operand_def(TensorDescType)
    indices = var_operand_def(i32)
    cache = prop_def(IntegerAttr, default_value=_CACHE_NONE)
    evict = prop_def(IntegerAttr, default_value=_EVICT_NORMAL)
    result = result_def()

    traits = traits_def(ReadsGlobal())

    _DEFAULTS: ClassVar[dict[str, Attribute]] = {"cache": _CACHE_NONE, "evict": _EVICT_NORMAL}

    def verify_(self) -> None:
        _verify_descriptor_block(self, self.desc.type, self.result.type)
        CACHE_MODIFIER.verify(self.cache, "cache")
        EVICTION_POLICY.verify(self.evict, "evict")

    @classmethod
    def parse(cls, parser: Parser) -> DescriptorLoadOp:
        desc, indices = _parse_desc_and_indices(parser)
        props = parse_cache_keywords(parser)
        attrs, desc_type = parse_attrs_and_types(parser)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        for name, default in cls._DEFAULTS.items():
            props.setdefault(name, default)
        return cls.build(
            operands=[parser.resolve_operand(desc, desc_type), [parser.resolve_operand(i, i32) for i in indices]],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        _print_desc_and_indices(printer, self.desc, self.indices)
        print_cache_keywords(printer, self)
        print_attr_dict(printer, self, elide=("cache", "evict"))
        print_types(printer, [self.desc.type, self.result.type], " -> ")


@irdl_op_definition
class DescriptorStoreOp(IRDLOperation):
    """``tt.descriptor_store %desc[%i, %j], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>``"""

    name = "tt.descriptor_store"

    desc = operand_def(TensorDescType)
    src = operand_def()
    indices = var_operand_def(i32)

    traits = traits_def(ReadsWritesGlobal())

    def verify_(self) -> None:
        _verify_descriptor_block(self, self.desc.type, self.src.type)

    @classmethod
    def parse(cls, parser: Parser) -> DescriptorStoreOp:
        desc, indices = _parse_desc_and_indices(parser)
        parser.parse_punctuation(",")
        src = parser.parse_unresolved_operand()
        attrs, desc_type, src_type = parse_attrs_and_types(parser, 2)
        return cls.build(
            operands=[
                parser.resolve_operand(desc, desc_type),
                parser.resolve_operand(src, src_type),
                [parser.resolve_operand(i, i32) for i in indices],
            ],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        _print_desc_store(printer, self, self.indices, ", ")


def _print_desc_store(printer: Printer, op: Operation, indices: Sequence[SSAValue],
                      separator: str) -> None:
    """``%desc[%i, %j]<separator>%src {attrs} : desc, src`` (a store through a descriptor:
    ``tt.descriptor_store``, ``ttng.async_tma_copy_local_to_global``)."""
    _print_desc_and_indices(printer, op.desc, indices)
    printer.print_string(separator)
    printer.print_operand(op.src)
    print_attr_dict(printer, op)
    print_types(printer, [op.desc.type, op.src.type])
