"""The ``nvvm`` dialect: NVIDIA intrinsics as MLIR ops, spelled the way MLIR prints them.

Triton's NVIDIA lowering emits these ops into the LLVM dialect (thread and block ids,
barriers, warp shuffles, ``ldmatrix``/``stmatrix``, ``cp.async`` groups, wgmma fences);
``tileopt.target`` translates each one into a call of the matching ``llvm.nvvm.*``
intrinsic. Only the ops and attributes Triton 3.6 produces (plus their close relatives)
are declared; the syntax follows MLIR's NVVMOps.td:
https://mlir.llvm.org/docs/Dialects/NVVMDialect/
"""

from __future__ import annotations

from collections.abc import Sequence
from xdsl.dialects.builtin import I32, I64, IntegerAttr, IntegerType, UnitAttr, i32
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    param_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

# --------------------------------------------------------------------------- attributes


def _in_angle_brackets(cls):
    """Make an enum attribute read and print ``#nvvm.name<value>`` (the full attribute form).

    Enums used as ``$kind`` in an op's format stay bare (``nvvm.shfl.sync bfly ...``).
    """

    def parse_parameter(klass, parser: AttrParser):
        with parser.in_angle_brackets():
            return parser.parse_str_enum(klass.enum_type)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    cls.parse_parameter = classmethod(parse_parameter)
    cls.print_parameter = print_parameter
    return cls


class ShflKind(StrEnum):
    BFLY = "bfly"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShflKindAttr(EnumAttribute[ShflKind]):
    name = "nvvm.shfl_kind"


class VoteSyncKind(StrEnum):
    ANY = "any"
    ALL = "all"
    BALLOT = "ballot"
    UNI = "uni"


@irdl_attr_definition
class VoteSyncKindAttr(EnumAttribute[VoteSyncKind]):
    name = "nvvm.vote_sync_kind"


class ReduxKind(StrEnum):
    ADD = "add"
    AND = "and"
    MAX = "max"
    MIN = "min"
    OR = "or"
    UMAX = "umax"
    UMIN = "umin"
    XOR = "xor"


@irdl_attr_definition
class ReduxKindAttr(EnumAttribute[ReduxKind]):
    name = "nvvm.redux_kind"


class MMALayout(StrEnum):
    ROW = "row"
    COL = "col"


@irdl_attr_definition
@_in_angle_brackets
class MMALayoutAttr(EnumAttribute[MMALayout]):
    """``#nvvm.mma_layout<row|col>``: ``col`` selects the transposing ldmatrix/stmatrix."""

    name = "nvvm.mma_layout"


class LdStMatrixEltType(StrEnum):
    B16 = "b16"
    B8 = "b8"
    B8X16_B4X16_P64 = "b8x16.b4x16_p64"
    B8X16_B6X16_P32 = "b8x16.b6x16_p32"


@irdl_attr_definition
@_in_angle_brackets
class LdStMatrixEltTypeAttr(EnumAttribute[LdStMatrixEltType]):
    name = "nvvm.ld_st_matrix_elt_type"


@irdl_attr_definition
class LdStMatrixShapeAttr(ParametrizedAttribute):
    """``#nvvm.ld_st_matrix_shape<m = 8, n = 8>``."""

    name = "nvvm.ld_st_matrix_shape"

    m: IntegerAttr = param_def()
    n: IntegerAttr = param_def()

    def __init__(self, m: int, n: int):
        super().__init__(IntegerAttr(m, i32), IntegerAttr(n, i32))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            parser.parse_keyword("m")
            parser.parse_punctuation("=")
            m = parser.parse_integer()
            parser.parse_punctuation(",")
            parser.parse_keyword("n")
            parser.parse_punctuation("=")
            n = parser.parse_integer()
        return (IntegerAttr(m, i32), IntegerAttr(n, i32))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<m = {self.m.value.data}, n = {self.n.value.data}>")


class ProxyKind(StrEnum):
    ALIAS = "alias"
    ASYNC = "async"
    ASYNC_GLOBAL = "async.global"
    ASYNC_SHARED = "async.shared"
    GENERIC = "generic"


@irdl_attr_definition
@_in_angle_brackets
class ProxyKindAttr(EnumAttribute[ProxyKind]):
    name = "nvvm.proxy_kind"


class SharedSpace(StrEnum):
    CTA = "cta"
    CLUSTER = "cluster"


@irdl_attr_definition
@_in_angle_brackets
class SharedSpaceAttr(EnumAttribute[SharedSpace]):
    name = "nvvm.shared_space"


