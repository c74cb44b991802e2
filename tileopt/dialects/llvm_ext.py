"""LLVM-dialect ops that xDSL 0.74's ``llvm`` dialect lacks, or cannot read as MLIR prints them.

Triton's lowering produces ``llvm.extractelement``, ``llvm.atomicrmw``, ``llvm.cmpxchg``,
``llvm.fence``, more casts, many ``llvm.intr.*`` intrinsics, and ``llvm.inline_asm`` with
``operand_attrs = [...]``/``llvm.load`` with ``volatile``/``syncscope``/``invariant``,
which xDSL's parsers reject. The syntax follows MLIR's LLVMOps.td / LLVMIntrinsicOps.td:
https://mlir.llvm.org/docs/Dialects/LLVM/

Two ways to use it (xDSL cannot load two dialects both named ``llvm``):

- ``LLVM_EXT``: the whole ``llvm`` dialect, xDSL's ops with the replacements below and the
  extra ops added. Load it *instead of* ``xdsl.dialects.llvm.LLVM``.
- ``extend_llvm_dialect(ctx)``: add the extra ops to a context that already loaded xDSL's
  ``LLVM`` (the replacements of existing ops cannot be loaded that way).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    BoolAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    VectorType,
    i1,
    i64,
)
from xdsl.dialects.llvm import ATOMIC_ORDERING_KEYWORDS, FastMathAttr, LLVMPointerType, LLVMStructType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Data, Dialect, Operation, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    opt_result_def,
    param_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tileopt.dialects.effects import INACCESSIBLE, WRITE, effects
from tileopt.dialects.assembly import (
    parse_attrs_and_types,
    parse_operands,
    print_attrs_and_types,
    print_types,
)

ORDERING_BY_KEYWORD: dict[str, int] = {"not_atomic": 0} | {
    k: v for v, k in ATOMIC_ORDERING_KEYWORDS.items()
}
KEYWORD_BY_ORDERING: dict[int, str] = {v: k for k, v in ORDERING_BY_KEYWORD.items()}


def _parse_ordering(parser: Parser) -> IntegerAttr:
    keyword = parser.parse_identifier()
    if keyword not in ORDERING_BY_KEYWORD:
        parser.raise_error(f"unknown atomic ordering '{keyword}'")
    return IntegerAttr(ORDERING_BY_KEYWORD[keyword], i64)


def _parse_optional_syncscope(parser: Parser) -> StringAttr | None:
    if parser.parse_optional_keyword("syncscope") is None:
        return None
    with parser.in_parens():
        return StringAttr(parser.parse_str_literal())


def _print_syncscope(printer: Printer, syncscope: StringAttr | None) -> None:
    if syncscope is not None:
        printer.print_string(" syncscope(")
        printer.print_string_literal(syncscope.data)
        printer.print_string(")")


def _parse_scoped_ordering(parser: Parser, props: dict[str, Attribute]) -> None:
    """``(syncscope("s"))? ordering`` into ``props["syncscope"]`` and ``props["ordering"]``."""
    if (scope := _parse_optional_syncscope(parser)) is not None:
        props["syncscope"] = scope
    props["ordering"] = _parse_ordering(parser)


def _print_scoped_ordering(printer: Printer, ordering: IntegerAttr,
                           syncscope: StringAttr | None) -> None:
    _print_syncscope(printer, syncscope)
    printer.print_string(f" {KEYWORD_BY_ORDERING[ordering.value.data]}")


def _parse_attr_dict(parser: Parser, props: dict[str, Attribute],
                     inherent: Sequence[str]) -> dict[str, Attribute]:
    """The attr-dict; the ``inherent`` entries (properties MLIR prints there, such as
    ``alignment``) go to ``props``, the others are returned."""
    attrs = dict(parser.parse_optional_attr_dict())
    for name in inherent:
        if name in attrs:
            props[name] = attrs.pop(name)
    return attrs


def _print_attr_dict(printer: Printer, op: Operation, inherent: Sequence[str]) -> None:
    """The op's attributes, then the ``inherent`` properties that are set, as one dict."""
    attrs = dict(op.attributes)
    for name in inherent:
        if (value := op.properties.get(name)) is not None:
            attrs[name] = value
    printer.print_op_attributes(attrs)


# --------------------------------------------------------------------------- memory


