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

from xdsl.dialects import llvm
from xdsl.dialects.builtin import NoneAttr, TensorType, i1, i8, i64
from xdsl.ir import Attribute, Operation, SSAValue

from tileopt.conversion import register_maps
from tileopt.conversion.indexing import HW_DIMS, apply_layout, register_coordinates
from tileopt.conversion.llvm_builder import LLVMBuilder
from tileopt.conversion.shared_layouts import TransferPlan, plan_transfer
from tileopt.conversion.shared_memory import scratch_rule
from tileopt.conversion.triton_gpu_to_llvm.load_store import unique_registers
from tileopt.conversion.triton_gpu_to_llvm.lowering import (
    FunctionLowering,
    lowers,
    shared_memory_base,
)
from tileopt.conversion.type_converter import bit_width, convert_scalar_type
from tileopt.dialects.layout_of import linear_layout_of
from tileopt.layouts.linear_layout import LinearLayout


def storage_type(ty: Attribute) -> Attribute:
    """How a register of type ``ty`` is kept in shared memory (bools as bytes, pointers as i64)."""
    if ty == i1:
        return i8
    if isinstance(ty, llvm.LLVMPointerType):
        return i64
    return ty


def to_storage(b: LLVMBuilder, value: SSAValue, storage: Attribute) -> SSAValue:
    if isinstance(value.type, llvm.LLVMPointerType):
        return b.cast("ptrtoint", value, storage)
    if value.type == i1:
        return b.int_cast(value, storage, signed=False)
    return value


def from_storage(b: LLVMBuilder, value: SSAValue, ty: Attribute) -> SSAValue:
    if isinstance(ty, llvm.LLVMPointerType):
        return b.emit(llvm.IntToPtrOp.create(operands=[value], result_types=[ty]))
    if ty == i1:
        return b.icmp("ne", value, b.constant(value.type, 0))
    return value


def storage_bytes(element_type: Attribute) -> int:
    """Bytes one element of LLVM type ``element_type`` takes in shared memory."""
    return max(1, bit_width(storage_type(element_type)) // 8)


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


def shared_offsets(fl: FunctionLowering, plan: TransferPlan, layout: LinearLayout):
    """(thread part as an i32 SSA value, bits the thread part may set, per-register
    constant) of each register's byte offset; bytes, so that the xor with the constant
    is the whole address computation."""
    offsets = plan.hardware_offsets(layout, plan.element_bytes)
    dims = [d for d in HW_DIMS if offsets.has_in_dim(d)]
    threads = offsets.sublayout(dims, ["offset"])
    key = f"smem-offsets:{tuple(tuple(threads.get_bases(d)) for d in threads.in_dims)}"
    thread_part = fl.b.prologue_value(key, lambda b: apply_layout(
        b, threads, {d: fl.ids.value(d) for d in threads.in_dims})[0])
    thread_bits = 0
    for d in dims:
        for basis in threads.get_bases(d):
            thread_bits |= basis[0]
    constants = [c[0] for c in register_coordinates(offsets)]
    return thread_part, thread_bits, constants


class _Addresses:
    """Addresses ``base + (thread ^ constant)``: the constant's bits the thread part
    cannot set are added as an immediate, so one xor serves all accesses that share the
    rest (LLVM does not split the constant itself)."""

    def __init__(self, b: LLVMBuilder, base: SSAValue, thread: SSAValue, thread_bits: int):
        self.b, self.base, self.thread, self.thread_bits = b, base, thread, thread_bits
        self._xored: dict[int, SSAValue] = {}

    def __call__(self, constant: int) -> SSAValue:
        b = self.b
        low = constant & self.thread_bits
        if low not in self._xored:
            self._xored[low] = b.gep(self.base, b.xor(self.thread, b.i32(low)), i8)
        return b.gep(self._xored[low], b.i32(constant & ~self.thread_bits), i8)


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

    thread, thread_bits, constants = shared_offsets(fl, plan, src)
    address = _Addresses(b, base, thread, thread_bits)
    for r in src_unique:
        if not plan.store.starts(r):
            continue
        ptr = address(constants[r])
        group = [to_storage(b, values[g], storage) for g in plan.store.group(r)]
        fl.hooks.store_shared(b, ptr, group, None)
    fl.hooks.barrier(b)

    thread, thread_bits, constants = shared_offsets(fl, plan, dst)
    address = _Addresses(b, base, thread, thread_bits)
    loaded: dict[int, SSAValue] = {}
    for r in dst_unique:
        if not plan.load.starts(r):
            continue
        ptr = address(constants[r])
        group = plan.load.group(r)
        for g, v in zip(group, fl.hooks.load_shared(b, ptr, storage, len(group), None)):
            loaded[g] = from_storage(b, v, element_type)
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


__all__ = ["convert_through_shared", "storage_type"]
