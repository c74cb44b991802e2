"""LowerLoops, the first phase of ``tritongpu-pipeline`` (Triton 3.6's ``LowerLoops.cpp``,
loads only): in a scheduled loop, every ``tt.load`` whose first use is some stages later
becomes an asynchronous copy into a multi-buffered shared allocation.

For such a load (its stage distance ``d`` to its first use, counted through a
``local_alloc`` that takes it):

- a ``local_alloc <N x shape>`` before the loop (``N = d``, one more when the buffer feeds
  a ``warp_group_dot``, which still reads it while the next copy is issued) and its
  ``local_dealloc`` after the loop; the shared encoding is the ``local_alloc`` user's, else
  the bank-conflict-free layout of the dot operand all users convert to, else unswizzled;
- two iter args per buffer count, the insert and extract indices, each advanced modulo
  ``N`` at the top of the body;
- in the load's stage: ``memdesc_index(insert)``, ``async_copy_global_to_local`` (with the
  vector width from axis info as ``contiguity``) and ``async_commit_group``;
- in the first user's stage: ``async_wait {num = 0}``, ``memdesc_index(extract)``, then a
  ``local_load`` for the users, except that a ``local_alloc`` of the same encoding is
  replaced by the view itself; a non-zero ``other`` becomes a ``select`` after the load
  (cp.async can only fill with zeros);
- after the loop, ``async_wait {num = 0}``.

Loads that are not used a stage later, scalar loads, and loads whose copy vector is under
4 bytes stay as they are. The new ops join the schedule (the counters as dependencies of
the views), which is written back on the loop.
"""

from __future__ import annotations

import math
from itertools import repeat

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (DenseIntOrFPElementsAttr, Float16Type, Float32Type,
                                   Float64Type, IndexType, IntegerAttr, IntegerType,
                                   TensorType, i32)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.analysis.axis_info import AxisInfoAnalysis, element_bit_width
from tileopt.analysis.structured_dominance import ancestor_in_block
from tileopt.dialects import arith as tensor_arith
from tileopt.dialects.layout_of import encoding_of
from tileopt.dialects.triton_version import is_version_39
from tileopt.dialects.ttg import (
    AsyncCommitGroupOp,
    AsyncCopyGlobalToLocalOp,
    AsyncWaitOp,
    LocalAllocOp,
    LocalDeallocOp,
    LocalLoadOp,
    MemDescIndexOp,
)
from tileopt.dialects.ttg_attrs import SharedMemorySpaceAttr, SwizzledSharedEncodingAttr
from tileopt.dialects.ttg_types import AsyncTokenType, MemDescType
from tileopt.layouts.encodings import get_order
from tileopt.transforms.canonicalization.convert_layout_patterns import recreate_with_result_type
from tileopt.transforms.ttgir.pipeliner.schedule import (
    Cluster,
    CoarseSchedule,
    body_ops,
)
from tileopt.transforms.ttgir.pipeliner.tma_loads import (
    create_barriers_and_waits,
    create_tma_copy,
)
from tileopt.transforms.utils.async_loads import (
    async_copy_bits,
    copy_vector_bytes,
    dot_operand_buffer_layout,
)
from tileopt.transforms.utils.builder import located
from tileopt.transforms.utils.scf_rewrites import (
    replace_for_with_new_signature,
    set_yield_operands,
)

# Views a buffer's users may go through; they are not uses of their own.
_VIEW_OPS = ("ttg.memdesc_trans", "ttg.memdesc_subslice", "ttg.memdesc_reshape",
             "ttg.memdesc_index")


