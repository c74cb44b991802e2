"""The LLVM-level ``rocdl`` ops in Triton's AMD output (part of the ``ROCDL`` dialect).

``tileopt/dialects/rocdl.py`` declares the ``rocdl`` ops that appear at TritonGPU level
(``s.setprio``, ``sched.barrier``) and invites the LLVM-level ones beside them. Until they
are there, these declarations let ``tileopt-translate`` read what Triton's
``convert-triton-amdgpu-to-llvm`` prints: thread/block ids, barriers, cross-lane moves
(``ds_bpermute``, ``update.dpp``, ``permlanex16``, ``readlane``, ``ballot``, ``mbcnt``),
buffer resources and loads/stores, and the matrix-core ops. Syntax and property names are
MLIR's ROCDLOps.td; ``translation_context`` adds each op whose name the context lacks
(so declarations that land in ``tileopt/dialects/rocdl.py`` take precedence).
"""

from __future__ import annotations

from xdsl.dialects.builtin import I32, BoolAttr, IntAttr, IntegerAttr, IntegerType, i1, i16, i32, i64
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from tileopt.dialects.assembly import (
    parse_attrs_and_types,
    parse_operands,
    print_attrs_and_types,
)

_SAME = VarConstraint("T", AnyAttr())


def _op(name: str, fields: dict[str, object]) -> type[IRDLOperation]:
    class_name = "".join(p.capitalize() for p in name.removeprefix("rocdl.")
                         .replace("_", ".").replace("x", "X").split(".")) + "Op"
    return irdl_op_definition(type(class_name, (IRDLOperation,), {"name": name, **fields}))


def _id_op(name: str) -> type[IRDLOperation]:
    return _op(name, {"__doc__": f"``{name} : i32``", "res": result_def(I32),
                      "assembly_format": "attr-dict `:` type($res)"})


def _no_operand_op(name: str) -> type[IRDLOperation]:
    return _op(name, {"__doc__": f"``{name}``", "assembly_format": "attr-dict"})


def _functional_op(name: str, doc: str) -> type[IRDLOperation]:
    """``%r = <name> %a, %b : (A, B) -> R``."""
    return _op(name, {"__doc__": doc, "args": var_operand_def(AnyAttr()), "res": result_def(AnyAttr()),
                      "assembly_format": "$args attr-dict `:` functional-type($args, $res)"})


ID_OPS = [_id_op(f"rocdl.{kind}.id.{axis}") for kind in ("workitem", "workgroup") for axis in "xyz"]
BARRIER_OPS = [_no_operand_op(name) for name in ("rocdl.barrier", "rocdl.s.barrier",
                                                 "rocdl.wave_barrier")]

WaitcntOp = _op("rocdl.s.waitcnt", {
    "__doc__": "``rocdl.s.waitcnt N``: wait until the counters encoded in N drain.",
    "bitfield": prop_def(IntegerAttr[I32]),
    "assembly_format": "attr-dict $bitfield",
})

BallotOp = _op("rocdl.ballot", {
    "__doc__": "``%m = rocdl.ballot %pred : i64``: the lanes whose predicate is true.",
    "pred": operand_def(IntegerType(1)), "res": result_def(IntegerType),
    "assembly_format": "$pred attr-dict `:` type($res)",
})

ReadfirstlaneOp = _op("rocdl.readfirstlane", {
    "__doc__": "``%r = rocdl.readfirstlane %v : T``.",
    "src": operand_def(_SAME), "res": result_def(_SAME),
    "assembly_format": "$src attr-dict `:` type($res)",
})

FUNCTIONAL_OPS = [
    _functional_op("rocdl.readlane", "``%r = rocdl.readlane %v, %lane : (T, i32) -> T``."),
    _functional_op("rocdl.ds_bpermute", "``%r = rocdl.ds_bpermute %addr, %v : (i32, i32) -> i32``."),
    _functional_op("rocdl.ds_swizzle", "``%r = rocdl.ds_swizzle %v, %pattern : (i32, i32) -> i32``."),
    _functional_op("rocdl.mbcnt.lo", "``%r = rocdl.mbcnt.lo %mask, %base : (i32, i32) -> i32``."),
    _functional_op("rocdl.mbcnt.hi", "``%r = rocdl.mbcnt.hi %mask, %base : (i32, i32) -> i32``."),
]


