"""``ttg.convert_layout``: the same tensor in another layout, by the cheapest route.

Derived from the two linear layouts (``register_maps``, ``shared_layouts``):

- every thread already holds what it needs (equal layouts, or only the register order
  differs): pick registers, no instruction at all;
- otherwise through shared memory: each thread writes its distinct registers, a barrier,
  each thread reads the elements of its new registers. The offset map is chosen for vector
  accesses on both sides where possible and bank-conflict-free transactions, xor-swizzled
  over GF(2) (``shared_layouts.plan_transfer``).

The scratch buffer comes from ``allocate-shared-memory`` (``allocation.offset``) or the
stand-in of ``shared_memory.py``.
"""

from __future__ import annotations

from xdsl.dialects.builtin import NoneAttr, TensorType, i8
from xdsl.ir import Attribute, Operation, SSAValue

from tileopt.conversion import register_maps
from tileopt.conversion.shared_layouts import plan_transfer
from tileopt.conversion.shared_memory import scratch_rule
from tileopt.conversion.triton_gpu_to_llvm.load_store import unique_registers
from tileopt.conversion.triton_gpu_to_llvm.lowering import (
    FunctionLowering,
    lowers,
    shared_memory_base,
)
from tileopt.conversion.triton_gpu_to_llvm.shared_access import (
    Access,
    load_registers,
    storage_bytes,
    storage_type,
    store_registers,
)
from tileopt.conversion.type_converter import convert_scalar_type
from tileopt.dialects.layout_of import linear_layout_of
from tileopt.layouts.linear_layout import LinearLayout


@scratch_rule("ttg.convert_layout")
def convert_scratch(op: Operation) -> int:
    """Bytes :func:`convert_through_shared` lays out: the whole tensor, in one round (Triton
    may need less: warp shuffles, or several rounds), or none when registers suffice."""
    src_type, dst_type = op.operands[0].type, op.results[0].type
    if not all(isinstance(t, TensorType) and not isinstance(t.encoding, NoneAttr)
               for t in (src_type, dst_type)):
        return 0  # not a TritonGPU conversion: the pattern reports it
    if register_maps.register_map(linear_layout_of(src_type),
                                  linear_layout_of(dst_type)) is not None:
        return 0
    size = storage_bytes(convert_scalar_type(src_type.element_type))
    for extent in src_type.get_shape():
        size *= extent
    return size


def convert_through_shared(fl: FunctionLowering, op: Operation, values: list[SSAValue],
                           src: LinearLayout, dst: LinearLayout, shape: list[int],
                           element_type: Attribute) -> list[SSAValue]:
    b = fl.b
    storage = storage_type(element_type)
    element_bytes = storage_bytes(element_type)
    src_unique, _ = unique_registers(src)
    dst_unique, dst_canonical = unique_registers(dst)
    plan = plan_transfer(src, dst, shape, element_bytes, len(src_unique), len(dst_unique),
                         fl.hooks.shared_memory_banks)
    base_offset = fl.module.shared.offset(op, plan.bytes)
    fl.begin_shared_memory_use(op)
    base = b.gep(shared_memory_base(fl), b.i32(base_offset), i8)

    store = Access(base, plan.hardware_offsets(src, plan.element_bytes), plan.store)
    store_registers(fl, store, src_unique, values, storage)
    fl.hooks.barrier(b)
    load = Access(base, plan.hardware_offsets(dst, plan.element_bytes), plan.load)
    loaded = load_registers(fl, load, dst_unique, storage, element_type)
    return [loaded[dst_canonical[r]] for r in range(len(dst_canonical))]


@lowers("ttg.convert_layout")
def _convert_layout(fl: FunctionLowering, op: Operation) -> None:
    src_type: TensorType = op.operands[0].type
    dst_type: TensorType = op.results[0].type
    src = fl.layouts.of(src_type)
    dst = fl.layouts.of(dst_type)
    values = fl.get(op.operands[0])
    mapping = register_maps.register_map(src, dst)
    if mapping is not None:
        fl.set(op.results[0], [values[i] for i in mapping])
        return
    element_type = fl.llvm_type(src_type)
    fl.set(op.results[0], convert_through_shared(fl, op, values, src, dst,
                                                 list(src_type.get_shape()), element_type))


__all__ = ["convert_through_shared"]