class StageBuilder:
    """Inserts ops at a point, located at ``location``; with a (stage, cluster) set, each
    new op joins the schedule there (Triton's ``OpBuilderForStage``)."""

    def __init__(self, schedule: CoarseSchedule, point: InsertPoint, location: Attribute,
                 place: tuple[int, Cluster] | None = None):
        self.schedule = schedule
        self.point = point
        self.location = location
        self.place = place

    def add(self, op: Operation) -> Operation:
        op.location = self.location
        Rewriter.insert_op(op, self.point)
        if self.place is not None:
            self.schedule.insert(op, *self.place)
        return op

    def constant(self, value: int, width: int = 32) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IntegerType(width)))).results[0]

    def increment_modulo(self, counter: SSAValue, modulus: SSAValue, zero: SSAValue,
                         one: SSAValue) -> SSAValue:
        """``counter + 1``, wrapped to ``zero`` at ``modulus``."""
        return self.increment_modulo_wrapping(counter, modulus, zero, one)[0]

    def increment_modulo_wrapping(self, counter: SSAValue, modulus: SSAValue,
                                  zero: SSAValue, one: SSAValue) -> tuple[SSAValue, SSAValue]:
        """``increment_modulo`` and the i1 that says it wrapped."""
        bumped = self.add(arith.AddiOp(counter, one)).results[0]
        wraps = self.add(tensor_arith.CmpiOp(bumped, modulus, "sge")).results[0]
        return self.add(tensor_arith.SelectOp(wraps, zero, bumped)).results[0], wraps


# ---------------------------------------------------------------------------------------
# Which loads, and how
# ---------------------------------------------------------------------------------------


def top_level_users(value_op: Operation, loop: scf.ForOp) -> list[Operation]:
    """The body ops using ``value_op``'s results, following a yield to the uses of its
    iter arg and a view to the view's users."""
    users: list[Operation] = []
    work = [use for result in value_op.results for use in result.uses]
    terminator = loop.body.block.last_op
    while work:
        use = work.pop()
        owner = use.operation
        if owner is terminator:
            work.extend(loop.body.block.args[use.index + 1].uses)
            continue
        if owner.name in _VIEW_OPS and owner.name != "ttg.memdesc_index":
            work.extend(u for r in owner.results for u in r.uses)
            continue
        top = ancestor_in_block(owner, loop.body.block)
        if top is not None and top not in users:
            users.append(top)
    return users


def def_use_stage_diff(load: Operation, loop: scf.ForOp, schedule: CoarseSchedule) -> int:
    """Stages between ``load`` and its earliest user (a ``local_alloc``'s users count
    as the load's, as the alloc may become the load's buffer)."""
    def_stage, def_cluster = schedule[load]
    users = top_level_users(load, loop)
    for user in list(users):
        if user.name == "ttg.local_alloc":
            users.extend(u for u in top_level_users(user, loop) if u not in users)
    stages = []
    for user in users:
        stage, cluster = schedule[user]
        # A user in a later cluster runs after the next copy into the buffer is issued.
        if schedule.cluster_id(cluster) > schedule.cluster_id(def_cluster):
            stage += 1
        stages.append(stage)
    return min(stages) - def_stage if stages else 0


def first_use(load: Operation, loop: scf.ForOp, schedule: CoarseSchedule,
              *more: Operation) -> Operation:
    """The earliest scheduled user of ``load`` (and of ``more``: a group of loads)."""
    best = None
    users = [u for op in (load, *more) for u in top_level_users(op, loop)]
    for user in users:
        if best is None:
            best = user
            continue
        (stage, cluster), (best_stage, best_cluster) = schedule[user], schedule[best]
        if stage < best_stage or (stage == best_stage and schedule.cluster_id(cluster)
                                  < schedule.cluster_id(best_cluster)):
            best = user
    assert best is not None, "a pipelined load has users"
    return best


# element types whose zero (+0.0 for floats) is the all-zero bit pattern
_BYTE_TESTED = IntegerType | IndexType | Float16Type | Float32Type | Float64Type


