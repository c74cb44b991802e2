"""Moving loop-invariant ops out of ``scf.for`` / ``scf.while`` loops (MLIR's
``moveLoopInvariantCode``), shared by ``loop-invariant-code-motion`` and ``triton-licm``.

An op is invariant when every value it (or an op nested in it) uses is defined outside the
loop; whether it *may* move is the caller's ``should_move`` decision. Loops are visited
innermost first, so what leaves an inner loop can then leave the outer one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from xdsl.ir import Operation, Region
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator, MemoryEffectKind, get_effects, is_speculatable

LOOP_OPS = ("scf.for", "scf.while")


def loop_regions(loop: Operation) -> list[Region]:
    return list(loop.regions)


def is_invariant(op: Operation, loop: Operation) -> bool:
    """Every value ``op`` (or an op inside it) uses comes from outside ``loop``."""
    for inner in op.walk():
        for operand in inner.operands:
            if op.is_ancestor(operand.owner):
                continue  # defined inside the op that moves with it
            if loop.is_ancestor(operand.owner):
                return False
    return True


def is_memory_effect_free(op: Operation) -> bool:
    """No memory effect in ``op`` or the ops inside it (unknown effects count as effects)."""
    for inner in op.walk():
        effects = get_effects(inner)
        if effects is None or effects:
            return False
    return True


def only_reads(op: Operation) -> bool:
    """Every effect of ``op`` and the ops inside it is a read (unknown effects are not)."""
    for inner in op.walk():
        effects = get_effects(inner)
        if effects is None:
            return False
        if any(e.kind is not MemoryEffectKind.READ for e in effects):
            return False
    return True


def is_pure_and_speculatable(op: Operation) -> bool:
    return is_memory_effect_free(op) and is_speculatable(op)


def move_loop_invariant_code(
        root: Operation,
        should_move: Callable[[Operation, Operation], bool],
        before_move: Callable[[Operation, Operation], Operation] | None = None) -> int:
    """Hoist what ``should_move(op, loop)`` allows out of every loop in ``root``.

    ``before_move(op, loop)`` may rewrite the op just before it leaves the loop, and returns
    the op that moves (triton-licm adds a trip-count guard to loads). Returns the number of
    ops moved.
    """
    loops = [op for op in root.walk(region_first=True) if op.name in LOOP_OPS]
    return sum(hoist_from_loop(loop, should_move, before_move) for loop in loops)


def hoist_from_loop(
        loop: Operation,
        should_move: Callable[[Operation, Operation], bool],
        before_move: Callable[[Operation, Operation], Operation] | None = None) -> int:
    """MLIR's ``moveLoopInvariantCode`` on one loop: its invariant ops (an op with regions
    moves whole) that ``should_move`` allows go before it. Returns the number moved."""
    moved = 0
    for region in loop_regions(loop):
        worklist = deque(op for block in region.blocks for op in block.ops)
        while worklist:
            op = worklist.popleft()
            if op.parent_region() is not region or op.has_trait(IsTerminator):
                continue
            if not is_invariant(op, loop) or not should_move(op, loop):
                continue
            if before_move is not None:
                op = before_move(op, loop)
            op.detach()
            Rewriter.insert_op(op, InsertPoint.before(loop))
            moved += 1
            for result in op.results:
                for use in result.uses:
                    if use.operation.parent_region() is region:
                        worklist.append(use.operation)
    return moved
