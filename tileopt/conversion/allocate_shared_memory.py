"""``allocate-shared-memory``: give every shared-memory buffer its offset (generic rules).

Runs :class:`~tileopt.analysis.allocation.ModuleAllocation` and records the result as
Triton 3.6 does (``AllocateSharedMemory`` in ``lib/Conversion/TritonGPUToLLVM``, beside the
lowering that reads it): ``allocation.offset`` on each op that owns a buffer
(``ttg.local_alloc``, and ``ttg.convert_layout``, ``tt.reduce``, ``tt.scan``... that need
scratch) and the kernel's total bytes as ``ttg.shared`` on the module; each op gets the
scratch tileopt's lowering of it lays out, which is Triton's size unless the lowering needs
more (``shared_memory.scratch_bytes``). This pass assumes
plain shared loads and stores; the vendor passes (``nvidia/``, ``amd/``) call
:func:`allocate` with their own scratch rules.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from tileopt.analysis.allocation import (
    AllocationError,
    ModuleAllocation,
    SharedMemoryTarget,
    attach_allocation_attributes,
)
from tileopt.conversion.shared_memory import scratch_bytes
from tileopt.passes import Pass, PassFailure, register_pass

# The lowering's patterns register their scratch rules (shared_memory.SCRATCH_RULES).
import tileopt.conversion.triton_gpu_to_llvm.module_lowering  # noqa: E402,F401  isort: skip


def allocate(module: Operation, target: SharedMemoryTarget) -> ModuleAllocation:
    """Allocate ``module``'s shared memory under ``target``'s rules and record it. Each op
    gets the scratch its lowering will use (``shared_memory.scratch_bytes``)."""
    if not isinstance(module, ModuleOp):
        raise PassFailure(module, "shared-memory allocation runs on a builtin.module")
    try:
        allocation = ModuleAllocation(module, target,
                                      scratch_size=lambda op: scratch_bytes(op, target))
    except AllocationError as err:
        raise PassFailure(err.op, err.message) from err
    attach_allocation_attributes(module, allocation)
    return allocation


@register_pass
class AllocateSharedMemory(Pass):
    """Assign shared-memory offsets (generic rules: plain shared loads and stores)."""

    name = "allocate-shared-memory"

    def apply(self, ctx: Context, op: Operation) -> None:
        allocate(op, SharedMemoryTarget())
