"""``allocate-shared-memory-nv`` / ``allocate-shared-memory``: give every shared-memory
buffer its offset.

Runs :class:`~tileopt.analysis.allocation.ModuleAllocation` and records the result as
Triton 3.6 does (``AllocateSharedMemoryNv`` in ``third_party/nvidia``, the generic
``AllocateSharedMemory`` in ``lib/Conversion/TritonGPUToLLVM``): ``allocation.offset`` on each
op that owns a buffer (``ttg.local_alloc``, and ``ttg.convert_layout``, ``tt.reduce``,
``tt.scan``... that need scratch) and the kernel's total bytes as ``ttg.shared`` on the
module. The NVIDIA pass knows the compute capability: from sm_75 a conversion may read with
``ldmatrix`` and from sm_90 write with ``stmatrix``, which changes its swizzled scratch
layout. The generic pass assumes plain shared loads and stores.
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
from tileopt.passes import Pass, PassFailure, option, register_pass


def allocate(module: Operation, target: SharedMemoryTarget) -> ModuleAllocation:
    if not isinstance(module, ModuleOp):
        raise PassFailure(module, "shared-memory allocation runs on a builtin.module")
    try:
        allocation = ModuleAllocation(module, target)
    except AllocationError as err:
        raise PassFailure(err.op, err.message) from err
    attach_allocation_attributes(module, allocation)
    return allocation


@register_pass
class AllocateSharedMemoryNv(Pass):
    """Assign shared-memory offsets (NVIDIA: conversion scratch follows ldmatrix/stmatrix)."""

    name = "allocate-shared-memory-nv"
    compute_capability: int = option(80, "device compute capability")
    ptx_version: int = option(80, "PTX version")

    def apply(self, ctx: Context, op: Operation) -> None:
        allocate(op, SharedMemoryTarget.nvidia(self.compute_capability))


@register_pass
class AllocateSharedMemory(Pass):
    """Assign shared-memory offsets (generic rules: plain shared loads and stores)."""

    name = "allocate-shared-memory"

    def apply(self, ctx: Context, op: Operation) -> None:
        allocate(op, SharedMemoryTarget())
