"""The Triton ``tt`` dialect: tile-level ops, read and printed in Triton 3.6's own syntax.

Every op here mirrors one in Triton's ``include/triton/Dialect/Triton/IR/TritonOps.td``:
same name, same operands, same properties (Triton 3.6 stores inherent attributes as MLIR
properties, so the generic form shows them in ``<{...}>``), same custom assembly. Where
xDSL's declarative ``assembly_format`` can say what Triton's says it is used; Triton's
``oilist`` clauses, enum keywords (``acq_rel``), stripped block-pointer types
(``: <tensor<64x32xf16>>``) and ``tt.func`` need hand-written ``parse``/``print``.
``tt.reduce`` and ``tt.scan`` have no custom form in Triton and print generically here too.

Verifiers follow Triton's (``lib/Dialect/Triton/IR/Ops.cpp`` and the ODS type constraints)
with messages meant for people. Side effects are declared so that generic CSE/DCE/LICM can
never drop or move a store, an atomic, a print or a volatile load.
Canonicalization patterns and folders live in ``tileopt/dialects/tt_canonicalize.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialect_interfaces.constant_materialization import ConstantMaterializationInterface
from xdsl.dialects.builtin import (
    i1,
    i32,
    i64,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FlatSymbolRefAttrConstr,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    Region,
    SSAValue,
)
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    SameVariadicOperandSize,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    CallableOpInterface,
    ConditionallySpeculatable,
    EffectInstance,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    MemoryEffect,
    NoMemoryEffect,
    OpTrait,
    Pure,
    ReturnLike,
    SameOperandsAndResultType,
    SymbolOpInterface,
    SymbolTable,
    SymbolUserOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from tileopt.dialects.assembly import (
    RMW_PREFIX,
    parse_attr_dict_split,
    parse_attrs_and_types,
    parse_cache_keywords,
    parse_dot_types,
    parse_enum_prefix,
    parse_operands,
    print_attr_dict,
    print_cache_keywords,
    print_dot_types,
    print_enum_prefix,
    print_rmw_prefix,
    print_types,
)
from tileopt.dialects.effects import (
    GLOBAL,
    READ,
    WRITE,
    ReadsGlobal,
    ReadsWritesGlobal,
    WritesGlobal,
)
from tileopt.dialects.traits import (
    Elementwise,
    SameLoadStoreOperandsAndResultEncoding,
    SameOperandsAndResultElementType,
    SameOperandsAndResultEncoding,
    SameOperandsAndResultShape,
    SameOperandsEncoding,
    type_str,
)
from tileopt.dialects.tt_types import (
    CACHE_MODIFIER,
    EVICTION_POLICY,
    INPUT_PRECISION,
    MEM_SEMANTIC,
    MEM_SYNC_SCOPE,
    PADDING_OPTION,
    PROGRAM_ID_DIM,
    PROPAGATE_NAN,
    RMW_OP,
    ROUNDING_MODE,
    SCALE_DOT_ELEM_TYPE,
    CacheModifier,
    EvictionPolicy,
    InputPrecision,
    MemSemantic,
    MemSyncScope,
    PaddingOption,
    PointerType,
    ProgramIDDim,
    PropagateNan,
    RMWOp,
    RoundingMode,
    TensorDescType,
    bit_width,
    element_type,
    encoding_of,
    i1_same_shape,
    is_bool_like,
    is_float,
    is_int,
    is_ptr_like,
    is_tensor_ptr,
    num_elements,
    pointee_type,
    shape_of,
)

# ---------------------------------------------------------------------------------------
# Small printing/parsing helpers shared by the hand-written formats
# ---------------------------------------------------------------------------------------


def _parse_operand_list_in_brackets(parser: Parser) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )


# ---------------------------------------------------------------------------------------
# Traits Triton attaches to many ops
# ---------------------------------------------------------------------------------------


MAX_TENSOR_NUMEL = 1048576
"""Triton's ``maxTensorNumElements``: the most elements one tensor may have."""


@dataclass(frozen=True)
class TensorSizeTrait(OpTrait):
    """Triton's TensorSizeTrait, on every tt op: each tensor (also the block of a block
    pointer) has a power-of-two number of elements, at most ``MAX_TENSOR_NUMEL``."""

    def verify(self, op: Operation) -> None:
        for ty in (*op.operand_types, *op.result_types):
            if isinstance(ty, PointerType) and isinstance(ty.pointee_type, TensorType):
                ty = ty.pointee_type
            if not isinstance(ty, TensorType):
                continue
            count = num_elements(ty)
            if count > MAX_TENSOR_NUMEL:
                raise VerifyException(
                    f"maximum allowed number of elements is {MAX_TENSOR_NUMEL}, but "
                    f"{type_str(ty)} has more than that"
                )
            if count & (count - 1):
                raise VerifyException(
                    f"number of elements must be power-of-two, but {type_str(ty)} doesn't "
                    f"follow the rule ({count} elements)"
                )


class LoadEffects(MemoryEffect):
    """A load reads; a volatile load also counts as a write, so it is never removed or merged."""

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance]:
        effects = {EffectInstance(READ, resource=GLOBAL)}
        if isinstance(op, LoadOp) and op.is_volatile:
            effects.add(EffectInstance(WRITE, resource=GLOBAL))
        return effects


class PureUnlessImpure(MemoryEffect):
    """No effects when the op's ``pure`` attribute is true, else read+write (Triton's
    extern_elementwise / elementwise_inline_asm)."""

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance]:
        pure = op.properties.get("pure")
        if isinstance(pure, IntegerAttr) and pure.value.data:
            return set()
        return {EffectInstance(READ, resource=GLOBAL), EffectInstance(WRITE, resource=GLOBAL)}


class SpeculatableIfPure(ConditionallySpeculatable):
    @classmethod
    def is_speculatable(cls, op: Operation) -> bool:
        pure = op.properties.get("pure")
        return isinstance(pure, IntegerAttr) and bool(pure.value.data)


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


# ---------------------------------------------------------------------------------------
# Shape ops
# ---------------------------------------------------------------------------------------


