"""The TritonNvidiaGPU dialect (``ttng``): Hopper ops Triton emits at TritonGPU level.

``ttng.warp_group_dot`` is wgmma (A from registers or shared memory, B from shared memory),
``ttng.warp_group_dot_wait`` waits for outstanding async wgmmas and passes its operands
through, ``ttng.fence_async_shared`` orders generic-proxy shared writes before async-proxy
reads; the mbarrier ops (``init_barrier``, ``inval_barrier``, ``barrier_expect``,
``wait_barrier``) are those TMA pipelines use. Syntax from Triton's
``include/triton/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUOps.td``; the corpus only shows
the first three, so the barrier ops follow the .td and are not checked against real output.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType, i1, i32
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tileopt.dialects.assembly import (
    parse_attr_dict_split,
    parse_dot_types,
    parse_operands,
    print_attr_dict,
    print_dot_types,
    print_types,
)
from tileopt.dialects.effects import ReadsShared, ReadsWritesShared, Synchronizes
from tileopt.dialects.traits import type_str
from tileopt.dialects.tt_types import INPUT_PRECISION, InputPrecision, bit_width
from tileopt.dialects.ttg_attrs import DotOperandEncodingAttr
from tileopt.dialects.ttg import tensor_shape
from tileopt.dialects.ttg_types import MemDescType
from tileopt.dialects.ttng_tma import TMA_OPS

_FALSE = IntegerAttr(0, i1)
_ZERO = IntegerAttr(0, i32)
_IEEE = INPUT_PRECISION.attr(InputPrecision.IEEE)


@irdl_op_definition
class WarpGroupDotOp(IRDLOperation):
    """``ttng.warp_group_dot %a, %b, %c [, %useC]``: d = a * b + c with Hopper wgmma."""

    name = "ttng.warp_group_dot"

    a = operand_def(TensorType | MemDescType)
    b = operand_def(TensorType | MemDescType)
    c = operand_def(TensorType)
    useC = opt_operand_def(i1)
    inputPrecision = opt_prop_def(IntegerAttr)
    maxNumImpreciseAcc = opt_prop_def(IntegerAttr)
    isAsync = opt_prop_def(IntegerAttr)
    d = result_def(TensorType)

    # Reads its shared-memory operands; Triton declares the same (MemRead<SharedMemory>).
    traits = traits_def(ReadsShared())

    _DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "inputPrecision": _IEEE, "maxNumImpreciseAcc": _ZERO, "isAsync": _FALSE}

    @classmethod
    def parse(cls, parser: Parser) -> WarpGroupDotOp:
        a, b, c = parse_operands(parser, 3)
        use_c = None
        if parser.parse_optional_punctuation(","):
            use_c = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict_split(parser, cls)
        a_type, _, b_type, _, d_type = parse_dot_types(parser)
        operands = [
            parser.resolve_operand(a, a_type),
            parser.resolve_operand(b, b_type),
            parser.resolve_operand(c, d_type),
            [parser.resolve_operand(use_c, i1)] if use_c is not None else [],
        ]
        return cls.build(
            operands=operands, result_types=[d_type], properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.a, self.b, self.c], printer.print_operand)
        if self.useC is not None:
            printer.print_string(", ")
            printer.print_operand(self.useC)
        # MLIR leaves attributes that hold their default value out of the attr-dict.
        print_attr_dict(printer, self, defaults=self._DEFAULTS)
        print_dot_types(printer, self.a.type, self.b.type, self.d.type)

    def verify_(self) -> None:
        if self.c.type != self.d.type:
            raise VerifyException(
                "ttng.warp_group_dot: the accumulator and the result must have the same type"
            )
        a, b, d = tensor_shape(self.a.type), tensor_shape(self.b.type), tensor_shape(self.d.type)
        if a is None or b is None or d is None or len(a) != 2 or len(b) != 2 or len(d) != 2:
            raise VerifyException("ttng.warp_group_dot: operands must be 2-d")
        if a[1] != b[0] or (a[0], b[1]) != d:
            raise VerifyException(
                f"ttng.warp_group_dot: shapes {a[0]}x{a[1]} * {b[0]}x{b[1]} do not give "
                f"{d[0]}x{d[1]}"
            )
        if not isinstance(self.b.type, MemDescType):
            raise VerifyException("ttng.warp_group_dot: B must be in shared memory (a memdesc)")
        precision = self.properties.get("inputPrecision")
        if precision is not None:
            INPUT_PRECISION.verify(precision, "inputPrecision")
        # wgmma reads an A in registers as 32-bit words: kWidth is the elements per word.
        a_layout = self.a.type.encoding if isinstance(self.a.type, TensorType) else None
        if isinstance(a_layout, DotOperandEncodingAttr):
            width = 32 // bit_width(self.a.type.element_type)
            if a_layout.kWidth.data != width:
                raise VerifyException(
                    f"ttng.warp_group_dot: in-register LHS operand must have a kWidth of "
                    f"{width} but got {a_layout.kWidth.data} (32 bits of "
                    f"{type_str(self.a.type.element_type)} per register)"
                )


@irdl_op_definition
class WarpGroupDotWaitOp(IRDLOperation):
    """``ttng.warp_group_dot_wait %x... {pendings = N}``: wait until <= N wgmmas are in flight."""

    name = "ttng.warp_group_dot_wait"

    inputs = var_operand_def(TensorType | MemDescType)
    pendings = prop_def(IntegerAttr[IntegerType])
    outputs = var_result_def(TensorType | MemDescType)

    traits = traits_def(Synchronizes())

    @classmethod
    def parse(cls, parser: Parser) -> WarpGroupDotWaitOp:
        names = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        props, attrs = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(names):
            parser.raise_error(f"expected {len(names)} types, got {len(types)}")
        operands = [parser.resolve_operand(n, t) for n, t in zip(names, types)]
        return cls.build(
            operands=[operands], result_types=[types], properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_list([v.type for v in self.inputs], printer.print_attribute)

    def verify_(self) -> None:
        if [v.type for v in self.inputs] != [r.type for r in self.outputs]:
            raise VerifyException(
                "ttng.warp_group_dot_wait: results must have the types of the inputs"
            )


@irdl_op_definition
class FenceAsyncSharedOp(IRDLOperation):
    """``ttng.fence_async_shared {bCluster = false}``: fence.proxy.async for shared memory."""

    name = "ttng.fence_async_shared"

    bCluster = prop_def(IntegerAttr)

    traits = traits_def(Synchronizes())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, bCluster: bool = False):
        super().__init__(properties={"bCluster": IntegerAttr(int(bCluster), i1)})


class _BarrierNumberOp(IRDLOperation):
    """``%bar, N {attrs} [, %pred] : T``: an mbarrier, a number kept in the property
    ``NUMBER`` and, for ops that have one, an i1 predicate."""

    NUMBER: ClassVar[str]

    traits = traits_def(ReadsWritesShared())

    @classmethod
    def parse(cls, parser: Parser) -> _BarrierNumberOp:
        alloc = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        number = parser.parse_integer(allow_boolean=False)
        props, attrs = parse_attr_dict_split(parser, cls)
        pred = None
        if "pred" in dict(cls.get_irdl_definition().operands):
            parser.parse_punctuation(",")
            pred = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        ty = parser.parse_type()
        operands = [parser.resolve_operand(alloc, ty)]
        if pred is not None:
            operands.append(parser.resolve_operand(pred, i1))
        return cls.build(
            operands=operands,
            properties={**props, cls.NUMBER: IntegerAttr(number, i32)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        alloc = self.operands[0]
        printer.print_string(" ")
        printer.print_operand(alloc)
        printer.print_string(f", {self.properties[self.NUMBER].value.data}")
        print_attr_dict(printer, self, elide=[self.NUMBER])
        for pred in self.operands[1:]:
            printer.print_string(", ")
            printer.print_operand(pred)
        print_types(printer, [alloc.type])


@irdl_op_definition
class InitBarrierOp(_BarrierNumberOp):
    """``ttng.init_barrier %bar, N``: mbarrier.init with N expected arrivals."""

    name = "ttng.init_barrier"
    NUMBER: ClassVar[str] = "count"

    alloc = operand_def(MemDescType)
    count = prop_def(IntegerAttr)


@irdl_op_definition
class InvalBarrierOp(IRDLOperation):
    """``ttng.inval_barrier %bar``: invalidate an mbarrier before its memory is reused."""

    name = "ttng.inval_barrier"

    alloc = operand_def(MemDescType)

    traits = traits_def(ReadsWritesShared())
    assembly_format = "$alloc attr-dict `:` type($alloc)"


@irdl_op_definition
class BarrierExpectOp(_BarrierNumberOp):
    """``ttng.barrier_expect %bar, bytes, %pred``: expect a TMA transaction of that size."""

    name = "ttng.barrier_expect"
    NUMBER: ClassVar[str] = "size"

    alloc = operand_def(MemDescType)
    size = prop_def(IntegerAttr)
    pred = operand_def(i1)


@irdl_op_definition
class WaitBarrierOp(IRDLOperation):
    """``ttng.wait_barrier %bar, %phase [, %pred]``: wait for an mbarrier phase to complete."""

    name = "ttng.wait_barrier"

    alloc = operand_def(MemDescType)
    phase = operand_def(i32)
    pred = opt_operand_def(i1)

    traits = traits_def(Synchronizes())
    assembly_format = "$alloc `,` $phase attr-dict (`,` $pred^)? `:` type($alloc)"


TTNG_OPS = [
    WarpGroupDotOp,
    WarpGroupDotWaitOp,
    FenceAsyncSharedOp,
    InitBarrierOp,
    InvalBarrierOp,
    BarrierExpectOp,
    WaitBarrierOp,
]

TTNG = Dialect("ttng", [*TTNG_OPS, *TMA_OPS], [])

__all__ = ["TTNG", *[op.__name__ for op in TTNG_OPS]]
