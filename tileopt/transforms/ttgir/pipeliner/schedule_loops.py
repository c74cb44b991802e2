"""``tritongpu-schedule-loops``: give every op of a loop with latencies (``tt.latency``,
from ``tritongpu-assign-latencies``) a stage and a cluster for ``tritongpu-pipeline``
(Triton 3.6's ``ScheduleLoops.cpp``).

- Key ops: an op reachable from a latency op gets stage ``D - d``, where ``d`` is the
  longest latency-weighted path from it to the loop's end and ``D`` the longest over all
  latency ops; stage ``s`` starts in cluster ``maxStage - s`` (later stages first).
- ``scf.if`` ops are pushed to prologue/epilogue clusters.
- The producers of a scheduled op join its stage and cluster (the earliest one wins).
- A value an op reads through an iter arg (distance 1) is computed one stage later, in a
  new cluster just before the op's (a load stays with its user instead).
- Everything else goes to the last stage, no earlier than the clusters of its producers.

Loops with a barrier, with a nested loop, or that yield an iter arg unchanged are left
alone. The ``tt.latency`` attributes are consumed.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import BlockArgument, Operation, OpResult

from tileopt.analysis.structured_dominance import ancestor_in_block
from tileopt.passes import Pass, register_pass
from tileopt.transforms.ttgir.pipeliner.schedule import (
    LATENCY_ATTR,
    Cluster,
    CoarseSchedule,
    body_ops,
    nested_operands,
    yielded_for,
)


def take_latencies(root: Operation) -> dict[Operation, int]:
    """The ``tt.latency`` of every op under ``root``, removing the attributes."""
    latencies = {}
    for op in root.walk():
        attr = op.attributes.pop(LATENCY_ATTR, None)
        if isinstance(attr, IntegerAttr):
            latencies[op] = attr.value.data
    return latencies


def yields_iter_arg(loop: scf.ForOp) -> bool:
    """The loop yields a value no op computes (a distance above one)."""
    terminator = loop.body.block.last_op
    assert terminator is not None
    return any(not isinstance(v, OpResult) for v in terminator.operands)


def is_outer_loop(loop: scf.ForOp) -> bool:
    return any(op.name in ("scf.for", "scf.while") for op in loop.body.block.ops)


def has_barrier(loop: scf.ForOp) -> bool:
    return any(op.name == "gpu.barrier" for op in loop.walk())


def schedule_key_ops(loop: scf.ForOp, latencies: dict[Operation, int]) -> CoarseSchedule:
    terminator = loop.body.block.last_op
    latency_ops = [op for op in body_ops(loop) if op in latencies]
    if not latency_ops:
        return CoarseSchedule(0)
    distance: dict[Operation, int] = {}

    def distance_to_end(op: Operation) -> int:
        if op in distance:
            return distance[op]
        longest = -1
        for use in [u for r in op.results for u in r.uses]:
            user = ancestor_in_block(use.operation, loop.body.block)
            if user is None or user is terminator:
                continue
            longest = max(longest, distance_to_end(user))
        distance[op] = latencies.get(op, 0) + max(longest, 0)
        return distance[op]

    longest = max(distance_to_end(op) for op in latency_ops)
    stages = {op: longest - d for op, d in distance.items()}
    max_stage = max(stages.values())
    schedule = CoarseSchedule(max_stage + 1)
    clusters = [schedule.new_at_back() for _ in range(max_stage + 1)]
    for op, stage in stages.items():
        schedule.insert(op, stage, clusters[max_stage - stage])
    epilogue = schedule.new_at_back()
    for op, stage in stages.items():
        if op.name != "scf.if" or op in latencies:
            continue
        if any(user in stages for user in forward_slice(op)):
            continue
        schedule.insert(op, stage, epilogue)
    return schedule


def forward_slice(op: Operation) -> list[Operation]:
    """The ops that use ``op``'s results, transitively (MLIR's forward slice)."""
    seen: list[Operation] = []
    work = [op]
    while work:
        current = work.pop()
        for inner in current.walk():
            for result in inner.results:
                for use in result.uses:
                    user = use.operation
                    if user not in seen:
                        seen.append(user)
                        work.append(user)
    return seen


def backward_slice_ifs(op: Operation) -> list[Operation]:
    """The ``scf.if`` ops among the producers of ``op``'s operands, transitively (block
    arguments are not followed, uses from above are)."""
    found: list[Operation] = []
    seen: set[Operation] = set()
    work = [op]
    while work:
        current = work.pop()
        for operand in nested_operands(current):
            if isinstance(operand, OpResult) and operand.op not in seen:
                seen.add(operand.op)
                work.append(operand.op)
                if operand.op.name == "scf.if":
                    found.append(operand.op)
    return found


def schedule_prologue_and_epilogue(loop: scf.ForOp, schedule: CoarseSchedule):
    """Put the ``scf.if`` ops that scheduled ops depend on in a new first cluster, the
    other ones in a new last cluster; the cluster that comes after the prologue."""
    after_prologue = schedule.clusters[0]
    if_stage: dict[Operation, int] = {}
    for stage in range(schedule.num_stages):
        for op, op_stage, _ in schedule.ops_in_order(loop):
            if op_stage == stage:
                for if_op in backward_slice_ifs(op):
                    if_stage.setdefault(if_op, stage)
    if if_stage:
        prologue = schedule.new_at_front()
        for if_op, stage in if_stage.items():
            schedule.insert_if_absent(if_op, stage, prologue)
    epilogue = schedule.new_at_back()
    for op in body_ops(loop):
        if op.name == "scf.if" and op not in if_stage:
            schedule.insert_if_absent(op, schedule.num_stages - 1, epilogue)
    return after_prologue


def schedule_distance_one_dependencies(loop: scf.ForOp, schedule: CoarseSchedule) -> None:
    block = loop.body.block
    before: dict[int, Cluster] = {}
    for op in body_ops(loop):
        if op not in schedule:
            continue
        stage, cluster = schedule[op]
        if stage == schedule.num_stages - 1:
            continue
        for operand in nested_operands(op):
            if not isinstance(operand, BlockArgument):
                continue
            if operand.index == 0 or operand.block is not block:
                continue
            value = yielded_for(block, operand)
            if not isinstance(value, OpResult) or value.op in schedule:
                continue
            producer = value.op
            if producer.name == "tt.load":
                # A load read one iteration later stays with its user.
                schedule.insert_if_absent(producer, stage, cluster)
                schedule.insert_deps_of_op(producer, stage, cluster, include_arg=True,
                                           if_earlier=True)
                continue
            key = id(cluster)
            if key not in before:
                before[key] = schedule.new_before(cluster)
            target = before[key]
            schedule.insert_if_absent(producer, stage + 1, target)
            schedule.insert_deps_of_op(producer, stage + 1, target, include_arg=True,
                                       if_earlier=True)


def schedule_remaining_to_last_stage(loop: scf.ForOp, schedule: CoarseSchedule,
                                     after_prologue) -> None:
    last = schedule.num_stages - 1
    placed = {op: after_prologue for op in body_ops(loop) if op not in schedule}
    queue = [op for op, stage, _ in schedule.ops_in_order(loop) if stage == last]
    while queue:
        op = queue.pop()
        for user in [u.operation for r in op.results for u in r.uses]:
            if user not in placed:
                continue
            own = schedule[op][1] if op in schedule else placed[op]
            if schedule.cluster_id(placed[user]) < schedule.cluster_id(own):
                placed[user] = own
                queue.append(user)
    for op, cluster in placed.items():
        schedule.insert(op, last, cluster)


def schedule_loop(loop: scf.ForOp, latencies: dict[Operation, int]) -> None:
    if not any(op in latencies for op in body_ops(loop)):
        return
    if yields_iter_arg(loop) or is_outer_loop(loop) or has_barrier(loop):
        return
    schedule = schedule_key_ops(loop, latencies)
    if not schedule.ops:
        return
    after_prologue = schedule_prologue_and_epilogue(loop, schedule)
    schedule.schedule_dependencies(loop)
    schedule_distance_one_dependencies(loop, schedule)
    schedule_remaining_to_last_stage(loop, schedule, after_prologue)
    schedule.serialize(loop)


@register_pass
class ScheduleLoops(Pass):
    """Assign pipeline stages and clusters to the ops of loops with latencies."""

    name = "tritongpu-schedule-loops"

    def apply(self, ctx: Context, op: Operation) -> None:
        latencies = take_latencies(op)
        for loop in [o for o in op.walk() if isinstance(o, scf.ForOp)]:
            schedule_loop(loop, latencies)
