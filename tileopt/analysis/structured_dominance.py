"""Dominance and post-dominance in structured (single-block region) IR.

TritonGPU IR before ``convert-scf-to-cf`` has only single-block regions (functions,
``scf.for``, ``scf.if``, reduce bodies), so dominance reduces to program order along the
chain of enclosing ops: a value defined by op ``d`` properly dominates op ``u`` when
``d``'s block holds an ancestor of ``u`` that comes after ``d`` (an op does not dominate
what is nested in it); a block argument dominates everything in its block. This is what
MLIR's ``DominanceInfo``/``PostDominanceInfo`` answer for such IR.
"""

from __future__ import annotations

from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue


def ancestor_in_block(op: Operation, block: Block) -> Operation | None:
    """``op`` or the enclosing op of ``op`` that sits directly in ``block``."""
    current: Operation | None = op
    while current is not None and current.parent_block() is not block:
        current = current.parent_op()
    return current


def is_before_in_block(a: Operation, b: Operation) -> bool:
    """``a`` comes strictly before ``b``; both are in one block."""
    current = a.next_op
    while current is not None:
        if current is b:
            return True
        current = current.next_op
    return False


def properly_dominates(value: SSAValue, op: Operation) -> bool:
    """Every path to ``op`` goes through the definition of ``value`` first."""
    if isinstance(value, BlockArgument):
        return ancestor_in_block(op, value.block) is not None
    assert isinstance(value, OpResult)
    definer = value.op
    if definer is op:
        return False
    ancestor = ancestor_in_block(op, definer.parent_block())
    if ancestor is None or ancestor is definer:
        return False
    return is_before_in_block(definer, ancestor)


def post_dominates(a: Operation, b: Operation) -> bool:
    """Every path from ``b`` to the end of the function goes through ``a``."""
    ancestor = ancestor_in_block(b, a.parent_block())
    if ancestor is None:
        return False
    return ancestor is not a and is_before_in_block(ancestor, a)


def dominates(a: Operation, b: Operation) -> bool:
    """``a`` is ``b`` or runs before it on every path (an op does not dominate the ops
    nested in it: their results could not flow out through it)."""
    if a is b:
        return True
    ancestor = ancestor_in_block(b, a.parent_block())
    return ancestor is not None and ancestor is not a and is_before_in_block(a, ancestor)
