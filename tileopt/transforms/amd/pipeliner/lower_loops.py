"""LowerLoops, the first phase of ``tritonamdgpu-pipeline`` (Triton 3.6's AMD
``LowerLoops.cpp``, single-dot schedule, stream copies through registers):

- the loads ``tritonamdgpu-schedule-loops`` picked (found again the same way) whose users
  all read them as dot operands get a multi-buffered shared allocation in the layout those
  users want (``max(1, localLoadStage - localStoreStage)`` buffers);
- one counter (an iter arg from -1, ``+1`` wrapped at the buffer count, computed first in
  the body) picks the buffer each iteration works on;
- each such load becomes ``memdesc_index`` + a copy of the load + ``local_store`` into the
  view, and its users read a ``local_load`` of the view instead (the original load stays,
  dead, in its place and its schedule slot, as in Triton);
- the schedule: global loads at stage 0, local stores at stage ``maxDist``, local loads and
  compute at the last stage, in five clusters (the old load cluster and compute cluster
  are mapped onto them); then the producers of scheduled ops, the values read one
  iteration later, and everything left over (last stage, compute cluster) are placed as
  in ``tritongpu-pipeline``.

Asynchronous copies (``use-async-copy``), descriptor (TDM) loads, bypassing LDS and the
chained two-dot schedule are not built.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.analysis.axis_info import AxisInfoAnalysis
from tileopt.dialects import arith as tensor_arith
from tileopt.dialects.ttg import LocalLoadOp, LocalStoreOp, MemDescIndexOp
from tileopt.transforms.amd.schedule_loops import filters_small_loads, target_arch
from tileopt.transforms.ttgir.assign_latencies import NUM_STAGES, loads_to_indirection_level
from tileopt.transforms.ttgir.pipeliner.lower_loops import (
    buffer_view_type,
    create_multi_buffer,
)
from tileopt.transforms.ttgir.pipeliner.schedule import Cluster, CoarseSchedule
from tileopt.transforms.ttgir.pipeliner.schedule_loops import (
    schedule_distance_one_dependencies,
    schedule_remaining_to_last_stage,
)
from tileopt.transforms.utils.async_loads import dot_operand_buffer_layout
from tileopt.transforms.utils.builder import located
from tileopt.transforms.utils.scf_rewrites import (
    replace_for_with_new_signature,
    set_yield_operands,
)

GLOBAL_LOAD, LOCAL_STORE, LOCAL_LOAD, COMPUTE, ASYNC_WAIT = range(5)


class StreamPlan:
    """Stages and clusters of the single-dot schedule (Triton's ``initSchedule``)."""

    def __init__(self, max_dist: int, num_stages: int, schedule: CoarseSchedule):
        last = num_stages - 1
        self.stages = {GLOBAL_LOAD: 0, LOCAL_STORE: max_dist, LOCAL_LOAD: last,
                       COMPUTE: last, ASYNC_WAIT: last}
        self.valid = self.stages[LOCAL_STORE] < num_stages and \
            self.stages[LOCAL_STORE] <= self.stages[LOCAL_LOAD]
        self.buffers = max(1, self.stages[LOCAL_LOAD] - self.stages[LOCAL_STORE])
        # Loads and stores in the same stage are spread apart to overlap with compute.
        paired = max_dist == 0
        global_load, local_store = (1, 3) if paired else (3, 2)
        local_load = global_load
        if self.stages[LOCAL_LOAD] == self.stages[LOCAL_STORE]:
            local_load = max(3, local_store + 1)
        elif self.buffers == 1 and local_load >= local_store:
            local_load = local_store - 1  # one buffer: read it before overwriting it
        compute = local_load if self.stages[LOCAL_LOAD] == self.stages[COMPUTE] else 2
        self.index = {GLOBAL_LOAD: global_load, LOCAL_STORE: local_store,
                      LOCAL_LOAD: local_load, COMPUTE: compute, ASYNC_WAIT: 0}
        self.clusters: dict[int, Cluster] = {}

    def remap(self, schedule: CoarseSchedule) -> None:
        """Replace the schedule's clusters by five new ones; ops of the old first cluster
        (the loads) go to the global-load one, the others to the compute one."""
        old = {op: schedule.cluster_id(cluster) for op, (_, cluster) in schedule.ops.items()}
        schedule.clusters = []
        fresh = [schedule.new_at_back() for _ in range(5)]
        self.clusters = {kind: fresh[i] for kind, i in self.index.items()}
        for op, cluster_id in old.items():
            kind = GLOBAL_LOAD if cluster_id == 0 else COMPUTE
            schedule.insert(op, schedule.ops[op][0], self.clusters[kind])

    def place(self, kind: int) -> tuple[int, Cluster]:
        return self.stages[kind], self.clusters[kind]


def _constant(value: int, before: Operation) -> SSAValue:
    op = located(arith.ConstantOp(IntegerAttr(value, IntegerType(32))), before.location)
    Rewriter.insert_op(op, InsertPoint.before(before))
    return op.result


def add_buffer_counter(loop: scf.ForOp, buffers: int) -> tuple[scf.ForOp, SSAValue]:
    """The loop with a new iter arg counting buffers from -1; the body's first ops advance
    it (wrapping at ``buffers``); the loop and the advanced counter."""
    minus_one, zero = _constant(-1, loop), _constant(0, loop)
    one, count = _constant(1, loop), _constant(buffers, loop)
    new_loop = replace_for_with_new_signature(loop, [minus_one])
    Rewriter.erase_op(loop)
    block = new_loop.body.block
    first = block.first_op
    assert first is not None
    bumped = arith.AddiOp(block.args[-1], one)
    below = tensor_arith.CmpiOp(bumped.result, count, "slt")
    index = tensor_arith.SelectOp(below.results[0], bumped.result, zero)
    for op in (bumped, below, index):
        Rewriter.insert_op(located(op, new_loop.location), InsertPoint.before(first))
    terminator = block.last_op
    assert terminator is not None
    set_yield_operands(terminator, [*terminator.operands, index.results[0]])
    return new_loop, index.results[0]


def stream_copy(load: Operation, alloc: SSAValue, index: SSAValue
                ) -> tuple[Operation, Operation, Operation, Operation | None]:
    """Copy, view, local_store and local_load (None where nothing reads the load) that
    replace ``load``'s users (Triton's ``createStreamCopy``)."""
    point = InsertPoint.before(load)
    view = located(MemDescIndexOp(alloc, index, buffer_view_type(alloc.type)), load.location)
    Rewriter.insert_op(view, point)
    copy = load.clone()
    Rewriter.insert_op(copy, point)
    store = located(LocalStoreOp(copy.results[0], view.results[0]), load.location)
    Rewriter.insert_op(store, point)
    if not load.results[0].uses:
        return copy, view, store, None
    local = located(LocalLoadOp(view.results[0], load.results[0].type), load.location)
    Rewriter.insert_op(local, point)
    load.results[0].replace_all_uses_with(local.results[0])
    return copy, view, store, local


def lower_loop(loop: scf.ForOp, axis_info: AxisInfoAnalysis, filter_small: bool) -> None:
    schedule = CoarseSchedule.deserialize(loop, partial=True)
    if schedule is None:
        return
    num_stages = schedule.num_stages
    levels = loads_to_indirection_level(loop, NUM_STAGES in loop.attributes, axis_info,
                                        filter_small)
    levels = {op: info for op, info in levels.items() if info[0] < num_stages - 1}
    encodings: dict[Operation, Attribute | None] = {
        load: dot_operand_buffer_layout(load.results[0])[0] for load in levels}
    plan = StreamPlan(max((lvl for lvl, _ in levels.values()), default=0), num_stages,
                      schedule)
    if plan.valid:
        plan.remap(schedule)
        loop, index = add_buffer_counter(loop, plan.buffers)
        for load, encoding in encodings.items():
            ty = load.results[0].type
            if encoding is None or load.name != "tt.load" or not isinstance(ty, TensorType):
                continue
            alloc = create_multi_buffer(loop, ty, encoding, plan.buffers, load.location)
            copy, view, store, local = stream_copy(load, alloc, index)
            schedule.insert(copy, *schedule[load])
            schedule.insert(view, *plan.place(LOCAL_STORE))
            schedule.insert(store, *plan.place(LOCAL_STORE))
            if local is not None and plan.stages[LOCAL_LOAD] != plan.stages[COMPUTE]:
                schedule.insert(local, *plan.place(LOCAL_LOAD))
                users = [u.operation for u in local.results[0].uses]
                if len(users) == 1 and users[0].name == "ttg.convert_layout":
                    schedule.insert(users[0], *plan.place(LOCAL_LOAD))
        schedule.schedule_dependencies(loop)
        schedule_distance_one_dependencies(loop, schedule)
        schedule_remaining_to_last_stage(loop, schedule, plan.clusters[COMPUTE])
    schedule.serialize(loop)


def lower_loops(module: Operation) -> None:
    loops = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    if not loops:
        return
    axis_info = AxisInfoAnalysis(module)
    filter_small = filters_small_loads(target_arch(module))
    for loop in loops:
        lower_loop(loop, axis_info, filter_small)
