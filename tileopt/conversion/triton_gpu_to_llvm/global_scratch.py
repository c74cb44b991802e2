"""``ttg.global_scratch_alloc``: this program's slice of the kernel's global scratch.

A kernel's next-to-last parameter is the scratch of the whole grid (Triton's launcher
passes it; ``target_hooks.extra_kernel_arguments``); program ``x + nx * (y + ny * z)``
owns ``ttg.global_scratch_memory_size`` bytes of it, and an allocation starts at its
``ttg.global_scratch_memory_offset`` in them (both from
``tritongpu-global-scratch-memory-allocation``).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i8
from xdsl.ir import Operation

from tileopt.conversion.global_scratch_allocation import OFFSET_ATTR, SIZE_ATTR
from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, is_kernel, lowers


@lowers("ttg.global_scratch_alloc")
def _global_scratch_alloc(fl: FunctionLowering, op: Operation) -> None:
    if not is_kernel(fl.func):
        raise fl.error(op, "global scratch memory in a device function is not supported")
    size = fl.module.module.attributes.get(SIZE_ATTR)
    offset = op.attributes.get(OFFSET_ATTR)
    if not isinstance(size, IntegerAttr) or not isinstance(offset, IntegerAttr):
        raise fl.error(op, "run tritongpu-global-scratch-memory-allocation before the "
                           "lowering (no scratch offset)")
    b = fl.b
    pid = [fl.hooks.program_id(b, axis) for axis in range(3)]
    grid = [fl.hooks.num_programs(b, axis) for axis in range(2)]
    linear = pid[2]
    for axis in (1, 0):
        linear = b.int_op("add", pid[axis], b.int_op("mul", linear, grid[axis]))
    start = b.int_op("add", b.int_op("mul", linear, b.i32(size.value.data)),
                     b.i32(offset.value.data))
    scratch = b.entry.args[-2]
    fl.set(op.results[0], [b.gep(scratch, start, i8)])
