"""``convert-arith-to-llvm``: scalar ``arith`` ops outside TritonGPU functions -> ``llvm``
(see ``scalar_lowering``; MLIR's pass of the same name)."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation

from tileopt.conversion.scalar_lowering import lower_scalar_ops
from tileopt.passes import Pass, register_pass


@register_pass
class ConvertArithToLLVM(Pass):
    """Convert scalar arith ops to the LLVM dialect."""

    name = "convert-arith-to-llvm"
    anchor = None

    def apply(self, ctx: Context, op: Operation) -> None:
        lower_scalar_ops(op, ("arith.",))
