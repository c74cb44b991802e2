"""Ops that make or reshape tensors: ``tt.make_range``, ``tt.splat``, ``tt.broadcast``,
``tt.expand_dims``, ``tt.reshape``, ``tt.trans``, and those that move data between tensors:
``tt.join``, ``tt.split``, ``tt.cat``, ``tt.gather``, ``tt.histogram``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects.builtin import i32, DenseArrayBase, IntegerAttr, TensorType, UnitAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr, IRDLOperation, ParsePropInAttrDict, VarConstraint, irdl_op_definition,
    operand_def, opt_prop_def, prop_def, result_def, traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from tileopt.dialects.assembly import print_attr_dict

from tileopt.dialects.traits import (
    BroadcastEncoding, SameOperandsAndResultElementType, SameOperandsAndResultEncoding,
    layouts_known, type_str,
)
from tileopt.dialects.tt_types import encoding_of, is_int, num_elements
from tileopt.dialects.tt.common import _SrcToResultOp, _require_tensor

if TYPE_CHECKING:
    from tileopt.layouts.linear_layout import LinearLayout


# ---------------------------------------------------------------------------------------
# Shape ops
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class MakeRangeOp(IRDLOperation):
    """``tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>``"""

    name = "tt.make_range"

    start = prop_def(IntegerAttr)
    end = prop_def(IntegerAttr)
    result = result_def()

    traits = traits_def(Pure())

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, start: int, end: int, result_type: TensorType | None = None):
        if result_type is None:
            result_type = TensorType(i32, [end - start])
        super().__init__(
            properties={"end": IntegerAttr(end, i32), "start": IntegerAttr(start, i32)},
            result_types=[result_type],
        )

    def verify_(self) -> None:
        for name in ("start", "end"):
            attr = self.properties[name]
            if not isinstance(attr, IntegerAttr) or attr.type != i32:
                raise VerifyException(f"{name} must be an i32 integer attribute")
        start, end = self.start.value.data, self.end.value.data
        if start >= end:
            raise VerifyException(f"start ({start}) must be less than end ({end})")
        ty = self.result.type
        if not isinstance(ty, TensorType) or len(ty.get_shape()) != 1:
            raise VerifyException(
                f"must return a 1D tensor, got {type_str(ty)}"
            )
        count = ty.get_shape()[0]
        if count != end - start:
            raise VerifyException(
                f"number of elements in returned tensor, {count}, must match "
                f"size of range [{start}, {end}), which has {end - start} elements"
            )
        if ty.element_type != i32:
            raise VerifyException(
                f"returned tensor must have i32 elements, got "
                f"{type_str(ty.element_type)}"
            )


class _ShapeOp(_SrcToResultOp):
    """An op that puts a tensor's elements (or one scalar, copied) into a new shape; the
    element type stays. Its properties, if any, are written in the attr-dict."""

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure(), SameOperandsAndResultElementType())


@irdl_op_definition
class SplatOp(_ShapeOp):
    """``tt.splat %x : i32 -> tensor<1024xi32>``"""

    name = "tt.splat"

    traits = traits_def(SameOperandsAndResultEncoding())

    def verify_(self) -> None:
        _require_tensor(self.result.type, "result", self.name)
        # A 0-d tensor holds one value, as a scalar does (Triton's verifier takes it).
        if isinstance(self.src.type, TensorType) and self.src.type.get_shape():
            raise VerifyException(
                f"source must be a scalar or a 0-d tensor, got {type_str(self.src.type)}"
            )


@irdl_op_definition
class UnsplatOp(IRDLOperation):
    """``tt.unsplat %x : tensor<1x1xf32>``: the one element of a one-element tensor (what
    Triton's pipeliner reads a scalar load's copy back with)."""

    name = "tt.unsplat"

    src = operand_def(TensorType)
    result = result_def()

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> UnsplatOp:
        src = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        if not isinstance(src_type, TensorType):
            parser.raise_error(f"expected a tensor type, got {type_str(src_type)}")
        return cls.build(operands=[parser.resolve_operand(src, src_type)],
                         result_types=[src_type.element_type], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)

    def verify_(self) -> None:
        if num_elements(self.src.type) != 1:
            raise VerifyException("source tensor must have exactly one element")
        if self.result.type != self.src.type.element_type:
            raise VerifyException(
                f"result must be the source's element type "
                f"{type_str(self.src.type.element_type)}, got {type_str(self.result.type)}")


@irdl_op_definition
class BroadcastOp(_ShapeOp):
    """``tt.broadcast %x : tensor<64x1xi32> -> tensor<64x64xi32>``"""

    name = "tt.broadcast"

    traits = traits_def(BroadcastEncoding())

    def verify_(self) -> None:
        src = _require_tensor(self.src.type, "source", self.name).get_shape()
        dst = _require_tensor(self.result.type, "result", self.name).get_shape()
        if len(src) != len(dst):
            raise VerifyException(
                f"rank of source ({len(src)}) must be same as rank of result "
                f"({len(dst)})"
            )
        for i, (s, d) in enumerate(zip(src, dst)):
            if s != 1 and s != d:
                raise VerifyException(
                    f"different dimensions at index {i} between source ({s}) "
                    f"and result ({d}); broadcast requires the source dimension to be 1"
                )


@irdl_op_definition
class ExpandDimsOp(_ShapeOp):
    """``tt.expand_dims %x {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>``"""

    name = "tt.expand_dims"

    axis = prop_def(IntegerAttr)

    def __init__(self, src: SSAValue | Operation, axis: int, result_type: Attribute):
        super().__init__(src, result_type, properties={"axis": IntegerAttr(axis, i32)})

    def verify_(self) -> None:
        src = _require_tensor(self.src.type, "source", self.name)
        dst = _require_tensor(self.result.type, "result", self.name)
        axis = self.axis.value.data
        if not 0 <= axis <= len(src.get_shape()):
            raise VerifyException(
                f"axis {axis} is out of range for a rank-{len(src.get_shape())} "
                f"source (expected 0..{len(src.get_shape())})"
            )
        expected = list(src.get_shape())
        expected.insert(axis, 1)
        if list(dst.get_shape()) != expected:
            raise VerifyException(
                f"result shape {list(dst.get_shape())} must be the source shape "
                f"with a 1 inserted at axis {axis}: {expected}"
            )


@irdl_op_definition
class ReshapeOp(_ShapeOp):
    """``tt.reshape %x allow_reorder efficient_layout : tensor<..> -> tensor<..>``"""

    name = "tt.reshape"

    allow_reorder = opt_prop_def(UnitAttr)
    efficient_layout = opt_prop_def(UnitAttr)

    assembly_format = (
        "$src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)? "
        "attr-dict `:` type($src) `->` type($result)"
    )

    def __init__(
        self,
        src: SSAValue | Operation,
        result_type: Attribute,
        allow_reorder: bool = False,
        efficient_layout: bool = False,
    ):
        super().__init__(
            src,
            result_type,
            properties={
                "allow_reorder": UnitAttr() if allow_reorder else None,
                "efficient_layout": UnitAttr() if efficient_layout else None,
            },
        )

    def verify_(self) -> None:
        src = _require_tensor(self.src.type, "source", self.name)
        dst = _require_tensor(self.result.type, "result", self.name)
        if num_elements(src) != num_elements(dst):
            raise VerifyException(
                f"number of src and dst elements of reshape must be the same "
                f"({num_elements(src)} vs {num_elements(dst)})"
            )
        if (encoding_of(src) is None) != (encoding_of(dst) is None):
            raise VerifyException(
                "requires that either (a) src and dst both have encodings, or "
                "(b) neither does"
            )


@irdl_op_definition
class TransOp(_ShapeOp):
    """``tt.trans %x {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>``"""

    name = "tt.trans"

    order = prop_def(DenseArrayBase)

    def __init__(self, src: SSAValue | Operation, order: Sequence[int], result_type: Attribute):
        super().__init__(
            src, result_type, properties={"order": DenseArrayBase.from_list(i32, order)}
        )

    @property
    def permutation(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self.order.get_values())

    def verify_(self) -> None:
        src = _require_tensor(self.src.type, "source", self.name)
        dst = _require_tensor(self.result.type, "result", self.name)
        order = self.permutation
        shape = src.get_shape()
        if len(order) != len(shape):
            raise VerifyException(
                f"order {list(order)} must have the same size as the source rank "
                f"({len(shape)})"
            )
        if sorted(order) != list(range(len(order))):
            raise VerifyException(
                f"order {list(order)} must be a permutation of 0..{len(order) - 1}"
            )
        expected = [shape[i] for i in order]
        if list(dst.get_shape()) != expected:
            raise VerifyException(
                f"result shape {list(dst.get_shape())} must match the permutation "
                f"of the source shape: {expected}"
            )


# ---------------------------------------------------------------------------------------
# Tensor data movement: join, split, cat, gather, histogram
# ---------------------------------------------------------------------------------------


class _PairOp(IRDLOperation):
    """``tt.join`` / ``tt.cat``: two operands of one type into one result."""

    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def()

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    def _tensor_types(self) -> tuple[TensorType, TensorType]:
        return (
            _require_tensor(self.lhs.type, "operand", self.name),
            _require_tensor(self.result.type, "result", self.name),
        )


@irdl_op_definition
class JoinOp(_PairOp):
    """``tt.join %a, %b : tensor<4x8xf32> -> tensor<4x8x2xf32>``"""

    name = "tt.join"

    def verify_(self) -> None:
        src, dst = self._tensor_types()
        expected = [*src.get_shape(), 2]
        if list(dst.get_shape()) != expected:
            raise VerifyException(
                f"result shape must be {expected}, but got {list(dst.get_shape())}"
            )
        if dst.element_type != src.element_type:
            raise VerifyException("result element type must match the input element type")
        if encoding_of(dst) is None:
            if encoding_of(src) is not None:
                raise VerifyException("result encoding must be specified")
            return
        # Triton checks the one source layout a result layout allows: the result's split.
        half = _split_layout(dst, "result")
        from tileopt.layouts.encodings import to_linear_layout

        if half is not None and (encoding_of(src) is None or (
                layouts_known(src) and half != to_linear_layout(
                    encoding_of(src).to_encoding(), src.get_shape()))):
            raise VerifyException(
                f"incompatible join layout: the result {type_str(dst)} pairs elements that "
                f"the operands' layout does not give it ({type_str(src)})"
            )


def _split_layout(joined: TensorType, what: str) -> LinearLayout | None:
    """The layout of each half of ``joined`` (last dim 2), or None when its layout is not
    one tileopt reads; a layout that splits the pair across threads is an error."""
    if not layouts_known(joined):
        return None
    # here and in the verifiers below: Triton IR without layouts needs no layout algebra
    from tileopt.layouts.encodings import split_last_dim
    from tileopt.layouts.linear_layout import LayoutError

    try:
        return split_last_dim(encoding_of(joined).to_encoding(), joined.get_shape())
    except LayoutError as err:
        raise VerifyException(f"the {what} layout cannot be split on its last dimension: "
                              f"{err}") from None


@irdl_op_definition
class SplitOp(IRDLOperation):
    """``%a, %b = tt.split %x : tensor<4x8x2xf32> -> tensor<4x8xf32>``"""

    name = "tt.split"

    T: ClassVar = VarConstraint("T", AnyAttr())
    src = operand_def()
    outLHS = result_def(T)
    outRHS = result_def(T)

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$src attr-dict `:` type($src) `->` type($outLHS)"

    def verify_(self) -> None:
        src = _require_tensor(self.src.type, "operand", self.name)
        dst = _require_tensor(self.outLHS.type, "result", self.name)
        shape = src.get_shape()
        if not shape or shape[-1] != 2:
            raise VerifyException(
                f"last dimension of input tensor must be 2, got {list(shape)}"
            )
        if list(dst.get_shape()) != list(shape[:-1]) or dst.element_type != src.element_type:
            raise VerifyException(
                f"results must be {type_str(TensorType(src.element_type, shape[:-1]))}"
                f" (the input without its last dimension), got {type_str(dst)}"
            )
        # Triton infers the results' layout from the input's (InferTypeOpWithLayout-
        # Equivalence): an equivalent layout is accepted, any other is not.
        if (encoding_of(src) is None) != (encoding_of(dst) is None):
            raise VerifyException(
                f"inferred type differs from the result type {type_str(dst)}: the results "
                "have a layout exactly when the input has one"
            )
        half = _split_layout(src, "input")
        from tileopt.layouts.encodings import to_linear_layout

        if half is not None and layouts_known(dst) and half != to_linear_layout(
                encoding_of(dst).to_encoding(), dst.get_shape()):
            raise VerifyException(
                f"inferred type differs from the result type {type_str(dst)}: its layout is "
                f"not the input's ({type_str(src)}) without the last dimension"
            )


@irdl_op_definition
class CatOp(_PairOp):
    """``tt.cat %a, %b : tensor<32xf32> -> tensor<64xf32>``"""

    name = "tt.cat"

    traits = traits_def(SameOperandsAndResultElementType())

    def verify_(self) -> None:
        src, dst = self._tensor_types()
        if num_elements(dst) != 2 * num_elements(src):
            raise VerifyException(
                f"result element count must equal the sum of the operand element "
                f"counts, expected {2 * num_elements(src)} but got {num_elements(dst)}"
            )
        if (encoding_of(src) is None) != (encoding_of(dst) is None):
            raise VerifyException(
                "requires that either (a) operands and result all have encodings, or "
                "(b) none do"
            )


@irdl_op_definition
class GatherOp(IRDLOperation):
    """``tt.gather %src[%idx] {axis = 0 : i32} : (tensor<..>, tensor<..xi32>) -> tensor<..>``"""

    name = "tt.gather"

    src = operand_def()
    indices = operand_def()
    axis = prop_def(IntegerAttr)
    efficient_layout = opt_prop_def(UnitAttr)
    result = result_def()

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())

    assembly_format = "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)"

    def verify_(self) -> None:
        src = _require_tensor(self.src.type, "source", self.name)
        idx = _require_tensor(self.indices.type, "indices", self.name)
        res = _require_tensor(self.result.type, "result", self.name)
        if not is_int(idx.element_type):
            raise VerifyException("indices must be integers")
        if idx.get_shape() != res.get_shape():
            raise VerifyException("indices and output shapes must match")
        if encoding_of(idx) != encoding_of(res):
            raise VerifyException("indices and output encodings must match")
        if src.element_type != res.element_type:
            raise VerifyException("input and output element types must match")
        if len(src.get_shape()) != len(idx.get_shape()):
            raise VerifyException("input and indices ranks must match")
        axis = self.axis.value.data
        if not 0 <= axis < len(src.get_shape()):
            raise VerifyException("gather dimension must be less than the input rank")
        for dim, (i, s) in enumerate(zip(idx.get_shape(), src.get_shape())):
            if dim != axis and i != s:
                raise VerifyException(
                    f"indices dimension {dim} must match the corresponding input dimension"
                )


@irdl_op_definition
class HistogramOp(_SrcToResultOp):
    """``tt.histogram %x : tensor<1024xi32> -> tensor<64xi32>``"""

    name = "tt.histogram"

    traits = traits_def(Pure())

    def verify_(self) -> None:
        for what, ty in (("source", self.src.type), ("result", self.result.type)):
            tensor = _require_tensor(ty, what, self.name)
            if not is_int(tensor.element_type):
                raise VerifyException(f"{what} must be a tensor of integers")
