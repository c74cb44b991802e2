"""Test pass for the barrier analysis (like Triton's ``-test-print-membar``): allocate
shared memory, then put an ``nvvm.barrier0`` wherever ``tileopt.analysis.membar`` says one
is needed, so that FileCheck can see where they go."""

from __future__ import annotations

from tileopt.analysis.allocation import (
    ModuleAllocation,
    SharedMemoryTarget,
    attach_allocation_attributes,
)
from tileopt.analysis.membar import insert_barriers
from tileopt.dialects.nvvm import Barrier0Op
from tileopt.passes import Pass, register_pass


@register_pass
class TestInsertMembar(Pass):
    """Allocate shared memory and insert the barriers the membar analysis asks for."""

    name = "test-insert-membar"

    def apply(self, ctx, op):
        allocation = ModuleAllocation(op, SharedMemoryTarget.from_module(op))
        attach_allocation_attributes(op, allocation)
        insert_barriers(op, Barrier0Op, allocation)