def _require_tensor(ty: Attribute, what: str, op_name: str) -> TensorType:
    if not isinstance(ty, TensorType):
        raise VerifyException(f"{what} must be a ranked tensor, got {type_str(ty)}")
    return ty


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


@irdl_op_definition
class SplatOp(IRDLOperation):
    """``tt.splat %x : i32 -> tensor<1024xi32>``"""

    name = "tt.splat"

    src = operand_def()
    result = result_def()

    traits = traits_def(
        Pure(),
        SameOperandsAndResultElementType(),
        SameOperandsAndResultEncoding(),
    )

    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        _require_tensor(self.result.type, "result", self.name)
        if isinstance(self.src.type, TensorType):
            raise VerifyException(
                f"source must be a scalar, got {type_str(self.src.type)}"
            )


@irdl_op_definition
class BroadcastOp(IRDLOperation):
    """``tt.broadcast %x : tensor<64x1xi32> -> tensor<64x64xi32>``"""

    name = "tt.broadcast"

    src = operand_def()
    result = result_def()

    traits = traits_def(
        Pure(),
        SameOperandsAndResultElementType(),
        SameOperandsAndResultEncoding(),
    )

    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

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
class ExpandDimsOp(IRDLOperation):
    """``tt.expand_dims %x {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>``"""

    name = "tt.expand_dims"

    src = operand_def()
    axis = prop_def(IntegerAttr)
    result = result_def()

    traits = traits_def(
        Pure(),
        SameOperandsAndResultElementType(),
    )

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue | Operation, axis: int, result_type: Attribute):
        super().__init__(
            operands=[src], properties={"axis": IntegerAttr(axis, i32)}, result_types=[result_type]
        )

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
class ReshapeOp(IRDLOperation):
    """``tt.reshape %x allow_reorder efficient_layout : tensor<..> -> tensor<..>``"""

    name = "tt.reshape"

    src = operand_def()
    allow_reorder = opt_prop_def(UnitAttr)
    efficient_layout = opt_prop_def(UnitAttr)
    result = result_def()

    traits = traits_def(
        Pure(),
        SameOperandsAndResultElementType(),
    )

    irdl_options = (ParsePropInAttrDict(),)
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
            operands=[src],
            properties={
                "allow_reorder": UnitAttr() if allow_reorder else None,
                "efficient_layout": UnitAttr() if efficient_layout else None,
            },
            result_types=[result_type],
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
class TransOp(IRDLOperation):
    """``tt.trans %x {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>``"""

    name = "tt.trans"

    src = operand_def()
    order = prop_def(DenseArrayBase)
    result = result_def()

    traits = traits_def(
        Pure(), SameOperandsAndResultElementType()
    )

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue | Operation, order: Sequence[int], result_type: Attribute):
        super().__init__(
            operands=[src],
            properties={"order": DenseArrayBase.from_list(i32, order)},
            result_types=[result_type],
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


# ---------------------------------------------------------------------------------------
# Loads and stores
# ---------------------------------------------------------------------------------------

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


class _CacheAndEviction:
    """``cache`` and ``evict`` as the enums they stand for (tt.load, tt.store)."""

    @property
    def cache_modifier(self) -> CacheModifier:
        return CACHE_MODIFIER.value_of(self.cache)  # type: ignore[attr-defined]

    @property
    def eviction_policy(self) -> EvictionPolicy:
        return EVICTION_POLICY.value_of(self.evict)  # type: ignore[attr-defined]


@irdl_op_definition
class LoadOp(_CacheAndEviction, IRDLOperation):
    """``tt.load %ptr, %mask, %other cacheModifier = ca {isVolatile = true} : tensor<..>``

    The result type is not printed: it is what the pointer operand points to."""

    name = "tt.load"

    ptr = operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    boundaryCheck = prop_def(DenseArrayBase, default_value=_EMPTY_I32_ARRAY)
    padding = opt_prop_def(IntegerAttr)
    cache = prop_def(IntegerAttr, default_value=_CACHE_NONE)
    evict = prop_def(IntegerAttr, default_value=_EVICT_NORMAL)
    isVolatile = prop_def(IntegerAttr, default_value=_FALSE)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        SameLoadStoreOperandsAndResultEncoding(), LoadEffects()
    )

    _DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "boundaryCheck": _EMPTY_I32_ARRAY,
        "cache": _CACHE_NONE,
        "evict": _EVICT_NORMAL,
        "isVolatile": _FALSE,
    }

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
        ptr_type = self.ptr.type
        _verify_ptr_operand(self, ptr_type, allow_block_ptr=True)
        expected = pointee_type(ptr_type)
        if self.result.type != expected:
            raise VerifyException(
                f"result type {type_str(self.result.type)} must be what the pointer "
                f"operand points to: {type_str(expected)}"
            )
        _verify_mask(self, self.mask, ptr_type)
        if self.other is not None and self.other.type != expected:
            raise VerifyException(
                f"other must have the loaded type {type_str(expected)}, got "
                f"{type_str(self.other.type)}"
            )
        if self.other is not None and self.mask is None:
            raise VerifyException("other requires a mask")
        _verify_boundary_check(self, ptr_type)
        CACHE_MODIFIER.verify(self.cache, "cache")
        EVICTION_POLICY.verify(self.evict, "evict")
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
        props = parse_cache_keywords(parser)
        more_props, attrs = parse_attr_dict_split(parser, cls)
        props |= more_props
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        loaded = pointee_type(ptr_type)
        operands: list = [parser.resolve_operand(ptr, ptr_type), [], []]
        if mask is not None:
            operands[1] = [parser.resolve_operand(mask, i1_same_shape(loaded))]
        if other is not None:
            operands[2] = [parser.resolve_operand(other, loaded)]
        for name, default in cls._DEFAULTS.items():
            props.setdefault(name, default)
        return cls.build(
            operands=operands, result_types=[loaded], properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.ptr)
        for value in (self.mask, self.other):
            if value is not None:
                printer.print_string(", ")
                printer.print_operand(value)
        print_cache_keywords(printer, self)
        print_attr_dict(printer, self, elide=("cache", "evict"), defaults=self._DEFAULTS)
        print_types(printer, [self.ptr.type])


