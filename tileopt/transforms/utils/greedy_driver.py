"""A cheaper worklist loop for the greedy rewriter (a local override of xDSL 0.74's
``PatternRewriteWalker._process_worklist`` with ``GreedyRewritePatternApplier`` inlined).

Most visits of the greedy driver change nothing (``canonicalize`` and the layout passes'
clean-ups visit every op once more after the last change), yet each paid for xDSL's
general machinery: an import statement and a ``Folder`` object per visit, the trait
queries of the fold check, a location hook added to and removed from the rewriter's
listener, a validated ``InsertPoint``, and every pattern of the list, also those that
cannot match the op's class. Here, per greedy run:

- the fold check (``HasFolder`` and not ``ConstantLike``) is answered once per op class;
  a folder known to need a constant operand (xDSL's integer binary ops' ``fold``: an
  integer one; tileopt folders marked ``needs_constant_operand``) is not called on an op
  without one (it would return None); xDSL's integer ``fold`` is first tried through a
  cheaper copy (``integer_binary_fold``), and xDSL's runs only where that one folds;
- an op with a used result is not asked whether it is trivially dead (it is not:
  ``is_trivially_dead`` wants every result unused); the answer for the others is kept
  per op class where no op of the class can answer otherwise
  (``xdsl_fast_paths.would_be_trivially_dead``);
- a pattern may say which op classes it can act on: ``restricted_to(op_class)`` returns
  the pattern to run on ops of that class (itself or a narrower one) or None where it
  does nothing (``canonicalize``'s per-op patterns and the arith folders say so); patterns
  without the method run on every op, as in xDSL;
- the location hook (``on_insert``) stays on the rewriter for the whole loop and reads
  the location of the op being rewritten.

Same visits in the same order, same rewriter calls, same error handling
(``op.emit_error`` for an exception of a pattern) as xDSL's loop and applier, which
``test_greedy_driver.py`` compares on the corpus kernels. A plan is made when an op
class is first visited (after the trait query that attaches its dialect's lazily
imported patterns) and kept for later runs with the same pattern objects until an op
class gains patterns or traits (``_plan_table``), so patterns attached before a run are
always seen.

To propose upstream to xDSL: hoist ``GreedyRewritePatternApplier``'s per-visit work (the
``is_trivially_dead`` import, ``Folder(ctx)``, the fold traits) out of
``match_and_rewrite``, build ``InsertPoint.before`` without re-checking the parent block
it was just read from, and let ``RewritePattern`` declare its root op classes (as MLIR's
``RewritePattern`` has a root kind) so the applier indexes its patterns by op class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.arith import ConstantOp, SignlessIntegerBinaryOperation
from xdsl.dialects.builtin import IntegerAttr, UnknownLoc, UnregisteredOp
from xdsl.folder import Folder
from xdsl.ir import Operation, Region
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.worklist import _MISSING  # noqa: PLC2701 - what a removed entry reads
from xdsl.interfaces import _HasFolderInterfaceTrait  # noqa: PLC2701 - the class to recognise
from xdsl.traits import Commutative, ConstantLike, HasFolder

from tileopt.dialects.canonicalization import TileoptFolder, patterns_generation
from tileopt.dialects.xdsl_fast_paths import would_be_trivially_dead

_new = object.__new__
_set = object.__setattr__


def _insert_point_before(op: Operation) -> InsertPoint:
    """``InsertPoint.before(op)`` without ``__post_init__``'s check that ``op`` is in the
    block just read from it (always true); xDSL's error where ``op`` has no block."""
    block = op.parent
    if block is None:
        return InsertPoint.before(op)
    point = _new(InsertPoint)
    _set(point, "block", block)
    _set(point, "insert_before", op)
    return point


class _Plan:
    """What the applier does to ops of one class."""

    __slots__ = ("fold", "needs", "patterns")

    def __init__(self, fold: bool, needs: int, patterns: tuple[RewritePattern, ...]):
        self.fold = fold
        self.needs = needs
        self.patterns = patterns


