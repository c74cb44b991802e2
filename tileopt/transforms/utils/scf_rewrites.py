"""Growing and shrinking ``scf.for`` / ``scf.if`` signatures, and the scf clean-ups that
Triton's layout passes run after themselves.

- ``replace_for_with_new_signature`` / ``replace_if_with_new_signature``: the same loop (or
  conditional) with extra loop-carried values (or results), its body moved over. As in
  Triton, the old op stays in place for the caller to erase, and the terminator is not
  extended: the caller yields the new values.
- ``replace_with_block``: an op replaced by the body of one of its regions (a loop run
  once, a conditional whose branch is known).
- ``eliminate_dead_iter_args``: Triton's ``ForOpDeadArgElimination``: a loop-carried value
  whose result is unused and which only feeds its own update is made to yield its block
  argument, so scf.for's canonicalization (``canonicalization/scf_patterns.py``) removes it
  and dead-code elimination removes the update.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import would_be_trivially_dead

from tileopt.ir.locations import value_location


def locate_loop_arguments(block: Block, location: Attribute,
                          inits: dict[BlockArgument, SSAValue]) -> None:
    """The locations ``scf.for``'s builder gives the block arguments of a loop it builds,
    for a pass that keeps the old block instead (what names them with name locations):
    the induction variable at the loop, each loop-carried value at its init."""
    block.args[0].location = location
    for arg, init in inits.items():
        arg.location = value_location(init)


def replace_with_block(op: Operation, block: Block) -> None:
    """Move ``block``'s ops but its terminator before ``op`` and give ``op``'s results the
    terminator's operands. ``op`` stays, without uses, for the caller to erase."""
    terminator = block.last_op
    values = list(terminator.operands) if terminator is not None else []
    for inner in list(block.ops):
        if inner is terminator:
            break
        inner.detach()
        Rewriter.insert_op(inner, InsertPoint.before(op))
    for result, value in zip(op.results, values, strict=True):
        result.replace_all_uses_with(value)


def _take_place(old_op: Operation, new_op: Operation,
                replacements: list[tuple[SSAValue, SSAValue]] | None) -> None:
    """Insert ``new_op`` before ``old_op``; its first results replace ``old_op``'s now, or
    are appended to ``replacements`` for the caller to replace later."""
    Rewriter.insert_op(new_op, InsertPoint.before(old_op))
    pairs = list(zip(old_op.results, new_op.results[: len(old_op.results)]))
    if replacements is None:
        for old, new in pairs:
            old.replace_all_uses_with(new)
    else:
        replacements.extend(pairs)


def replace_for_with_new_signature(
    for_op: scf.ForOp, new_inits: Sequence[SSAValue],
    replacements: list[tuple[SSAValue, SSAValue]] | None = None,
) -> scf.ForOp:
    """A copy of ``for_op`` carrying ``new_inits`` as extra loop-carried values.

    The body moves to the new loop, which gets one block argument per new value. The old
    loop's results are replaced by the new loop's first results (or, when ``replacements``
    is given, the pairs are appended there for the caller to replace later).
    """
    body = for_op.detach_region(0)
    new_for = scf.ForOp(for_op.lb, for_op.ub, for_op.step,
                        [*for_op.iter_args, *new_inits], body)
    new_for.attributes.update(for_op.attributes)
    new_for.location = for_op.location
    block = new_for.body.block
    for value in new_inits:
        block.insert_arg(value.type, len(block.args), value_location(value))
    _take_place(for_op, new_for, replacements)
    return new_for


def replace_if_with_new_signature(
    if_op: scf.IfOp, new_types: Sequence[Attribute],
    replacements: list[tuple[SSAValue, SSAValue]] | None = None,
) -> scf.IfOp:
    """A copy of ``if_op`` with extra results of ``new_types``; regions move over."""
    then_region = if_op.detach_region(0)
    else_region = if_op.detach_region(0)
    new_if = scf.IfOp(if_op.cond, [*(r.type for r in if_op.results), *new_types],
                      then_region, else_region)
    new_if.attributes.update(if_op.attributes)
    new_if.location = if_op.location
    _take_place(if_op, new_if, replacements)
    return new_if


def set_yield_operands(yield_op: Operation, operands: Sequence[SSAValue]) -> scf.YieldOp:
    """Replace ``yield_op`` by an ``scf.yield`` of ``operands``."""
    new_yield = scf.YieldOp(*operands)
    Rewriter.replace_op(yield_op, new_yield)
    return new_yield


def _removable_if_unused(op: Operation) -> bool:
    """MLIR's ``wouldOpBeTriviallyDead``: nothing but its results would be lost."""
    return would_be_trivially_dead(op)


def _eliminate_in_loop(for_op: scf.ForOp) -> bool:
    block = for_op.body.block
    yield_op = block.last_op
    if not isinstance(yield_op, scf.YieldOp):
        return False
    alive: set[SSAValue] = set()
    queue: list[SSAValue] = []

    def mark(value: SSAValue) -> None:
        parent = value.owner if isinstance(value, OpResult) else value.block
        region_op = parent.parent_op() if isinstance(value, BlockArgument) else value.op
        if region_op is None or not (region_op is for_op or for_op.is_ancestor(region_op)):
            return
        if value not in alive:
            alive.add(value)
            queue.append(value)

    for i, result in enumerate(for_op.results):
        if result.uses:
            mark(yield_op.operands[i])
    if len(alive) == len(for_op.results):
        return False
    for op in block.walk():
        if isinstance(op, (scf.YieldOp, scf.ForOp)):
            continue
        if not _removable_if_unused(op):
            for operand in op.operands:
                mark(operand)
    while queue:
        value = queue.pop()
        if isinstance(value, OpResult):
            producer = value.op
            if isinstance(producer, scf.ForOp):
                mark(producer.iter_args[value.index])
                mark(producer.body.block.last_op.operands[value.index])
                continue
            if isinstance(producer, scf.IfOp):
                mark(producer.cond)
                for region in (producer.true_region, producer.false_region):
                    if region.blocks:
                        mark(region.block.last_op.operands[value.index])
                continue
            if isinstance(producer, scf.WhileOp):
                return False
            for operand in producer.operands:
                mark(operand)
            continue
        owner = value.block.parent_op()
        if isinstance(owner, scf.ForOp) and value.index > 0:
            index = value.index - 1
            mark(owner.body.block.last_op.operands[index])
            mark(owner.iter_args[index])
    dead = []
    for i, yielded in enumerate(yield_op.operands):
        if yielded in alive or yielded is block.args[i + 1]:
            continue
        defined_inside = (isinstance(yielded, OpResult) and for_op.is_ancestor(yielded.op)) or (
            isinstance(yielded, BlockArgument) and for_op.is_ancestor(yielded.block.parent_op()))
        if not defined_inside and yielded is not for_op.iter_args[i]:
            continue  # the loop may run zero times: its result would differ
        dead.append(i)
    if not dead:
        return False
    operands = list(yield_op.operands)
    for i in dead:
        operands[i] = block.args[i + 1]
    set_yield_operands(yield_op, operands)
    return True


def eliminate_dead_iter_args(root: Operation) -> None:
    """Make every ``scf.for`` under ``root`` stop updating loop-carried values that only
    feed their own update and whose result is unused."""
    for op in list(root.walk()):
        if isinstance(op, scf.ForOp):
            _eliminate_in_loop(op)
