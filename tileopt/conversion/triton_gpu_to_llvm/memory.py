"""``ttg.local_alloc``, ``ttg.local_load``, ``ttg.local_store``: tensors in and out of
shared-memory buffers (the value model is ``shared_view``'s)."""

from __future__ import annotations

from xdsl.ir import Operation

from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers
from tileopt.conversion.triton_gpu_to_llvm.shared_view import frame_base, set_view


@lowers("ttg.local_alloc")
def _local_alloc(fl: FunctionLowering, op: Operation) -> None:
    result = op.results[0]
    set_view(fl, result, frame_base(fl, op))
    if op.operands:
        raise fl.error(op, "local_alloc with an initial value is not lowered yet")
