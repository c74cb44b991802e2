"""Membar as a pass of its own, as Triton 3.9 runs it (``triton-nvidia-gpu-membar``,
``triton-amdgpu-membar``): after shared memory is allocated, put a ``ttg.barrier local``
before every op whose shared-memory access conflicts with one not yet synchronised
(:mod:`tileopt.analysis.membar`, Triton's rules, with the allocation the lowering uses).

Triton 3.6 placed these barriers inside its LLVM lowering; tileopt's lowering still does,
and counts a ``ttg.barrier`` already in the IR as one, so the two never double up.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from tileopt.analysis.allocation import ModuleAllocation, SharedMemoryTarget
from tileopt.analysis.membar import insert_barriers
from tileopt.conversion.shared_memory import scratch_bytes
from tileopt.dialects.ttg import BarrierOp


def insert_local_barriers(module: ModuleOp, target: SharedMemoryTarget) -> None:
    """``ttg.barrier local`` wherever the barrier analysis asks for one."""
    allocation = ModuleAllocation(module, target,
                                  scratch_size=lambda op: scratch_bytes(op, target))
    insert_barriers(module, BarrierOp, allocation)