@irdl_op_definition
class UpdateDppOp(IRDLOperation):
    """``%r = rocdl.update.dpp %old, %src with ctrl, row_mask, bank_mask, bound_ctrl : T``."""

    name = "rocdl.update.dpp"
    old = operand_def(AnyAttr())
    src = operand_def(AnyAttr())
    res = result_def(AnyAttr())
    dpp_ctrl = prop_def(IntegerAttr[I32])
    row_mask = prop_def(IntegerAttr[I32])
    bank_mask = prop_def(IntegerAttr[I32])
    bound_ctrl = prop_def(BoolAttr)

    @classmethod
    def parse(cls, parser: Parser) -> UpdateDppOp:
        old, src = parse_operands(parser, 2)
        parser.parse_keyword("with")
        props: dict[str, Attribute] = {}
        for name in ("dpp_ctrl", "row_mask", "bank_mask"):
            props[name] = IntegerAttr(parser.parse_integer(allow_boolean=False), i32)
            parser.parse_punctuation(",")
        props["bound_ctrl"] = IntegerAttr(int(parser.parse_boolean()), i1)
        attrs, typ = parse_attrs_and_types(parser)
        return cls.create(operands=[parser.resolve_operand(old, typ), parser.resolve_operand(src, typ)],
                          result_types=[typ], properties=props, attributes=dict(attrs))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.old, self.src], printer.print_ssa_value)
        values = [str(getattr(self, n).value.data) for n in ("dpp_ctrl", "row_mask", "bank_mask")]
        bound = "true" if self.bound_ctrl.value.data else "false"
        printer.print_string(f" with {', '.join(values)}, {bound}")
        print_attrs_and_types(printer, self, [self.res.type])


@irdl_op_definition
class PermlaneX16Op(IRDLOperation):
    """``%r = rocdl.permlanex16 %old, %src0, %src1, %src2, fi, bound_control : T, i32``."""

    name = "rocdl.permlanex16"
    old = operand_def(AnyAttr())
    src0 = operand_def(AnyAttr())
    src1 = operand_def(AnyAttr())
    src2 = operand_def(AnyAttr())
    res = result_def(AnyAttr())
    fi = prop_def(BoolAttr)
    boundControl = prop_def(BoolAttr)

    @classmethod
    def parse(cls, parser: Parser) -> PermlaneX16Op:
        operands = parse_operands(parser, 4)
        parser.parse_punctuation(",")
        fi = parser.parse_boolean()
        parser.parse_punctuation(",")
        bound = parser.parse_boolean()
        attrs, value_type, select_type = parse_attrs_and_types(parser, 2)
        types = [value_type, value_type, select_type, select_type]
        return cls.create(
            operands=[parser.resolve_operand(o, t) for o, t in zip(operands, types)],
            result_types=[value_type],
            properties={"fi": IntegerAttr(int(fi), i1), "boundControl": IntegerAttr(int(bound), i1)},
            attributes=dict(attrs))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.old, self.src0, self.src1, self.src2], printer.print_ssa_value)
        printer.print_string(f", {'true' if self.fi.value.data else 'false'}, "
                             f"{'true' if self.boundControl.value.data else 'false'}")
        print_attrs_and_types(printer, self, [self.old.type, self.src1.type])


def _parse_short_pointer(parser: Parser) -> LLVMPointerType:
    """MLIR prints the pointer types of rocdl ops stripped: ``<8>`` for ``!llvm.ptr<8>``."""
    if parser.parse_optional_punctuation("<") is not None:
        space = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation(">")
        return LLVMPointerType(IntAttr(space))
    typ = parser.parse_type()
    if not isinstance(typ, LLVMPointerType):
        parser.raise_error("expected a pointer type")
    return typ


def _print_short_pointer(printer: Printer, typ: LLVMPointerType) -> None:
    space = typ.addr_space.data if hasattr(typ.addr_space, "data") else 0
    printer.print_string(f"<{space}>")


@irdl_op_definition
class MakeBufferRsrcOp(IRDLOperation):
    """``%r = rocdl.make.buffer.rsrc %base, %stride, %num_records, %flags : <1> to <8>``."""

    name = "rocdl.make.buffer.rsrc"
    base = operand_def(LLVMPointerType)
    stride = operand_def(IntegerType(16))
    numRecords = operand_def(IntegerType)
    flags = operand_def(I32)
    res = result_def(LLVMPointerType)

    @classmethod
    def parse(cls, parser: Parser) -> MakeBufferRsrcOp:
        names = parse_operands(parser, 4)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        base_type = _parse_short_pointer(parser)
        parser.parse_keyword("to")
        result_type = _parse_short_pointer(parser)
        types = [base_type, i16, i64, i32]
        return cls.create(operands=[parser.resolve_operand(n, t) for n, t in zip(names, types)],
                          result_types=[result_type], attributes=dict(attrs))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        _print_short_pointer(printer, self.base.type)
        printer.print_string(" to ")
        _print_short_pointer(printer, self.res.type)


def _print_buffer(self, printer: Printer, typ: Attribute) -> None:
    printer.print_string(" ")
    printer.print_list(self.operands, printer.print_ssa_value)
    print_attrs_and_types(printer, self, [typ])


def _parse_buffer_operands(parser: Parser):
    names = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    return names, dict(attrs), parser.parse_type()


