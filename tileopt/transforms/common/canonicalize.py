"""``canonicalize``: fold ops and apply their canonicalization patterns (MLIR's
``-canonicalize``), with xDSL's greedy driver.

The patterns and folders come from the ops themselves (``HasCanonicalizationPatternsTrait``
and ``HasFolder``): xDSL's own for its ops, and those tileopt attaches (docs/patterns.md)
to ``tt`` ops (``dialects/tt_canonicalize.py``), to ``ttg.convert_layout`` and the ops it
folds into, and to upstream ``arith``/``scf`` ops (``transforms/canonicalization/``). Dead side-effect-free ops and unreachable
blocks are erased. As MLIR's greedy driver does at the start of each of its iterations,
constants are de-duplicated and moved to the top of the entry block of their closest
isolated-from-above op (a function), each time the worklist is filled (``GreedyWalker``):
that is why Triton's IR after canonicalize opens with its constants, the ones found
last on top.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import UnknownLoc
from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike, IsolatedFromAbove
from xdsl.transforms.canonicalization_patterns.scf import RehoistConstInLoops
from xdsl.transforms.dead_code_elimination import region_dce

# The pattern modules attach their patterns to the ops when imported.
import tileopt.transforms.canonicalization.arith_patterns  # noqa: F401
from tileopt.transforms.canonicalization.arith_patterns import ArithFolding
import tileopt.transforms.canonicalization.cf_patterns  # noqa: F401
import tileopt.transforms.canonicalization.convert_layout_patterns  # noqa: F401
import tileopt.transforms.canonicalization.math_patterns  # noqa: F401
import tileopt.transforms.canonicalization.scf_patterns  # noqa: F401
from tileopt.dialects.canonicalization import canonicalization_patterns
from tileopt.passes.options import option
from tileopt.passes import Pass, register_pass
from tileopt.passes.statistics import add_statistic, debug_log
from tileopt.ir.walks import ops_in_walk_order, ops_in_worklist_order
from tileopt.transforms.utils import greedy_driver

_LOG = debug_log("canonicalize")


def _own_patterns(op_type: type[Operation]) -> tuple[RewritePattern, ...]:
    # hoist_and_unique_constants does MLIR's constant hoisting; xDSL's RehoistConstInLoops
    # would also move unregistered ops out of loops (it takes them for constants), away
    # from the values they use.
    return tuple(pattern for pattern in canonicalization_patterns(op_type)
                 if not isinstance(pattern, RehoistConstInLoops))


class OpCanonicalization(RewritePattern):
    """The op's own canonicalization patterns (``canonicalization_patterns``' order)."""

    def restricted_to(self, op_type: type[Operation]) -> RewritePattern | None:
        """For the greedy driver (``greedy_driver``): the patterns of ``op_type``'s ops."""
        patterns = _own_patterns(op_type)
        return _ClassCanonicalization(patterns) if patterns else None

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        _apply_own_patterns(_own_patterns(type(op)), op, rewriter)


class _ClassCanonicalization(RewritePattern):
    """``OpCanonicalization`` on the ops of one class, its patterns looked up once."""

    def __init__(self, patterns: tuple[RewritePattern, ...]):
        self.patterns = patterns

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        _apply_own_patterns(self.patterns, op, rewriter)


def _apply_own_patterns(patterns: tuple[RewritePattern, ...], op: Operation,
                        rewriter: PatternRewriter) -> None:
    for pattern in patterns:
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


def _insertion_region(op: Operation) -> Region | None:
    """Where MLIR's ``OperationFolder`` keeps a constant: the region of the closest
    enclosing op that is isolated from above (or has no parent, a module)."""
    region = op.parent_region()
    while region is not None:
        parent = region.parent_op()
        if parent is None or parent.has_trait(IsolatedFromAbove) or parent.parent is None:
            return region
        region = parent.parent_region()
    return None


