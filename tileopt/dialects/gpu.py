"""The one op of MLIR's ``gpu`` dialect that Triton's frontend writes: ``gpu.barrier``.

``tl.debug_barrier()`` becomes ``gpu.barrier``: every thread of the block waits, and shared
memory written before it is visible after it. It lives through every pass (it synchronises
all memory, so nothing moves across it and nothing deletes it; membar counts it as a
barrier) and lowers to the target's block barrier (``TargetHooks.barrier``).
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, traits_def

from tileopt.dialects.effects import Synchronizes


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """``gpu.barrier``: a block-wide barrier."""

    name = "gpu.barrier"

    traits = traits_def(Synchronizes())
    assembly_format = "attr-dict"


GPU = Dialect("gpu", [BarrierOp], [])

__all__ = ["GPU", "BarrierOp"]