@irdl_op_definition
class StoreOp(_CacheAndEviction, IRDLOperation):
    """``tt.store %ptr, %value, %mask : tensor<1024x!tt.ptr<f32>>``"""

    name = "tt.store"

    ptr = operand_def()
    value = operand_def()
    mask = opt_operand_def()
    boundaryCheck = prop_def(DenseArrayBase, default_value=_EMPTY_I32_ARRAY)
    cache = prop_def(IntegerAttr, default_value=_CACHE_NONE)
    evict = prop_def(IntegerAttr, default_value=_EVICT_NORMAL)

    traits = traits_def(
        SameLoadStoreOperandsAndResultEncoding(), WritesGlobal()
    )

    _DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "boundaryCheck": _EMPTY_I32_ARRAY,
        "cache": _CACHE_NONE,
        "evict": _EVICT_NORMAL,
    }

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
        ptr_type = self.ptr.type
        _verify_ptr_operand(self, ptr_type, allow_block_ptr=True)
        expected = pointee_type(ptr_type)
        if self.value.type != expected:
            raise VerifyException(
                f"value type {type_str(self.value.type)} must be what the pointer "
                f"operand points to: {type_str(expected)}"
            )
        _verify_mask(self, self.mask, ptr_type)
        _verify_boundary_check(self, ptr_type)
        CACHE_MODIFIER.verify(self.cache, "cache")
        EVICTION_POLICY.verify(self.evict, "evict")

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        ptr, value = parse_operands(parser, 2)
        mask = None
        if parser.parse_optional_punctuation(",") is not None:
            mask = parser.parse_unresolved_operand()
        props = parse_cache_keywords(parser)
        more_props, attrs = parse_attr_dict_split(parser, cls)
        props |= more_props
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        stored = pointee_type(ptr_type)
        operands: list = [
            parser.resolve_operand(ptr, ptr_type),
            parser.resolve_operand(value, stored),
            [parser.resolve_operand(mask, i1_same_shape(stored))] if mask is not None else [],
        ]
        for name, default in cls._DEFAULTS.items():
            props.setdefault(name, default)
        return cls.build(operands=operands, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.ptr)
        printer.print_string(", ")
        printer.print_operand(self.value)
        if self.mask is not None:
            printer.print_string(", ")
            printer.print_operand(self.mask)
        print_cache_keywords(printer, self)
        print_attr_dict(printer, self, elide=("cache", "evict"), defaults=self._DEFAULTS)
        print_types(printer, [self.ptr.type])


# ---------------------------------------------------------------------------------------
# Casts and elementwise math
# ---------------------------------------------------------------------------------------


class _CastOp(IRDLOperation):
    """``tt.bitcast %x : tensor<4xi32> -> tensor<4xf32>`` and friends."""

    src = operand_def()
    result = result_def()

    traits = traits_def(
        Pure(), Elementwise(), SameOperandsAndResultShape(), SameOperandsAndResultEncoding()
    )

    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])


@irdl_op_definition
class IntToPtrOp(_CastOp):
    name = "tt.int_to_ptr"

    def verify_(self) -> None:
        if element_type(self.src.type) != i64:
            raise VerifyException(
                f"source must be i64 or a tensor of i64, got {type_str(self.src.type)}"
            )
        if not is_ptr_like(self.result.type):
            raise VerifyException(
                f"result must be a pointer or a tensor of pointers, got "
                f"{type_str(self.result.type)}"
            )


@irdl_op_definition
class PtrToIntOp(_CastOp):
    name = "tt.ptr_to_int"

    def verify_(self) -> None:
        if not is_ptr_like(self.src.type):
            raise VerifyException(
                f"source must be a pointer or a tensor of pointers, got "
                f"{type_str(self.src.type)}"
            )
        if element_type(self.result.type) != i64:
            raise VerifyException(
                f"result must be i64 or a tensor of i64, got {type_str(self.result.type)}"
            )


@irdl_op_definition
class BitcastOp(_CastOp):
    name = "tt.bitcast"

    traits = traits_def(
        Pure(),
        Elementwise(),
        SameOperandsAndResultShape(),
        SameOperandsAndResultEncoding(),
    )

    def verify_(self) -> None:
        src = element_type(self.src.type)
        dst = element_type(self.result.type)
        src_ptr, dst_ptr = isinstance(src, PointerType), isinstance(dst, PointerType)
        if src_ptr or dst_ptr:
            if not (src_ptr and dst_ptr):
                raise VerifyException("cannot bitcast pointer to non-pointer type")
            assert isinstance(src, PointerType) and isinstance(dst, PointerType)
            if src.address_space != dst.address_space:
                raise VerifyException(
                    "cannot bitcast pointer between different address spaces"
                )
            return
        src_bits, dst_bits = bit_width(src), bit_width(dst)
        if src_bits != dst_bits:
            raise VerifyException(
                f"cannot bitcast data-type of size {src_bits} to data-type of size "
                f"{dst_bits}"
            )


