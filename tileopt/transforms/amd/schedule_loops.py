"""``tritonamdgpu-schedule-loops``: the coarse schedule of the AMD stream pipeliner
(Triton 3.6's ``ScheduleLoops.cpp``, single-dot schedule), written for
``tritonamdgpu-pipeline`` as ``loop.stage``/``loop.cluster`` attributes.

In every innermost loop with more than one stage (``tt.num_stages``, else ``num-stages``)
whose yields all come from ops of the body:

- the loads feeding a dot, with their indirection level ``d`` and final user, are found as
  ``tritongpu-assign-latencies`` finds them, except that on targets other than CDNA4 and
  RDNA a load under 32 bits per copy is not pipelined (no small direct-to-LDS copies);
  levels of ``num_stages - 1`` or more are dropped;
- each final user that is not itself a load (the dot) goes to the last stage, cluster 1;
- each load goes to stage ``(maxd - d) * ceil((num_stages - 2) / (maxd + 1))``, cluster 0.

Only these ops are scheduled here; ``tritonamdgpu-pipeline`` places the rest. The chained
two-dot schedule (``num_stages == 4`` with two dependent dots, for ping-pong) is not built:
such loops get the single-dot schedule.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.ir import Operation

from tileopt.analysis.axis_info import AxisInfoAnalysis
from tileopt.passes import Pass, option, register_pass
from tileopt.transforms.ttgir.assign_latencies import (
    NUM_STAGES,
    can_pipeline,
    loads_to_indirection_level,
    num_stages_of,
)
from tileopt.transforms.ttgir.pipeliner.schedule import CoarseSchedule

_LOADS = ("tt.load", "tt.descriptor_load", "tt.descriptor_gather")
# Small loads are still pipelined (through registers) on these: gfx950 and RDNA.
_NO_SMALL_FILTER = ("gfx950", "gfx11", "gfx12")


def target_arch(module: Operation) -> str:
    """The ``gfx...`` of the module's ``ttg.target`` (``"hip:gfx942"``), else ``""``."""
    attr = module.attributes.get("ttg.target")
    text = getattr(attr, "data", "")
    return text.split(":", 1)[1] if text.startswith("hip:") else ""


def filters_small_loads(arch: str) -> bool:
    return not arch.startswith(_NO_SMALL_FILTER)


def build_schedule(loop: scf.ForOp, num_stages: int, axis_info: AxisInfoAnalysis,
                   filter_small: bool) -> CoarseSchedule | None:
    levels = loads_to_indirection_level(loop, NUM_STAGES in loop.attributes, axis_info,
                                        filter_small)
    levels = {op: info for op, info in levels.items() if info[0] < num_stages - 1}
    if not levels:
        return None
    max_dist = max(level for level, _ in levels.values())
    schedule = CoarseSchedule(num_stages)
    global_load, compute = schedule.new_at_back(), schedule.new_at_back()
    last_stage = num_stages - 1
    for level, user in levels.values():
        if user.name not in _LOADS:
            schedule.insert(user, last_stage, compute)
    # Loads of different levels are spread over the stages between first and last.
    between = -(-(num_stages - 2) // (max_dist + 1))
    for load, (level, _) in levels.items():
        schedule.insert(load, (max_dist - level) * between, global_load)
    return schedule


@register_pass
class ScheduleLoops(Pass):
    """Give the loads feeding dots and the dots of pipelinable loops their stages."""

    name = "tritonamdgpu-schedule-loops"

    # Triton 3.6 spells this option with an underscore (its reproducers print it so).
    num_stages: int = option(2, "number of pipeline stages", name="num_stages")

    def apply(self, ctx: Context, op: Operation) -> None:
        loops = [o for o in op.walk() if isinstance(o, scf.ForOp)
                 and num_stages_of(o, self.num_stages) > 1]
        if not loops:
            return
        axis_info = AxisInfoAnalysis(op)
        filter_small = filters_small_loads(target_arch(op))
        for loop in loops:
            if not can_pipeline(loop):
                continue
            schedule = build_schedule(loop, num_stages_of(loop, self.num_stages), axis_info,
                                      filter_small)
            if schedule is not None:
                schedule.serialize(loop)
