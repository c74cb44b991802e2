"""``tritonamdgpu-optimize-dot-operands``: one LDS buffer for a tile a dot reads directly
and another dot reads transposed (Triton 3.6's AMD ``OptimizeDotOperands.cpp``).

In attention backward kernels one loaded tile feeds a dot as it is and, through
``tt.trans``, another dot. Separately each path would go through its own shared-memory
copy; here the load is stored once (``ttg.local_alloc`` in the swizzled layout the direct
operand is read from), the direct dot reads it with a ``ttg.local_load`` and the
transposed path converts from that ``local_load`` instead of from the load. Both dots must
read the tile as the same operand (A or B) with the same kWidth and CTA layout. Triton
3.6 never takes its ``local_load_transposed`` branch (disabled), nor does this; the
scale-upcast patterns (gfx950) are not done.

The pass runs with ``ttg.convert_layout``'s canonicalization patterns under MLIR's greedy
driver, so conversions fold into their producers and dead ones go.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from tileopt.dialects.tt import DotOp, LoadOp, TransOp
from tileopt.dialects.ttg import ConvertLayoutOp, LocalAllocOp, LocalLoadOp
from tileopt.dialects.ttg_attrs import DotOperandEncodingAttr, SharedMemorySpaceAttr
from tileopt.dialects.ttg_types import MemDescType
from tileopt.passes import Pass, option, register_pass
from tileopt.transforms.canonicalization.convert_layout_patterns import CONVERT_LAYOUT_PATTERNS
from tileopt.transforms.ttgir.reduce_data_duplication import _cta_fields, dot_operand_shared_layout
from tileopt.transforms.utils.greedy_rewrite import apply_patterns_greedily
from tileopt.transforms.utils.tensor_layouts import order_for_memory


def _through_conversions(value: SSAValue, user: Operation) -> tuple[SSAValue, Operation | None]:
    """Follow single-use ``convert_layout`` ops from ``user`` (which reads ``value``): the
    value the first other op reads, and that op (None where a conversion has several
    users)."""
    while isinstance(user, ConvertLayoutOp):
        value = user.result
        uses = list(value.uses)
        if len(uses) != 1:
            return value, None
        user = uses[0].operation
    return value, user


def _operand_index(dot: DotOp, value: SSAValue) -> int:
    return 0 if dot.a is value else 1


class ReuseSharedForDirectAndTransposedUse(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, LoadOp) or not isinstance(op.result.type, TensorType):
            return
        uses = [use.operation for use in op.result.uses]
        if len(uses) < 2:
            return
        direct = transposed = None
        direct_index = transposed_index = 0
        trans_source: ConvertLayoutOp | None = None
        for user in uses:
            used, reader = _through_conversions(op.result, user)
            if isinstance(reader, TransOp):
                source = reader.operands[0]
                if not (isinstance(source, OpResult) and isinstance(source.owner, ConvertLayoutOp)):
                    continue
                trans_uses = list(reader.results[0].uses)
                if not trans_uses:
                    continue
                used, reader = _through_conversions(reader.results[0], trans_uses[0].operation)
                if isinstance(reader, DotOp):
                    transposed, transposed_index = reader, _operand_index(reader, used)
                    trans_source = source.owner
            elif isinstance(reader, DotOp):
                direct, direct_index = reader, _operand_index(reader, used)
            if direct is not None and transposed is not None:
                break
        if direct is None or transposed is None or direct_index != transposed_index:
            return
        index = direct_index
        direct_type = direct.operands[index].type
        direct_layout = direct_type.encoding
        transposed_layout = transposed.operands[index].type.encoding
        if not (isinstance(direct_layout, DotOperandEncodingAttr)
                and isinstance(transposed_layout, DotOperandEncodingAttr)):
            return
        if direct_layout.kWidth != transposed_layout.kWidth:
            return
        cta = _cta_fields(direct_layout.parent)
        if cta != _cta_fields(transposed_layout.parent):
            return
        loaded = op.result.type
        shared = dot_operand_shared_layout(direct_layout, list(direct_type.get_shape()),
                                           order_for_memory(loaded),
                                           direct_type.get_element_type().bitwidth, cta)
        alloc = LocalAllocOp(MemDescType.get(list(loaded.get_shape()),
                                             loaded.get_element_type(), shared,
                                             SharedMemorySpaceAttr()), op.result)
        read = LocalLoadOp(alloc.results[0], direct_type)
        alloc.location = read.location = op.location
        rewriter.insert_op([alloc, read], InsertPoint.after(op))
        direct.operands[index] = read.results[0]
        rewriter.notify_op_modified(direct)
        trans_source.operands[0] = read.results[0]
        rewriter.notify_op_modified(trans_source)


@register_pass
class AMDOptimizeDotOperands(Pass):
    """Share one LDS copy of a loaded tile between a dot that reads it directly and one
    that reads it transposed."""

    name = "tritonamdgpu-optimize-dot-operands"

    arch_generation_name: str = option("", "gfx arch name", name="arch-generation-name")

    def apply(self, ctx: Context, op: Operation) -> None:
        apply_patterns_greedily(ctx, op, [ReuseSharedForDirectAndTransposedUse(),
                                          *CONVERT_LAYOUT_PATTERNS])