@irdl_op_definition
class FpToFpOp(IRDLOperation):
    """``tt.fp_to_fp %x, rounding = rtne : tensor<4xf32> -> tensor<4xf8E4M3FN>``"""

    name = "tt.fp_to_fp"

    src = operand_def()
    rounding = opt_prop_def(IntegerAttr)
    result = result_def()

    traits = traits_def(
        Pure(),
        Elementwise(),
        SameOperandsAndResultShape(),
        SameOperandsAndResultEncoding(),
    )

    def __init__(
        self,
        src: SSAValue | Operation,
        result_type: Attribute,
        rounding: RoundingMode | str | None = None,
    ):
        super().__init__(
            operands=[src],
            result_types=[result_type],
            properties={"rounding": ROUNDING_MODE.attr(rounding) if rounding is not None else None},
        )

    def verify_(self) -> None:
        src = element_type(self.src.type)
        dst = element_type(self.result.type)
        if not is_float(src) or not is_float(dst):
            raise VerifyException(
                f"converts between floating-point types, got {type_str(src)} -> "
                f"{type_str(dst)}"
            )
        if self.rounding is not None:
            ROUNDING_MODE.verify(self.rounding, "rounding")
        src_bits, dst_bits = bit_width(src), bit_width(dst)
        if src_bits is not None and dst_bits is not None and dst_bits < src_bits and self.rounding is None:
            raise VerifyException(
                f"rounding mode is required for FP downcast ({type_str(src)} -> "
                f"{type_str(dst)})"
            )

    @classmethod
    def parse(cls, parser: Parser) -> FpToFpOp:
        src = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        props: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("rounding")
            parser.parse_punctuation("=")
            props["rounding"] = ROUNDING_MODE.parse(parser)
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(src, src_type)],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        # Triton's format puts attr-dict *before* the rounding clause.
        printer.print_string(" ")
        printer.print_operand(self.src)
        print_attr_dict(printer, self, elide=("rounding",))
        if self.rounding is not None:
            printer.print_string(", rounding = ")
            ROUNDING_MODE.print(printer, self.rounding)
        print_types(printer, [self.src.type, self.result.type], " -> ")


def _verify_float_like(op: Operation) -> None:
    for ty in [*op.operand_types, *op.result_types]:
        if not is_float(element_type(ty)):
            raise VerifyException(
                f"operates on floats or tensors of floats, got {type_str(ty)}"
            )


@irdl_op_definition
class PreciseSqrtOp(IRDLOperation):
    """``tt.precise_sqrt %x : tensor<4xf32>``"""

    name = "tt.precise_sqrt"

    T: ClassVar = VarConstraint("T", AnyAttr())
    x = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure(), Elementwise(), SameOperandsAndResultType())

    assembly_format = "$x attr-dict `:` type($x)"

    def __init__(self, x: SSAValue | Operation):
        x = SSAValue.get(x)
        super().__init__(operands=[x], result_types=[x.type])

    def verify_(self) -> None:
        _verify_float_like(self)


class _BinaryElementwiseOp(IRDLOperation):
    T: ClassVar = VarConstraint("T", AnyAttr())
    x = operand_def(T)
    y = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure(), Elementwise(), SameOperandsAndResultType())

    assembly_format = "$x `,` $y attr-dict `:` type($x)"

    def __init__(self, x: SSAValue | Operation, y: SSAValue | Operation):
        x = SSAValue.get(x)
        super().__init__(operands=[x, y], result_types=[x.type])


@irdl_op_definition
class PreciseDivFOp(_BinaryElementwiseOp):
    """``tt.precise_divf %x, %y : tensor<4xf32>``"""

    name = "tt.precise_divf"

    def verify_(self) -> None:
        _verify_float_like(self)


@irdl_op_definition
class MulhiUIOp(_BinaryElementwiseOp):
    """``tt.mulhiui %x, %y : tensor<4xi32>``: high half of the unsigned product."""

    name = "tt.mulhiui"

    def verify_(self) -> None:
        for ty in self.operand_types:
            if not is_int(element_type(ty)):
                raise VerifyException(
                    f"operates on integers or tensors of integers, got {type_str(ty)}"
                )