# --------------------------------------------------------------------------- special registers

# (op name suffix after ``nvvm.read.ptx.sreg.``, result width). Each becomes one op class
# named after it, e.g. ``nvvm.read.ptx.sreg.tid.x`` -> ``ReadPtxSregTidXOp``.
_XYZ = ("x", "y", "z")
SPECIAL_REGISTERS: tuple[tuple[str, int], ...] = (
    *((f"{base}.{axis}", 32) for base in ("tid", "ntid", "ctaid", "nctaid", "clusterid",
                                          "nclusterid", "cluster.ctaid", "cluster.nctaid")
      for axis in _XYZ),
    *((name, 32) for name in ("laneid", "warpid", "nwarpid", "warpsize", "smid", "nsmid",
                              "gridid", "cluster.ctarank", "cluster.nctarank", "clock",
                              "lanemask.eq", "lanemask.le", "lanemask.lt", "lanemask.ge",
                              "lanemask.gt")),
    ("clock64", 64),
    ("globaltimer", 64),
)


def _class_name(op_name: str) -> str:
    return "".join(part.capitalize() for part in op_name.replace("_", ".").split(".")[1:]) + "Op"


def _make_sreg_op(register: str, width: int) -> type[IRDLOperation]:
    result_type = IntegerType(width)
    attrs = {
        "__doc__": f"Read the PTX special register ``%{register.replace('.', '_')}``.",
        "name": f"nvvm.read.ptx.sreg.{register}",
        "res": result_def(result_type),
        "assembly_format": "attr-dict `:` type($res)",
        "__init__": lambda self: IRDLOperation.__init__(self, result_types=[result_type]),
    }
    name = f"nvvm.read.ptx.sreg.{register}"
    return irdl_op_definition(type(_class_name(name), (IRDLOperation,), attrs))


SREG_OPS: dict[str, type[IRDLOperation]] = {
    register: _make_sreg_op(register, width) for register, width in SPECIAL_REGISTERS
}
ReadPtxSregTidXOp = SREG_OPS["tid.x"]
ReadPtxSregCtaidXOp = SREG_OPS["ctaid.x"]

# --------------------------------------------------------------------------- synchronisation


@irdl_op_definition
class Barrier0Op(IRDLOperation):
    """``bar.sync 0``: every thread of the CTA waits here."""

    name = "nvvm.barrier0"
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """``bar.sync id[, count]``; no operands means barrier 0 over the whole CTA."""

    name = "nvvm.barrier"
    barrierId = opt_operand_def(I32)
    numberOfThreads = opt_operand_def(I32)
    assembly_format = (
        "(`id` `=` $barrierId^)? (`number_of_threads` `=` $numberOfThreads^)? attr-dict"
    )
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, barrier_id: SSAValue | None = None,
                 number_of_threads: SSAValue | None = None):
        super().__init__(operands=[barrier_id, number_of_threads])


@irdl_op_definition
class BarWarpSyncOp(IRDLOperation):
    name = "nvvm.bar.warp.sync"
    mask = operand_def(I32)
    assembly_format = "$mask attr-dict `:` type($mask)"


@irdl_op_definition
class ShflSyncOp(IRDLOperation):
    """``shfl.sync.{bfly,up,down,idx}``: exchange a register between lanes of a warp."""

    name = "nvvm.shfl.sync"
    thread_mask = operand_def(I32)
    val = operand_def(AnyAttr())
    offset = operand_def(I32)
    mask_and_clamp = operand_def(I32)
    res = result_def(AnyAttr())
    kind = prop_def(ShflKindAttr)
    return_value_and_is_valid = opt_prop_def(UnitAttr)
    assembly_format = (
        "$kind $thread_mask `,` $val `,` $offset `,` $mask_and_clamp attr-dict "
        "`:` type($val) `->` type($res)"
    )
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, kind: ShflKind, thread_mask: SSAValue, val: SSAValue,
                 offset: SSAValue, mask_and_clamp: SSAValue, result_type: Attribute | None = None):
        super().__init__(
            operands=[thread_mask, val, offset, mask_and_clamp],
            result_types=[result_type or SSAValue.get(val).type],
            properties={"kind": ShflKindAttr(kind)},
        )


