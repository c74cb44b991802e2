"""``tritonamdgpu-pipeline``: Triton 3.6's AMD stream pipelining of the loops
``tritonamdgpu-schedule-loops`` scheduled, in Triton's steps:

1. LowerLoops (``lower_loops.py``): the dot operands' loads go through multi-buffered
   shared memory (global load, ``local_store``, later ``local_load``), and the schedule is
   completed;
2. ExpandLoops: the modulo expansion of ``tritongpu-pipeline`` (``ttgir/pipeliner/
   expand.py``) with the epilogue peeled: the loop stops ``max_stage`` iterations early
   and the last iterations' later stages run after it, each guarded by
   ``total_iterations >= i``; an epilogue dot runs under an ``scf.if`` (else the
   accumulator passes through) rather than being computed and discarded by a select;
   the prologue's loads are marked ``amd.pipeliner_part = "prologue"``;
3. the masks are resolved and the schedule attributes dropped.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.passes import Pass, PassFailure, option, register_pass
from tileopt.transforms.amd.pipeliner.lower_loops import lower_loops
from tileopt.transforms.ttgir.pipeliner.expand import (
    LoopExpander,
    MaskOp,
    resolve_masks,
    wrap_in_mask,
)
from tileopt.transforms.ttgir.pipeliner.pipeline import remove_schedule_attributes
from tileopt.transforms.ttgir.pipeliner.schedule import CoarseSchedule
from tileopt.transforms.utils.builder import located

PIPELINER_PART = "amd.pipeliner_part"
_DOTS = ("tt.dot", "tt.dot_scaled")


def stream_predication(op: Operation, pred: SSAValue) -> Operation:
    """A dot runs under ``scf.if pred`` (the accumulator passes through otherwise);
    anything else is masked."""
    if op.name not in _DOTS:
        return wrap_in_mask(op, pred)
    then_block, else_block = Block(), Block()
    branch = scf.IfOp(pred, [op.results[0].type], Region(then_block), Region(else_block))
    branch.location = op.location  # the branch and its yields stand for the dot
    Rewriter.insert_op(branch, InsertPoint.after(op))
    op.detach()
    then_block.add_op(op)
    then_block.add_op(located(scf.YieldOp(op.results[0]), op.location))
    else_block.add_op(located(scf.YieldOp(op.operands[2]), op.location))
    return branch


def mark_prologue_loads(op: Operation, part: str, iteration: int) -> None:
    """Tag the prologue's loads (for a later pass that moves them up)."""
    if part != "prologue":
        return
    if isinstance(op, MaskOp):
        op = next((inner for inner in op.body.block.ops if inner.name == "tt.load"), op)
    if op.name == "tt.load":
        op.attributes[PIPELINER_PART] = StringAttr("prologue")


def expand_loops(ctx: Context, module: Operation) -> None:
    for loop in [op for op in module.walk() if isinstance(op, scf.ForOp)]:
        schedule = CoarseSchedule.deserialize(loop, partial=True)
        if schedule is None:
            continue
        expander = LoopExpander(loop, schedule, peel_epilogue=True,
                                predicate=stream_predication, annotate=mark_prologue_loads)
        if expander.can_expand():
            expander.run()
    resolve_masks(ctx, module, arith_patterns=False)


@register_pass
class Pipeline(Pass):
    """Stream-pipeline scheduled loops through shared memory, epilogue peeled."""

    name = "tritonamdgpu-pipeline"
    use_async_copy: bool = option(False, "copy global memory to LDS directly (not built)",
                                  name="use_async_copy")
    use_pingpong: bool = option(False, "schedule for block ping-pong (not built)",
                                name="use_pingpong")

    def apply(self, ctx: Context, op: Operation) -> None:
        if self.use_async_copy:
            raise PassFailure(op, "tritonamdgpu-pipeline: use_async_copy is not supported")
        lower_loops(op)
        expand_loops(ctx, op)
        remove_schedule_attributes(op)
