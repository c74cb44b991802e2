"""Pointer arithmetic: ``tt.addptr``, ``tt.advance``, ``tt.make_tensor_ptr``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import i32, i64, DenseArrayBase, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr, IRDLOperation, SameVariadicOperandSize, VarConstraint, irdl_op_definition,
    operand_def, prop_def, result_def, traits_def, var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tileopt.dialects.assembly import parse_attr_dict_split, print_attr_dict
from tileopt.dialects.traits import (
    Elementwise, SameOperandsAndResultEncoding, SameOperandsAndResultShape, type_str,
)
from tileopt.dialects.tt_types import (
    PointerType, element_type, is_int, is_ptr_like, is_tensor_ptr,
)
from tileopt.dialects.tt.common import _parse_operand_list_in_brackets


# ---------------------------------------------------------------------------------------
# Pointer arithmetic
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class AddPtrOp(IRDLOperation):
    """``tt.addptr %p, %off : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>``"""

    name = "tt.addptr"

    T: ClassVar = VarConstraint("T", AnyAttr())
    ptr = operand_def(T)
    offset = operand_def()
    result = result_def(T)

    traits = traits_def(
        Pure(),
        Elementwise(),
        SameOperandsAndResultShape(),
        SameOperandsAndResultEncoding(),
    )

    assembly_format = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)"

    def __init__(self, ptr: SSAValue | Operation, offset: SSAValue | Operation):
        ptr = SSAValue.get(ptr)
        super().__init__(operands=[ptr, offset], result_types=[ptr.type])

    def verify_(self) -> None:
        if not is_ptr_like(self.ptr.type):
            raise VerifyException(
                f"pointer operand must be a pointer or a tensor of pointers, got "
                f"{type_str(self.ptr.type)}"
            )
        if not is_int(element_type(self.offset.type)):
            raise VerifyException(
                f"offset must be an integer or a tensor of integers, got "
                f"{type_str(self.offset.type)}"
            )


@irdl_op_definition
class AdvanceOp(IRDLOperation):
    """``tt.advance %bp, [%c0, %c32] : <tensor<64x32xf16>>`` (the result type is printed
    without ``!tt.ptr``, as MLIR prints a type whose class the op fixes)."""

    name = "tt.advance"

    ptr = operand_def(PointerType)
    offsets = var_operand_def(i32)
    result = result_def(PointerType)

    traits = traits_def(Pure())

    def __init__(self, ptr: SSAValue | Operation, offsets: Sequence[SSAValue | Operation]):
        ptr = SSAValue.get(ptr)
        super().__init__(operands=[ptr, offsets], result_types=[ptr.type])

    def verify_(self) -> None:
        if not is_tensor_ptr(self.ptr.type):
            raise VerifyException(
                f"operand must be a pointer to a tensor, got {type_str(self.ptr.type)}"
            )
        if self.result.type != self.ptr.type:
            raise VerifyException("result type must match the pointer type")
        assert isinstance(self.ptr.type, PointerType)
        block = self.ptr.type.pointee_type
        assert isinstance(block, TensorType)
        if len(self.offsets) != len(block.get_shape()):
            raise VerifyException(
                f"expects {len(block.get_shape())} offsets (one per block "
                f"dimension), got {len(self.offsets)}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> AdvanceOp:
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        offsets = _parse_operand_list_in_brackets(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ty = _parse_stripped_pointer_type(parser)
        return cls.build(
            operands=[
                parser.resolve_operand(ptr, ty),
                [parser.resolve_operand(o, i32) for o in offsets],
            ],
            result_types=[ty],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.ptr)
        printer.print_string(", [")
        printer.print_list(self.offsets, printer.print_operand)
        printer.print_string("]")
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        _print_stripped_pointer_type(printer, self.result.type)


def _parse_stripped_pointer_type(parser: Parser) -> PointerType:
    """``<tensor<64x32xf16>>`` (or a full ``!tt.ptr<...>``): a pointer type whose ``!tt.ptr``
    prefix MLIR leaves out when the op's definition already fixes the type class."""
    if parser.parse_optional_punctuation("<") is None:
        ty = parser.parse_type()
        if not isinstance(ty, PointerType):
            parser.raise_error(f"expected a !tt.ptr type, got {type_str(ty)}")
        return ty
    pointee = parser.parse_type()
    space = 1
    if parser.parse_optional_punctuation(",") is not None:
        space = parser.parse_integer(allow_boolean=False, allow_negative=False)
    parser.parse_punctuation(">")
    return PointerType(pointee, space)