def is_zero_constant(value: SSAValue | None) -> bool:
    if not isinstance(value, OpResult) or value.op.name != "arith.constant":
        return False
    attr = value.op.properties.get("value") or value.op.attributes.get("value")
    if isinstance(attr, IntegerAttr):
        return attr.value.data == 0
    if isinstance(attr, DenseIntOrFPElementsAttr) and isinstance(
            attr.get_element_type(), _BYTE_TESTED):
        # all bytes 0: every element +0 (no -0.0), without unpacking a large constant
        data = attr.data.data
        return data.count(0) == len(data)
    values = getattr(attr, "get_values", None)
    if values is None:
        return False
    elements = values()
    # every element 0 (none truthy: NaN is) and none of them -0.0, without a Python-level
    # loop over a large constant
    return not any(elements) and (not elements or min(map(
        math.copysign, repeat(1.0, len(elements)), elements)) > 0)


def must_load_to_registers(load: Operation) -> bool:
    """The loaded values are needed in registers (not only as a buffer a ``local_alloc``
    makes of them)."""
    other = getattr(load, "other", None)
    if other is not None and not is_zero_constant(other):
        return True
    users = [u.operation for r in load.results for u in r.uses]
    return len(users) != 1 or users[0].name != "ttg.local_alloc"


def feeds_warp_group_dot(load: Operation) -> bool:
    """The load goes straight into a ``local_alloc`` that a ``warp_group_dot`` reads (through
    views): wgmma still reads the buffer while the next copy is issued."""
    if must_load_to_registers(load):
        return False
    alloc = next(iter(load.results[0].uses)).operation
    work = [u.operation for u in alloc.results[0].uses]
    while work:
        op = work.pop()
        if op.name == "ttng.warp_group_dot":
            return True
        if op.name in _VIEW_OPS:
            work.extend(u.operation for r in op.results for u in r.uses)
    return False


def shared_encoding(load: Operation) -> Attribute:
    """The buffer's layout: that of a ``local_alloc`` user, else the one every dot-operand
    conversion of the load wants, else an unswizzled one in the register order."""
    for use in load.results[0].uses:
        if use.operation.name == "ttg.local_alloc":
            return use.operation.results[0].type.encoding
    if load.name == "tt.descriptor_load":  # TMA writes the descriptor's layout
        return load.desc.type.block_type.encoding
    ty = load.results[0].type
    assert isinstance(ty, TensorType)
    dot_layout, _ = dot_operand_buffer_layout(load.results[0])
    if dot_layout is not None:
        return dot_layout
    return SwizzledSharedEncodingAttr.get(1, 1, 1, get_order(encoding_of(ty),
                                                             list(ty.get_shape())))


# ---------------------------------------------------------------------------------------
# The rewrite
# ---------------------------------------------------------------------------------------


class AsyncLoad:
    def __init__(self, load: Operation, buffers: int, encoding: Attribute, contiguity: int):
        self.load = load
        self.buffers = buffers
        self.encoding = encoding
        self.contiguity = contiguity
        self.alloc: SSAValue | None = None
        # TMA loads (tt.descriptor_load): the mbarrier slot they complete on and its wait.
        self.barrier: SSAValue | None = None
        self.wait: Operation | None = None

    @property
    def is_tma(self) -> bool:
        return self.load.name == "tt.descriptor_load"


class LoadGroup:
    """The loads with one buffer count share the ring's insert and extract indices (and,
    with a TMA load among them, the mbarrier phase)."""

    def __init__(self, buffers: int):
        self.buffers = buffers
        self.has_tma = False
        self.insert: SSAValue | None = None
        self.extract: SSAValue | None = None
        self.phase: SSAValue | None = None


def pick_async_loads(loop: scf.ForOp, schedule: CoarseSchedule,
                     axis_info: AxisInfoAnalysis) -> list[AsyncLoad]:
    picked = []
    for op in body_ops(loop):
        if op.name not in ("tt.load", "tt.descriptor_load") or op not in schedule:
            continue
        distance = def_use_stage_diff(op, loop, schedule)
        ty = op.results[0].type
        if distance == 0 or not isinstance(ty, TensorType):
            continue
        encoding = shared_encoding(op)
        vector = 0  # TMA copies whole blocks: no vector width
        if op.name == "tt.load":
            if copy_vector_bytes(ty, encoding) < 4:
                continue
            bits = async_copy_bits(op, axis_info)
            if bits < 32:
                continue  # cp.async copies 4, 8 or 16 bytes
            vector = bits // element_bit_width(ty.element_type)
        if feeds_warp_group_dot(op):
            distance += 1
        picked.append(AsyncLoad(op, distance, encoding, vector))
    return picked


