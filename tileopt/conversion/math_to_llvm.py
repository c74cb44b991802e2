"""``convert-math-to-llvm``: scalar ``math`` ops outside TritonGPU functions -> ``llvm``
intrinsics (see ``scalar_lowering``; MLIR's pass of the same name)."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation

from tileopt.conversion.scalar_lowering import lower_scalar_ops
from tileopt.passes import Pass, register_pass


@register_pass
class ConvertMathToLLVM(Pass):
    """Convert scalar math ops to LLVM intrinsics."""

    name = "convert-math-to-llvm"
    anchor = None

    def apply(self, ctx: Context, op: Operation) -> None:
        lower_scalar_ops(op, ("math.",))