@irdl_op_definition
class ClampFOp(IRDLOperation):
    """``tt.clampf %x, %lo, %hi, propagateNan = all : tensor<4xf32>``"""

    name = "tt.clampf"

    T: ClassVar = VarConstraint("T", AnyAttr())
    x = operand_def(T)
    min = operand_def(T)
    max = operand_def(T)
    propagateNan = prop_def(IntegerAttr)
    result = result_def(T)

    traits = traits_def(Pure(), Elementwise(), SameOperandsAndResultType())

    def __init__(
        self,
        x: SSAValue | Operation,
        lo: SSAValue | Operation,
        hi: SSAValue | Operation,
        propagate_nan: PropagateNan | str = PropagateNan.NONE,
    ):
        x = SSAValue.get(x)
        super().__init__(
            operands=[x, lo, hi],
            result_types=[x.type],
            properties={"propagateNan": PROPAGATE_NAN.attr(propagate_nan)},
        )

    def verify_(self) -> None:
        _verify_float_like(self)
        PROPAGATE_NAN.verify(self.propagateNan, "propagateNan")

    @classmethod
    def parse(cls, parser: Parser) -> ClampFOp:
        values = parse_operands(parser, 3)
        parser.parse_punctuation(",")
        parser.parse_keyword("propagateNan")
        parser.parse_punctuation("=")
        nan = PROPAGATE_NAN.parse(parser)
        attrs, ty = parse_attrs_and_types(parser)
        return cls.build(
            operands=[parser.resolve_operand(v, ty) for v in values],
            result_types=[ty],
            properties={"propagateNan": nan},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(", propagateNan = ")
        PROPAGATE_NAN.print(printer, self.propagateNan)
        print_attr_dict(printer, self, elide=("propagateNan",))
        print_types(printer, [self.result.type])


# ---------------------------------------------------------------------------------------
# Dot products
# ---------------------------------------------------------------------------------------

_IEEE = INPUT_PRECISION.attr(InputPrecision.IEEE)
_ZERO_I32 = IntegerAttr(0, i32)


@irdl_op_definition
class DotOp(IRDLOperation):
    """``tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<MxKxf16> * tensor<KxNxf16> -> tensor<MxNxf32>``"""

    name = "tt.dot"

    a = operand_def()
    b = operand_def()
    c = operand_def()
    inputPrecision = prop_def(IntegerAttr, default_value=_IEEE)
    maxNumImpreciseAcc = prop_def(IntegerAttr, default_value=_ZERO_I32)
    d = result_def()

    traits = traits_def(Pure())

    _DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "inputPrecision": _IEEE,
        "maxNumImpreciseAcc": _ZERO_I32,
    }

    def __init__(
        self,
        a: SSAValue | Operation,
        b: SSAValue | Operation,
        c: SSAValue | Operation,
        input_precision: InputPrecision | str = InputPrecision.IEEE,
        max_num_imprecise_acc: int = 0,
    ):
        c = SSAValue.get(c)
        super().__init__(
            operands=[a, b, c],
            result_types=[c.type],
            properties={
                "inputPrecision": INPUT_PRECISION.attr(input_precision),
                "maxNumImpreciseAcc": IntegerAttr(max_num_imprecise_acc, i32),
            },
        )

    @property
    def input_precision(self) -> InputPrecision:
        return INPUT_PRECISION.value_of(self.inputPrecision)

    def verify_(self) -> None:
        a = _require_tensor(self.a.type, "operand A", self.name)
        b = _require_tensor(self.b.type, "operand B", self.name)
        c = _require_tensor(self.c.type, "accumulator C", self.name)
        if self.d.type != c:
            raise VerifyException(
                f"result type {type_str(self.d.type)} must match the accumulator type "
                f"{type_str(c)}"
            )
        sa, sb, sc = a.get_shape(), b.get_shape(), c.get_shape()
        if not (len(sa) == len(sb) == len(sc)) or len(sa) not in (2, 3):
            raise VerifyException(
                f"operands must all be 2D (or 3D, batched), got ranks {len(sa)}, "
                f"{len(sb)}, {len(sc)}"
            )
        if len(sa) == 3 and not (sa[0] == sb[0] == sc[0]):
            raise VerifyException(
                f"batch dimensions differ: A {sa[0]}, B {sb[0]}, C {sc[0]}"
            )
        (m, k), (k2, n), (mc, nc) = sa[-2:], sb[-2:], sc[-2:]
        if k != k2:
            raise VerifyException(
                f"K dimensions differ: A is {m}x{k} but B is {k2}x{n}"
            )
        if (m, n) != (mc, nc):
            raise VerifyException(
                f"accumulator C is {mc}x{nc} but A x B is {m}x{n}"
            )
        ea, eb = a.element_type, b.element_type
        for what, ty in (("A", ea), ("B", eb), ("C", c.element_type)):
            if not (is_float(ty) or is_int(ty)):
                raise VerifyException(
                    f"operand {what} must have float or integer elements, got {type_str(ty)}"
                )
        if bit_width(ea) != bit_width(eb):
            raise VerifyException(
                f"element types of operands A and B must have same bit width "
                f"({type_str(ea)} vs {type_str(eb)})"
            )
        if (encoding_of(a) is None) != (encoding_of(b) is None):
            raise VerifyException("mismatching encoding between A and B operands")
        if encoding_of(a) is not None and encoding_of(c) is None:
            raise VerifyException("miss encoding of C operand")
        INPUT_PRECISION.verify(self.inputPrecision, "inputPrecision")

    @classmethod
    def parse(cls, parser: Parser) -> DotOp:
        a, b, c = parse_operands(parser, 3)
        props: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("inputPrecision")
            parser.parse_punctuation("=")
            props["inputPrecision"] = INPUT_PRECISION.parse(parser)
        more, attrs = parse_attr_dict_split(parser, cls)
        props |= more
        a_type, _, b_type, _, d_type = parse_dot_types(parser)
        for name, default in cls._DEFAULTS.items():
            props.setdefault(name, default)
        return cls.build(
            operands=[
                parser.resolve_operand(a, a_type),
                parser.resolve_operand(b, b_type),
                parser.resolve_operand(c, d_type),
            ],
            result_types=[d_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.a, self.b, self.c), printer.print_operand)
        if self.inputPrecision != _IEEE:
            printer.print_string(", inputPrecision = ")
            INPUT_PRECISION.print(printer, self.inputPrecision)
        print_attr_dict(printer, self, elide=("inputPrecision",), defaults=self._DEFAULTS)
        print_dot_types(printer, self.a.type, self.b.type, self.d.type)


