"""``arith`` ops on tensors, as MLIR has them; xDSL 0.74 defines these for scalars only
(and lacks ``arith.remf``).

Triton applies ``arith`` elementwise to whole tiles: ``arith.cmpi slt, %a, %b :
tensor<128xi32, #blocked>`` yields ``tensor<128xi1, #blocked>``, ``arith.extsi`` widens a
``tensor<64xi32>``, ``arith.select`` takes a tensor condition and prints both types
(``: tensor<1024xi1>, tensor<1024xf32>``). xDSL's ``CmpiOp``/``CmpfOp`` always produce
``i1``, its casts accept ``IntegerType``/floats only, and its ``SelectOp`` wants an ``i1``
condition. ``make_context`` registers the ops below under the same names instead.

Passes that build these ops must use the classes here (not ``xdsl.dialects.arith``'s),
so that tensor operands get tensor results.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith as xarith
from xdsl.dialects.arith import (
    CMPF_COMPARISON_OPERATIONS,
    CMPI_COMPARISON_OPERATIONS,
    FastMathFlagsAttr,
    boolLike,
    floatingPointLike,
    signlessIntegerLike,
)
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    VectorType,
    container_of,
    i1,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tileopt.dialects.assembly import (
    parse_attrs_and_types,
    parse_operands,
    print_attrs_and_types,
)
from tileopt.dialects.traits import Elementwise
from tileopt.dialects.tt_types import element_type, same_shape_with_element


def with_element_type(type_: Attribute, element: Attribute) -> Attribute:
    """``type_`` with its element type replaced (a scalar type becomes ``element``)."""
    if isinstance(type_, TensorType):
        return same_shape_with_element(type_, element)
    if isinstance(type_, VectorType):
        return VectorType(element, type_.get_shape(), type_.get_scalable_dims())
    return element


def _shape_of(type_: Attribute) -> tuple | None:
    if isinstance(type_, TensorType):
        return ("tensor", type_.get_shape(), type_.encoding)
    if isinstance(type_, VectorType):
        return ("vector", type_.get_shape())
    return None


def _check_same_shape(op: Operation, a: Attribute, b: Attribute, what: str) -> None:
    if _shape_of(a) != _shape_of(b):
        raise VerifyException(f"{what} must have the same shape: {a} vs {b}")


class _Comparison(IRDLOperation):
    """``arith.cmpi``/``arith.cmpf``: the result is i1 shaped like the operands."""

    PREDICATE_NAMES: ClassVar[list[str]] = []

    predicate = prop_def(IntegerAttr)
    result = result_def(boolLike)

    traits = traits_def(Pure(), Elementwise())

    def _init(self, lhs, rhs, predicate, properties):
        lhs = SSAValue.get(lhs)
        rhs = SSAValue.get(rhs)
        if isinstance(predicate, str):
            if predicate not in self.PREDICATE_NAMES:
                raise VerifyException(f"unknown comparison predicate '{predicate}'")
            predicate = self.PREDICATE_NAMES.index(predicate)
        super().__init__(operands=[lhs, rhs], result_types=[with_element_type(lhs.type, i1)],
                         properties={"predicate": IntegerAttr(predicate, 64), **properties})

    def verify_(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise VerifyException(
                f"operands must have the same type: {self.lhs.type} vs {self.rhs.type}")
        if self.result.type != with_element_type(self.lhs.type, i1):
            raise VerifyException(
                f"result must be {with_element_type(self.lhs.type, i1)}, "
                f"not {self.result.type}")
        if not 0 <= self.predicate.value.data < len(self.PREDICATE_NAMES):
            raise VerifyException(f"unknown predicate {self.predicate.value.data}")

    # ``arith.cmpX <predicate>, %lhs, %rhs [fastmath<...>] {attrs} : type``; only cmpf
    # has the fastmath clause.
    @classmethod
    def parse(cls, parser: Parser) -> _Comparison:
        at = parser.pos
        # MLIR's enum parser also takes the keyword as a string ("slt"), as older Triton
        # tests write it
        predicate = parser.parse_optional_str_literal() or \
            parser.parse_identifier(" (comparison predicate)")
        if predicate not in cls.PREDICATE_NAMES:
            parser.raise_error(f"unknown comparison predicate '{predicate}'", at)
        parser.parse_punctuation(",")
        lhs, rhs = parse_operands(parser, 2)
        extra = []
        if "fastmath" in cls.get_irdl_definition().properties:
            fastmath = FastMathFlagsAttr("none")
            if parser.parse_optional_keyword("fastmath"):
                fastmath = FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))
            extra.append(fastmath)
        attributes, type_ = parse_attrs_and_types(parser)
        lhs, rhs = parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos)
        op = cls(lhs, rhs, predicate, *extra)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.PREDICATE_NAMES[self.predicate.value.data]}, ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        fastmath = self.properties.get("fastmath")
        if fastmath is not None and fastmath != FastMathFlagsAttr("none"):
            printer.print_string(" fastmath")
            fastmath.print_parameter(printer)
        print_attrs_and_types(printer, self, [self.lhs.type])


@irdl_op_definition
class CmpiOp(_Comparison):
    name = "arith.cmpi"
    PREDICATE_NAMES: ClassVar[list[str]] = CMPI_COMPARISON_OPERATIONS

    lhs = operand_def(signlessIntegerLike)
    rhs = operand_def(signlessIntegerLike)

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation,
                 predicate: int | str):
        self._init(lhs, rhs, predicate, {})


@irdl_op_definition
class CmpfOp(_Comparison):
    name = "arith.cmpf"
    PREDICATE_NAMES: ClassVar[list[str]] = CMPF_COMPARISON_OPERATIONS

    lhs = operand_def(floatingPointLike)
    rhs = operand_def(floatingPointLike)
    fastmath = prop_def(FastMathFlagsAttr, default_value=FastMathFlagsAttr("none"))

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation,
                 predicate: int | str,
                 fastmath: FastMathFlagsAttr = FastMathFlagsAttr("none")):
        self._init(lhs, rhs, predicate, {"fastmath": fastmath})


@irdl_op_definition
class SelectOp(IRDLOperation):
    """``arith.select %c, %a, %b : [cond-type,] type``; the condition is i1 or i1s
    shaped like the values (then its type is printed too)."""

    name = "arith.select"

    T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def(boolLike)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure(), Elementwise())

    def __init__(self, cond: SSAValue | Operation, lhs: SSAValue | Operation,
                 rhs: SSAValue | Operation):
        lhs = SSAValue.get(lhs)
        super().__init__(operands=[cond, lhs, rhs], result_types=[lhs.type])

    def verify_(self) -> None:
        if isinstance(self.cond.type, TensorType | VectorType):
            _check_same_shape(self, self.cond.type, self.result.type,
                              "a shaped condition and the values")

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        cond, lhs, rhs = parse_operands(parser, 3)
        attributes, type_ = parse_attrs_and_types(parser)
        cond_type: Attribute = i1
        if parser.parse_optional_punctuation(",") is not None:
            cond_type, type_ = type_, parser.parse_type()
        cond, lhs, rhs = parser.resolve_operands(
            [cond, lhs, rhs], [cond_type, type_, type_], parser.pos)
        op = cls(cond, lhs, rhs)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.cond, self.lhs, self.rhs), printer.print_operand)
        shaped_cond = isinstance(self.cond.type, TensorType | VectorType)
        types = [self.cond.type, self.result.type] if shaped_cond else [self.result.type]
        print_attrs_and_types(printer, self, types)


class _Cast(IRDLOperation):
    """``arith.<cast> %x : T1 to T2`` elementwise on scalars, tensors and vectors."""

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"
    traits = traits_def(Pure(), Elementwise())

    def __init__(self, value: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[value], result_types=[target_type])

    def verify_(self) -> None:
        _check_same_shape(self, self.input.type, self.result.type, "operand and result")
        self.verify_elements(element_type(self.input.type),
                             element_type(self.result.type))

    def verify_elements(self, source: Attribute, target: Attribute) -> None:
        pass


def _width(type_: Attribute) -> int:
    return type_.width.data if isinstance(type_, IntegerType) else 64


class _IntegerExtension(_Cast):
    def verify_elements(self, source, target) -> None:
        if not _width(target) > _width(source):
            raise VerifyException("result type must be wider than the operand type")


@irdl_op_definition
class ExtSIOp(_IntegerExtension):
    name = "arith.extsi"
    input = operand_def(container_of(IntegerType))
    result = result_def(container_of(IntegerType))


@irdl_op_definition
class ExtUIOp(_IntegerExtension):
    name = "arith.extui"
    input = operand_def(container_of(IntegerType))
    result = result_def(container_of(IntegerType))


@irdl_op_definition
class TruncIOp(_Cast):
    name = "arith.trunci"
    input = operand_def(container_of(IntegerType))
    result = result_def(container_of(IntegerType))

    def verify_elements(self, source, target) -> None:
        if not _width(target) < _width(source):
            raise VerifyException("result type must be narrower than the operand type")


@irdl_op_definition
class SIToFPOp(_Cast):
    name = "arith.sitofp"
    input = operand_def(container_of(IntegerType))
    result = result_def(floatingPointLike)


@irdl_op_definition
class UIToFPOp(_Cast):
    name = "arith.uitofp"
    input = operand_def(container_of(IntegerType))
    result = result_def(floatingPointLike)


@irdl_op_definition
class FPToSIOp(_Cast):
    name = "arith.fptosi"
    input = operand_def(floatingPointLike)
    result = result_def(container_of(IntegerType))


@irdl_op_definition
class FPToUIOp(_Cast):
    name = "arith.fptoui"
    input = operand_def(floatingPointLike)
    result = result_def(container_of(IntegerType))


class _IndexCast(_Cast):
    input = operand_def(container_of(IntegerType | IndexType))
    result = result_def(container_of(IntegerType | IndexType))

    def verify_elements(self, source, target) -> None:
        if isinstance(source, IndexType) == isinstance(target, IndexType):
            raise VerifyException("one of operand and result must be index")


@irdl_op_definition
class IndexCastOp(_IndexCast):
    name = "arith.index_cast"


@irdl_op_definition
class IndexCastUIOp(_IndexCast):
    name = "arith.index_castui"


@irdl_op_definition
class RemFOp(xarith.FloatingPointLikeBinaryOperation):
    """``arith.remf`` (what Triton's ``%`` on floats gives); xDSL 0.74 lacks it."""

    name = "arith.remf"

    traits = traits_def(Pure(), Elementwise())


TENSOR_OPS: tuple[type[IRDLOperation], ...] = (
    CmpiOp, CmpfOp, SelectOp, ExtSIOp, ExtUIOp, TruncIOp, SIToFPOp, UIToFPOp,
    FPToSIOp, FPToUIOp, IndexCastOp, IndexCastUIOp, RemFOp)


def arith_dialect() -> Dialect:
    """xDSL's ``arith`` with the ops above in place of its scalar-only ones."""
    replaced = {op.name: op for op in TENSOR_OPS}
    operations = [replaced.pop(op.name, op) for op in xarith.Arith.operations]
    operations.extend(replaced.values())
    return Dialect("arith", operations, list(xarith.Arith.attributes),
                   list(xarith.Arith._interfaces))
