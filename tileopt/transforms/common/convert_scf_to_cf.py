"""``convert-scf-to-cf``: lower ``scf.for``/``scf.if``/``scf.while``/``scf.index_switch`` to
``cf`` branches between blocks (MLIR's pass, run by Triton before lowering to LLVM).

``for``, ``if`` and ``index_switch`` use xDSL's lowerings (direct translations of MLIR's);
``scf.while`` is lowered here. As in MLIR, the branch and compare ops created for a loop or
``if`` carry its location, so line info survives into the LLVM IR.
"""

from __future__ import annotations

from xdsl.dialects.builtin import UnknownLoc
from xdsl.dialects.cf import BranchOp, ConditionalBranchOp
from xdsl.dialects.scf import ConditionOp, WhileOp, YieldOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (GreedyRewritePatternApplier, PatternRewriter,
                                   PatternRewriterListener, PatternRewriteWalker,
                                   RewritePattern, op_type_rewrite_pattern)
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering, SwitchLowering

from tileopt.passes import register_op_pass


class WhileLowering(RewritePattern):
    """``scf.while`` -> a "before" block that tests and a back-edge from the "after" block."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: WhileOp, rewriter: PatternRewriter) -> None:
        init_block = op.parent_block()
        if init_block is None:
            return
        continuation = init_block.split_before(op)
        for result in op.results:
            continuation.insert_arg(result.type, len(continuation.args))
        before_first = op.before_region.first_block
        after_first = op.after_region.first_block
        before_last = op.before_region.last_block
        after_last = op.after_region.last_block
        assert before_first and after_first and before_last and after_last
        condition = before_last.last_op
        yield_op = after_last.last_op
        assert isinstance(condition, ConditionOp) and isinstance(yield_op, YieldOp)
        rewriter.inline_region(op.before_region, BlockInsertPoint.before(continuation))
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(continuation))
        rewriter.insert_op(BranchOp(before_first, *op.arguments), InsertPoint.at_end(init_block))
        rewriter.replace_op(condition, ConditionalBranchOp(
            condition.condition, after_first, condition.args, continuation,
            condition.args))
        rewriter.replace_op(yield_op, BranchOp(before_first, *yield_op.operands))
        rewriter.replace_op(op, [], list(continuation.args))


class _LocatedLowering(RewritePattern):
    """Runs ``inner`` and gives the ops it creates the location of the op it lowers."""

    def __init__(self, inner: RewritePattern, current: list):
        self.inner = inner
        self.current = current

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        self.current[0] = op.location
        self.inner.match_and_rewrite(op, rewriter)


def convert_scf_to_cf(root: Operation) -> None:
    current: list = [UnknownLoc()]

    def locate(new: Operation) -> None:
        if isinstance(new.location, UnknownLoc):
            new.location = current[0]

    listener = PatternRewriterListener(operation_insertion_handler=[locate])
    patterns = [_LocatedLowering(p, current) for p in
                (SwitchLowering(), IfLowering(), ForLowering(), WhileLowering())]
    walker = PatternRewriteWalker(GreedyRewritePatternApplier(patterns), listener=listener)
    for region in root.regions:
        walker.rewrite_region(region)


ConvertSCFToCF = register_op_pass(
    "ConvertSCFToCF", "convert-scf-to-cf",
    "Lower structured control flow (scf) to branches between blocks (cf).", convert_scf_to_cf)