_INTEGER_BINARY_FOLD = SignlessIntegerBinaryOperation.fold

# What a folder needs among its operands before it can fold (else it returns None).
_ANY_CONSTANT = 1  # a result of a ConstantLike op
_INTEGER_CONSTANT = 2  # one whose value may be an IntegerAttr


def _folder_needs(op: Operation) -> int:
    """0, or what ``op``'s folder needs among its operands to return anything but None.
    xDSL's ``SignlessIntegerBinaryOperation.fold`` reads both operands through
    ``ConstantLike.get_constant_value`` (None for a result of any other op) and returns
    None unless one of them is an ``IntegerAttr``; a tileopt folder marked
    ``needs_constant_operand`` needs a constant-like op's result."""
    trait = op.get_trait(HasFolder)
    if isinstance(trait, TileoptFolder):
        return _ANY_CONSTANT if getattr(trait.function, "needs_constant_operand",  # type: ignore[attr-defined]
                                        False) else 0
    if type(trait) is _HasFolderInterfaceTrait and \
            getattr(type(op), "fold", None) is _INTEGER_BINARY_FOLD:
        return _INTEGER_CONSTANT
    return 0


def integer_binary_fold(op: Operation):
    """xDSL's ``SignlessIntegerBinaryOperation.fold`` (same results) without its per-call
    import, ``isa`` (an ``isinstance`` for a plain class) and, for an ``arith.constant``
    operand, the trait queries of ``ConstantLike.get_constant_value`` (its value is what
    the constant's ``fold`` gives). The driver calls xDSL's own folder where this one
    does not return None."""
    lhs_value, rhs_value = op._operands  # noqa: SLF001 - the tuple behind ``operands``
    lhs, rhs = _constant_value(lhs_value), _constant_value(rhs_value)
    if isinstance(lhs, IntegerAttr) and isinstance(rhs, IntegerAttr):
        assert lhs.type == rhs.type
        result = op.py_operation(lhs.value.data, rhs.value.data)  # type: ignore[attr-defined]
        if result is not None:
            return (IntegerAttr(result, lhs.type, truncate_bits=True),)
    if isinstance(rhs, IntegerAttr) and _is_right_unit(op, rhs):
        return (lhs_value,)
    if not op.has_trait(Commutative):
        return None
    if isinstance(lhs, IntegerAttr) and _is_right_unit(op, lhs):
        return (rhs_value,)
    return None


_RIGHT_UNITS: dict[tuple, bool] = {}
"""(op class, value, type) -> the class's ``is_right_unit`` of that ``IntegerAttr`` (a
static method: several build ``IntegerAttr(1, type)`` to compare with, on every visit of
an op with a constant operand)."""
_RIGHT_UNITS_LIMIT = 4096


def _is_right_unit(op: Operation, attr: IntegerAttr) -> bool:
    key = (type(op), attr.value.data, attr.type)
    found = _RIGHT_UNITS.get(key)
    if found is None:
        if len(_RIGHT_UNITS) >= _RIGHT_UNITS_LIMIT:
            _RIGHT_UNITS.clear()
        found = _RIGHT_UNITS[key] = op.is_right_unit(attr)  # type: ignore[attr-defined]
    return found


def _constant_value(value):
    owner = value.owner
    if type(owner) is ConstantOp:
        return owner.value
    return ConstantLike.get_constant_value(value)


def _has_constant_operand(op: Operation, needs: int, constant_like: dict[type, bool]) -> bool:
    """Whether an operand of ``op`` may give its folder what it ``needs``."""
    for operand in op._operands:  # noqa: SLF001 - the tuple behind ``operands``
        owner = operand.owner
        owner_type = type(owner)
        known = constant_like.get(owner_type)
        if known is None:
            # an unregistered op answers ConstantLike by xDSL's default (yes)
            known = constant_like[owner_type] = issubclass(owner_type, Operation) and (
                issubclass(owner_type, UnregisteredOp) or owner_type.has_trait(ConstantLike))
        if known and (needs == _ANY_CONSTANT or owner_type is not ConstantOp
                      or isinstance(owner.value, IntegerAttr)):  # type: ignore[union-attr]
            return True
    return False


