"""``allocate-shared-memory-nv``: shared-memory offsets with the NVIDIA back end's rules.

The generic allocator (:mod:`tileopt.conversion.allocate_shared_memory`) with Triton 3.6's
``AllocateSharedMemoryNv`` (``third_party/nvidia``) scratch rules: the pass knows the
compute capability, and from sm_75 a conversion may read with ``ldmatrix`` and from sm_90
write with ``stmatrix``, which changes its swizzled scratch layout.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation

from tileopt.analysis.allocation import SharedMemoryTarget
from tileopt.conversion.allocate_shared_memory import allocate
from tileopt.conversion.nvidia.target_options import NvidiaPass
from tileopt.passes import register_pass


@register_pass
class AllocateSharedMemoryNv(NvidiaPass):
    """Assign shared-memory offsets (NVIDIA: conversion scratch follows ldmatrix/stmatrix)."""

    name = "allocate-shared-memory-nv"

    def apply(self, ctx: Context, op: Operation) -> None:
        allocate(op, SharedMemoryTarget.nvidia(self.compute_capability))