def _print_stripped_pointer_type(printer: Printer, ty: Attribute) -> None:
    assert isinstance(ty, PointerType)
    ty.print_parameters(printer)


@irdl_op_definition
class MakeTensorPtrOp(IRDLOperation):
    """``tt.make_tensor_ptr %base, [%M, %K], [%sM, %c1], [%o0, %o1] {order = array<i32: 1, 0>}
    : <tensor<64x32xf16>>``"""

    name = "tt.make_tensor_ptr"

    base = operand_def(PointerType)
    shape = var_operand_def(i64)
    strides = var_operand_def(i64)
    offsets = var_operand_def(i32)
    order = prop_def(DenseArrayBase)
    result = result_def(PointerType)

    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(Pure())

    def __init__(
        self,
        base: SSAValue | Operation,
        shape: Sequence[SSAValue | Operation],
        strides: Sequence[SSAValue | Operation],
        offsets: Sequence[SSAValue | Operation],
        block_shape: Sequence[int],
        order: Sequence[int],
    ):
        base = SSAValue.get(base)
        assert isinstance(base.type, PointerType)
        result = PointerType(
            TensorType(base.type.pointee_type, block_shape), base.type.address_space
        )
        super().__init__(
            operands=[base, shape, strides, offsets],
            properties={"order": DenseArrayBase.from_list(i32, order)},
            result_types=[result],
        )

    def verify_(self) -> None:
        ty = self.result.type
        if not is_tensor_ptr(ty):
            raise VerifyException(
                f"must return a pointer to a tensor, got {type_str(ty)}"
            )
        assert isinstance(ty, PointerType) and isinstance(ty.pointee_type, TensorType)
        base = self.base.type
        assert isinstance(base, PointerType)
        if base.pointee_type != ty.pointee_type.element_type or base.address_space != ty.address_space:
            raise VerifyException(
                f"base {type_str(base)} must point to the block's element "
                f"type {type_str(ty.pointee_type.element_type)} in the same address space"
            )
        rank = len(ty.pointee_type.get_shape())
        if len(self.shape) != rank:
            raise VerifyException(
                f"expects {rank} shape/stride/offset values for a rank-{rank} "
                f"block, got {len(self.shape)}"
            )
        order = [int(v) for v in self.order.get_values()]
        if sorted(order) != list(range(rank)):
            raise VerifyException(
                f"order {order} must be a permutation of 0..{rank - 1}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> MakeTensorPtrOp:
        base = parser.parse_unresolved_operand()
        groups = []
        for _ in range(3):
            parser.parse_punctuation(",")
            groups.append(_parse_operand_list_in_brackets(parser))
        props, attrs = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        ty = _parse_stripped_pointer_type(parser)
        if not isinstance(ty.pointee_type, TensorType):
            parser.raise_error("tt.make_tensor_ptr must produce a pointer to a tensor")
        base_type = PointerType(ty.pointee_type.element_type, ty.address_space)
        shape, strides, offsets = groups
        return cls.build(
            operands=[
                parser.resolve_operand(base, base_type),
                [parser.resolve_operand(v, i64) for v in shape],
                [parser.resolve_operand(v, i64) for v in strides],
                [parser.resolve_operand(v, i32) for v in offsets],
            ],
            result_types=[ty],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.base)
        for group in (self.shape, self.strides, self.offsets):
            printer.print_string(", [")
            printer.print_list(group, printer.print_operand)
            printer.print_string("]")
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        _print_stripped_pointer_type(printer, self.result.type)
