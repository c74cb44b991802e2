"""``tritonamdgpu-optimize-epilogue``: store a dot's result straight from its MFMA/WMMA
layout (Triton 3.6's ``OptimizeEpilogue.cpp``).

After accelerate-matmul and remove-layout-conversions the epilogue of a matmul still
converts the accumulator to a blocked layout for the ``tt.store``, a round trip through
LDS. On AMD storing from the accumulator layout is cheaper, so for a store whose value
comes from a ``ttg.convert_layout`` out of an ``#mma`` layout through a chain of
single-use one-operand elementwise ops (casts, unary math, pure single-operand extern
calls), the conversion is dropped: the chain is retyped to ``#mma``, and the store's
pointer and mask are converted to ``#mma`` instead. A 16-bit result of a transposed gfx950
MFMA is then stored through a ``#ttg.linear`` layout that gives each lane 8 consecutive
elements (``dword_store_layout``; pointer, value and mask converted to it). Run with
MLIR's greedy driver, so the dead conversion is erased and constants are moved and
de-duplicated.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from tileopt.analysis.axis_info import element_bit_width
from tileopt.dialects.layout_of import linear_layout_of
from tileopt.dialects.tt import StoreOp
from tileopt.dialects.ttg import ConvertLayoutOp
from tileopt.dialects.ttg_attrs import (
    AMDMfmaEncodingAttr,
    AMDWmmaEncodingAttr,
    BlockedEncodingAttr,
    LinearEncodingAttr,
    NvidiaMmaEncodingAttr,
)
from tileopt.ir.locations import value_location
from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.greedy_rewrite import apply_patterns_greedily
from tileopt.transforms.utils.tensor_layouts import retype, with_encoding

_MMA = (NvidiaMmaEncodingAttr, AMDMfmaEncodingAttr, AMDWmmaEncodingAttr)

# The one-operand elementwise ops a stored value may pass through (Triton's list; atan2,
# which it also names, has two operands and is left out).
_ONE_OPERAND = frozenset({
    "arith.extf", "arith.extsi", "arith.extui", "arith.fptosi", "arith.fptoui",
    "arith.negf", "arith.sitofp", "arith.truncf", "arith.trunci", "arith.uitofp",
    "math.absf", "math.absi", "math.atan", "math.ceil", "math.cos", "math.sin",
    "math.ctlz", "math.cttz", "math.ctpop", "math.erf", "math.exp", "math.exp2",
    "math.expm1", "math.floor", "math.log", "math.log10", "math.log1p", "math.log2",
    "math.rsqrt", "math.sqrt", "math.tanh",
    "tt.int_to_ptr", "tt.ptr_to_int", "tt.bitcast", "tt.fp_to_fp",
})


def _one_operand_elementwise(op: Operation) -> bool:
    if len(op.operands) != 1 or len(op.results) != 1:
        return False
    if op.name == "tt.extern_elementwise":
        return bool(op.properties["pure"].value.data)
    return op.name in _ONE_OPERAND


def _blocked_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType) and isinstance(value.type.encoding,
                                                               BlockedEncodingAttr)


def dword_store_layout(ty: TensorType) -> LinearEncodingAttr | None:
    """The layout Triton 3.6 stores a 16-bit transposed gfx950 MFMA result through: the
    MFMA layout with its third register basis swapped with the lane basis that steps 4
    columns, so that each lane holds 8 consecutive elements (a 128-bit store) and the
    lanes of a row cover consecutive columns; None where the MFMA layout is another one
    or the swap would not give that."""
    layout = ty.encoding
    if not (isinstance(layout, AMDMfmaEncodingAttr) and layout.as_dict()["version"] == 4
            and layout.as_dict()["isTransposed"] and len(ty.get_shape()) == 2
            and element_bit_width(ty) == 16):
        return None
    bases = linear_layout_of(ty).bases
    registers, lanes = bases["register"], bases["lane"]
    if len(registers) < 3 or [0, 4] not in lanes:
        return None
    lane = lanes.index([0, 4])
    registers[2], lanes[lane] = lanes[lane], registers[2]
    columns = sorted(b[1] for b in registers[:3] + lanes if b[0] == 0 and b[1])
    if columns != [1 << i for i in range(len(columns))]:
        return None  # the lanes would not step through consecutive columns
    return LinearEncodingAttr.get(registers, lanes, bases["warp"], bases.get("block", []))


def _converted(rewriter: PatternRewriter, value: SSAValue, layout) -> SSAValue:
    new = ConvertLayoutOp(value, with_encoding(value.type, layout))
    new.location = value_location(value)
    rewriter.insert(new)  # before the store
    return new.results[0]


class BypassEpilogueConversion(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, StoreOp):
            return
        if not (_blocked_tensor(op.ptr) and _blocked_tensor(op.value)):
            return
        chain: list[Operation] = []  # from the store up
        value = op.value
        while True:
            if not isinstance(value, OpResult):
                return
            producer = value.owner
            if isinstance(producer, ConvertLayoutOp):
                break
            if not value.has_one_use() or not _one_operand_elementwise(producer):
                return
            chain.append(producer)
            value = producer.operands[0]
        conversion = value.owner
        layout = conversion.src.type.encoding
        if not isinstance(layout, _MMA) or not conversion.results[0].has_one_use():
            return
        ptr = _converted(rewriter, op.ptr, layout)
        stored = conversion.src
        for link in reversed(chain):
            link.operands[0] = stored
            retype(link.results[0], with_encoding(link.results[0].type, layout))
            stored = link.results[0]
            rewriter.notify_op_modified(link)
        operands = [ptr, stored]
        if op.mask is not None:
            operands.append(_converted(rewriter, op.mask, layout))
        store_layout = dword_store_layout(stored.type)
        if store_layout is not None:
            operands = [_converted(rewriter, v, store_layout) for v in operands]
        for index, operand in enumerate(operands):
            op.operands[index] = operand
        rewriter.notify_op_modified(op)


@register_pass
class AMDOptimizeEpilogue(Pass):
    """Store dot results from their MFMA/WMMA layout, converting the pointers and mask
    instead of the values."""

    name = "tritonamdgpu-optimize-epilogue"

    def apply(self, ctx: Context, op: Operation) -> None:
        apply_patterns_greedily(ctx, op, [BypassEpilogueConversion()])
