"""``tritonamdgpu-update-async-wait-count``: on CDNA, a ``ttg.async_wait`` becomes an
``amdg.async_wait {num_inst}`` that counts the direct-to-LDS load *instructions* still
allowed in flight instead of commit groups (Triton 3.6's ``UpdateAsyncWaitCount.cpp``):
the lowering emits ``s_waitcnt vmcnt(num_inst)``, and vmcnt counts instructions. The
count may come out low (the wait then waits longer), never high.

A wait on tokens: each token's def chain is followed back to the op that produced it; the
async-copy instructions issued after that op and before the wait are what may stay in
flight. A token that is a loop iter arg is followed both into the loop's init (counting
from the loop's start) and around the back edge (counting from the yield); the smallest
count over tokens and paths wins. ``scf.if`` counts its cheaper branch; copies in nested
loops are not counted.

A wait without tokens keeps ``num`` commit groups in flight: the IR is walked backward from
the wait, over every control-flow path (both branches of an ``scf.if``, or past one
without ``else``; an ``scf.for`` body zero or more times; an ``scf.while``'s before and
after blocks), summing the copies' instructions until ``num + 1`` commit groups are
passed (copies not yet committed count too) or the function starts; the smallest sum
over paths wins. An unknown op with regions on the way gives 0, and so does ``num < 0``.

A direct-to-LDS copy issues one instruction per vector: the pointer's contiguity and
alignment (axis info, at most 128 bits), narrowed by the mask's alignment (Triton 3.6
does not read the op's ``contiguity`` hint here), and never longer than a run of registers that land in
consecutive LDS offsets; broadcast registers issue nothing. Targets other than CDNA
(gfx908 to gfx950) keep ``ttg.async_wait`` as it is.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import Rewriter

from tileopt.analysis.axis_info import AxisInfoAnalysis, element_bit_width
from tileopt.dialects.amdgpu import AsyncWaitOp
from tileopt.dialects.layout_of import linear_layout_of
from tileopt.dialects.ttg_types import MemDescType
from tileopt.passes import Pass, option, register_pass
from tileopt.transforms.utils.builder import located

Count = Callable[[Operation], int]
CDNA = ("gfx908", "gfx90a", "gfx942", "gfx950")


def copy_instructions(source: TensorType, buffer: MemDescType, contiguity: int) -> int:
    """Direct-to-LDS loads one async copy of ``source`` into ``buffer`` issues, each of
    at most ``contiguity`` elements."""
    to_shared = linear_layout_of(source).invert_and_compose(linear_layout_of(buffer))
    vector = max(1, min(contiguity, to_shared.get_num_consecutive_in_out()))
    registers = to_shared.remove_zero_bases_along_dim("register").in_dim_size("register")
    return max(1, registers // vector)


def async_copy_count(op: Operation, axis: AxisInfoAnalysis) -> int:
    if op.name == "ttg.async_copy_global_to_local":
        source, buffer, mask = op.operands[0].type, op.operands[1].type, op.mask
        element_bits = element_bit_width(source)
        contiguity = axis.contiguity(op.operands[0])
    elif op.name == "amdg.buffer_load_to_local":
        source, buffer, mask = op.offsets.type, op.dest.type, op.mask  # the offsets' shape
        element_bits = element_bit_width(op.ptr.type)
        contiguity = axis.contiguity(op.offsets, element_bits)
    else:
        return 0
    assert isinstance(source, TensorType) and isinstance(buffer, MemDescType)
    contiguity = min(contiguity, max(1, 128 // element_bits))
    if mask is not None:
        contiguity = min(contiguity, axis.mask_alignment(mask))
    return copy_instructions(source, buffer, contiguity)


def count_between(first: Operation | None, end: Operation | None, count: Count) -> int:
    """Instructions issued by the ops from ``first`` up to (not including) ``end``, in
    one block (to the block's end where ``end`` is not in it)."""
    total = 0
    op = first
    while op is not None and op is not end:
        if isinstance(op, scf.IfOp):
            branches = [count_between(r.block.first_op, None, count)
                        for r in op.regions if r.blocks]
            total += min(branches) if len(branches) == 2 else 0
        elif not op.regions:
            total += count(op)
        op = op.next_op
    return total


def _ancestor_in(op: Operation, block: Block | None) -> Operation:
    """``op`` or its ancestor in ``block`` (``op`` itself where there is none)."""
    current: Operation | None = op
    while current is not None and current.parent_block() is not block:
        current = current.parent_op()
    return current if current is not None else op


def min_count_on_def_chain(value: SSAValue, consumer: Operation, count: Count,
                           path: int = 0, best: int | None = None) -> int:
    """The fewest instructions issued between ``value``'s producer and ``consumer`` over
    every path the value may take (Triton's ``deduceMinCountOnDefChain``)."""
    if isinstance(value, OpResult):
        producer = value.op
        consumer = _ancestor_in(consumer, producer.parent_block())
        path += count_between(producer.next_op, consumer, count)
        return path if best is None else min(best, path)
    assert isinstance(value, BlockArgument)
    loop = value.block.parent_op()
    if not isinstance(loop, scf.ForOp) or value.index == 0:
        return 0  # not followed: wait for everything
    consumer = _ancestor_in(consumer, value.block)
    path += count_between(value.block.first_op, consumer, count)
    if best is not None and path >= best:
        return best
    from_init = min_count_on_def_chain(loop.iter_args[value.index - 1], loop, count,
                                       path, best)
    terminator = value.block.last_op
    assert terminator is not None
    from_back_edge = min_count_on_def_chain(terminator.operands[value.index - 1],
                                            terminator, count, path, from_init)
    return min(from_init, from_back_edge)


def _predecessor(op: Operation) -> Operation | None:
    """The op before ``op`` in its block, else its parent op (None at the module)."""
    if op.prev_op is not None:
        return op.prev_op
    parent = op.parent_op()
    return None if parent is None or parent.name == "builtin.module" else parent


class CommitGroupWalk:
    """The fewest instructions in flight while ``num`` commit groups may be, over every
    path backward from a tokenless wait (Triton's ``computeMinCountBackward``)."""

    def __init__(self, count: Count):
        self.count = count
        self.visited: set[tuple[Operation, int, int]] = set()

    def walk(self, cursor: Operation | None, came_from: Operation, outstanding: int,
             path: int, best: int) -> int:
        def walk_from(op: Operation | None) -> None:
            nonlocal best
            best = min(best, self.walk(op, cursor, outstanding, path, best))

        while cursor is not None:
            if outstanding < 0 or path >= best:  # the oldest group's copies are in
                return min(best, path)
            from_inside = came_from.parent_op() is cursor
            if isinstance(cursor, scf.IfOp):
                if from_inside:
                    walk_from(_predecessor(cursor))
                else:
                    walk_from(cursor.true_region.block.last_op)
                    if cursor.false_region.blocks:
                        walk_from(cursor.false_region.block.last_op)
                    else:
                        walk_from(_predecessor(cursor))  # the branch may be skipped
                return best
            if isinstance(cursor, scf.ForOp):
                walk_from(_predecessor(cursor))  # no (more) iterations
                key = (cursor, outstanding, path)
                if not from_inside or key not in self.visited:
                    self.visited.add(key)
                    walk_from(cursor.body.block.last_op)
                return best
            if isinstance(cursor, scf.WhileOp):
                before = cursor.before_region.block
                if came_from.parent_block() is before:
                    walk_from(_predecessor(cursor))
                    key = (cursor, outstanding, path)
                    if key not in self.visited:
                        self.visited.add(key)
                        walk_from(cursor.after_region.block.last_op)
                else:  # from after the loop or from its after block
                    walk_from(before.last_op)
                return best
            if cursor.name == "tt.func":
                return min(best, path)
            if cursor.regions and cursor.name != "tt.reduce":
                return 0  # not analysed: wait for everything
            path += self.count(cursor)
            if cursor.name == "ttg.async_commit_group":
                outstanding -= 1
            came_from, cursor = cursor, _predecessor(cursor)
        return min(best, path)


def wait_count(wait: Operation, count: Count) -> int:
    if wait.operands:
        return min(min_count_on_def_chain(token, wait, count) for token in wait.operands)
    num = wait.properties["num"]
    assert isinstance(num, IntegerAttr)
    if num.value.data < 0:
        return 0  # wait for every copy, committed or not
    return CommitGroupWalk(count).walk(_predecessor(wait), wait, num.value.data, 0,
                                       sys.maxsize)


@register_pass
class UpdateAsyncWaitCount(Pass):
    """Make async_wait count the direct-to-LDS instructions left in flight (CDNA)."""

    name = "tritonamdgpu-update-async-wait-count"

    arch_generation_name: str = option("", "the gfx target, e.g. gfx942",
                                       name="arch-generation-name")

    def apply(self, ctx: Context, op: Operation) -> None:
        if self.arch_generation_name not in CDNA:
            return  # vmcnt counts the direct-to-LDS loads on CDNA only
        axis = AxisInfoAnalysis(op)
        cache: dict[Operation, int] = {}

        def count(copy: Operation) -> int:
            if copy not in cache:
                cache[copy] = async_copy_count(copy, axis)
            return cache[copy]

        for wait in [o for o in op.walk() if o.name == "ttg.async_wait"]:
            new = located(AsyncWaitOp.waiting_for(wait.operands, wait_count(wait, count)),
                          wait.location)
            Rewriter.replace_op(wait, new)