@irdl_op_definition
class LoadOp(IRDLOperation):
    """``llvm.load (volatile)? %p (atomic (syncscope("s"))? ordering)? (invariant)? : T -> R``."""

    name = "llvm.load"
    ptr = operand_def(LLVMPointerType)
    dereferenced_value = result_def()
    alignment = opt_prop_def(IntegerAttr[IntegerType])
    ordering = prop_def(IntegerAttr[IntegerType], default_value=IntegerAttr(0, i64))
    syncscope = opt_prop_def(StringAttr)
    volatile_ = opt_prop_def(UnitAttr)
    nontemporal = opt_prop_def(UnitAttr)
    invariant = opt_prop_def(UnitAttr)
    invariantGroup = opt_prop_def(UnitAttr)

    def __init__(self, ptr: SSAValue | Operation, result_type: Attribute,
                 alignment: int | None = None, ordering: int = 0, volatile: bool = False,
                 syncscope: str | None = None, invariant: bool = False):
        props: dict[str, Attribute | None] = {
            "ordering": IntegerAttr(ordering, i64),
            "alignment": IntegerAttr(alignment, i64) if alignment is not None else None,
            "volatile_": UnitAttr() if volatile else None,
            "syncscope": StringAttr(syncscope) if syncscope is not None else None,
            "invariant": UnitAttr() if invariant else None,
        }
        super().__init__(operands=[ptr], result_types=[result_type], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("volatile") is not None:
            props["volatile_"] = UnitAttr()
        ptr = parser.parse_unresolved_operand()
        if parser.parse_optional_keyword("atomic") is not None:
            _parse_scoped_ordering(parser, props)
        if parser.parse_optional_keyword("invariant") is not None:
            props["invariant"] = UnitAttr()
        if parser.parse_optional_keyword("invariant_group") is not None:
            props["invariantGroup"] = UnitAttr()
        attrs = _parse_attr_dict(parser, props, ("alignment", "nontemporal"))
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls.create(operands=[parser.resolve_operand(ptr, ptr_type)],
                        result_types=[result_type], properties=props, attributes=attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" volatile " if self.volatile_ is not None else " ")
        printer.print_ssa_value(self.ptr)
        if self.ordering.value.data != 0:
            printer.print_string(" atomic")
            _print_scoped_ordering(printer, self.ordering, self.syncscope)
        if self.invariant is not None:
            printer.print_string(" invariant")
        if self.invariantGroup is not None:
            printer.print_string(" invariant_group")
        _print_attr_dict(printer, self, ("alignment", "nontemporal"))
        print_types(printer, [self.ptr.type, self.dereferenced_value.type], " -> ")


@irdl_op_definition
class StoreOp(IRDLOperation):
    """``llvm.store (volatile)? %v, %p (atomic (syncscope("s"))? ordering)? : T, !llvm.ptr``."""

    name = "llvm.store"
    value = operand_def()
    ptr = operand_def(LLVMPointerType)
    alignment = opt_prop_def(IntegerAttr[IntegerType])
    ordering = opt_prop_def(IntegerAttr[IntegerType])
    syncscope = opt_prop_def(StringAttr)
    volatile_ = opt_prop_def(UnitAttr)
    nontemporal = opt_prop_def(UnitAttr)
    invariantGroup = opt_prop_def(UnitAttr)

    def __init__(self, value: SSAValue | Operation, ptr: SSAValue | Operation,
                 alignment: int | None = None, ordering: int = 0, volatile: bool = False,
                 syncscope: str | None = None):
        props: dict[str, Attribute | None] = {
            "ordering": IntegerAttr(ordering, i64) if ordering else None,
            "alignment": IntegerAttr(alignment, i64) if alignment is not None else None,
            "volatile_": UnitAttr() if volatile else None,
            "syncscope": StringAttr(syncscope) if syncscope is not None else None,
        }
        super().__init__(operands=[value, ptr], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("volatile") is not None:
            props["volatile_"] = UnitAttr()
        value, ptr = parse_operands(parser, 2)
        if parser.parse_optional_keyword("atomic") is not None:
            _parse_scoped_ordering(parser, props)
        if parser.parse_optional_keyword("invariant_group") is not None:
            props["invariantGroup"] = UnitAttr()
        attrs = _parse_attr_dict(parser, props, ("alignment", "nontemporal"))
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        ptr_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(value, value_type),
                      parser.resolve_operand(ptr, ptr_type)],
            properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" volatile " if self.volatile_ is not None else " ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        printer.print_ssa_value(self.ptr)
        if self.ordering is not None and self.ordering.value.data != 0:
            printer.print_string(" atomic")
            _print_scoped_ordering(printer, self.ordering, self.syncscope)
        if self.invariantGroup is not None:
            printer.print_string(" invariant_group")
        _print_attr_dict(printer, self, ("alignment", "nontemporal"))
        print_types(printer, [self.value.type, self.ptr.type])


class AtomicBinOp(StrEnum):
    XCHG = "xchg"
    ADD = "add"
    SUB = "sub"
    AND = "_and"
    NAND = "nand"
    OR = "_or"
    XOR = "_xor"
    MAX = "max"
    MIN = "min"
    UMAX = "umax"
    UMIN = "umin"
    FADD = "fadd"
    FSUB = "fsub"
    FMAX = "fmax"
    FMIN = "fmin"
    FMAXIMUM = "fmaximum"
    FMINIMUM = "fminimum"
    UINC_WRAP = "uinc_wrap"
    UDEC_WRAP = "udec_wrap"
    USUB_COND = "usub_cond"
    USUB_SAT = "usub_sat"


@irdl_attr_definition
class AtomicBinOpAttr(EnumAttribute[AtomicBinOp]):
    """MLIR spells ``and``/``or``/``xor`` as ``_and``/``_or``/``_xor`` (C++ keywords)."""

    name = "llvm.atomic_bin_op"

    @property
    def llvm_name(self) -> str:
        return self.data.value.lstrip("_")


def _parse_atomic_tail(
    parser: Parser, props: dict[str, Attribute]
) -> tuple[dict[str, Attribute], Attribute, Attribute]:
    """``{attrs} : !llvm.ptr, T``, the end of ``llvm.atomicrmw`` and ``llvm.cmpxchg``:
    the discardable attributes (``alignment`` goes to ``props``), the two types."""
    attrs = _parse_attr_dict(parser, props, ("alignment",))
    parser.parse_punctuation(":")
    ptr_type = parser.parse_type()
    parser.parse_punctuation(",")
    return attrs, ptr_type, parser.parse_type()


def _print_atomic_tail(printer: Printer, op: Operation) -> None:
    _print_attr_dict(printer, op, ("alignment",))
    print_types(printer, [op.ptr.type, op.val.type])


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """``llvm.atomicrmw (volatile)? add %p, %v (syncscope("agent"))? monotonic : !llvm.ptr<1>, i32``."""

    name = "llvm.atomicrmw"
    ptr = operand_def(LLVMPointerType)
    val = operand_def()
    res = result_def()
    bin_op = prop_def(AtomicBinOpAttr)
    ordering = prop_def(IntegerAttr[IntegerType])
    syncscope = opt_prop_def(StringAttr)
    alignment = opt_prop_def(IntegerAttr[IntegerType])
    volatile_ = opt_prop_def(UnitAttr)

    def __init__(self, bin_op: AtomicBinOp, ptr: SSAValue, val: SSAValue, ordering: str,
                 syncscope: str | None = None, alignment: int | None = None):
        super().__init__(
            operands=[ptr, val],
            result_types=[SSAValue.get(val).type],
            properties={
                "bin_op": AtomicBinOpAttr(bin_op),
                "ordering": IntegerAttr(ORDERING_BY_KEYWORD[ordering], i64),
                "syncscope": StringAttr(syncscope) if syncscope is not None else None,
                "alignment": IntegerAttr(alignment, i64) if alignment is not None else None,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("volatile") is not None:
            props["volatile_"] = UnitAttr()
        props["bin_op"] = AtomicBinOpAttr(parser.parse_str_enum(AtomicBinOp))
        ptr, val = parse_operands(parser, 2)
        _parse_scoped_ordering(parser, props)
        attrs, ptr_type, val_type = _parse_atomic_tail(parser, props)
        return cls.create(
            operands=[parser.resolve_operand(ptr, ptr_type), parser.resolve_operand(val, val_type)],
            result_types=[val_type], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" volatile " if self.volatile_ is not None else " ")
        printer.print_string(self.bin_op.data.value + " ")
        printer.print_ssa_value(self.ptr)
        printer.print_string(", ")
        printer.print_ssa_value(self.val)
        _print_scoped_ordering(printer, self.ordering, self.syncscope)
        _print_atomic_tail(printer, self)


@irdl_op_definition
class AtomicCmpXchgOp(IRDLOperation):
    """``llvm.cmpxchg %p, %cmp, %new (syncscope("s"))? acq_rel monotonic : !llvm.ptr, i32``.

    The result is ``!llvm.struct<(T, i1)>``: the old value and whether the swap happened.
    """

    name = "llvm.cmpxchg"
    ptr = operand_def(LLVMPointerType)
    val = operand_def()
    new_val = operand_def()
    res = result_def(LLVMStructType)
    success_ordering = prop_def(IntegerAttr[IntegerType])
    failure_ordering = prop_def(IntegerAttr[IntegerType])
    syncscope = opt_prop_def(StringAttr)
    alignment = opt_prop_def(IntegerAttr[IntegerType])
    weak = opt_prop_def(UnitAttr)
    volatile_ = opt_prop_def(UnitAttr)

    @classmethod
    def parse(cls, parser: Parser) -> AtomicCmpXchgOp:
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("weak") is not None:
            props["weak"] = UnitAttr()
        if parser.parse_optional_keyword("volatile") is not None:
            props["volatile_"] = UnitAttr()
        ptr, cmp, new = parse_operands(parser, 3)
        if (scope := _parse_optional_syncscope(parser)) is not None:
            props["syncscope"] = scope
        props["success_ordering"] = _parse_ordering(parser)
        props["failure_ordering"] = _parse_ordering(parser)
        attrs, ptr_type, val_type = _parse_atomic_tail(parser, props)
        return cls.create(
            operands=[parser.resolve_operand(ptr, ptr_type), parser.resolve_operand(cmp, val_type),
                      parser.resolve_operand(new, val_type)],
            result_types=[LLVMStructType.from_type_list([val_type, i1])],
            properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.weak is not None:
            printer.print_string("weak ")
        if self.volatile_ is not None:
            printer.print_string("volatile ")
        printer.print_list([self.ptr, self.val, self.new_val], printer.print_ssa_value)
        _print_syncscope(printer, self.syncscope)
        printer.print_string(f" {KEYWORD_BY_ORDERING[self.success_ordering.value.data]}"
                             f" {KEYWORD_BY_ORDERING[self.failure_ordering.value.data]}")
        _print_atomic_tail(printer, self)


@irdl_op_definition
class FenceOp(IRDLOperation):
    """``llvm.fence (syncscope("workgroup"))? acquire``."""

    name = "llvm.fence"
    ordering = prop_def(IntegerAttr[IntegerType])
    syncscope = opt_prop_def(StringAttr)

    def __init__(self, ordering: str, syncscope: str | None = None):
        super().__init__(properties={
            "ordering": IntegerAttr(ORDERING_BY_KEYWORD[ordering], i64),
            "syncscope": StringAttr(syncscope) if syncscope is not None else None,
        })

    @classmethod
    def parse(cls, parser: Parser) -> FenceOp:
        props: dict[str, Attribute] = {}
        _parse_scoped_ordering(parser, props)
        attrs = parser.parse_optional_attr_dict()
        return cls.create(properties=props, attributes=dict(attrs))

    def print(self, printer: Printer) -> None:
        _print_scoped_ordering(printer, self.ordering, self.syncscope)
        printer.print_op_attributes(self.attributes)


# --------------------------------------------------------------------------- values and casts


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """``llvm.extractelement %v[%i : i32] : vector<4xf32>``."""

    name = "llvm.extractelement"
    vector = operand_def(VectorType)
    position = operand_def(IntegerType)
    res = result_def()

    def __init__(self, vector: SSAValue | Operation, position: SSAValue | Operation):
        vector_type = SSAValue.get(vector).type
        assert isinstance(vector_type, VectorType)
        super().__init__(operands=[vector, position], result_types=[vector_type.element_type])

    @classmethod
    def parse(cls, parser: Parser) -> ExtractElementOp:
        vector = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        position = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        position_type = parser.parse_type()
        parser.parse_punctuation("]")
        attrs, vector_type = parse_attrs_and_types(parser)
        if not isinstance(vector_type, VectorType):
            parser.raise_error("llvm.extractelement expects a vector type")
        return cls.create(
            operands=[parser.resolve_operand(vector, vector_type),
                      parser.resolve_operand(position, position_type)],
            result_types=[vector_type.element_type], attributes=dict(attrs))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.vector)
        printer.print_string("[")
        printer.print_ssa_value(self.position)
        print_types(printer, [self.position.type])
        printer.print_string("]")
        print_attrs_and_types(printer, self, [self.vector.type])


def _cast_op(op_name: str, doc: str) -> type[IRDLOperation]:
    """A cast ``%r = llvm.<op> %a : T to R``; the conversion reads ``arg`` and ``res``."""
    fields = {
        "__doc__": doc,
        "name": op_name,
        "arg": operand_def(AnyAttr()),
        "res": result_def(AnyAttr()),
        "assembly_format": "$arg attr-dict `:` type($arg) `to` type($res)",
    }
    class_name = "".join(p.capitalize() for p in op_name.removeprefix("llvm.").split("_")) + "Op"
    return irdl_op_definition(type(class_name, (IRDLOperation,), fields))


FPToSIOp = _cast_op("llvm.fptosi", "Float to signed integer (``fptosi``).")
FPToUIOp = _cast_op("llvm.fptoui", "Float to unsigned integer (``fptoui``).")
UIToFPOp = _cast_op("llvm.uitofp", "Unsigned integer to float (``uitofp``).")
AddrSpaceCastOp = _cast_op("llvm.addrspacecast", "Pointer to another address space.")


@irdl_op_definition
class FreezeOp(IRDLOperation):
    name = "llvm.freeze"
    val = operand_def()
    res = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> FreezeOp:
        val = parser.parse_unresolved_operand()
        attrs, val_type = parse_attrs_and_types(parser)
        return cls.create(operands=[parser.resolve_operand(val, val_type)],
                          result_types=[val_type], attributes=dict(attrs))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.val)
        print_attrs_and_types(printer, self, [self.val.type])


@irdl_op_definition
class AssumeOp(IRDLOperation):
    """``llvm.intr.assume %cond : i1``: later code may take ``%cond`` as true (``tl.assume``;
    Inductor's GEMM templates put it on strides). Like MLIR's, it writes memory no other op
    reads (LLVM's ``inaccessiblemem``), so nothing deletes or hoists it."""

    name = "llvm.intr.assume"
    cond = operand_def(i1)

    traits = traits_def(effects((WRITE, INACCESSIBLE))())
    assembly_format = "$cond attr-dict `:` type($cond)"

    def __init__(self, cond: SSAValue):
        super().__init__(operands=[cond])


@irdl_op_definition
class PoisonOp(IRDLOperation):
    name = "llvm.mlir.poison"
    res = result_def()
    assembly_format = "attr-dict `:` type($res)"


@irdl_op_definition
class InlineAsmOp(IRDLOperation):
    """``llvm.inline_asm``, also reading ``operand_attrs = [...]`` as Triton prints it.

    A ``-> !llvm.void`` result (Triton's stores) is an op result of type void, as in MLIR.
    """

    name = "llvm.inline_asm"
    operands_ = var_operand_def()
    res = opt_result_def()
    asm_dialect = opt_prop_def(IntegerAttr[I64])
    asm_string = prop_def(StringAttr)
    constraints = prop_def(StringAttr)
    has_side_effects = opt_prop_def(UnitAttr)
    is_align_stack = opt_prop_def(UnitAttr)
    tail_call_kind = prop_def(xllvm.TailCallKindAttr,
                              default_value=xllvm.TailCallKindAttr(xllvm.TailCallKind.NONE))
    operand_attrs = opt_prop_def(ArrayAttr)

    @classmethod
    def parse(cls, parser: Parser) -> InlineAsmOp:
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("tail_call_kind") is not None:
            parser.parse_punctuation("=")
            parser.parse_punctuation("<")
            props["tail_call_kind"] = xllvm.TailCallKindAttr(parser.parse_str_enum(xllvm.TailCallKind))
            parser.parse_punctuation(">")
        if parser.parse_optional_keyword("has_side_effects") is not None:
            props["has_side_effects"] = UnitAttr()
        if parser.parse_optional_keyword("is_align_stack") is not None:
            props["is_align_stack"] = UnitAttr()
        if parser.parse_optional_keyword("asm_dialect") is not None:
            parser.parse_punctuation("=")
            dialect = parser.parse_identifier()
            if dialect not in xllvm.ASM_DIALECT_KEY_BY_NAME:
                parser.raise_error("expected one of 'att', 'intel' after 'asm_dialect ='")
            props["asm_dialect"] = IntegerAttr(xllvm.ASM_DIALECT_KEY_BY_NAME[dialect], i64)
        if parser.parse_optional_keyword("operand_attrs") is not None:
            parser.parse_punctuation("=")
            attrs_array = parser.parse_attribute()
            if not isinstance(attrs_array, ArrayAttr):
                parser.raise_error("expected an array after 'operand_attrs ='")
            props["operand_attrs"] = attrs_array  # MLIR prints it when present, even empty
        props["asm_string"] = StringAttr(parser.parse_str_literal())
        parser.parse_punctuation(",")
        props["constraints"] = StringAttr(parser.parse_str_literal())
        operands_pos = parser.pos
        operands = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand) or []
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        function_type = parser.parse_function_type()
        return cls.create(
            operands=parser.resolve_operands(operands, function_type.inputs.data, operands_pos),
            result_types=list(function_type.outputs.data),
            properties=props, attributes=dict(attrs))

    def print(self, printer: Printer) -> None:
        if (tck := self.tail_call_kind.data) != xllvm.TailCallKind.NONE:
            printer.print_string(f" tail_call_kind = <{tck.value}>")
        if self.has_side_effects is not None:
            printer.print_string(" has_side_effects")
        if self.is_align_stack is not None:
            printer.print_string(" is_align_stack")
        if self.asm_dialect is not None:
            printer.print_string(
                f" asm_dialect = {xllvm.ASM_DIALECT_NAME_BY_KEY[self.asm_dialect.value.data]}")
        if self.operand_attrs is not None:
            printer.print_string(" operand_attrs = ")
            printer.print_attribute(self.operand_attrs)
        printer.print_string(" ")
        printer.print_string_literal(self.asm_string.data)
        printer.print_string(", ")
        printer.print_string_literal(self.constraints.data)
        if self.operands_:
            printer.print_string(" ")
            printer.print_list(self.operands_, printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type([v.type for v in self.operands_],
                                    [self.res.type] if self.res is not None else [])


# --------------------------------------------------------------------------- nested LLVM types

def _print_llvm_type_inside(printer: Printer, ty: Attribute) -> None:
    """A type inside an LLVM type: MLIR's LLVM type printer writes the dialect's own types
    there without ``!llvm.`` (``!llvm.struct<(ptr<3>, i32)>``, ``!llvm.array<4 x ptr<1>>``)
    and every other type (``i32``, ``vector<4xf32>``) as usual; its parser reads both."""
    if isinstance(ty, ParametrizedAttribute) and ty.name.startswith("llvm."):
        printer.print_string(ty.name.removeprefix("llvm."))
        ty.print_parameters(printer)
    else:
        printer.print_attribute(ty)


def _print_struct_parameters(self: xllvm.LLVMStructType, printer: Printer) -> None:
    with printer.in_angle_brackets():
        if self.struct_name.data:
            printer.print_string_literal(self.struct_name.data)
            printer.print_string(", ")
        with printer.in_parens():
            printer.print_list(self.types.data, lambda t: _print_llvm_type_inside(printer, t))


def _print_array_parameters(self: xllvm.LLVMArrayType, printer: Printer) -> None:
    with printer.in_angle_brackets():
        printer.print_int(self.size.data)
        printer.print_string(" x ")
        _print_llvm_type_inside(printer, self.type)


def _print_function_parameters(self: xllvm.LLVMFunctionType, printer: Printer) -> None:
    with printer.in_angle_brackets():
        _print_llvm_type_inside(printer, self.output)
        printer.print_string(" ")
        with printer.in_parens():
            printer.print_list(self.inputs, lambda t: _print_llvm_type_inside(printer, t))
            if self.is_variadic:
                printer.print_string(", ..." if self.inputs else "...")


# A local override of xDSL 0.74, whose LLVM types print nested LLVM types with their
# ``!llvm.`` prefix (MLIR does not); to propose upstream.
xllvm.LLVMStructType.print_parameters = _print_struct_parameters
xllvm.LLVMArrayType.print_parameters = _print_array_parameters
xllvm.LLVMFunctionType.print_parameters = _print_function_parameters


# --------------------------------------------------------------------------- debug info attributes


@irdl_attr_definition
class DIRawValueAttr(Data[str]):
    """A bare value inside a debug-info attribute (``11``, ``true``, ``DW_LANG_C``,
    ``distinct[0]<>``); the enclosing attribute prints it verbatim."""

    name = "llvm.di_raw_value"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        with parser.in_angle_brackets():
            return parser.parse_str_literal()

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f'<"{self.data}">')


def _parse_di_value(parser: AttrParser) -> Attribute:
    if parser.parse_optional_keyword("distinct") is not None:
        with parser.in_square_brackets():
            number = parser.parse_integer()
        with parser.in_angle_brackets():
            inner = parser.parse_optional_attribute()
        return DIRawValueAttr(f"distinct[{number}]<{'' if inner is None else inner}>")
    if (text := parser.parse_optional_str_literal()) is not None:
        return StringAttr(text)
    if (number := parser.parse_optional_integer(allow_boolean=False)) is not None:
        return DIRawValueAttr(str(number))
    if (word := parser.parse_optional_identifier()) is not None:
        return DIRawValueAttr(word)
    return parser.parse_attribute()


def _print_di_value(printer: Printer, value: Attribute) -> None:
    if isinstance(value, DIRawValueAttr):
        printer.print_string(value.data)
    elif isinstance(value, StringAttr):
        printer.print_string_literal(value.data)
    else:
        printer.print_attribute(value)


class _DIAttr(ParametrizedAttribute):
    """``#llvm.di_<kind><key = value, ...>``: MLIR's debug-info attributes, kept as written.

    tileopt derives line tables from locations (``tileopt.target.debug_info``), so these
    only need to be read and printed back; the fields stay in their order, values as
    parsed (references to other ``#di_*`` aliases stay attributes).
    """

    keys: ArrayAttr[StringAttr] = param_def()
    values: ArrayAttr = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        keys: list[StringAttr] = []
        values: list[Attribute] = []

        def entry() -> None:
            keys.append(StringAttr(parser.parse_identifier()))
            parser.parse_punctuation("=")
            values.append(_parse_di_value(parser))

        with parser.in_angle_brackets():
            if parser.parse_optional_punctuation(">") is None:
                parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
        return (ArrayAttr(keys), ArrayAttr(values))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for index, (key, value) in enumerate(zip(self.keys.data, self.values.data)):
            if index:
                printer.print_string(", ")
            printer.print_string(f"{key.data} = ")
            _print_di_value(printer, value)
        printer.print_string(">")

    def get(self, key: str) -> Attribute | None:
        for name, value in zip(self.keys.data, self.values.data):
            if name.data == key:
                return value
        return None


def _di_attr(kind: str) -> type[ParametrizedAttribute]:
    class_name = "DI" + "".join(p.capitalize() for p in kind.split("_")) + "Attr"
    return irdl_attr_definition(type(class_name, (_DIAttr,), {"name": f"llvm.di_{kind}"}))


@irdl_attr_definition
class DIFileAttr(ParametrizedAttribute):
    """``#llvm.di_file<"kernels.py" in ".">``."""

    name = "llvm.di_file"
    file_name: StringAttr = param_def()
    directory: StringAttr = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            file_name = parser.parse_str_literal()
            parser.parse_keyword("in")
            directory = parser.parse_str_literal()
        return (StringAttr(file_name), StringAttr(directory))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.file_name.data)
        printer.print_string(" in ")
        printer.print_string_literal(self.directory.data)
        printer.print_string(">")


