"""Asynchronous wgmma in pipelined loops (Triton 3.6's ``asyncLaunchDots``, for dots whose
operands are in shared memory).

Every ``ttng.warp_group_dot`` of the loop becomes ``isAsync``. One whose shared operands
are multi-buffered (views of a buffer index, or values from outside the loop) and whose
result only feeds the next iteration's accumulator stays in flight: after the last such
dot comes ``warp_group_dot_wait {pendings = #async dots}`` (unless the loop already
waits with ``pendings = 0``), and after the loop a
``warp_group_dot_wait {pendings = 0}``. Any other dot is waited on right away
(``pendings = 0``). A wait takes the values it guards as operands and gives them back,
with the shared operands of the dots they come from, so those buffers stay live until the
wait.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import Float32Type, IntegerAttr, i32
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.analysis.structured_dominance import ancestor_in_block, is_before_in_block
from tileopt.dialects.ttg_types import MemDescType
from tileopt.dialects.ttng import WarpGroupDotWaitOp
from tileopt.transforms.ttgir.pipeliner.schedule import defined_inside

_VIEWS = ("ttg.convert_layout", "ttg.memdesc_trans", "ttg.memdesc_reshape",
          "ttg.memdesc_subslice")


def _multi_buffered(operand: SSAValue, loop: scf.ForOp) -> bool:
    if not isinstance(operand.type, MemDescType):
        return True
    value = operand
    while True:
        if isinstance(value, BlockArgument) and value.block is loop.body.block and value.index:
            value = loop.body.block.last_op.operands[value.index - 1]
        elif isinstance(value, OpResult) and value.op.name in _VIEWS:
            value = value.op.operands[0]
        else:
            break
    return not defined_inside(value, loop) or (
        isinstance(value, OpResult) and value.op.name == "ttg.memdesc_index")


def properly_async_index(dot: Operation, loop: scf.ForOp) -> int | None:
    """The iter arg the dot's result is carried in, if the dot may stay in flight."""
    if not (_multi_buffered(dot.operands[0], loop) and _multi_buffered(dot.operands[1], loop)):
        return None
    terminator = loop.body.block.last_op
    uses = list(dot.results[0].uses)
    if len(uses) != 1 or uses[0].operation is not terminator:
        return None
    index = uses[0].index
    if not isinstance(dot.operands[2].type.element_type, Float32Type):
        return None  # only an f32 accumulator stays in flight
    carried = loop.body.block.args[index + 1]
    if all(u.operation.name == "ttng.warp_group_dot" and u.index == 2 for u in carried.uses):
        return index
    return None


def _dots_behind(value: SSAValue, block) -> list[Operation]:
    """The wgmma ops ``value`` comes from through ops of ``block``."""
    dots: list[Operation] = []
    seen: set[Operation] = set()
    work = [value]
    while work:
        current = work.pop()
        if not isinstance(current, OpResult) or current.op in seen:
            continue
        op = current.op
        seen.add(op)
        if op.name == "ttng.warp_group_dot":
            dots.append(op)
            continue
        if op.parent_block() is block:
            work.extend(op.operands)
    return dots


def wait_for(values: list[SSAValue], pendings: int, point: InsertPoint,
             location: Attribute) -> Operation:
    """A ``warp_group_dot_wait`` at ``point`` on ``values`` (and the shared operands of the
    dots they come from), located at ``location``; the values' later uses read its results
    instead."""
    operands: list[SSAValue] = []
    for value in values:
        if value not in operands:
            operands.append(value)
    block = point.block
    for value in values:
        for dot in _dots_behind(value, block):
            for operand in dot.operands:
                if isinstance(operand.type, MemDescType) and operand not in operands:
                    operands.append(operand)
    wait = WarpGroupDotWaitOp.build(operands=[operands],
                                    result_types=[[v.type for v in operands]],
                                    properties={"pendings": IntegerAttr(pendings, i32)})
    wait.location = location
    Rewriter.insert_op(wait, point)
    for value, result in zip(operands, wait.results):
        if isinstance(value.type, MemDescType):
            continue
        for use in list(value.uses):
            user = ancestor_in_block(use.operation, wait.parent_block())
            if user is not None and is_before_in_block(wait, user):
                use.operation.operands[use.index] = result
    return wait


def async_launch_dots(loop: scf.ForOp) -> None:
    asynchronous: list[tuple[Operation, int]] = []
    for dot in [op for op in loop.body.block.ops if op.name == "ttng.warp_group_dot"]:
        dot.properties["isAsync"] = IntegerAttr.from_bool(True)
        index = properly_async_index(dot, loop)
        if index is None:
            wait_for([dot.results[0]], 0, InsertPoint.after(dot), dot.location)
        else:
            asynchronous.append((dot, index))
    if not asynchronous:
        return
    # A `pendings = 0` wait anywhere in the loop already leaves at most this iteration's
    # async dots in flight at its end: no wait after the last one (Triton's
    # insertAsyncWarpGroupDotWaitInLoop).
    if not any(op.name == "ttng.warp_group_dot_wait" and op.properties["pendings"].value.data == 0
               for op in loop.body.block.ops):
        last = asynchronous[-1][0]
        # located as Triton's: at the last async dot, and after the loop at the loop
        wait_for([dot.results[0] for dot, _ in asynchronous], len(asynchronous),
                 InsertPoint.after(last), last.location)
    wait_for([loop.results[index] for _, index in asynchronous], 0, InsertPoint.after(loop),
             loop.location)
