"""The coarse schedule of a loop for the software pipeliner (Triton 3.6's
``CoarseSchedule``): each op of the loop body gets a stage (which iteration, counted back
from the latest, it works on once pipelined) and a cluster (its place among the ops of
the same stage). Clusters form an ordered list; new ones are inserted anywhere in it, and a
cluster's id is its position in the list.

On the IR the schedule is the ``loop.stage``/``loop.cluster`` attributes of the body's ops
and ``tt.scheduled_max_stage`` on the loop; ``tritongpu-schedule-loops`` writes them and
``tritongpu-pipeline`` reads them back.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from tileopt.passes import PassFailure

STAGE_ATTR = "loop.stage"
CLUSTER_ATTR = "loop.cluster"
MAX_STAGE_ATTR = "tt.scheduled_max_stage"
LATENCY_ATTR = "tt.latency"


class Cluster:
    """One cluster; ordered by its position in the schedule's list, never by identity."""

    __slots__ = ()


class CoarseSchedule:
    def __init__(self, num_stages: int = 0):
        self.num_stages = num_stages
        self.clusters: list[Cluster] = []
        self.ops: dict[Operation, tuple[int, Cluster]] = {}

    # -- the cluster list --------------------------------------------------------------

    def new_at_back(self) -> Cluster:
        cluster = Cluster()
        self.clusters.append(cluster)
        return cluster

    def new_at_front(self) -> Cluster:
        cluster = Cluster()
        self.clusters.insert(0, cluster)
        return cluster

    def new_before(self, other: Cluster) -> Cluster:
        cluster = Cluster()
        self.clusters.insert(self.cluster_id(other), cluster)
        return cluster

    def cluster_id(self, cluster: Cluster) -> int:
        return next(i for i, c in enumerate(self.clusters) if c is cluster)

    # -- ops ---------------------------------------------------------------------------

    def __contains__(self, op: Operation) -> bool:
        return op in self.ops

    def __getitem__(self, op: Operation) -> tuple[int, Cluster]:
        return self.ops[op]

    def insert(self, op: Operation, stage: int, cluster: Cluster) -> None:
        # a stage past the last one adds stages (Triton's CoarseSchedule::insert), also
        # when a loop's ops carry stages past its tt.scheduled_max_stage
        self.num_stages = max(self.num_stages, stage + 1)
        self.ops[op] = (stage, cluster)

    def insert_if_absent(self, op: Operation, stage: int, cluster: Cluster) -> bool:
        if op in self.ops:
            return False
        self.insert(op, stage, cluster)
        return True

    def insert_minimum(self, op: Operation, stage: int, cluster: Cluster) -> bool:
        """Insert, or move ``op`` to (stage, cluster) where that comes earlier."""
        if op not in self.ops:
            self.insert(op, stage, cluster)
            return True
        old_stage, old_cluster = self.ops[op]
        if stage != old_stage:
            if stage < old_stage:
                self.insert(op, stage, cluster)
            return stage < old_stage
        if self.cluster_id(cluster) < self.cluster_id(old_cluster):
            self.insert(op, stage, cluster)
            return True
        return False

    def insert_deps_of_op(self, op: Operation, stage: int, cluster: Cluster,
                          include_arg: bool, if_earlier: bool) -> bool:
        """Schedule the producers of ``op``'s operands (those of ops nested in it too)
        in the same block at (stage, cluster), transitively; with ``include_arg``, an
        iter arg stands for the value the loop yields for it."""
        inserted = False
        block = op.parent_block()
        for operand in nested_operands(op):
            value = operand
            seen: set[SSAValue] = set()
            while isinstance(value, BlockArgument) and include_arg and value not in seen:
                seen.add(value)
                if value.index > 0 and value.block is block:
                    value = yielded_for(block, value)
                    continue
                break
            if not isinstance(value, OpResult) or value.op.parent_block() is not block:
                continue
            producer = value.op
            insert = self.insert_minimum if if_earlier else self.insert_if_absent
            if insert(producer, stage, cluster):
                inserted = True
                self.insert_deps_of_op(producer, stage, cluster, include_arg, if_earlier)
        return inserted

    def ops_in_order(self, loop: scf.ForOp) -> list[tuple[Operation, int, Cluster]]:
        """The scheduled ops by cluster, in body order within a cluster."""
        by_cluster: dict[int, list[tuple[Operation, int, Cluster]]] = {}
        for op in body_ops(loop):
            if op in self.ops:
                stage, cluster = self.ops[op]
                by_cluster.setdefault(self.cluster_id(cluster), []).append(
                    (op, stage, cluster))
        return [entry for key in sorted(by_cluster) for entry in by_cluster[key]]

    def schedule_dependencies(self, loop: scf.ForOp) -> None:
        """Put the producers of each scheduled op in its stage and cluster, stage by
        stage (the earliest placement wins)."""
        ordered = self.ops_in_order(loop)
        for stage in range(self.num_stages):
            for op, op_stage, cluster in ordered:
                if op_stage == stage:
                    self.insert_deps_of_op(op, stage, cluster, include_arg=False,
                                           if_earlier=True)

    # -- the IR form -------------------------------------------------------------------

    def serialize(self, loop: scf.ForOp) -> None:
        for op, stage, cluster in self.ops_in_order(loop):
            op.attributes[STAGE_ATTR] = _i32(stage)
            op.attributes[CLUSTER_ATTR] = _i32(self.cluster_id(cluster))
        max_stage = self.num_stages - 1
        old = loop.attributes.get(MAX_STAGE_ATTR)
        if isinstance(old, IntegerAttr):
            max_stage = max(max_stage, old.value.data)
        loop.attributes[MAX_STAGE_ATTR] = _i32(max_stage)

    @classmethod
    def deserialize(cls, loop: scf.ForOp, partial: bool = False) -> CoarseSchedule | None:
        """The schedule written on ``loop``; None where it has none. ``partial``: ops
        with neither attribute are not scheduled yet (AMD's schedule-loops places only
        the loads and the dot), else every op must have both."""
        max_stage = loop.attributes.get(MAX_STAGE_ATTR)
        if not isinstance(max_stage, IntegerAttr):
            return None
        schedule = cls(max_stage.value.data + 1)
        places = {op: stage_cluster(op) for op in body_ops(loop) if not partial
                  or STAGE_ATTR in op.attributes or CLUSTER_ATTR in op.attributes}
        clusters = [schedule.new_at_back()
                    for _ in range(max((c for _, c in places.values()), default=-1) + 1)]
        for op, (stage, cluster) in places.items():
            schedule.insert(op, stage, clusters[cluster])
        return schedule