DI_ATTRS: tuple[type[Attribute], ...] = (
    DIRawValueAttr,
    DIFileAttr,
    *(_di_attr(kind) for kind in ("compile_unit", "subprogram", "subroutine_type",
                                  "lexical_block_file", "lexical_block", "basic_type",
                                  "local_variable", "derived_type", "composite_type")),
)


# --------------------------------------------------------------------------- intrinsics

# ``llvm.intr.<name>`` ops that xDSL lacks, as (name, number of operands, fast-math flags?,
# immediate flags). An immediate flag is a bool property that LLVM takes as a trailing
# ``i1 immarg`` operand (``llvm.abs(x, i1 is_int_min_poison)``).
INTRINSICS: tuple[tuple[str, int, bool, tuple[str, ...]], ...] = (
    *((name, 2, False, ()) for name in (
        "smin", "smax", "umin", "umax", "uadd.sat", "usub.sat", "sadd.sat", "ssub.sat")),
    *((name, 3, False, ()) for name in ("fshl", "fshr")),
    *((name, 1, False, ()) for name in ("ctpop", "bitreverse", "bswap")),
    ("abs", 1, False, ("is_int_min_poison",)),
    ("ctlz", 1, False, ("is_zero_poison",)),
    ("cttz", 1, False, ("is_zero_poison",)),
    *((name, 2, True, ()) for name in ("maximum", "minimum", "powi")),
    *((name, 1, True, ()) for name in (
        "round", "rint", "roundeven", "trunc", "nearbyint", "tan", "tanh", "exp10", "log10")),
    ("fmuladd", 3, True, ()),
    *((f"vector.reduce.{kind}", 1, False, ()) for kind in (
        "add", "mul", "and", "or", "xor", "smax", "smin", "umax", "umin")),
    *((f"vector.reduce.{kind}", 1, True, ()) for kind in (
        "fmax", "fmin", "fmaximum", "fminimum")),
)


