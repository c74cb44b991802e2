"""``gpu.barrier`` (``tl.debug_barrier``) and ``llvm.intr.assume`` (``tl.assume``).

The barrier is the target's block barrier (``TargetHooks.barrier``); the shared-memory
barrier analysis already counts it, so no second one is placed beside it. The assumption
is already an LLVM op: it stays, on the lowered condition, for LLVM's optimiser to use.
"""

from __future__ import annotations

from xdsl.ir import Operation

from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers
from tileopt.dialects.llvm_ext import AssumeOp


@lowers("gpu.barrier")
def _barrier(fl: FunctionLowering, op: Operation) -> None:
    fl.hooks.barrier(fl.b)


@lowers("llvm.intr.assume")
def _assume(fl: FunctionLowering, op: Operation) -> None:
    fl.b.insert(AssumeOp(fl.scalar(op.operands[0])))
