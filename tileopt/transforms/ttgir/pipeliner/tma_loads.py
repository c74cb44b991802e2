"""The TMA path of LowerLoops (Triton 3.6/3.9's ``createTMABarrierAndWait`` and
``createTMAAsyncLoad``): a pipelined ``tt.descriptor_load`` becomes an
``async_tma_copy_global_to_local`` into its ring of shared buffers, completing on an mbarrier.

- Loads with the same buffer count, in the same (stage, cluster), that follow one another
  with no user of an earlier one between them share one mbarrier slot: before the first,
  ``memdesc_index(barriers, insert)`` and ``barrier_expect`` with the group's bytes; after
  the last, in the first user's stage, ``memdesc_index(barriers, extract)`` and
  ``wait_barrier`` on the group's phase.
- The barriers: ``local_alloc <N x 1 x i64>`` before the loop, each slot
  ``init_barrier``-ed with one arrival; after the loop each slot is ``inval_barrier``-ed
  and the allocation freed.
- Each load: ``memdesc_index(buffers, insert)`` and the copy (predicate ``true``, which the
  expansion narrows) in the load's stage; after the wait, ``memdesc_index(buffers,
  extract)``, which replaces a ``local_alloc`` of the same layout, else a ``local_load``.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, TensorType, i1, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.analysis.axis_info import element_bit_width
from tileopt.dialects.ttg import LocalAllocOp, LocalDeallocOp, LocalLoadOp, MemDescIndexOp
from tileopt.dialects.ttg_attrs import SharedMemorySpaceAttr, SwizzledSharedEncodingAttr
from tileopt.dialects.ttg_types import MemDescType
from tileopt.dialects.ttng import BarrierExpectOp, InitBarrierOp, InvalBarrierOp, WaitBarrierOp
from tileopt.dialects.ttng_tma import AsyncTMACopyGlobalToLocalOp
from tileopt.transforms.ttgir.pipeliner.schedule import CoarseSchedule
from tileopt.transforms.utils.builder import located


def _point_after(op: Operation) -> InsertPoint:
    """Where an op created "after ``op``" goes: before the op that follows it now."""
    following = op.next_op
    assert following is not None, "the loop body ends with its yield"
    return InsertPoint.before(following)


def _slot(alloc: SSAValue, index: SSAValue, location: Attribute) -> Operation:
    """``memdesc_index`` of one slot of a multi-buffered allocation."""
    ty = alloc.type
    view_type = MemDescType.get(list(ty.get_shape())[1:], ty.get_element_type(),
                                ty.encoding, ty.memorySpace, True)
    return located(MemDescIndexOp(alloc, index, view_type), location)


def _constant_slot(alloc: SSAValue, index: int, location: Attribute,
                   point: InsertPoint) -> tuple[Operation, InsertPoint]:
    """``arith.constant index`` and the slot's view, inserted at ``point``."""
    constant = located(arith.ConstantOp(IntegerAttr(index, 32)), location)
    Rewriter.insert_op(constant, point)
    view = _slot(alloc, constant.results[0], location)
    Rewriter.insert_op(view, InsertPoint.after(constant))
    return view, InsertPoint.after(view)


def create_barrier_alloc(loop: scf.ForOp, count: int) -> SSAValue:
    """``count`` mbarriers of one arrival, initialised before ``loop``, invalidated and
    freed after it (at the loop's location)."""
    location = loop.location
    alloc_type = MemDescType.get([count, 1], i64, SwizzledSharedEncodingAttr.get(1, 1, 1, [0]),
                                 SharedMemorySpaceAttr(), True)
    alloc = located(LocalAllocOp(alloc_type), location)
    Rewriter.insert_op(alloc, InsertPoint.before(loop))
    for index in range(count):
        view, _ = _constant_slot(alloc.result, index, location, InsertPoint.before(loop))
        Rewriter.insert_op(located(InitBarrierOp.build(
            operands=[view.results[0]], properties={"count": IntegerAttr(1, 32)}), location),
            InsertPoint.before(loop))
    point = InsertPoint.after(loop)
    for index in range(count):
        view, point = _constant_slot(alloc.result, index, location, point)
        inval = located(InvalBarrierOp.build(operands=[view.results[0]]), location)
        Rewriter.insert_op(inval, point)
        point = InsertPoint.after(inval)
    Rewriter.insert_op(located(LocalDeallocOp(alloc.result), location), point)
    return alloc.result


