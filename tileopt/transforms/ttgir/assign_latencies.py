"""``tritongpu-assign-latencies``: how many iterations ahead the software pipeliner should
issue each load (Triton 3.6's ``Pipeliner/AssignLatencies.cpp``).

In every innermost ``scf.for`` whose yields all come from ops of the body (no
loop-carried value yielded straight back: distance 1 only) and that gets more than one
stage (``num-stages``, or the loop's ``tt.num_stages``):

- walk back from each dot's A and B operands (never the accumulator) through the ops of
  the body; each ``tt.load`` met gets an indirection level: 0 if it feeds the dot, one
  more for each load between it and the dot. A load met at two levels (from two dots) is
  left out;
- a load is only worth pipelining if it can become a ``cp.async`` copy: 32 bits or more
  per thread and vector, every user that reads it as a dot operand agreeing on the
  buffer layout, the ``local_alloc`` users on one layout with a copy vector of 4 bytes
  or more (``tileopt.transforms.utils.async_loads``);
- levels of ``num_stages - 1`` or more are dropped; each remaining load gets the latency
  ``(num_stages - 1) // (max level + 1)``, written as ``tt.latency``.

A loop with ``tt.num_stages`` but no dot pipelines all its loads that way. Loops whose
ops already carry ``tt.latency`` keep them. Blackwell's MMA latencies (tcgen05) are not
assigned: tileopt has no such ops.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, TensorType, i32
from xdsl.ir import Operation, OpResult, SSAValue

from tileopt.analysis.axis_info import AxisInfoAnalysis
from tileopt.passes import Pass, option, register_pass
from tileopt.transforms.utils.async_loads import (
    async_copy_bits,
    copy_vector_bytes,
    dot_operand_buffer_layout,
)

LATENCY = "tt.latency"
NUM_STAGES = "tt.num_stages"
_LOADS = ("tt.load", "tt.descriptor_load", "tt.descriptor_gather")
_DOTS = ("tt.dot", "tt.dot_scaled", "ttng.warp_group_dot")


def _body_ops(loop: scf.ForOp) -> list[Operation]:
    return list(loop.body.block.ops)[:-1]  # without the yield


def num_stages_of(loop: scf.ForOp, default: int) -> int:
    """The loop's ``tt.num_stages``, else ``default``."""
    attr = loop.attributes.get(NUM_STAGES)
    return attr.value.data if isinstance(attr, IntegerAttr) else default


def can_pipeline(loop: scf.ForOp) -> bool:
    """Every yielded value is computed in the body (a yielded block argument would carry
    a value two iterations), and no loop is nested in it."""
    yield_op = loop.body.block.last_op
    if any(not isinstance(v, OpResult) for v in yield_op.operands):
        return False
    return not any(op.name in ("scf.for", "scf.while") for op in loop.body.block.ops)


def _nested_operands(op: Operation) -> list[SSAValue]:
    """Values ``op`` and the ops inside it use that are defined outside ``op`` (inner ops
    first, as MLIR's post-order walk meets them)."""
    values = []
    for inner in op.walk(region_first=True):
        for value in inner.operands:
            where = value.owner if isinstance(value, OpResult) else value.owner.parent_op()
            if where is None or not op.is_ancestor(where):
                values.append(value)
    return values


def _worth_pipelining(load: Operation, axis_info: AxisInfoAnalysis,
                      filter_small: bool = True) -> bool:
    if filter_small and load.name == "tt.load" and async_copy_bits(load, axis_info) < 32:
        return False  # cp.async copies 4, 8 or 16 bytes
    if load.name != "tt.load":
        return True  # TMA loads write shared memory themselves
    _, incompatible = dot_operand_buffer_layout(load.results[0])
    if incompatible:
        return False
    allocs = [u.operation for u in load.results[0].uses if u.operation.name == "ttg.local_alloc"]
    layouts = {alloc.results[0].type.encoding for alloc in allocs}
    if len(layouts) > 1:
        return False
    ty = load.results[0].type
    if layouts and isinstance(ty, TensorType) and copy_vector_bytes(ty, layouts.pop()) < 4:
        return False
    return True


def indirection_levels(loop: scf.ForOp, without_dot: bool,
                       axis_info: AxisInfoAnalysis) -> dict[Operation, int]:
    """Each pipelinable load feeding a dot of ``loop``, with its indirection level."""
    return {op: level for op, (level, _) in
            loads_to_indirection_level(loop, without_dot, axis_info).items()}


def loads_to_indirection_level(loop: scf.ForOp, without_dot: bool,
                               axis_info: AxisInfoAnalysis, filter_small: bool = True
                               ) -> dict[Operation, tuple[int, Operation]]:
    """Each pipelinable load feeding a dot of ``loop``: its indirection level and its
    final user (the dot, or the load whose operand it computes). ``filter_small``: loads
    under 32 bits per copy are not pipelinable (AMD targets that lack small async copies
    still pipeline them through registers)."""
    levels: dict[Operation, tuple[int, Operation]] = {}
    excluded: set[Operation] = set()
    seen: set[Operation] = set()

    def visit(op: Operation, final_user: Operation, distance: int) -> None:
        if op in seen or op in excluded:
            return
        seen.add(op)
        if op.name in _LOADS:
            if not _worth_pipelining(op, axis_info, filter_small):
                return
            if op in levels and levels[op][0] != distance:
                del levels[op]  # two levels: no way to pick one
                excluded.add(op)
                return
            levels.setdefault(op, (distance, final_user))
            final_user = op
            distance += 1
        for value in _nested_operands(op):
            if op.name in _DOTS and value is op.operands[2]:
                continue  # only A and B are worth pipelining
            if isinstance(value, OpResult) and value.owner.parent_block() is op.parent_block():
                visit(value.owner, final_user, distance)

    seen_dot = False
    for op in _body_ops(loop):
        if op.name not in _DOTS:
            continue
        seen_dot = True
        seen.clear()
        visit(op, op, 0)
    if without_dot and not seen_dot:
        for op in _body_ops(loop):
            if op.name not in _LOADS:
                visit(op, op, 0)
    return levels


def assign_latencies(module: Operation, default_stages: int) -> None:
    loops = [op for op in module.walk() if isinstance(op, scf.ForOp)
             and can_pipeline(op) and num_stages_of(op, default_stages) > 1]
    if not loops:
        return
    axis_info = AxisInfoAnalysis(module)
    latencies: dict[Operation, int] = {}
    for loop in loops:
        if any(LATENCY in op.attributes for op in _body_ops(loop)):
            continue  # the user's own latencies stay
        stages = num_stages_of(loop, default_stages)
        levels = indirection_levels(loop, NUM_STAGES in loop.attributes, axis_info)
        levels = {op: level for op, level in levels.items() if level < stages - 1}
        if not levels:
            continue
        latency = (stages - 1) // (max(levels.values()) + 1)
        for op in levels:
            latencies[op] = latency
    for op, latency in latencies.items():
        op.attributes[LATENCY] = IntegerAttr(latency, i32)


@register_pass
class AssignLatencies(Pass):
    """Give the loads that feed dots in pipelinable loops a tt.latency: how many
    iterations ahead the pipeliner issues them."""

    name = "tritongpu-assign-latencies"

    num_stages: int = option(3, "number of pipeline stages", name="num-stages")

    def apply(self, ctx: Context, op: Operation) -> None:
        assign_latencies(op, self.num_stages)
