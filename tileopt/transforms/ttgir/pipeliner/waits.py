"""The ``ttg.async_wait`` counts after pipelining (Triton 3.6's ``updateWaits``).

A wait on a commit-group token may let ``num`` groups stay in flight, ``num`` being the
fewest ``async_commit_group`` ops issued after that token's group on any path to the wait
(through the loop's back edge and from its init values; ops nested in other ops are not
counted, which errs low). Then adjacent waits with no commit between them become one wait
on all their tokens with the smallest count.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.dialects.ttg import AsyncWaitOp
from tileopt.transforms.utils.builder import located

_UNKNOWN = 1 << 62


def _commits_between(start: Operation | None, end: Operation) -> int:
    count = 0
    op = start
    while op is not None and op is not end:
        if op.name == "ttg.async_commit_group":
            count += 1
        op = op.next_op
    return count


def min_commits_in_flight(wait: Operation) -> int:
    """The count a wait on one token may use: commits after the token's, on any path."""
    if len(wait.operands) != 1:
        return 0
    value = wait.operands[0]
    sink = wait
    while sink.parent_region() is not _region_of(value):
        sink = sink.parent_op()
    best = [_UNKNOWN]

    def over_histories(val: SSAValue, sink_op: Operation, so_far: int) -> int:
        if isinstance(val, OpResult):
            so_far += _commits_between(val.op.next_op, sink_op)
            best[0] = min(best[0], so_far)
            return best[0]
        if isinstance(val, BlockArgument):
            loop = val.block.parent_op()
            if loop is None or loop.name != "scf.for":
                return 0
            so_far += _commits_between(val.block.first_op, sink_op)
            if so_far >= best[0]:
                return best[0]
            init = loop.operands[3 + val.index - 1]
            from_init = over_histories(init, loop, so_far)
            terminator = val.block.last_op
            from_back_edge = over_histories(terminator.operands[val.index - 1], terminator,
                                            so_far)
            return min(from_init, from_back_edge, best[0])
        return 0

    return over_histories(value, sink, 0)


def _region_of(value: SSAValue):
    if isinstance(value, OpResult):
        return value.op.parent_region()
    return value.block.parent


_BRANCHES = ("scf.for", "scf.if", "scf.while", "scf.execute_region", "scf.index_switch")


def combine_adjacent_waits(waits: list[Operation]) -> None:
    """Merge each run of waits with no commit and no control flow between them into one
    at the first's place and location (Triton's ``combineRedundantWaitOps``)."""
    replaced: dict[Operation, Operation] = {}
    for wait in waits:
        if wait in replaced:
            continue
        group = [wait]
        tokens = list(wait.operands)
        count = wait.properties["num"].value.data
        op = wait.next_op
        while op is not None and op.name != "ttg.async_commit_group" and (
                op.name not in _BRANCHES):
            if op.name == "ttg.async_wait":
                group.append(op)
                count = min(count, op.properties["num"].value.data)
                tokens.extend(op.operands)
            op = op.next_op
        if len(group) == 1:
            continue
        merged = located(AsyncWaitOp(tokens, count), wait.location)
        Rewriter.insert_op(merged, InsertPoint.before(group[0]))
        for old in group:
            replaced[old] = merged
    for old, merged in replaced.items():
        old.results[0].replace_all_uses_with(merged.results[0])
        Rewriter.erase_op(old)


def update_waits(module: Operation) -> None:
    waits = [op for op in module.walk() if op.name == "ttg.async_wait"]
    for wait in waits:
        wait.properties["num"] = IntegerAttr(min_commits_in_flight(wait), i32)
    combine_adjacent_waits(waits)