_RSRC = LLVMPointerType(IntAttr(8))


@irdl_op_definition
class RawPtrBufferLoadOp(IRDLOperation):
    """``%v = rocdl.raw.ptr.buffer.load %rsrc, %offset, %soffset, %aux : T``."""

    name = "rocdl.raw.ptr.buffer.load"
    rsrc = operand_def(LLVMPointerType)
    offset = operand_def(I32)
    soffset = operand_def(I32)
    aux = operand_def(I32)
    res = result_def(AnyAttr())

    @classmethod
    def parse(cls, parser: Parser) -> RawPtrBufferLoadOp:
        pos = parser.pos
        names, attrs, typ = _parse_buffer_operands(parser)
        if len(names) != 4:
            parser.raise_error("rocdl.raw.ptr.buffer.load takes 4 operands", pos, parser.pos)
        operands = [parser.resolve_operand(n, t) for n, t in zip(names, [_RSRC, i32, i32, i32])]
        return cls.create(operands=operands, result_types=[typ], attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_buffer(self, printer, self.res.type)


@irdl_op_definition
class RawPtrBufferStoreOp(IRDLOperation):
    """``rocdl.raw.ptr.buffer.store %v, %rsrc, %offset, %soffset, %aux : T``."""

    name = "rocdl.raw.ptr.buffer.store"
    vdata = operand_def(AnyAttr())
    rsrc = operand_def(LLVMPointerType)
    offset = operand_def(I32)
    soffset = operand_def(I32)
    aux = operand_def(I32)

    @classmethod
    def parse(cls, parser: Parser) -> RawPtrBufferStoreOp:
        pos = parser.pos
        names, attrs, typ = _parse_buffer_operands(parser)
        if len(names) != 5:
            parser.raise_error("rocdl.raw.ptr.buffer.store takes 5 operands", pos, parser.pos)
        types = [typ, _RSRC, i32, i32, i32]
        return cls.create(operands=[parser.resolve_operand(n, t) for n, t in zip(names, types)],
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_buffer(self, printer, self.vdata.type)


# Matrix-core ops ``%d = rocdl.mfma.<shape> %a, %b, %c, %cbsz, %abid, %blgp : (...) -> T``
# (and ``rocdl.wmma.*``) of CDNA2/3/4 and RDNA3/4, named as the LLVM intrinsics are.
MFMA_SHAPES = (
    "f32.32x32x1f32", "f32.16x16x1f32", "f32.4x4x1f32", "f32.32x32x2f32", "f32.16x16x4f32",
    "f32.32x32x4f16", "f32.16x16x4f16", "f32.4x4x4f16", "f32.32x32x8f16", "f32.16x16x16f16",
    "i32.32x32x4i8", "i32.16x16x4i8", "i32.4x4x4i8", "i32.32x32x8i8", "i32.16x16x16i8",
    "f32.32x32x2bf16", "f32.16x16x2bf16", "f32.4x4x2bf16", "f32.32x32x4bf16", "f32.16x16x8bf16",
    "f32.32x32x4bf16.1k", "f32.16x16x4bf16.1k", "f32.4x4x4bf16.1k", "f32.32x32x8bf16.1k",
    "f32.16x16x16bf16.1k", "f64.16x16x4f64", "f64.4x4x4f64", "i32.16x16x32.i8",
    "i32.32x32x16.i8", "f32.16x16x8.xf32", "f32.32x32x4.xf32",
    *(f"f32.{shape}.{a}.{b}" for shape in ("16x16x32", "32x32x16")
      for a in ("bf8", "fp8") for b in ("bf8", "fp8")),
    "f32.16x16x32.f16", "f32.32x32x16.f16", "f32.16x16x32.bf16", "f32.32x32x16.bf16",
)
WMMA_SHAPES = ("f32.16x16x16.f16", "f32.16x16x16.bf16", "f16.16x16x16.f16",
               "bf16.16x16x16.bf16", "i32.16x16x16.iu8", "i32.16x16x16.iu4")
MATRIX_OPS = [
    *(_functional_op(f"rocdl.mfma.{shape}", "A matrix fused multiply-add (MFMA).")
      for shape in MFMA_SHAPES),
    *(_functional_op(f"rocdl.wmma.{shape}", "A wave matrix multiply-accumulate (WMMA).")
      for shape in WMMA_SHAPES),
]

ROCDL_LLVM_OPS: list[type[IRDLOperation]] = [
    *ID_OPS, *BARRIER_OPS, WaitcntOp, BallotOp, ReadfirstlaneOp, *FUNCTIONAL_OPS, UpdateDppOp,
    PermlaneX16Op, MakeBufferRsrcOp, RawPtrBufferLoadOp, RawPtrBufferStoreOp, *MATRIX_OPS,
]
"""Every op declared here; ``tileopt/dialects/rocdl.py`` puts them in ``ROCDL``."""