def buffer_view_type(alloc_type: MemDescType) -> MemDescType:
    """The type of one buffer of a multi-buffered allocation."""
    shape = list(alloc_type.get_shape())[1:]
    return MemDescType.get(shape, alloc_type.get_element_type(), alloc_type.encoding,
                           alloc_type.memorySpace, True)


def create_multi_buffer(loop: scf.ForOp, ty: TensorType, encoding: Attribute,
                        buffers: int, location: Attribute) -> SSAValue:
    """``buffers`` buffers of ``ty`` in shared memory, allocated before ``loop`` (at
    ``location``, the load's) and freed after it (at the loop's; Triton's
    ``createAlloc``)."""
    alloc_type = MemDescType.get([buffers, *ty.get_shape()], ty.element_type, encoding,
                                 SharedMemorySpaceAttr(), True)
    alloc = located(LocalAllocOp(alloc_type), location)
    Rewriter.insert_op(alloc, InsertPoint.before(loop))
    Rewriter.insert_op(located(LocalDeallocOp(alloc.result), loop.location),
                       InsertPoint.after(loop))
    return alloc.result


def create_alloc(loop: scf.ForOp, load: AsyncLoad) -> SSAValue:
    ty = load.load.results[0].type
    assert isinstance(ty, TensorType)
    return create_multi_buffer(loop, ty, load.encoding, load.buffers, load.load.location)


def create_async_copy(loop: scf.ForOp, load: AsyncLoad, insert: SSAValue,
                      extract: SSAValue, schedule: CoarseSchedule) -> None:
    op = load.load
    if not is_version_39(loop):  # 3.6 makes an unused zero per copy (canonicalize drops it)
        StageBuilder(schedule, InsertPoint.before(loop), loop.location).constant(0)
    user = first_use(op, loop, schedule)
    builder = StageBuilder(schedule, InsertPoint.before(op), op.location, schedule[op])
    ptr, mask, other = op.ptr, op.mask, op.other
    alloc = load.alloc
    assert alloc is not None
    view_type = buffer_view_type(alloc.type)
    view = builder.add(MemDescIndexOp(alloc, insert, view_type)).results[0]
    copy = AsyncCopyGlobalToLocalOp.build(
        operands=[ptr, view, [mask] if mask is not None else [],
                  [other] if other is not None else []],
        result_types=[AsyncTokenType()],
        properties={"contiguity": IntegerAttr(load.contiguity, i32)})
    token = builder.add(copy).results[0]
    commit = builder.add(AsyncCommitGroupOp([token])).results[0]
    builder.place = schedule[user]
    wait = builder.add(AsyncWaitOp([commit], 0)).results[0]
    read_view = builder.add(MemDescIndexOp(alloc, extract, view_type)).results[0]
    result = op.results[0]
    if other is None or is_zero_constant(other):
        for use in list(result.uses):
            alloc_user = use.operation
            if (alloc_user.name == "ttg.local_alloc"
                    and alloc_user.results[0].type.encoding == alloc.type.encoding):
                replace_alloc_with_view(alloc_user, read_view)
        if result.uses:
            local = builder.add(LocalLoadOp(read_view, result.type, wait)).results[0]
            result.replace_all_uses_with(local)
    elif result.uses:
        local = builder.add(LocalLoadOp(read_view, result.type, wait)).results[0]
        select = builder.add(tensor_arith.SelectOp(mask, local, other)).results[0]
        result.replace_all_uses_with(select)
    schedule.ops.pop(op, None)
    Rewriter.erase_op(op)


