"""``canonicalize``: fold ops and apply their canonicalization patterns (MLIR's
``-canonicalize``), with xDSL's greedy driver.

The patterns and folders come from the ops themselves (``HasCanonicalizationPatternsTrait``
and ``HasFolder``): xDSL's own for its ops, and those tileopt attaches (docs/patterns.md)
to ``tt`` ops (``dialects/tt_canonicalize.py``), to ``ttg.convert_layout`` and the ops it
folds into, and to upstream ``arith``/``scf`` ops (``transforms/canonicalization/``). Dead side-effect-free ops and unreachable
blocks are erased. As MLIR's ``OperationFolder`` does, constants are then de-duplicated and
moved to the top of the entry block of their closest isolated-from-above op (a function),
which is why Triton's IR after canonicalize opens with its constants.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike, IsolatedFromAbove
from xdsl.transforms.dead_code_elimination import region_dce

# The pattern modules attach their patterns to the ops when imported.
import tileopt.transforms.canonicalization.arith_patterns  # noqa: F401
import tileopt.transforms.canonicalization.convert_layout_patterns  # noqa: F401
import tileopt.transforms.canonicalization.scf_patterns  # noqa: F401
from tileopt.dialects.canonicalization import canonicalization_patterns
from tileopt.passes.options import option
from tileopt.passes import Pass, register_pass
from tileopt.passes.statistics import add_statistic, debug_log

_LOG = debug_log("canonicalize")


class OpCanonicalization(RewritePattern):
    """The op's own canonicalization patterns (``canonicalization_patterns``' order)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        for pattern in canonicalization_patterns(type(op)):
            name = op.name  # the op may be gone after the rewrite
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                add_statistic("num-patterns-applied", 1,
                              "Number of canonicalization patterns applied")
                _LOG.debug("%s applied to '%s'", type(pattern).__name__, name)
                return


def _constant_key(op: Operation) -> tuple:
    # As MLIR's OperationFolder: the value and type, not discardable attributes (a
    # constant the pipeliner scheduled, {loop.stage = ...}, is the same constant).
    return (op.name, tuple(sorted(op.properties.items(), key=lambda kv: kv[0])),
            tuple(op.result_types))


def _isolated_scopes(root: Operation):
    """``root`` and every isolated-from-above op inside it (each a constant scope)."""
    yield root
    for op in root.walk():
        if op is not root and op.has_trait(IsolatedFromAbove):
            yield op


def _scope_constants(scope: Operation) -> list[Operation]:
    """Constant ops whose closest isolated-from-above ancestor is ``scope``."""
    found = []
    for region in scope.regions:
        for op in region.walk():
            if not op.has_trait(ConstantLike) or op.regions:
                continue
            parent = op.parent_op()
            while parent is not None and parent is not scope and not parent.has_trait(
                    IsolatedFromAbove):
                parent = parent.parent_op()
            if parent is scope:
                found.append(op)
    return found


def hoist_and_unique_constants(root: Operation) -> None:
    for scope in list(_isolated_scopes(root)):
        if not scope.regions or not scope.regions[0].blocks:
            continue
        entry = scope.regions[0].blocks.first
        if scope is root and scope.name == "builtin.module":
            continue  # constants directly in a module stay where they are
        known: dict[tuple, Operation] = {}
        kept: list[Operation] = []
        for const in _scope_constants(scope):
            key = _constant_key(const)
            existing = known.get(key)
            if existing is not None:
                for old, new in zip(const.results, existing.results, strict=True):
                    old.replace_all_uses_with(new)
                const.parent_block().erase_op(const)
                continue
            known[key] = const
            kept.append(const)
        # Move them, in order of first appearance, to the top of the entry block.
        anchor = None
        for const in kept:
            if anchor is None:
                if const.parent is entry and entry.first_op is const:
                    anchor = const
                    continue
                const.detach()
                Rewriter.insert_op(const, InsertPoint.at_start(entry))
            else:
                if anchor.next_op is const:
                    anchor = const
                    continue
                const.detach()
                Rewriter.insert_op(const, InsertPoint.after(anchor))
            anchor = const


@register_pass
class Canonicalize(Pass):
    """Canonicalize operations: folds, canonicalization patterns and dead-code removal."""

    name = "canonicalize"
    anchor = None

    # MLIR's options, so pipelines and reproducers written by MLIR and Triton (which print
    # every option, sorted by name as here) run here. The rewrite runs to a fixed point; the limits and the
    # traversal order are accepted and do not change the result of these patterns.
    disable_patterns: tuple[str, ...] = option((), "labels of patterns that should be "
                                                   "filtered out (accepted, not applied)")
    enable_patterns: tuple[str, ...] = option((), "labels of patterns that should be used "
                                                  "(accepted, not applied)")
    max_iterations: int = option(10, "max. iterations between applying patterns and "
                                     "simplifying regions (MLIR's limit; accepted)")
    max_num_rewrites: int = option(-1, "max. number of pattern rewrites within an iteration "
                                       "(MLIR's limit; accepted)")
    region_simplify: str = option("normal", "region simplification level",
                                  choices=("disabled", "normal", "aggressive"))
    test_convergence: bool = option(False, "test only: fail if the rewrite does not converge "
                                           "(accepted)")
    top_down: bool = option(True, "seed the worklist in general top-down order")

    def apply(self, ctx: Context, op: Operation) -> None:
        pattern = GreedyRewritePatternApplier([OpCanonicalization()], ctx=ctx,
                                              folding_enabled=True)
        walker = PatternRewriteWalker(pattern, post_walk_func=region_dce)
        for region in op.regions:
            walker.rewrite_region(region)
        hoist_and_unique_constants(op)
