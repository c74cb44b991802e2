"""``canonicalize``: fold ops and apply their canonicalization patterns (MLIR's
``-canonicalize``), with xDSL's greedy driver.

The patterns come from the ops themselves: each dialect attaches them with
``HasCanonicalizationPatternsTrait`` (arith, scf from xDSL; ``tt``/``ttg`` from tileopt's
dialects), and ops with a ``fold`` are folded. Dead side-effect-free ops are erased.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.dead_code_elimination import region_dce

from tileopt.passes import Pass, register_pass


@register_pass
class Canonicalize(Pass):
    """Canonicalize operations: folds, canonicalization patterns and dead-code removal."""

    name = "canonicalize"
    anchor = None

    def apply(self, ctx: Context, op: Operation) -> None:
        pattern = GreedyRewritePatternApplier(
            [CanonicalizationRewritePattern()], ctx=ctx, folding_enabled=True)
        walker = PatternRewriteWalker(pattern, post_walk_func=region_dce)
        for region in op.regions:
            walker.rewrite_region(region)
