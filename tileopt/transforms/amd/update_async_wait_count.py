"""``tritonamdgpu-update-async-wait-count``: on CDNA, a ``ttg.async_wait`` on tokens counts
the direct-to-LDS load *instructions* still allowed in flight instead of commit groups
(Triton 3.6's ``UpdateAsyncWaitCount.cpp``): the lowering emits ``s_waitcnt vmcnt(num)``,
and vmcnt counts instructions.

For each token of a wait, the def chain is followed back to the op that produced it: the
async-copy instructions issued after that op and before the wait are what may stay in
flight. A token that is a loop iter arg is followed both into the loop's init (counting
from the loop's start) and around the back edge (counting from the yield); the smallest
count over tokens and paths is the new ``num`` (never more than is safe). A direct-to-LDS
copy issues ``registers / vector`` instructions, the vector being the longest run of
registers that land in consecutive LDS offsets. ``scf.if`` counts its cheaper branch;
copies in nested loops are not counted (a smaller count only waits longer). Waits
without tokens, and targets other than CDNA (gfx908 to gfx950), are left alone: without async
copies the pass changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from tileopt.dialects.layout_of import linear_layout_of
from tileopt.dialects.ttg_types import MemDescType
from tileopt.passes import Pass, option, register_pass

Count = Callable[[Operation], int]
CDNA = ("gfx908", "gfx90a", "gfx942", "gfx950")


def copy_instructions(source: TensorType, buffer: MemDescType) -> int:
    """Direct-to-LDS loads one async copy of ``source`` into ``buffer`` issues."""
    to_shared = linear_layout_of(source).invert_and_compose(linear_layout_of(buffer))
    registers = to_shared.in_dim_size("register")
    return max(1, registers // to_shared.get_num_consecutive_in_out())


def async_copy_count(op: Operation) -> int:
    if op.name == "ttg.async_copy_global_to_local":
        source, buffer = op.operands[0].type, op.operands[1].type
    elif op.name == "amdg.buffer_load_to_local":
        source, buffer = op.operands[2].type, op.operands[0].type  # the offsets' shape
    else:
        return 0
    assert isinstance(source, TensorType) and isinstance(buffer, MemDescType)
    return copy_instructions(source, buffer)


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


def update_wait(wait: Operation, count: Count) -> None:
    if not wait.operands:
        return
    num = min(min_count_on_def_chain(token, wait, count) for token in wait.operands)
    current = wait.properties["num"]
    assert isinstance(current, IntegerAttr)
    if current.value.data != num:
        wait.properties["num"] = IntegerAttr(num, current.type)


@register_pass
class UpdateAsyncWaitCount(Pass):
    """Make async_wait count the direct-to-LDS instructions left in flight (CDNA)."""

    name = "tritonamdgpu-update-async-wait-count"

    arch_generation_name: str = option("", "the gfx target, e.g. gfx942",
                                       name="arch-generation-name")

    def apply(self, ctx: Context, op: Operation) -> None:
        if self.arch_generation_name not in CDNA:
            return  # vmcnt counts the direct-to-LDS loads on CDNA only
        cache: dict[Operation, int] = {}

        def count(copy: Operation) -> int:
            if copy not in cache:
                cache[copy] = async_copy_count(copy)
            return cache[copy]

        for wait in [o for o in op.walk() if o.name == "ttg.async_wait"]:
            update_wait(wait, count)
