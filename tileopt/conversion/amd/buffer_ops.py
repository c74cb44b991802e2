"""``amdg.buffer_load``, ``amdg.buffer_store``, ``amdg.buffer_atomic_rmw``,
``amdg.buffer_atomic_cas``: AMD's raw buffer instructions.

A buffer access names a scalar base pointer and per-element 32-bit offsets. The base
becomes a resource descriptor (``make.buffer.rsrc`` with Triton's record count and the
family's flags, ``amd/isa.py``); each group of consecutive registers one
``raw.ptr.buffer.load/store`` of up to 128 bits at ``offset * element bytes``. Masks
cost no branch: a masked-off group gets an offset past the record count, which the
hardware turns into a load of zeros or a dropped store; a load's ``other`` values are
then selected in. The vector width is that of ``tt.load``: the offsets' contiguity and
alignment, the base pointer's alignment, the mask's.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import VectorType, i16, i64
from xdsl.ir import Attribute, Operation, SSAValue

from tileopt.conversion.amd.hooks import ORDERINGS, SYNC_SCOPES, AmdHooks
from tileopt.conversion.amd.isa import BUFFER_NUM_RECORDS, BUFFER_OUT_OF_RANGE_OFFSET
from tileopt.conversion.llvm_builder import LLVMBuilder, ptr_type
from tileopt.conversion.triton_gpu_to_llvm.load_store import (
    and_predicates,
    pointee_storage_type,
    redundant_thread_predicate,
    unique_registers,
    vector_width,
)
from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers
from tileopt.conversion.type_converter import bit_width
from tileopt.dialects import llvm_ext
from tileopt.dialects.rocdl_llvm import MakeBufferRsrcOp, RawPtrBufferLoadOp, RawPtrBufferStoreOp
from tileopt.dialects.tt_types import MEM_SEMANTIC, MEM_SYNC_SCOPE, RMW_OP

_RESOURCE = ptr_type(8)
# Triton's RMW kinds -> the suffix of llvm.amdgcn.raw.ptr.buffer.atomic.<op>.
_BUFFER_RMW = {"fadd": "fadd", "max": "smax", "min": "smin", "umax": "umax", "umin": "umin",
               "add": "add", "and": "and", "or": "or", "xor": "xor", "exch": "swap"}


def _hooks(fl: FunctionLowering, op: Operation) -> AmdHooks:
    if not isinstance(fl.hooks, AmdHooks):
        raise fl.error(op, f"'{op.name}' is an AMD operation; lower it with "
                           "convert-triton-amdgpu-to-llvm")
    return fl.hooks


def _resource(fl: FunctionLowering, op: Operation, base: SSAValue) -> SSAValue:
    b = fl.b
    flags = _hooks(fl, op).isa.buffer_resource_flags
    return b.emit(MakeBufferRsrcOp.create(
        operands=[fl.scalar(base), b.constant(i16, 0), b.constant(i64, BUFFER_NUM_RECORDS),
                  b.i32(flags)],
        result_types=[_RESOURCE]))


def _groups(fl: FunctionLowering, op: Operation, offsets: SSAValue, mask: SSAValue | None,
            storage: Attribute, base: SSAValue) -> tuple[list[int], list[int], int]:
    """(distinct registers, each register's distinct register, elements per access)."""
    layout = fl.layouts.of(offsets.type)
    unique, canonical = unique_registers(layout)
    bits = bit_width(storage)
    vec = vector_width(fl, offsets, mask, bits, unique)
    base_bytes = fl.axis[base].divisibility[0] if fl.axis.get(base) is not None else 1
    while vec > 1 and (base_bytes * 8) % (vec * bits):
        vec //= 2
    return unique, canonical, vec


@dataclass
class _BufferOperands:
    """What every buffer op reads: the element type in memory, the resource of its base
    pointer, and its per-register offsets and mask bits (None: unmasked)."""

    storage: Attribute
    rsrc: SSAValue
    offsets: list[SSAValue]
    masks: list[SSAValue] | None


def _operands(fl: FunctionLowering, op: Operation) -> _BufferOperands:
    return _BufferOperands(storage=pointee_storage_type(op.ptr.type),
                           rsrc=_resource(fl, op, op.ptr), offsets=fl.get(op.offsets),
                           masks=fl.get(op.mask) if getattr(op, "mask", None) is not None
                           else None)


def _byte_offset(b: LLVMBuilder, offset: SSAValue, storage: Attribute,
                 pred: SSAValue | None) -> SSAValue:
    scaled = b.mul(offset, b.i32(bit_width(storage) // 8))
    if pred is None:
        return scaled
    return b.select(pred, scaled, b.i32(BUFFER_OUT_OF_RANGE_OFFSET - (1 << 32)))


def _access_type(storage: Attribute, count: int) -> Attribute:
    return storage if count == 1 else VectorType(storage, [count])


@lowers("amdg.buffer_load")
def _buffer_load(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    access = _operands(fl, op)
    storage, rsrc, offsets, masks = access.storage, access.rsrc, access.offsets, access.masks
    others = fl.get(op.other) if op.other is not None else None
    unique, canonical, vec = _groups(fl, op, op.offsets, op.mask, storage, op.ptr)
    loaded: dict[int, SSAValue] = {}
    for start in range(0, len(unique), vec):
        regs = unique[start:start + vec]
        pred = masks[regs[0]] if masks is not None else None
        ty = _access_type(storage, len(regs))
        value = b.emit(RawPtrBufferLoadOp.create(
            operands=[rsrc, _byte_offset(b, offsets[regs[0]], storage, pred), b.i32(0),
                      b.i32(0)],
            result_types=[ty]))
        values = [value] if len(regs) == 1 else b.unpack_vector(value)
        for r, v in zip(regs, values):
            if pred is not None and others is not None:
                v = b.select(pred, v, others[r])
            loaded[r] = v
    fl.set(op.results[0], [loaded[canonical[r]] for r in range(len(canonical))])


@lowers("amdg.buffer_store")
def _buffer_store(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    access = _operands(fl, op)
    storage, rsrc, offsets, masks = access.storage, access.rsrc, access.offsets, access.masks
    values = fl.get(op.value)
    unique, _, vec = _groups(fl, op, op.offsets, op.mask, storage, op.ptr)
    thread_pred = redundant_thread_predicate(fl, fl.layouts.of(op.offsets.type))
    for start in range(0, len(unique), vec):
        regs = unique[start:start + vec]
        pred = and_predicates(b, thread_pred, masks[regs[0]] if masks is not None else None)
        data = values[regs[0]] if len(regs) == 1 else b.pack_vector([values[r] for r in regs])
        b.insert(RawPtrBufferStoreOp.create(
            operands=[data, rsrc, _byte_offset(b, offsets[regs[0]], storage, pred),
                      b.i32(0), b.i32(0)]))


@lowers("amdg.buffer_atomic_rmw")
def _buffer_atomic_rmw(fl: FunctionLowering, op: Operation) -> None:
    """One ``raw.ptr.buffer.atomic.<op>`` per element (no vector atomics), between the
    fences its memory semantics ask for at its scope."""
    kind = RMW_OP.value_of(op.atomic_rmw_op).value
    if kind not in _BUFFER_RMW:
        raise fl.error(op, f"no buffer atomic for '{kind}'")
    _buffer_atomic(fl, op, _BUFFER_RMW[kind], [fl.get(op.value)])


@lowers("amdg.buffer_atomic_cas")
def _buffer_atomic_cas(fl: FunctionLowering, op: Operation) -> None:
    """``raw.ptr.buffer.atomic.cmpswap(val, cmp, ...)`` per element, as the RMW."""
    _buffer_atomic(fl, op, "cmpswap", [fl.get(op.val), fl.get(op.cmp)])


def _buffer_atomic(fl: FunctionLowering, op: Operation, kind: str,
                   data: list[list[SSAValue]]) -> None:
    b = fl.b
    sem = ORDERINGS[MEM_SEMANTIC.value_of(op.sem).value]
    scope = SYNC_SCOPES.get(MEM_SYNC_SCOPE.value_of(op.scope).value, "agent")
    access = _operands(fl, op)
    storage, rsrc, offsets, masks = access.storage, access.rsrc, access.offsets, access.masks
    layout = fl.layouts.of(op.offsets.type)
    unique, canonical = unique_registers(layout)
    thread_pred = redundant_thread_predicate(fl, layout)
    if sem in ("release", "acq_rel"):
        b.insert(llvm_ext.FenceOp("release", scope))
    old: dict[int, SSAValue] = {}
    for r in unique:
        pred = and_predicates(b, thread_pred, masks[r] if masks is not None else None)
        old[r] = b.call_intrinsic(
            f"llvm.amdgcn.raw.ptr.buffer.atomic.{kind}",
            [*(values[r] for values in data), rsrc,
             _byte_offset(b, offsets[r], storage, pred), b.i32(0), b.i32(0)],
            storage)
    if sem in ("acquire", "acq_rel"):
        b.insert(llvm_ext.FenceOp("acquire", scope))
    fl.set(op.results[0], [old[canonical[r]] for r in range(len(canonical))])


__all__: list[str] = []
