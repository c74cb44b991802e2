"""Building ops in front of an existing op, as MLIR's ``OpBuilder`` set before it."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter


class OpBuilder:
    """Inserts new ops before a fixed op, in creation order, with that op's location."""

    def __init__(self, anchor: Operation):
        self.anchor = anchor

    def add(self, op: Operation) -> SSAValue:
        """Insert ``op``; its first result (None for an op without results)."""
        op.location = self.anchor.location
        Rewriter.insert_op(op, InsertPoint.before(self.anchor))
        return op.results[0] if op.results else None  # type: ignore[return-value]


def located(op: Operation, location) -> Operation:
    """``op`` with ``location`` (an ``OpBuilder``'s ``create(loc, ...)``): the op a pass
    builds takes the location of the value or op it stands for, as in MLIR."""
    op.location = location
    return op
