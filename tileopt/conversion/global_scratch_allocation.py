"""``tritongpu-global-scratch-memory-allocation``: offsets into each program's global
scratch (Triton 3.6's ``GlobalScratchMemoryAllocation.cpp``, as its dumps show).

Every ``ttg.global_scratch_alloc`` of a function, in walk order, gets
``ttg.global_scratch_memory_offset`` (the running size rounded up to its alignment; no
reuse). The function and the module get ``ttg.global_scratch_memory_size`` (the total
rounded up to the largest alignment) and ``ttg.global_scratch_memory_alignment`` (the
largest, 1 without allocations). Triton 3.9 also writes the profiler's scratch the same
way, ``ttg.profile_scratch_memory_size = 0`` / ``_alignment = 1`` (tileopt does not
profile). The lowering places a program's scratch at ``scratch argument + linear program
id * size``.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Operation

from tileopt.conversion.triton_gpu_to_llvm.lowering import is_kernel
from tileopt.dialects.triton_version import is_version_39
from tileopt.ir.walks import ops_in_walk_order
from tileopt.passes import Pass, PassFailure, register_pass

OFFSET_ATTR = "ttg.global_scratch_memory_offset"
SIZE_ATTR = "ttg.global_scratch_memory_size"
ALIGNMENT_ATTR = "ttg.global_scratch_memory_alignment"
PROFILE_SIZE_ATTR = "ttg.profile_scratch_memory_size"
PROFILE_ALIGNMENT_ATTR = "ttg.profile_scratch_memory_alignment"


def _round_up(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


def allocate_function(func: Operation) -> tuple[int, int]:
    """Offsets for ``func``'s allocations; its (size, alignment)."""
    offset, largest = 0, 1
    for op in ops_in_walk_order(func):
        if op.name != "ttg.global_scratch_alloc":
            continue
        nbytes = op.properties["nbytes"].value.data
        alignment = op.properties["alignment"].value.data
        if nbytes <= 0:
            continue
        offset = _round_up(offset, alignment)
        op.attributes[OFFSET_ATTR] = IntegerAttr(offset, i32)
        offset += nbytes
        largest = max(largest, alignment)
    return _round_up(offset, largest), largest


def _set_sizes(op: Operation, size: int, alignment: int, profile: bool) -> None:
    op.attributes[ALIGNMENT_ATTR] = IntegerAttr(alignment, i32)
    op.attributes[SIZE_ATTR] = IntegerAttr(size, i32)
    if profile:
        op.attributes[PROFILE_ALIGNMENT_ATTR] = IntegerAttr(1, i32)
        op.attributes[PROFILE_SIZE_ATTR] = IntegerAttr(0, i32)


@register_pass
class GlobalScratchMemoryAllocation(Pass):
    """Assign offsets into the per-program global scratch (``ttg.global_scratch_alloc``)."""

    name = "tritongpu-global-scratch-memory-allocation"

    def apply(self, ctx: Context, op: Operation) -> None:
        profile = is_version_39(op)
        sizes: dict[str, int] = {}
        for func in [o for o in ops_in_walk_order(op) if o.name == "tt.func"]:
            size, alignment = allocate_function(func)
            sizes[func.sym_name.data] = size
            _set_sizes(func, size, alignment, profile)
            if is_kernel(func):
                _set_sizes(op, size, alignment, profile)
        # A call into a function without global scratch (a noinline helper) needs none;
        # one into a function with some would need the caller's scratch to cover it.
        for call in [o for o in ops_in_walk_order(op) if o.name == "tt.call"]:
            if sizes.get(call.callee.root_reference.data, 0):
                raise PassFailure(call, "global scratch memory across calls is not supported")