@irdl_op_definition
class DotScaledOp(IRDLOperation):
    """``tt.dot_scaled %a scale %as, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false}
    : tensor<..>, tensor<..> * tensor<..> -> tensor<..>`` (microscaling dot)."""

    name = "tt.dot_scaled"

    a = operand_def()
    b = operand_def()
    c = operand_def()
    a_scale = opt_operand_def()
    b_scale = opt_operand_def()
    a_elem_type = prop_def(IntegerAttr)
    b_elem_type = prop_def(IntegerAttr)
    fastMath = prop_def(IntegerAttr)
    d = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        c = _require_tensor(self.c.type, "accumulator C", self.name)
        if self.d.type != c:
            raise VerifyException("result type must match the accumulator type")
        a = _require_tensor(self.a.type, "operand A", self.name)
        if len(a.get_shape()) < 2:
            raise VerifyException("operands must be at least 2D")
        SCALE_DOT_ELEM_TYPE.verify(self.a_elem_type, "lhs")
        SCALE_DOT_ELEM_TYPE.verify(self.b_elem_type, "rhs")

    @classmethod
    def parse(cls, parser: Parser) -> DotScaledOp:
        a = parser.parse_unresolved_operand()
        a_scale = b_scale = None
        if parser.parse_optional_keyword("scale") is not None:
            a_scale = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        if parser.parse_optional_keyword("scale") is not None:
            b_scale = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        c = parser.parse_unresolved_operand()
        parser.parse_keyword("lhs")
        parser.parse_punctuation("=")
        lhs = SCALE_DOT_ELEM_TYPE.parse(parser)
        parser.parse_keyword("rhs")
        parser.parse_punctuation("=")
        rhs = SCALE_DOT_ELEM_TYPE.parse(parser)
        props, attrs = parse_attr_dict_split(parser, cls)
        props |= {"a_elem_type": lhs, "b_elem_type": rhs}
        a_type, a_scale_type, b_type, b_scale_type, d_type = parse_dot_types(
            parser, a_scale is not None, b_scale is not None
        )
        return cls.build(
            operands=[
                parser.resolve_operand(a, a_type),
                parser.resolve_operand(b, b_type),
                parser.resolve_operand(c, d_type),
                [parser.resolve_operand(a_scale, a_scale_type)] if a_scale is not None else [],
                [parser.resolve_operand(b_scale, b_scale_type)] if b_scale is not None else [],
            ],
            result_types=[d_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.a)
        if self.a_scale is not None:
            printer.print_string(" scale ")
            printer.print_operand(self.a_scale)
        printer.print_string(", ")
        printer.print_operand(self.b)
        if self.b_scale is not None:
            printer.print_string(" scale ")
            printer.print_operand(self.b_scale)
        printer.print_string(", ")
        printer.print_operand(self.c)
        printer.print_string(" lhs = ")
        SCALE_DOT_ELEM_TYPE.print(printer, self.a_elem_type)
        printer.print_string(" rhs = ")
        SCALE_DOT_ELEM_TYPE.print(printer, self.b_elem_type)
        print_attr_dict(printer, self, elide=("a_elem_type", "b_elem_type"))
        print_dot_types(
            printer,
            self.a.type,
            self.b.type,
            self.d.type,
            self.a_scale.type if self.a_scale is not None else None,
            self.b_scale.type if self.b_scale is not None else None,
        )


# ---------------------------------------------------------------------------------------
# Reductions and scans (printed generically, as Triton prints them)
# ---------------------------------------------------------------------------------------


def _verify_combine_region(op: Operation, region: Region, return_type: type[Operation]) -> None:
    """Triton's verifyRegionsImpl: the combiner takes 2 scalars per operand and returns one
    per operand, each of the operand's element type."""
    elements = [element_type(t) for t in op.operand_types]
    n = len(elements)
    block = region.blocks.first
    if block is None:
        raise VerifyException(f"combine region must have a block")
    if len(block.args) != 2 * n:
        raise VerifyException(
            f"nested block must take {2 * n} arguments, but given block with "
            f"{len(block.args)} arguments"
        )
    for i, arg in enumerate(block.args):
        if arg.type != elements[i % n]:
            raise VerifyException(
                f"type mismatch on combine operation. Expected argument {i} to have "
                f"type {type_str(elements[i % n])} but got {type_str(arg.type)}"
            )
    terminator = block.last_op
    if not isinstance(terminator, return_type):
        raise VerifyException(
            f"combine operation must be terminated with a {return_type.name}"
        )
    if len(terminator.operands) != n:
        raise VerifyException(
            f"expected combine operation to return {n} values but got "
            f"{len(terminator.operands)}"
        )
    for i, value in enumerate(terminator.operands):
        if value.type != elements[i]:
            raise VerifyException(
                f"type mismatch on combine operation. Expected result {i} to have "
                f"type {type_str(elements[i])} but got {type_str(value.type)}"
            )


def _verify_reduce_scan_operands(op: Operation, axis: int) -> None:
    if not op.operands:
        raise VerifyException(f"must have at least 1 operand")
    if len(op.operands) != len(op.results):
        raise VerifyException(f"must have the same number of inputs as outputs")
    ranks = set()
    for ty in op.operand_types:
        tensor = _require_tensor(ty, "operand", op.name)
        rank = len(tensor.get_shape())
        if not 0 <= axis < rank:
            raise VerifyException(f"axis {axis} out of bounds for operand rank {rank}")
        ranks.add(rank)
    if len(ranks) > 1:
        raise VerifyException(
            f"all operands must have the same rank, got ranks {sorted(ranks)}"
        )
    shapes = {t.get_shape() for t in op.operand_types}  # type: ignore[union-attr]
    if len(shapes) > 1:
        raise VerifyException(f"requires the same shape for all operands")


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """``"tt.reduce"(%x) <{axis = 0 : i32}> ({ ^bb0(%a: f32, %b: f32): ... }) : (tensor<..>) -> f32``"""

    name = "tt.reduce"

    srcs = var_operand_def()
    axis = prop_def(IntegerAttr)
    result = var_result_def()
    combineOp = region_def("single_block")

    traits = traits_def(Pure(), SameOperandsEncoding())

    def __init__(
        self,
        srcs: Sequence[SSAValue | Operation],
        axis: int,
        combine: Region,
        result_types: Sequence[Attribute] | None = None,
    ):
        values = [SSAValue.get(s) for s in srcs]
        if result_types is None:
            result_types = [_reduced_type(v.type, axis) for v in values]
        super().__init__(
            operands=[values],
            result_types=[result_types],
            properties={"axis": IntegerAttr(axis, i32)},
            regions=[combine],
        )

    def verify_(self) -> None:
        axis = self.axis.value.data
        _verify_reduce_scan_operands(self, axis)
        for src, res in zip(self.srcs, self.result):
            expected = _reduced_type(src.type, axis)
            if element_type(res.type) != element_type(src.type):
                raise VerifyException(f"operand types and result types must agree")
            if shape_of(res.type) != shape_of(expected):
                raise VerifyException(
                    f"result {type_str(res.type)} must have the operand's shape "
                    f"without axis {axis}: {type_str(expected)}"
                )
        _verify_combine_region(self, self.combineOp, ReduceReturnOp)


def _reduced_type(ty: Attribute, axis: int) -> Attribute:
    """The operand type with ``axis`` removed (a scalar if nothing is left); the layout
    (a slice of the operand's) is for the ttg dialect to infer, so none is attached."""
    assert isinstance(ty, TensorType)
    shape = list(ty.get_shape())
    del shape[axis]
    if not shape:
        return ty.element_type
    return TensorType(ty.element_type, shape)


@irdl_op_definition
class ReduceReturnOp(IRDLOperation):
    """``tt.reduce.return %x : f32``"""

    name = "tt.reduce.return"

    result = var_operand_def()

    traits = traits_def(Pure(), HasParent(ReduceOp), IsTerminator(), ReturnLike())

    assembly_format = "$result attr-dict `:` type($result)"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


@irdl_op_definition
class ScanOp(IRDLOperation):
    """``"tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({...}) : (tensor<..>) -> tensor<..>``"""

    name = "tt.scan"

    srcs = var_operand_def()
    axis = prop_def(IntegerAttr)
    reverse = prop_def(IntegerAttr)
    result = var_result_def()
    combineOp = region_def("single_block")

    traits = traits_def(
        Pure(), SameOperandsAndResultEncoding(), SameOperandsAndResultShape()
    )

    def __init__(
        self, srcs: Sequence[SSAValue | Operation], axis: int, reverse: bool, combine: Region
    ):
        values = [SSAValue.get(s) for s in srcs]
        super().__init__(
            operands=[values],
            result_types=[[v.type for v in values]],
            properties={"axis": IntegerAttr(axis, i32), "reverse": IntegerAttr(int(reverse), i1)},
            regions=[combine],
        )

    def verify_(self) -> None:
        _verify_reduce_scan_operands(self, self.axis.value.data)
        for src, res in zip(self.srcs, self.result):
            if src.type != res.type:
                raise VerifyException("operand types and result types must agree")
        _verify_combine_region(self, self.combineOp, ScanReturnOp)


@irdl_op_definition
class ScanReturnOp(IRDLOperation):
    """``tt.scan.return %x : f32``"""

    name = "tt.scan.return"

    result = var_operand_def()

    traits = traits_def(Pure(), HasParent(ScanOp), IsTerminator(), ReturnLike())

    assembly_format = "$result attr-dict `:` type($result)"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


# ---------------------------------------------------------------------------------------
# Atomics
# ---------------------------------------------------------------------------------------


def _print_functional_type(printer: Printer, op: Operation) -> None:
    printer.print_string(" : (")
    printer.print_list(op.operand_types, printer.print_attribute)
    printer.print_string(") -> ")
    printer.print_attribute(op.result_types[0])


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """``tt.atomic_rmw add, acq_rel, gpu, %ptr, %val, %mask : (tensor<..>, ..) -> tensor<..>``"""

    name = "tt.atomic_rmw"

    atomic_rmw_op = prop_def(IntegerAttr)
    ptr = operand_def()
    val = operand_def()
    mask = opt_operand_def()
    sem = prop_def(IntegerAttr)
    scope = prop_def(IntegerAttr)
    result = result_def()

    traits = traits_def(
        SameOperandsAndResultShape(), SameOperandsAndResultEncoding(), ReadsWritesGlobal()
    )

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
        RMW_OP.verify(self.atomic_rmw_op, "atomic_rmw_op")
        MEM_SEMANTIC.verify(self.sem, "sem")
        MEM_SYNC_SCOPE.verify(self.scope, "scope")
        _verify_ptr_operand(self, self.ptr.type, allow_block_ptr=False)
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
        kind, sem, scope = parse_enum_prefix(parser, RMW_PREFIX)
        names = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        func_type = parser.parse_function_type()
        if len(func_type.inputs) != len(names) or len(func_type.outputs) != 1:
            parser.raise_error("type must be (operand types) -> result type")
        operands = [parser.resolve_operand(n, t) for n, t in zip(names, func_type.inputs)]
        return cls.build(
            operands=[operands[0], operands[1], operands[2:]],
            result_types=[func_type.outputs.data[0]],
            properties={"atomic_rmw_op": kind, "scope": scope, "sem": sem},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        print_rmw_prefix(printer, self)
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self, elide=("atomic_rmw_op", "sem", "scope"))
        _print_functional_type(printer, self)


@irdl_op_definition
class AtomicCASOp(IRDLOperation):
    """``tt.atomic_cas acq_rel, gpu, %ptr, %cmp, %val : (!tt.ptr<i32>, i32, i32) -> i32``"""

    name = "tt.atomic_cas"

    ptr = operand_def()
    cmp = operand_def()
    val = operand_def()
    sem = prop_def(IntegerAttr)
    scope = prop_def(IntegerAttr)
    result = result_def()

    traits = traits_def(
        SameOperandsAndResultShape(), SameOperandsAndResultEncoding(), ReadsWritesGlobal()
    )

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
        MEM_SEMANTIC.verify(self.sem, "sem")
        MEM_SYNC_SCOPE.verify(self.scope, "scope")
        _verify_ptr_operand(self, self.ptr.type, allow_block_ptr=False)
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
        sem, scope = parse_enum_prefix(parser, (MEM_SEMANTIC, MEM_SYNC_SCOPE))
        names = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            names.append(parser.parse_unresolved_operand())
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        func_type = parser.parse_function_type()
        if len(func_type.inputs) != 3 or len(func_type.outputs) != 1:
            parser.raise_error("type must be (ptr, cmp, val) -> result")
        return cls.build(
            operands=[parser.resolve_operand(n, t) for n, t in zip(names, func_type.inputs)],
            result_types=[func_type.outputs.data[0]],
            properties={"scope": scope, "sem": sem},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        print_enum_prefix(printer, [(MEM_SEMANTIC, self.sem), (MEM_SYNC_SCOPE, self.scope)])
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self, elide=("sem", "scope"))
        _print_functional_type(printer, self)


# ---------------------------------------------------------------------------------------
# Tensor data movement: join, split, cat, gather, histogram
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class JoinOp(IRDLOperation):
    """``tt.join %a, %b : tensor<4x8xf32> -> tensor<4x8x2xf32>``"""

    name = "tt.join"

    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def()

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    def verify_(self) -> None:
        src = _require_tensor(self.lhs.type, "operand", self.name)
        dst = _require_tensor(self.result.type, "result", self.name)
        expected = [*src.get_shape(), 2]
        if list(dst.get_shape()) != expected:
            raise VerifyException(
                f"result shape must be {expected}, but got {list(dst.get_shape())}"
            )
        if dst.element_type != src.element_type:
            raise VerifyException("result element type must match the input element type")


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


@irdl_op_definition
class CatOp(IRDLOperation):
    """``tt.cat %a, %b : tensor<32xf32> -> tensor<64xf32>``"""

    name = "tt.cat"

    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def()

    traits = traits_def(NoMemoryEffect(), SameOperandsAndResultElementType())

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    def verify_(self) -> None:
        src = _require_tensor(self.lhs.type, "operand", self.name)
        dst = _require_tensor(self.result.type, "result", self.name)
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
class HistogramOp(IRDLOperation):
    """``tt.histogram %x : tensor<1024xi32> -> tensor<64xi32>``"""

    name = "tt.histogram"

    src = operand_def()
    result = result_def()

    traits = traits_def(Pure())

    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def verify_(self) -> None:
        for what, ty in (("source", self.src.type), ("result", self.result.type)):
            tensor = _require_tensor(ty, what, self.name)
            if not is_int(tensor.element_type):
                raise VerifyException(f"{what} must be a tensor of integers")


# ---------------------------------------------------------------------------------------
# External code: extern_elementwise, elementwise_inline_asm
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class ExternElementwiseOp(IRDLOperation):
    """``tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_expf"}
    : (tensor<4xf32>) -> tensor<4xf32>``"""

    name = "tt.extern_elementwise"

    srcs = var_operand_def()
    libname = prop_def(StringAttr)
    libpath = prop_def(StringAttr)
    symbol = prop_def(StringAttr)
    pure = prop_def(IntegerAttr)
    result = result_def()

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(
        Elementwise(), SameOperandsAndResultEncoding(), PureUnlessImpure(), SpeculatableIfPure()
    )

    assembly_format = "$srcs attr-dict `:` functional-type($srcs, $result)"


@irdl_op_definition
class ElementwiseInlineAsmOp(IRDLOperation):
    """``tt.elementwise_inline_asm "asm" {constraints = "=r,r", packed_element = 1 : i32,
    pure = true} %x : tensor<4xi32> -> tensor<4xi32>``"""

    name = "tt.elementwise_inline_asm"

    asm_string = prop_def(StringAttr)
    constraints = prop_def(StringAttr)
    pure = prop_def(IntegerAttr)
    packed_element = prop_def(IntegerAttr)
    args = var_operand_def()
    result = var_result_def()

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(
        Elementwise(), SameOperandsAndResultEncoding(), PureUnlessImpure(), SpeculatableIfPure()
    )

    assembly_format = "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)"

    def verify_(self) -> None:
        packed = self.packed_element.value.data
        if packed <= 0:
            raise VerifyException("packed_element must be positive")
        if self.args:
            first = self.args[0].type
            count = num_elements(first) if isinstance(first, TensorType) else 0
            if count % packed:
                raise VerifyException(
                    f"number of input elements {count} must be a "
                    f"multiple of the op's packed_element attribute, {packed}"
                )


# ---------------------------------------------------------------------------------------
# Debugging: print, assert
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class PrintOp(IRDLOperation):
    """``tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<4xi32>``"""

    name = "tt.print"

    prefix = prop_def(StringAttr)
    hex = prop_def(IntegerAttr)
    args = var_operand_def()
    isSigned = prop_def(DenseArrayBase)

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(WritesGlobal())

    assembly_format = "$prefix attr-dict (`:` $args^ `:` type($args))?"

    def verify_(self) -> None:
        if len(self.isSigned.get_values()) != len(self.args):
            raise VerifyException(
                f"isSigned must have one entry per argument ({len(self.args)}), got "
                f"{len(self.isSigned.get_values())}"
            )


@irdl_op_definition
class AssertOp(IRDLOperation):
    """``tt.assert %cond, "message" : tensor<4xi1>``"""

    name = "tt.assert"

    condition = operand_def()
    message = prop_def(StringAttr)

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(WritesGlobal())

    assembly_format = "$condition `,` $message attr-dict `:` type($condition)"

    def verify_(self) -> None:
        if not is_bool_like(self.condition.type):
            raise VerifyException(
                f"condition must be i1 or a tensor of i1, got "
                f"{type_str(self.condition.type)}"
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
        desc = parser.parse_unresolved_operand()
        indices = _parse_operand_list_in_brackets(parser)
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
        printer.print_string(" ")
        printer.print_operand(self.desc)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
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
        desc = parser.parse_unresolved_operand()
        indices = _parse_operand_list_in_brackets(parser)
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
        printer.print_string(" ")
        printer.print_operand(self.desc)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("], ")
        printer.print_operand(self.src)
        print_attr_dict(printer, self)
        print_types(printer, [self.desc.type, self.src.type])


# ---------------------------------------------------------------------------------------
# Constant materialization (folders produce attributes; arith.constant holds them)
# ---------------------------------------------------------------------------------------


class TTConstantMaterialization(ConstantMaterializationInterface):
    """Folded tt ops become ``arith.constant``, as in Triton (which uses arith constants)."""

    def materialize_constant(self, value: Attribute, type: Attribute) -> Operation | None:
        from xdsl.dialects.arith import ConstantOp

        if isinstance(value, (DenseIntOrFPElementsAttr, IntegerAttr, FloatAttr)):
            return ConstantOp(value, type)  # type: ignore[arg-type]
        return None


TT_OPS: list[type[IRDLOperation]] = [
    FuncOp,
    ReturnOp,
    CallOp,
    GetProgramIdOp,
    GetNumProgramsOp,
    MakeRangeOp,
    SplatOp,
    BroadcastOp,
    ExpandDimsOp,
    ReshapeOp,
    TransOp,
    AddPtrOp,
    AdvanceOp,
    MakeTensorPtrOp,
    LoadOp,
    StoreOp,
    IntToPtrOp,
    PtrToIntOp,
    BitcastOp,
    FpToFpOp,
    PreciseSqrtOp,
    PreciseDivFOp,
    MulhiUIOp,
    ClampFOp,
    DotOp,
    DotScaledOp,
    ReduceOp,
    ReduceReturnOp,
    ScanOp,
    ScanReturnOp,
    AtomicRMWOp,
    AtomicCASOp,
    JoinOp,
    SplitOp,
    CatOp,
    GatherOp,
    HistogramOp,
    ExternElementwiseOp,
    ElementwiseInlineAsmOp,
    PrintOp,
    AssertOp,
    DescriptorLoadOp,
    DescriptorStoreOp,
]

for _op in TT_OPS:
    _op.traits.add_trait(TensorSizeTrait())

TT = Dialect(
    "tt",
    TT_OPS,
    [PointerType, TensorDescType],
    [TTConstantMaterialization()],
)
