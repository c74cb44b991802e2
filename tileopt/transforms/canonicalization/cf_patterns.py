"""The ``cf.cond_br`` pattern of MLIR's ``ControlFlowOps.cpp`` that xDSL lacks.

xDSL registers MLIR's other ``cf`` patterns on its own ops; this one is attached beside
them. (Its effect is mostly reached anyway through ``CondBranchTruthPropagation`` and a
constant condition; MLIR has both, and so does tileopt.)
"""

from __future__ import annotations

from xdsl.dialects import cf
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from tileopt.dialects.canonicalization import add_canonicalization_patterns


class CondBranchOnSameCondition(RewritePattern):
    """MLIR's ``SimplifyCondBranchFromCondBranchOnSameCondition``: a ``cf.cond_br`` whose
    block is reached by exactly one edge, from a ``cf.cond_br`` on the same condition,
    knows which way it goes and becomes a ``cf.br``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, cf.ConditionalBranchOp) or (block := op.parent_block()) is None:
            return
        edges = block.predecessors()
        if len(edges) != 1:
            return
        branch = edges[0].last_op
        if not isinstance(branch, cf.ConditionalBranchOp) or branch.cond != op.cond:
            return
        if branch.then_block is block:
            rewriter.replace(op, cf.BranchOp(op.then_block, *op.then_arguments))
        else:
            rewriter.replace(op, cf.BranchOp(op.else_block, *op.else_arguments))


add_canonicalization_patterns(cf.ConditionalBranchOp, CondBranchOnSameCondition())
