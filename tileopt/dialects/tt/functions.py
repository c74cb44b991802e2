"""``tt.func``, ``tt.return``, ``tt.call`` and the program-id ops."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import (
    i32, ArrayAttr, DictionaryAttr, FlatSymbolRefAttrConstr, FunctionType, IntegerAttr,
    ModuleOp, StringAttr, SymbolNameConstraint, SymbolRefAttr,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation, ParsePropInAttrDict, irdl_op_definition, opt_prop_def, prop_def, region_def,
    result_def, traits_def, var_operand_def, var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    CallableOpInterface, HasParent, IsolatedFromAbove, IsTerminator, Pure, ReturnLike,
    SymbolOpInterface, SymbolTable, SymbolUserOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from tileopt.dialects.assembly import parse_attrs_and_types, print_attr_dict, print_types
from tileopt.dialects.traits import type_str
from tileopt.dialects.tt_types import PROGRAM_ID_DIM, ProgramIDDim


# ---------------------------------------------------------------------------------------
# Functions: tt.func, tt.return, tt.call
# ---------------------------------------------------------------------------------------


class _FuncCallable(CallableOpInterface):
    @classmethod
    def get_callable_region(cls, op: Operation) -> Region:
        assert isinstance(op, FuncOp)
        return op.body

    @classmethod
    def get_argument_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return op.function_type.inputs.data

    @classmethod
    def get_result_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return op.function_type.outputs.data


@irdl_op_definition
class FuncOp(IRDLOperation):
    """``tt.func public @k(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {...} {``"""

    name = "tt.func"

    body = region_def()
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    traits = traits_def(
        IsolatedFromAbove(), SymbolOpInterface(), _FuncCallable(), HasParent(ModuleOp)
    )

    def __init__(
        self,
        name: str,
        function_type: FunctionType | tuple[Sequence[Attribute], Sequence[Attribute]],
        region: Region | None = None,
        visibility: str | StringAttr | None = None,
        *,
        arg_attrs: ArrayAttr[DictionaryAttr] | None = None,
        res_attrs: ArrayAttr[DictionaryAttr] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        if isinstance(function_type, tuple):
            function_type = FunctionType.from_lists(*function_type)
        if region is None:
            region = Region(Block(arg_types=function_type.inputs.data))
        if isinstance(visibility, str):
            visibility = StringAttr(visibility)
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "function_type": function_type,
                "sym_visibility": visibility,
                "arg_attrs": arg_attrs,
                "res_attrs": res_attrs,
            },
            attributes=dict(attributes or {}),
            regions=[region],
        )

    @property
    def is_declaration(self) -> bool:
        return not self.body.blocks

    @property
    def args(self):
        assert not self.is_declaration, "a declaration has no block arguments"
        return self.body.blocks.first.args  # type: ignore[union-attr]

    def verify_(self) -> None:
        if self.is_declaration:
            return
        block = self.body.blocks.first
        assert block is not None
        expected = self.function_type.inputs.data
        if tuple(block.arg_types) != expected:
            raise VerifyException(
                f"entry block arguments of @{self.sym_name.data} "
                f"({', '.join(type_str(t) for t in block.arg_types)}) do not match the "
                f"function type ({', '.join(type_str(t) for t in expected)})"
            )
        if self.arg_attrs is not None and len(self.arg_attrs.data) != len(expected):
            raise VerifyException(
                f"@{self.sym_name.data} has {len(expected)} arguments but "
                f"{len(self.arg_attrs.data)} argument attribute dictionaries"
            )

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        name, inputs, outputs, region, extra, arg_attrs, res_attrs = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type", "sym_visibility")
        )
        return cls(
            name,
            (inputs, outputs),
            region,
            visibility,
            arg_attrs=arg_attrs,
            res_attrs=res_attrs,
            attributes=extra.data if extra is not None else None,
        )

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(f" {self.sym_visibility.data}")
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            dict(sorted(self.attributes.items())),
            arg_attrs=self.arg_attrs,
            res_attrs=self.res_attrs,
            reserved_attr_names=("sym_name", "function_type", "sym_visibility", "arg_attrs"),
            print_empty_outputs=False,
        )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """``tt.return %x : f32``"""

    name = "tt.return"

    srcs = var_operand_def()

    traits = traits_def(Pure(), HasParent(FuncOp), ReturnLike(), IsTerminator())

    assembly_format = "attr-dict ($srcs^ `:` type($srcs))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        func = self.parent_op()
        if not isinstance(func, FuncOp):
            return
        expected = func.function_type.outputs.data
        got = self.srcs.types
        if len(got) != len(expected):
            raise VerifyException(
                f"has {len(got)} operands, but enclosing function "
                f"(@{func.sym_name.data}) returns {len(expected)}"
            )
        for i, (g, e) in enumerate(zip(got, expected)):
            if g != e:
                raise VerifyException(
                    f"type of return operand {i} ({type_str(g)}) doesn't match function "
                    f"result type ({type_str(e)}) in function @{func.sym_name.data}"
                )


class _CallSymbolUser(SymbolUserOpInterface):
    def verify(self, op: Operation) -> None:
        assert isinstance(op, CallOp)
        callee = SymbolTable.lookup_symbol(op, op.callee)
        if not isinstance(callee, FuncOp):
            raise VerifyException(
                f"'{op.callee.string_value()}' does not reference a valid function"
            )
        inputs = callee.function_type.inputs.data
        outputs = callee.function_type.outputs.data
        if len(inputs) != len(op.args):
            raise VerifyException("incorrect number of operands for callee")
        for i, (expected, got) in enumerate(zip(inputs, op.args.types)):
            if expected != got:
                raise VerifyException(
                    f"operand type mismatch: expected operand type {type_str(expected)}, "
                    f"but provided {type_str(got)} for operand number {i}"
                )
        if len(outputs) != len(op.results):
            raise VerifyException("incorrect number of results for callee")
        for i, (expected, got) in enumerate(zip(outputs, op.result_types)):
            if expected != got:
                raise VerifyException(
                    f"result type mismatch at index {i}: op returns {type_str(got)}, "
                    f"function returns {type_str(expected)}"
                )


@irdl_op_definition
class CallOp(IRDLOperation):
    """``tt.call @f(%a, %b) : (f32, f32) -> f32``; effects unknown (whatever the callee does)."""

    name = "tt.call"

    callee = prop_def(FlatSymbolRefAttrConstr)
    args = var_operand_def()
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res = var_result_def()

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(_CallSymbolUser())

    assembly_format = "$callee `(` $args `)` attr-dict `:` functional-type($args, $res)"

    def __init__(
        self,
        callee: str | SymbolRefAttr,
        args: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
    ):
        if isinstance(callee, str):
            callee = SymbolRefAttr(callee)
        super().__init__(operands=[args], result_types=[result_types], properties={"callee": callee})


# ---------------------------------------------------------------------------------------
# Program ids
# ---------------------------------------------------------------------------------------


class _ProgramAxisOp(IRDLOperation):
    """``tt.get_program_id x : i32`` / ``tt.get_num_programs y : i32``."""

    axis = prop_def(IntegerAttr)
    result = result_def(i32)

    traits = traits_def(Pure())

    def __init__(self, axis: ProgramIDDim | str | int):
        if isinstance(axis, int):
            axis = list(ProgramIDDim)[axis]
        super().__init__(properties={"axis": PROGRAM_ID_DIM.attr(axis)}, result_types=[i32])

    @property
    def dim(self) -> ProgramIDDim:
        return PROGRAM_ID_DIM.value_of(self.axis)

    @property
    def axis_index(self) -> int:
        return self.axis.value.data

    def verify_(self) -> None:
        PROGRAM_ID_DIM.verify(self.axis, "axis")

    @classmethod
    def parse(cls, parser: Parser):
        axis = PROGRAM_ID_DIM.parse(parser)
        attrs, result_type = parse_attrs_and_types(parser)
        op = cls.build(properties={"axis": axis}, attributes=attrs, result_types=[result_type])
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        PROGRAM_ID_DIM.print(printer, self.axis)
        print_attr_dict(printer, self, elide=("axis",))
        print_types(printer, [self.result.type])


@irdl_op_definition
class GetProgramIdOp(_ProgramAxisOp):
    name = "tt.get_program_id"


@irdl_op_definition
class GetNumProgramsOp(_ProgramAxisOp):
    name = "tt.get_num_programs"
