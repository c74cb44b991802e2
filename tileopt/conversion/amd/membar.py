"""``triton-amdgpu-membar``: Triton 3.9's membar pass for AMD (see
:mod:`tileopt.conversion.membar_pass`), over the LDS allocation
``allocate-amdgpu-shared-memory`` made."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation

from tileopt.conversion.amd.allocate_shared_memory import AMD_SHARED_MEMORY
from tileopt.conversion.membar_pass import insert_local_barriers
from tileopt.passes import Pass, register_pass


@register_pass
class AMDGPUMembar(Pass):
    """Insert ttg.barrier local between conflicting LDS accesses."""

    name = "triton-amdgpu-membar"

    def apply(self, ctx: Context, op: Operation) -> None:
        insert_local_barriers(op, AMD_SHARED_MEMORY)