def replace_alloc_with_view(alloc: Operation, view: SSAValue) -> None:
    """Users of ``alloc`` read ``view`` instead (views of it are rebuilt, as the view is
    mutable where the alloc was not)."""
    for use in list(alloc.results[0].uses):
        user = use.operation
        if user.name in _VIEW_OPS and user.name != "ttg.memdesc_index":
            new_type = user.results[0].type
            new_type = MemDescType.get(list(new_type.get_shape()), new_type.get_element_type(),
                                       new_type.encoding, new_type.memorySpace, True)
            clone = located(recreate_with_result_type(user, new_type,
                                                      [view, *user.operands[1:]]),
                            user.location)
            Rewriter.insert_op(clone, InsertPoint.before(user))
            replace_alloc_with_view(user, clone.results[0])
            Rewriter.erase_op(user)
        else:
            user.operands[use.index] = view
    Rewriter.erase_op(alloc)


def lower_loads(loop: scf.ForOp, schedule: CoarseSchedule,
                axis_info: AxisInfoAnalysis) -> scf.ForOp:
    loads = pick_async_loads(loop, schedule, axis_info)
    if not loads:
        return loop
    groups: dict[int, LoadGroup] = {}
    for load in loads:
        load.alloc = create_alloc(loop, load)
        group = groups.setdefault(load.buffers, LoadGroup(load.buffers))
        group.has_tma |= load.is_tma
    before = StageBuilder(schedule, InsertPoint.before(loop), loop.location)
    minus_one, zero, one = before.constant(-1), before.constant(0), before.constant(1)
    first_new = len(loop.body.block.args)
    # Per group: insert and extract indices, and the mbarrier phase for TMA loads.
    inits = [v for g in groups.values() for v in [minus_one, minus_one]
             + ([zero] if g.has_tma else [])]
    new_loop = replace_for_with_new_signature(loop, inits)
    Rewriter.erase_op(loop)
    loop = new_loop
    args = list(loop.body.block.args[first_new:])
    for group in groups.values():
        insert_arg, extract_arg = args.pop(0), args.pop(0)
        block = loop.body.block
        head = StageBuilder(schedule, InsertPoint.before(block.first_op)
                            if block.first_op else InsertPoint.at_end(block), loop.location)
        modulus = head.constant(group.buffers)
        group.insert = head.increment_modulo(insert_arg, modulus, zero, one)
        group.extract, wraps = head.increment_modulo_wrapping(extract_arg, modulus, zero, one)
        if group.has_tma:  # the phase flips each time the extract index wraps
            phase_arg = args.pop(0)
            flipped = head.add(arith.XOrIOp(phase_arg, one)).results[0]
            group.phase = head.add(tensor_arith.SelectOp(wraps, flipped, phase_arg)).results[0]
    create_barriers_and_waits(loop, loads, groups, schedule,
                              lambda *ops: first_use(ops[0], loop, schedule, *ops[1:]))
    for load in loads:
        group = groups[load.buffers]
        assert group.insert is not None and group.extract is not None
        if load.is_tma:
            create_tma_copy(load, group.insert, group.extract, schedule,
                            first_use(load.load, loop, schedule), replace_alloc_with_view)
        else:
            create_async_copy(loop, load, group.insert, group.extract, schedule)
    terminator = loop.body.block.last_op
    assert terminator is not None
    new_yields = [v for g in groups.values() for v in (g.insert, g.extract, g.phase)
                  if v is not None]
    set_yield_operands(terminator, [*terminator.operands, *new_yields])
    schedule.schedule_dependencies(loop)
    if not all(load.is_tma for load in loads):  # cp.async copies may still be in flight
        Rewriter.insert_op(located(AsyncWaitOp([], 0), loop.location), InsertPoint.after(loop))
    return loop


def lower_loop(loop: scf.ForOp, axis_info: AxisInfoAnalysis) -> None:
    schedule = CoarseSchedule.deserialize(loop)
    if schedule is None:
        return
    loop = lower_loads(loop, schedule, axis_info)
    schedule.serialize(loop)


def lower_loops(module: Operation) -> None:
    axis_info = AxisInfoAnalysis(module)
    for loop in [op for op in module.walk() if isinstance(op, scf.ForOp)]:
        lower_loop(loop, axis_info)