def hoist_and_unique_constants(root: Operation | Region) -> None:
    """The constant CSE that starts each iteration of MLIR's greedy rewrite driver
    (``OperationFolder::insertKnownConstant`` on every constant, in walk order).

    The first constant of each value and type in its isolated region is kept, later ones
    are replaced by it (and it loses its location, the merged ones had others). A kept
    constant not already in the run of kept constants at the top of the region's entry
    block moves to the very top: so constants found deeper in a function end up above
    those found earlier, as in Triton's output. One moved out of a nested block loses its
    location; one moved within the entry block keeps it (``%x`` stays ``%x``)."""
    known: dict[tuple, Operation] = {}
    kept: set[Operation] = set()
    # Asked once per op class and per block (the answers depend on nothing else).
    is_constant: dict[type[Operation], bool] = {}
    regions: dict[Block | None, Region | None] = {}
    constants = []
    for op in ops_in_walk_order(root):
        kind = type(op)
        answer = is_constant.get(kind)
        if answer is None:
            # An unregistered op is no constant (xDSL's has_trait says yes by default).
            answer = is_constant[kind] = op.has_trait(ConstantLike, value_if_unregistered=False)
        if answer and not op.regions:
            constants.append(op)
    for const in constants:
        block = const.parent
        if block in regions:
            region = regions[block]
        else:
            region = regions[block] = _insertion_region(const)
        if region is None or not region.blocks:
            continue
        key = (id(region), _constant_key(const))
        existing = known.get(key)
        if existing is not None:
            for old, new in zip(const.results, existing.results, strict=True):
                old.replace_all_uses_with(new)
            const.parent_block().erase_op(const)
            existing.location = UnknownLoc()
            continue
        known[key] = const
        kept.add(const)
        entry = region.blocks.first
        previous = const.prev_op
        if const.parent is not entry:
            const.location = UnknownLoc()
        elif previous is None or previous in kept:
            continue
        const.detach()
        Rewriter.insert_op(const, InsertPoint.at_start(entry))


class GreedyApplier(GreedyRewritePatternApplier):
    """xDSL's applier (dead ops erased, folds, then the patterns) where an op made by a
    fold or a pattern without a location takes the location of the op it rewrites, as
    MLIR's folder and (nearly all) patterns build them (``op->getLoc()``).

    ``GreedyWalker`` runs these steps through ``greedy_driver`` (with
    ``_adopt_location``); this method is xDSL's way, kept as the reference its test
    compares with."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        location = op.location

        def adopt(new: Operation) -> None:
            _adopt_location(new, location)

        rewriter.operation_insertion_handler.append(adopt)
        try:
            super().match_and_rewrite(op, rewriter)
        finally:
            rewriter.operation_insertion_handler.remove(adopt)


def _adopt_location(new: Operation, location) -> None:
    if isinstance(new.location, UnknownLoc):
        new.location = location


class GreedyWalker(PatternRewriteWalker):
    """xDSL's walker that, as MLIR's greedy driver, merges and hoists the constants
    (``hoist_and_unique_constants``) each time it fills its worklist: at the start of
    every iteration, the last one (which finds nothing to do) included."""

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        if isinstance(op, Block) or self.walk_reverse or self.walk_regions_first:
            super()._populate_worklist(op)
            return
        hoist_and_unique_constants(op)
        # xDSL's order (its walk(reverse=True, region_first=True)), without its generators
        greedy_driver.fill_worklist(self, ops_in_worklist_order(op))

    def rewrite_region(self, region: Region) -> bool:
        if self.post_walk_func is region_dce and self.apply_recursively:
            return greedy_driver.rewrite_region(self, region, region_dce)
        return super().rewrite_region(region)

    def _process_worklist(self, listener: PatternRewriterListener) -> bool:
        if type(self.pattern) is GreedyApplier:  # (GreedyApplier's work, per op class)
            state = self.__dict__.get("_greedy_state")
            if state is None:
                state = self.__dict__["_greedy_state"] = greedy_driver.GreedyState(self.pattern)
            return greedy_driver.process_worklist(self, listener, _adopt_location, state)
        return super()._process_worklist(listener)


# Shared by every run (stateless), so that runs find the greedy driver's plans for them.
_ARITH_FOLDING = ArithFolding()
_OP_CANONICALIZATION = OpCanonicalization()


def apply_greedily(ctx: Context, root: Operation, patterns: list[RewritePattern],
                   fold_first: bool = True) -> None:
    """MLIR's ``applyPatternsGreedily`` on every region of ``root``: dead ops erased, ops
    folded, ``patterns`` applied, constants merged and hoisted, until nothing changes.

    MLIR's driver calls ``Operation::fold`` on every op before the patterns: the op's
    folder, then the trait folds (a commutative op's constant operand moves right), done
    here by ``ArithFolding``. ``fold_first=False`` where the patterns fold first
    themselves (``canonicalize``'s, which count a fold as a pattern applied)."""
    first: list[RewritePattern] = [_ARITH_FOLDING] if fold_first else []
    walker = GreedyWalker(GreedyApplier([*first, *patterns], ctx=ctx, folding_enabled=True),
                          post_walk_func=region_dce)
    for region in root.regions:
        walker.rewrite_region(region)


@register_pass
class Canonicalize(Pass):
    """Canonicalize operations: folds, canonicalization patterns and dead-code removal."""

    name = "canonicalize"
    anchor = None
    # A fixed point: the greedy driver stops when an iteration changes nothing, and its
    # constant hoisting leaves hoisted constants where they are.
    idempotent = True

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
        apply_greedily(ctx, op, [_OP_CANONICALIZATION], fold_first=False)
