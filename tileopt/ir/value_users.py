"""The comments of ``--mlir-print-value-users``, worded as MLIR's printer words them:

- after an op with results: ``// unused``, or ``// user: %x`` (one user op, itself with at
  most one result) / ``// users: %x, %y#0, %y#1``; with several results each result's
  users in parentheses, ``(unused)`` for none: ``// users: (%a, %b), (unused)``;
- after an op without results that has operands: ``// id: %op0``, the name its users'
  comments give it;
- after a block's header, a line per argument: ``// %arg0 is used by %x, %y`` or
  ``// %arg2 is unused``.

A user is named by its results; one op using a value twice is named once.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import BlockArgument, Operation, SSAValue

Identify = Callable[[Operation], str]


def op_ids(root: Operation) -> dict[Operation, str]:
    """``%op0``, ``%op1``, ... for the ops without results inside ``root``, in text order
    (MLIR numbers them with the values; tileopt keeps the values' names and numbers them
    apart)."""
    ops = [op for op in root.walk() if op is not root and not op.results]
    return {op: f"%op{index}" for index, op in enumerate(ops)}


def _unique_users(value: SSAValue) -> list[Operation]:
    users: list[Operation] = []
    for use in value.uses:
        if use.operation not in users:
            users.append(use.operation)
    return users


def _value_users(value: SSAValue, identify: Identify) -> str:
    users = _unique_users(value)
    return ", ".join(identify(user) for user in users) if users else "unused"


def users_comment(op: Operation, identify: Identify) -> str:
    if not op.results:
        return f" // id: {identify(op)}" if op.operands else ""
    users = [user for result in op.results for user in _unique_users(result)]
    if not users:
        return " // unused"
    distinct = list(dict.fromkeys(users))
    one = len(op.results) == 1 and len(distinct) == 1 and len(distinct[0].results) <= 1
    if len(op.results) == 1:
        listed = _value_users(op.results[0], identify)
    else:
        listed = ", ".join(f"({_value_users(result, identify)})" for result in op.results)
    return f" // {'user' if one else 'users'}: {listed}"


def argument_users_comment(arg: BlockArgument, name: Callable[[SSAValue], str],
                           identify: Identify) -> str:
    users = _value_users(arg, identify)
    return f"// {name(arg)} is unused" if users == "unused" else \
        f"// {name(arg)} is used by {users}"
