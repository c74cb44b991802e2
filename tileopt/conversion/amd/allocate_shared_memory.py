"""``allocate-amdgpu-shared-memory``: shared-memory (LDS) offsets for AMD GPUs.

The generic allocator (:mod:`tileopt.conversion.allocate_shared_memory`) with the AMD back
end's scratch rules (Triton 3.6's ``AMDAllocationAnalysisScratchSizeFn``, in
``TritonAMDGPUToLLVM``): conversions use plain LDS loads and stores with the generic
swizzled layout, or Triton's padded layout on conversions marked
``amdgpu.use_padded_scratch_shmem``.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation

from tileopt.analysis.allocation import SharedMemoryTarget
from tileopt.conversion.allocate_shared_memory import allocate
from tileopt.passes import Pass, register_pass

AMD_SHARED_MEMORY = SharedMemoryTarget("amd")


@register_pass
class AllocateAMDGPUSharedMemory(Pass):
    """Assign LDS offsets with the AMD back end's scratch rules."""

    name = "allocate-amdgpu-shared-memory"

    def apply(self, ctx: Context, op: Operation) -> None:
        allocate(op, AMD_SHARED_MEMORY)
