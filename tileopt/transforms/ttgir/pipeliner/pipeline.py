"""``tritongpu-pipeline``: software pipelining of the loops ``tritongpu-schedule-loops``
scheduled (Triton 3.6's ``SoftwarePipeliner.cpp``), in Triton's steps:

1. LowerLoops (``lower_loops.py``): pipelined loads become multi-buffered async copies;
2. ExpandLoops (``expand.py``): each loop is expanded into a prologue and a loop whose
   stages work on different iterations, with predicated ops;
3. the schedule attributes are dropped; wgmma ops become asynchronous (``wgmma.py``); the
   ``async_wait`` counts are computed and adjacent waits merged (``waits.py``);
4. the ``arith`` canonicalization cleans up the index arithmetic.

Loops whose ``tt.num_stages`` (else the ``num-stages`` option) is 1 or less keep
synchronous dots.
"""

from __future__ import annotations

import sys

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation

from tileopt.ir import print_module
from tileopt.passes import Pass, option, register_pass
from tileopt.transforms.ttgir.pipeliner.expand import ARITH_CANONICALIZATION_PATTERNS, expand_loops
from tileopt.transforms.ttgir.pipeliner.lower_loops import lower_loops
from tileopt.transforms.ttgir.pipeliner.schedule import (
    CLUSTER_ATTR,
    MAX_STAGE_ATTR,
    STAGE_ATTR,
)
from tileopt.transforms.ttgir.pipeliner.waits import update_waits
from tileopt.transforms.ttgir.pipeliner.wgmma import async_launch_dots
from tileopt.transforms.utils.greedy_rewrite import apply_patterns_greedily

NUM_STAGES_ATTR = "tt.num_stages"


def remove_schedule_attributes(module: Operation) -> None:
    for op in module.walk():
        for name in (STAGE_ATTR, CLUSTER_ATTR, MAX_STAGE_ATTR):
            op.attributes.pop(name, None)


def loop_num_stages(loop: scf.ForOp, default: int) -> int:
    attr = loop.attributes.get(NUM_STAGES_ATTR)
    return attr.value.data if isinstance(attr, IntegerAttr) else default


@register_pass
class Pipeline(Pass):
    """Pipeline scheduled loops: multi-buffered async copies, expanded loops, async wgmma."""

    name = "tritongpu-pipeline"
    num_stages: int = option(3, "number of pipeline stages")
    dump_intermediate_steps: bool = option(False, "print the IR after each internal phase "
                                           "to stderr, as Triton's debug dumps")

    def apply(self, ctx: Context, op: Operation) -> None:
        lower_loops(op)
        self._dump("LowerLoops", op)
        expand_loops(op, ctx)
        self._dump("ExpandLoops", op)
        remove_schedule_attributes(op)
        for loop in [o for o in op.walk() if isinstance(o, scf.ForOp)]:
            if loop_num_stages(loop, self.num_stages) > 1:
                async_launch_dots(loop)
        update_waits(op)
        apply_patterns_greedily(ctx, op, ARITH_CANONICALIZATION_PATTERNS)

    def _dump(self, phase: str, op: Operation) -> None:
        if self.dump_intermediate_steps:
            sys.stderr.write(f"// -----// SoftwarePipeliner internal IR Dump After: {phase}\n"
                         f"{print_module(op)}\n\n\n")
