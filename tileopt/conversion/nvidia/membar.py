"""``triton-nvidia-gpu-membar``: Triton 3.9's membar pass for NVIDIA (see
:mod:`tileopt.conversion.membar_pass`), with the NVIDIA shared-memory rules of the compute
capability (those ``allocate-shared-memory-nv`` used)."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation

from tileopt.analysis.allocation import SharedMemoryTarget
from tileopt.conversion.membar_pass import insert_local_barriers
from tileopt.conversion.nvidia.target_options import NvidiaPass
from tileopt.passes import register_pass


@register_pass
class NvidiaMembar(NvidiaPass):
    """Insert ttg.barrier local between conflicting shared-memory accesses."""

    name = "triton-nvidia-gpu-membar"

    def apply(self, ctx: Context, op: Operation) -> None:
        insert_local_barriers(op, SharedMemoryTarget.nvidia(self.compute_capability))