def _intrinsic_op(name: str, arity: int, fastmath: bool, flags: tuple[str, ...]) -> type[IRDLOperation]:
    fields: dict[str, object] = {
        "__doc__": f"``llvm.{name}``: ``%r = llvm.intr.{name}(...) : (...) -> T``.",
        "name": f"llvm.intr.{name}",
        "args": var_operand_def(AnyAttr()),
        "res": result_def(AnyAttr()),
        "assembly_format": "`(` operands `)` attr-dict `:` functional-type(operands, results)",
        "irdl_options": (ParsePropInAttrDict(),),
    }
    if fastmath:
        fields["fastmathFlags"] = prop_def(FastMathAttr, default_value=FastMathAttr(None))
    for flag in flags:
        fields[flag] = prop_def(BoolAttr)

    def verify_(self: IRDLOperation) -> None:
        if len(self.operands) != arity:
            raise VerifyException(f"'{self.name}' takes {arity} operand(s), got {len(self.operands)}")

    fields["verify_"] = verify_
    class_name = "Intr" + "".join(p.capitalize() for p in name.replace("_", ".").split(".")) + "Op"
    return irdl_op_definition(type(class_name, (IRDLOperation,), fields))


INTRINSIC_OPS: dict[str, type[IRDLOperation]] = {
    name: _intrinsic_op(name, arity, fastmath, flags) for name, arity, fastmath, flags in INTRINSICS
}

