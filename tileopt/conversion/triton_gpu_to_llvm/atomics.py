"""``tt.atomic_rmw`` and ``tt.atomic_cas``: one atomic instruction per distinct element.

An element that several threads hold (a broadcast lane or warp bit of the layout; for a
scalar, every thread) must be updated once, so only the thread whose broadcast bits are
zero issues the atomic (Triton's redundant-thread predicate), and-ed with the mask. When
the old values are used, that thread shares them with the others through shared memory.
A read-modify-write whose result is unused and whose ordering is relaxed or release is a
``red`` (no value comes back), as in Triton.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType, i8
from xdsl.ir import Operation, SSAValue

from tileopt.conversion.indexing import element_coordinates, linear_index
from tileopt.conversion.triton_gpu_to_llvm.shared_access import (
    from_storage,
    storage_type,
    to_storage,
)
from tileopt.conversion.triton_gpu_to_llvm.load_store import (
    and_predicates,
    redundant_thread_predicate,
    unique_registers,
    vector_width,
)
from tileopt.conversion.triton_gpu_to_llvm.lowering import (
    FunctionLowering,
    lowers,
    shared_memory_base,
)
from tileopt.conversion.type_converter import bit_width
from tileopt.dialects.tt_types import MEM_SEMANTIC, MEM_SYNC_SCOPE, RMW_OP


def _layout_and_registers(fl: FunctionLowering, ptr: SSAValue):
    if isinstance(ptr.type, TensorType):
        layout = fl.layouts.of(ptr.type)
        unique, canonical = unique_registers(layout)
        return layout, unique, canonical
    return None, [0], [0]


def share_results(fl: FunctionLowering, op: Operation, olds: dict[int, SSAValue],
                  layout, canonical: list[int], owner: SSAValue | None) -> list[SSAValue]:
    """Every thread's copy of the old values, which only ``owner`` threads obtained."""
    count = len(canonical)
    if owner is None:
        return [olds[canonical[r]] for r in range(count)]
    b = fl.b
    ty = next(iter(olds.values())).type
    storage = storage_type(ty)
    size = max(1, bit_width(storage) // 8)
    result_type = op.results[0].type
    if isinstance(result_type, TensorType):
        shape = list(result_type.get_shape())
        coords = element_coordinates(b, fl.ids, layout)
        index = {r: linear_index(b, coords[r], shape) for r in olds}
        elements = 1
        for s in shape:
            elements *= s
    else:
        index = {0: b.i32(0)}
        elements = 1
    base_offset = fl.module.shared.offset(op, elements * size)
    fl.begin_shared_memory_use(op)
    base = b.gep(shared_memory_base(fl), b.i32(base_offset), i8)
    for r, old in olds.items():
        fl.hooks.store_shared(b, b.gep(base, index[r], storage), [to_storage(b, old, storage)],
                              owner)
    fl.hooks.barrier(b)
    shared = {}
    for r in olds:
        [value] = fl.hooks.load_shared(b, b.gep(base, index[r], storage), storage, 1, None)
        shared[r] = from_storage(b, value, ty)
    return [shared[canonical[r]] for r in range(count)]


@lowers("tt.atomic_rmw")
def _atomic_rmw(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    kind = RMW_OP.value_of(op.atomic_rmw_op).value
    sem = MEM_SEMANTIC.value_of(op.sem).value
    scope = MEM_SYNC_SCOPE.value_of(op.scope).value
    layout, unique, canonical = _layout_and_registers(fl, op.ptr)
    ptrs, vals = fl.get(op.ptr), fl.get(op.val)
    masks = fl.get(op.mask) if op.mask is not None else None
    owner = redundant_thread_predicate(fl, layout)
    used = bool(op.results[0].uses)
    olds: dict[int, SSAValue] = {}
    vec = _vector_width(fl, op, kind, unique)
    if vec > 1:
        # One instruction per group of consecutive elements (it returns the old values,
        # as Triton's does, used or not)
        for start in range(0, len(unique), vec):
            regs = unique[start:start + vec]
            pred = and_predicates(b, owner, masks[regs[0]] if masks is not None else None)
            olds.update(zip(regs, fl.hooks.atomic_rmw_vector(
                b, kind, ptrs[regs[0]], [vals[r] for r in regs], pred, sem, scope)))
    else:
        use_red = not used and kind != "exch" and sem in ("relaxed", "release")
        for r in unique:
            pred = and_predicates(b, owner, masks[r] if masks is not None else None)
            old = fl.hooks.atomic_rmw(b, kind, ptrs[r], vals[r], pred, sem, scope,
                                      returns=not use_red)
            if old is not None:
                olds[r] = old
    if used:
        fl.set(op.results[0], share_results(fl, op, olds, layout, canonical, owner))


def _vector_width(fl: FunctionLowering, op: Operation, kind: str, unique: list[int]) -> int:
    """Elements per atomic instruction: what the target allows for this operation, within
    the pointer's contiguity and the mask's alignment (Triton's getVectorSize)."""
    if not isinstance(op.ptr.type, TensorType):
        return 1
    element_type = op.val.type.element_type
    limit = fl.hooks.vector_atomic_width(kind, element_type)
    if limit == 1:
        return 1
    return min(limit, vector_width(fl, op.ptr, op.mask, bit_width(element_type), unique))


@lowers("tt.atomic_cas")
def _atomic_cas(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    sem = MEM_SEMANTIC.value_of(op.sem).value
    scope = MEM_SYNC_SCOPE.value_of(op.scope).value
    layout, unique, canonical = _layout_and_registers(fl, op.ptr)
    ptrs, cmps, vals = fl.get(op.ptr), fl.get(op.cmp), fl.get(op.val)
    owner = redundant_thread_predicate(fl, layout)
    olds = {r: fl.hooks.atomic_cas(b, ptrs[r], cmps[r], vals[r], owner, sem, scope)
            for r in unique}
    if not op.results[0].uses:
        return
    fl.set(op.results[0], share_results(fl, op, olds, layout, canonical, owner))