def _plan(applier: GreedyRewritePatternApplier, op: Operation) -> _Plan:
    # xDSL's fold condition; for an unregistered op the class answers as xDSL's defaults
    fold = (applier.folding_enabled and op.has_trait(HasFolder, value_if_unregistered=False)
            and not op.has_trait(ConstantLike, value_if_unregistered=True))
    needs = _folder_needs(op) if fold else 0
    cls = type(op)
    if issubclass(cls, UnregisteredOp):  # (its name is per op, not per class)
        return _Plan(fold, needs, tuple(applier.rewrite_patterns))
    patterns = []
    for pattern in applier.rewrite_patterns:
        restricted_to: Callable[[type[Operation]], RewritePattern | None] | None = getattr(
            pattern, "restricted_to", None)
        narrowed = pattern if restricted_to is None else restricted_to(cls)
        if narrowed is not None:
            patterns.append(narrowed)
    return _Plan(fold, needs, tuple(patterns))


_TABLES: dict[tuple, tuple[tuple[RewritePattern, ...], dict[type[Operation], _Plan]]] = {}
"""(folding enabled, ids of the applier's patterns) -> those patterns (held so that their
ids are not reused) and the plans made for them, per op class, while the op classes'
patterns and traits are those of ``_TABLES_GENERATION``."""
_TABLES_GENERATION: list = [None]
_TABLES_LIMIT = 256  # pattern lists made per run (never found again) are forgotten so


def _plan_table(applier: GreedyRewritePatternApplier) -> dict[type[Operation], _Plan]:
    """The plans for ``applier``'s patterns, shared by the greedy runs that apply the same
    pattern objects: a plan depends only on them, on whether folding is enabled and on
    the op class's traits and patterns (``patterns_generation``), so it is what the run
    would make at its first visit of the class. A run keeps the table it starts with, as
    it kept its own plans (one made after a class gained patterns mid-run sees them)."""
    generation = patterns_generation()
    if generation != _TABLES_GENERATION[0]:
        _TABLES.clear()
        _TABLES_GENERATION[0] = generation
    patterns = tuple(applier.rewrite_patterns)
    key = (applier.folding_enabled, tuple(map(id, patterns)))
    entry = _TABLES.get(key)
    if entry is None:
        if len(_TABLES) >= _TABLES_LIMIT:
            _TABLES.clear()
        entry = _TABLES[key] = (patterns, {})
    return entry[1]


class GreedyState:
    """What one greedy run (one walker) learns about op classes, kept over its iterations."""

    def __init__(self, applier: GreedyRewritePatternApplier) -> None:
        self.plans = _plan_table(applier)
        self.constant_like: dict[type, bool] = {}


def rewrite_region(walker: PatternRewriteWalker, region: Region,
                   clean_after: Callable[[Region, PatternRewriterListener], bool]) -> bool:
    """xDSL's ``PatternRewriteWalker.rewrite_region`` for a walker with
    ``apply_recursively`` whose ``post_walk_func`` is ``clean_after`` (xDSL's
    ``region_dce``), less the dead-code round of an iteration that changed nothing right
    after one that removed nothing: it would remove nothing again (every op was live and
    every block held a live op; the worklist left the IR as it was, and the constants
    merged and hoisted when the worklist is filled stay live: a merged constant's users
    go to the one kept, and every block keeps its terminator)."""
    listener = walker._get_rewriter_listener()  # noqa: SLF001
    walker._populate_worklist(region)  # noqa: SLF001
    modified = walker._process_worklist(listener)  # noqa: SLF001
    removed = clean_after(region, listener)
    modified |= removed
    result = modified
    while modified:
        walker._populate_worklist(region)  # noqa: SLF001
        modified = walker._process_worklist(listener)  # noqa: SLF001
        if modified or removed:
            removed = clean_after(region, listener)
            modified |= removed
    return result