EXTRA_OPS: tuple[type[Operation], ...] = (
    ExtractElementOp,
    AtomicRMWOp,
    AtomicCmpXchgOp,
    FenceOp,
    FPToSIOp,
    FPToUIOp,
    UIToFPOp,
    AddrSpaceCastOp,
    FreezeOp,
    PoisonOp,
    AssumeOp,
    *INTRINSIC_OPS.values(),
)
"""Ops xDSL's ``llvm`` dialect does not define."""

REPLACED_OPS: tuple[type[Operation], ...] = (LoadOp, StoreOp, InlineAsmOp)
"""Ops xDSL defines under the same name, replaced by versions that read MLIR's syntax."""

EXTRA_ATTRS: tuple[type[Attribute], ...] = (AtomicBinOpAttr, *DI_ATTRS)

_replaced_names = {op.name for op in REPLACED_OPS}

LLVM_EXT = Dialect(
    "llvm",
    [*(op for op in xllvm.LLVM.operations if op.name not in _replaced_names),
     *REPLACED_OPS, *EXTRA_OPS],
    [*xllvm.LLVM.attributes, *EXTRA_ATTRS],
)


def extend_llvm_dialect(ctx: Context) -> None:
    """Add the ops xDSL's ``llvm`` dialect lacks to ``ctx`` (which has loaded it already).

    Ops already known to ``ctx`` are left alone, so calling this twice is harmless. The
    replacements in ``REPLACED_OPS`` need ``LLVM_EXT`` instead.
    """
    known = {op.name for op in ctx.loaded_ops}
    for op in EXTRA_OPS:
        if op.name not in known:
            ctx.load_op(op)
    known_attrs = {attr.name for attr in ctx.loaded_attrs}
    for attr in EXTRA_ATTRS:
        if attr.name not in known_attrs:
            ctx.load_attr_or_type(attr)


__all__ = ["LLVM_EXT", "extend_llvm_dialect", "EXTRA_OPS", "REPLACED_OPS", "INTRINSIC_OPS"]