def _i32(value: int) -> IntegerAttr:
    return IntegerAttr(value, IntegerType(32))


def stage_cluster(op: Operation) -> tuple[int, int]:
    stage = op.attributes.get(STAGE_ATTR)
    cluster = op.attributes.get(CLUSTER_ATTR)
    if not isinstance(stage, IntegerAttr) or not isinstance(cluster, IntegerAttr):
        raise PassFailure(op, f"a scheduled loop's op needs integer '{STAGE_ATTR}' and "
                              f"'{CLUSTER_ATTR}' attributes")
    if stage.value.data < 0 or cluster.value.data < 0:
        raise PassFailure(op, "pipeline stages and clusters are not negative")
    return stage.value.data, cluster.value.data


def body_ops(loop: scf.ForOp) -> Iterator[Operation]:
    """The loop body's ops without the terminator."""
    for op in loop.body.block.ops:
        if op is not loop.body.block.last_op:
            yield op


def yielded_for(block: Block, arg: BlockArgument) -> SSAValue:
    """What the loop yields for iter arg ``arg`` (block argument index > 0)."""
    terminator = block.last_op
    assert terminator is not None
    return terminator.operands[arg.index - 1]


def nested_operands(op: Operation) -> list[SSAValue]:
    """The operands of ``op`` and of the ops nested in it that come from outside it."""
    operands: list[SSAValue] = []
    for inner in op.walk():
        for operand in inner.operands:
            if inner is op or not defined_inside(operand, op):
                operands.append(operand)
    return operands


def defined_inside(value: SSAValue, op: Operation) -> bool:
    """``value`` is a result or block argument of ``op`` or of an op nested in it."""
    owner = value.op if isinstance(value, OpResult) else value.block.parent_op()
    while owner is not None:
        if owner is op:
            return True
        owner = owner.parent_op()
    return False
