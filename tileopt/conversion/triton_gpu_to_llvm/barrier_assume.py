"""``gpu.barrier`` (``tl.debug_barrier``), ``ttg.barrier`` (Triton 3.9's membar) and
``llvm.intr.assume`` (``tl.assume``).

A barrier is the target's block barrier (``TargetHooks.barrier``), the one the lowering
puts between shared-memory accesses; a ``ttg.barrier`` gets it whatever address spaces it
names (Triton 3.9's membar writes only ``local``; the global and tensor-memory ones are
not lowered yet). The shared-memory barrier analysis already counts both, so no second
one is placed beside them. The assumption
is already an LLVM op: it stays, on the lowered condition, for LLVM's optimiser to use.
"""

from __future__ import annotations

from xdsl.ir import Operation

from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers
from tileopt.dialects.llvm_ext import AssumeOp


@lowers("gpu.barrier", "ttg.barrier")
def _barrier(fl: FunctionLowering, op: Operation) -> None:
    fl.hooks.barrier(fl.b)


@lowers("llvm.intr.assume")
def _assume(fl: FunctionLowering, op: Operation) -> None:
    fl.b.insert(AssumeOp(fl.scalar(op.operands[0])))