def fill_worklist(walker: PatternRewriteWalker, ops: list[Operation]) -> None:
    """``walker._worklist.push(op)`` for each of ``ops`` (distinct), in one step where the
    worklist is empty (as it is at the start of each iteration)."""
    worklist = walker._worklist  # noqa: SLF001
    if worklist._map:  # noqa: SLF001
        for op in ops:
            worklist.push(op)
        return
    worklist._stack = ops  # noqa: SLF001
    worklist._map = {op: i for i, op in enumerate(ops)}  # noqa: SLF001


def process_worklist(walker: PatternRewriteWalker, listener: PatternRewriterListener,
                     on_insert: Callable[[Operation, Any], None] | None,
                     state: GreedyState) -> bool:
    """xDSL's ``_process_worklist`` for a walker whose pattern is a
    ``GreedyRewritePatternApplier``; ``on_insert(new_op, location)`` is called for each op
    inserted while an op is rewritten, with that op's location at the start of its visit.
    Whether anything was done."""
    applier = walker.pattern
    assert isinstance(applier, GreedyRewritePatternApplier)
    worklist = walker._worklist  # noqa: SLF001
    done = False
    if not worklist:
        return done
    op = worklist.pop()
    rewriter = PatternRewriter(op)
    rewriter.extend_from_listener(listener)
    current = [UnknownLoc()]
    if on_insert is not None:
        rewriter.operation_insertion_handler.append(lambda new: on_insert(new, current[0]))
    plans, constant_like = state.plans, state.constant_like
    stack, index = worklist._stack, worklist._map  # noqa: SLF001
    folder = None if applier.ctx is None else Folder(applier.ctx)
    dce = applier.dce_enabled
    while True:
        rewriter.has_done_action = False
        rewriter._current_operation = op  # noqa: SLF001
        rewriter.insertion_point = _insert_point_before(op)
        rewriter._name_hint = None  # noqa: SLF001 - the name_hint setter's value for None
        current[0] = op.location
        try:
            _apply(applier, plans, constant_like, folder, dce, op, rewriter)
        except Exception as err:  # as xDSL's loop: reported at the op
            op.emit_error(f"Error while applying pattern: {err}", underlying_error=err)
        done |= rewriter.has_done_action
        # ``if not worklist: return; op = worklist.pop()``, read off its stack and index
        # (which the walker's listener pushes to and removes from in place)
        while stack:
            op = stack.pop()
            if op is not _MISSING:
                break
        else:
            return done
        del index[op]


def _apply(applier: GreedyRewritePatternApplier, plans: dict[type[Operation], _Plan],
           constant_like: dict[type, bool], folder: Folder | None, dce: bool, op: Operation,
           rewriter: PatternRewriter) -> None:
    """``GreedyRewritePatternApplier.match_and_rewrite`` with the class's plan."""
    if dce:  # xDSL's is_trivially_dead, its class-level part answered once per class
        for result in op.results:
            if result.first_use is not None:
                break
        else:
            if would_be_trivially_dead(op):
                rewriter.erase(op)
                return
    plan = plans.get(type(op))
    if plan is None:
        plan = plans[type(op)] = _plan(applier, op)
    if plan.fold and not (plan.needs and not _has_constant_operand(op, plan.needs,
                                                                   constant_like)) and not (
            plan.needs == _INTEGER_CONSTANT and integer_binary_fold(op) is None):
        if folder is None:
            raise ValueError("Context is required for folding")
        folded = folder.try_fold(op)
        if folded is not None:
            folded_values, folded_ops = folded
            rewriter.replace(op, new_ops=folded_ops, new_results=folded_values)
            return
    for pattern in plan.patterns:
        pattern.match_and_rewrite(op, rewriter)
        if rewriter.has_done_action:
            return
