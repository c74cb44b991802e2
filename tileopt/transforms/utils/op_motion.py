"""Moving ops within a block, shared by the instruction-reordering passes
(``tritongpu-reorder-instructions`` and ``tritonamdgpu-reorder-instructions``)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import scf
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.analysis.structured_dominance import ancestor_in_block, is_before_in_block


def move_before(op: Operation, anchor: Operation) -> None:
    op.detach()
    Rewriter.insert_op(op, InsertPoint.before(anchor))


def move_after(op: Operation, anchor: Operation) -> None:
    op.detach()
    Rewriter.insert_op(op, InsertPoint.after(anchor))


def users_of(op: Operation) -> list[Operation]:
    return [use.operation for result in op.results for use in result.uses]


def enclosing_for(op: Operation) -> scf.ForOp | None:
    """The innermost ``scf.for`` around ``op``, if any."""
    current = op.parent_op()
    while current is not None and not isinstance(current, scf.ForOp):
        current = current.parent_op()
    return current


def sink_into_user_loops(root: Operation, should_sink: Callable[[Operation], bool]) -> None:
    """Move each op of ``root`` that ``should_sink`` picks and that has a single user in
    another loop than its own right before that user."""
    moves: dict[Operation, Operation] = {}
    for op in root.walk():
        if not should_sink(op):
            continue
        users = users_of(op)
        if len(users) == 1 and enclosing_for(users[0]) is not enclosing_for(op):
            moves.setdefault(op, users[0])
    for op, user in moves.items():
        move_before(op, user)


def first_use_in_block(op: Operation) -> Operation | None:
    """The earliest op of ``op``'s block that uses ``op`` (itself or inside its regions)."""
    block = op.parent_block()
    ancestors = [a for user in users_of(op) if (a := ancestor_in_block(user, block)) is not None]
    first = None
    for ancestor in ancestors:
        if first is None or is_before_in_block(ancestor, first):
            first = ancestor
    return first


def sink_converts_below_deallocs(root: Operation) -> None:
    """Move each ``ttg.convert_layout`` below the ``ttg.local_dealloc`` ops between it and its
    first use, so the conversion's scratch can reuse the freed shared memory."""
    for op in [o for o in root.walk() if o.name == "ttg.convert_layout"]:
        first_use = first_use_in_block(op)
        current = op.next_op
        while current is not None and current is not first_use:
            following = current.next_op
            if current.name == "ttg.local_dealloc":
                move_after(op, current)
            current = following