def _loop_users(load: Operation, block) -> set[Operation]:
    """The body ops a later load of a wait group must not pass: the load's users (for a
    load straight into a ``local_alloc``, the alloc's users, the alloc being removed)."""
    users: set[Operation] = set()
    for use in load.results[0].uses:
        owner = use.operation
        if owner.name == "ttg.local_alloc" and owner.parent_block() is block:
            users.update(u.operation for u in owner.results[0].uses)
            continue
        while owner is not None and owner.parent_block() is not block:
            owner = owner.parent_op()
        if owner is not None:
            users.add(owner)
    return users


def wait_groups(loads: list, schedule: CoarseSchedule) -> list[list]:
    """The TMA loads (``AsyncLoad``s, in body order) that share an mbarrier slot."""
    by_op = {load.load: load for load in loads if load.is_tma}
    groups, seen = [], set()
    for load in loads:
        if not load.is_tma or load.load in seen:
            continue
        group = [load]
        seen.add(load.load)
        block = load.load.parent_block()
        users = _loop_users(load.load, block)
        op = load.load.next_op
        while op is not None and op not in users and op not in seen:
            other = by_op.get(op)
            if other is not None:
                if other.buffers != load.buffers:
                    break
                if schedule[op] == schedule[load.load]:
                    group.append(other)
                    seen.add(op)
                    users |= _loop_users(op, block)
            op = op.next_op
        groups.append(group)
    return groups


def _block_bytes(load: Operation) -> int:
    ty = load.results[0].type
    assert isinstance(ty, TensorType)
    return prod(ty.get_shape()) * element_bit_width(ty.element_type) // 8


def create_barriers_and_waits(loop: scf.ForOp, loads: list, groups: dict,
                              schedule: CoarseSchedule, first_use) -> None:
    """An mbarrier ring per wait group, its ``barrier_expect`` and ``wait_barrier``;
    records the slot and the wait on each ``AsyncLoad``."""
    location = loop.location
    for group in wait_groups(loads, schedule):
        counters = groups[group[0].buffers]
        barriers = create_barrier_alloc(loop, group[0].buffers)
        head = group[0].load
        place = schedule[head]
        slot = _slot(barriers, counters.insert, location)
        true = located(arith.ConstantOp(IntegerAttr(1, i1)), location)
        expect = located(BarrierExpectOp.build(
            operands=[slot.results[0], true.results[0]],
            properties={"size": IntegerAttr(sum(_block_bytes(g.load) for g in group), 32)}),
            location)
        for op in (slot, true, expect):
            Rewriter.insert_op(op, InsertPoint.before(head))
            schedule.insert(op, *place)
        user = first_use(*[g.load for g in group])
        point = _point_after(group[-1].load)
        wait_slot = _slot(barriers, counters.extract, location)
        wait = located(WaitBarrierOp.build(operands=[wait_slot.results[0], counters.phase,
                                                     []]), location)
        for op in (wait_slot, wait):
            Rewriter.insert_op(op, point)
            point = InsertPoint.after(op)
            schedule.insert(op, *schedule[user])
        for load in group:
            load.barrier = slot.results[0]
            load.wait = wait


def create_tma_copy(load, insert: SSAValue, extract: SSAValue, schedule: CoarseSchedule,
                    user: Operation, replace_alloc_with_view) -> None:
    """``load`` (an ``AsyncLoad`` of a ``tt.descriptor_load``) as a TMA copy into its
    ring; its value read back after the group's wait."""
    op = load.load
    alloc = load.alloc
    assert alloc is not None and load.barrier is not None and load.wait is not None
    place = schedule[op]
    view = _slot(alloc, insert, op.location)
    true = located(arith.ConstantOp(IntegerAttr(1, i1)), op.location)
    copy = located(AsyncTMACopyGlobalToLocalOp.build(
        operands=[op.desc, list(op.indices), [], load.barrier, view.results[0],
                  true.results[0]]), op.location)
    for new in (view, true, copy):
        Rewriter.insert_op(new, InsertPoint.before(op))
        schedule.insert(new, *place)
    point = _point_after(load.wait)
    read = _slot(alloc, extract, op.location)
    Rewriter.insert_op(read, point)
    schedule.insert(read, *schedule[user])
    result = op.results[0]
    for use in list(result.uses):
        alloc_user = use.operation
        if (alloc_user.name == "ttg.local_alloc"
                and alloc_user.results[0].type.encoding == alloc.type.encoding):
            schedule.ops.pop(alloc_user, None)
            replace_alloc_with_view(alloc_user, read.results[0])
    if result.uses:
        local = located(LocalLoadOp(read.results[0], result.type), op.location)
        Rewriter.insert_op(local, InsertPoint.after(read))
        schedule.insert(local, *schedule[user])
        result.replace_all_uses_with(local.results[0])
    schedule.ops.pop(op, None)
    Rewriter.erase_op(op)