@irdl_op_definition
class VoteSyncOp(IRDLOperation):
    """``vote.sync.{any,all,uni,ballot}``: ballot gives an i32 lane mask, the others an i1."""

    name = "nvvm.vote.sync"
    mask = operand_def(I32)
    pred = operand_def(IntegerType(1))
    res = result_def(AnyAttr())
    kind = prop_def(VoteSyncKindAttr)
    assembly_format = "$kind $mask `,` $pred attr-dict `->` type($res)"


@irdl_op_definition
class ReduxSyncOp(IRDLOperation):
    """``redux.sync``: an integer reduction across the lanes named by ``mask_and_clamp``."""

    name = "nvvm.redux.sync"
    val = operand_def(I32)
    mask_and_clamp = operand_def(I32)
    res = result_def(I32)
    kind = prop_def(ReduxKindAttr)
    assembly_format = "$kind $val `,` $mask_and_clamp attr-dict `:` type($val) `->` type($res)"


@irdl_op_definition
class FenceProxyOp(IRDLOperation):
    """``fence.proxy.*``: order generic-proxy accesses against the async proxy (TMA, wgmma)."""

    name = "nvvm.fence.proxy"
    kind = prop_def(ProxyKindAttr)
    space = opt_prop_def(SharedSpaceAttr)
    assembly_format = "attr-dict"
    irdl_options = (ParsePropInAttrDict(),)


# --------------------------------------------------------------------------- matrix and async copies


@irdl_op_definition
class LdMatrixOp(IRDLOperation):
    """``ldmatrix.sync.aligned``: load 1, 2 or 4 8x8 tiles from shared memory."""

    name = "nvvm.ldmatrix"
    ptr = operand_def(LLVMPointerType)
    res = result_def(AnyAttr())
    num = prop_def(IntegerAttr[I32])
    layout = prop_def(MMALayoutAttr)
    shape = opt_prop_def(LdStMatrixShapeAttr)
    eltType = opt_prop_def(LdStMatrixEltTypeAttr)
    assembly_format = "$ptr attr-dict `:` functional-type(operands, results)"
    irdl_options = (ParsePropInAttrDict(),)


@irdl_op_definition
class StMatrixOp(IRDLOperation):
    """``stmatrix.sync.aligned``: store 1, 2 or 4 8x8 tiles to shared memory."""

    name = "nvvm.stmatrix"
    ptr = operand_def(LLVMPointerType)
    sources = var_operand_def(I32)
    layout = prop_def(MMALayoutAttr)
    shape = opt_prop_def(LdStMatrixShapeAttr)
    eltType = opt_prop_def(LdStMatrixEltTypeAttr)
    assembly_format = "$ptr `,` $sources attr-dict `:` type(operands)"
    irdl_options = (ParsePropInAttrDict(),)


@irdl_op_definition
class CpAsyncCommitGroupOp(IRDLOperation):
    name = "nvvm.cp.async.commit.group"
    assembly_format = "attr-dict"


@irdl_op_definition
class CpAsyncWaitGroupOp(IRDLOperation):
    name = "nvvm.cp.async.wait.group"
    n = prop_def(IntegerAttr[I32])
    assembly_format = "$n attr-dict"


@irdl_op_definition
class WgmmaFenceAlignedOp(IRDLOperation):
    name = "nvvm.wgmma.fence.aligned"
    assembly_format = "attr-dict"


@irdl_op_definition
class WgmmaGroupSyncAlignedOp(IRDLOperation):
    name = "nvvm.wgmma.commit.group.sync.aligned"
    assembly_format = "attr-dict"


@irdl_op_definition
class WgmmaWaitGroupSyncOp(IRDLOperation):
    name = "nvvm.wgmma.wait.group.sync.aligned"
    group = prop_def(IntegerAttr[I64])
    assembly_format = "attr-dict $group"


NVVM = Dialect(
    "nvvm",
    [
        *SREG_OPS.values(),
        Barrier0Op,
        BarrierOp,
        BarWarpSyncOp,
        ShflSyncOp,
        VoteSyncOp,
        ReduxSyncOp,
        FenceProxyOp,
        LdMatrixOp,
        StMatrixOp,
        CpAsyncCommitGroupOp,
        CpAsyncWaitGroupOp,
        WgmmaFenceAlignedOp,
        WgmmaGroupSyncAlignedOp,
        WgmmaWaitGroupSyncOp,
    ],
    [
        ShflKindAttr,
        VoteSyncKindAttr,
        ReduxKindAttr,
        MMALayoutAttr,
        LdStMatrixEltTypeAttr,
        LdStMatrixShapeAttr,
        ProxyKindAttr,
        SharedSpaceAttr,
    ],
)
