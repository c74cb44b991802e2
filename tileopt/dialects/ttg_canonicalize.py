"""Canonicalization folders and patterns of the TritonGPU ``ttg`` dialect that need no
layout arithmetic (Triton 3.6's ``lib/Dialect/TritonGPU/IR/Ops.cpp``). Importing this
module attaches them to the ops, as ``tt_canonicalize`` does for ``tt``.

folders
  local_alloc(local_load(m)) -> m   (an immutable alloc of the type of m)
  memdesc_trans(m, identity order) -> m
patterns
  memdesc_trans(memdesc_trans(m)) -> memdesc_trans(m) with the composed order (a fold in
                                     Triton that rewrites the op in place; xDSL folds may
                                     not, so a pattern, as tt's TransOfTrans)

``ttg.convert_layout``'s patterns and folder compute with linear layouts and live in
``tileopt/transforms/canonicalization/convert_layout_patterns.py``.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from tileopt.dialects import ttg
from tileopt.dialects.canonicalization import (
    FoldResult,
    add_canonicalization_patterns,
    add_folder,
)
from tileopt.dialects.ttg_types import MemDescType


def fold_local_alloc(op: ttg.LocalAllocOp) -> FoldResult:
    result_type = op.result.type
    if not isinstance(result_type, MemDescType) or result_type.is_mutable or op.src is None:
        return None
    load = op.src.owner
    if isinstance(load, ttg.LocalLoadOp) and load.operands[0].type == result_type:
        return [load.operands[0]]
    return None


def fold_memdesc_trans(op: ttg.MemDescTransOp) -> FoldResult:
    order = tuple(op.order.get_values())
    if order == tuple(range(len(order))):
        return [op.src]
    return None


class MemDescTransOfTrans(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ttg.MemDescTransOp, rewriter: PatternRewriter) -> None:
        if not isinstance(inner := op.src.owner, ttg.MemDescTransOp):
            return
        # result[i] = src[outer[i]] = m[inner[outer[i]]]
        composed = [inner.order.get_values()[i] for i in op.order.get_values()]
        new = ttg.MemDescTransOp.create(
            operands=[inner.src], result_types=[op.result.type],
            properties={**op.properties, "order": DenseArrayBase.from_list(i32, composed)},
            attributes=dict(op.attributes))
        rewriter.replace(op, new)


add_folder(ttg.LocalAllocOp, fold_local_alloc)
add_folder(ttg.MemDescTransOp, fold_memdesc_trans)
add_canonicalization_patterns(ttg.MemDescTransOp, MemDescTransOfTrans())
