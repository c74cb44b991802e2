"""``tt.addptr``, ``tt.load`` and ``tt.store``: pointer arithmetic and vectorised global
memory accesses.

The vector width of an access is what Triton's ``getVectorSize`` allows: the pointer's
contiguity from axis info (consecutive, aligned elements a thread holds along the fastest
dim), capped at 128 bits, and with a mask, by the mask's alignment (how many consecutive
elements share one mask bit). Each group of that many registers becomes one vector access
through the target hooks (inline ``ld.global.v4.b32`` with a predicate on NVIDIA).

Registers that repeat another register's element (a zero ``register`` basis) are loaded
once and copied. A store must also not be issued twice for one element by two threads
(a broadcast ``lane``/``warp`` bit of the layout): only the thread whose free bits are zero
stores, Triton's "redundant thread predicate".
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType, i1, i8
from xdsl.ir import Attribute, Operation, SSAValue

from tileopt.analysis.axis_info import tensor_order
from tileopt.conversion.indexing import register_coordinates
from tileopt.conversion.llvm_builder import LLVMBuilder
from tileopt.conversion.target_hooks import CachePolicy, MemoryAccess
from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers
from tileopt.conversion.type_converter import bit_width, convert_scalar_type
from tileopt.dialects.tt_types import CACHE_MODIFIER, EVICTION_POLICY, PointerType
from tileopt.layouts.linear_layout import LinearLayout


def pointee_storage_type(ptr_type: Attribute) -> Attribute:
    """The LLVM type elements behind a pointer are stored as (i1 is a byte in memory)."""
    ptr = ptr_type.element_type if isinstance(ptr_type, TensorType) else ptr_type
    assert isinstance(ptr, PointerType)
    ty = convert_scalar_type(ptr.pointee_type)
    return i8 if ty == i1 else ty


@lowers("tt.addptr")
def _addptr(fl: FunctionLowering, op: Operation) -> None:
    element = pointee_storage_type(op.operands[0].type)
    ptrs = fl.get(op.operands[0])
    offsets = fl.get(op.operands[1])
    if len(ptrs) != len(offsets):  # a scalar pointer plus offsets cannot happen; be safe
        ptrs = ptrs * len(offsets) if len(ptrs) == 1 else ptrs
    fl.set(op.results[0], [fl.b.gep(p, o, element) for p, o in zip(ptrs, offsets)])


# ----------------------------------------------------------------------------- helpers


def unique_registers(layout: LinearLayout) -> tuple[list[int], list[int]]:
    """(registers holding distinct elements, for each register its distinct register).

    A register whose index has a bit of a zero register basis repeats the register
    without that bit.
    """
    zero_bits = 0
    for i, basis in enumerate(layout.get_bases("register")):
        if not any(basis):
            zero_bits |= 1 << i
    count = layout.in_dim_size("register")
    canonical = [r & ~zero_bits for r in range(count)]
    unique = [r for r in range(count) if r & zero_bits == 0]
    return unique, canonical


def redundant_thread_predicate(fl: FunctionLowering, layout: LinearLayout | None) -> SSAValue | None:
    """True in the one thread of each group of threads holding the same elements; None
    when every thread holds distinct elements. ``layout`` None: a scalar (thread 0)."""
    b = fl.b
    if layout is None:
        masks = {"lane": fl.warp_size - 1, "warp": fl.num_warps - 1}
    else:
        masks = layout.get_free_variable_masks()
    if masks.get("lane", 0) == fl.warp_size - 1 and masks.get("warp", 0) == fl.num_warps - 1:
        return b.icmp("eq", fl.ids.thread, b.i32(0))  # every thread holds it all: thread 0
    pred = None
    for dim in ("lane", "warp"):
        mask = masks.get(dim, 0)
        if not mask:
            continue
        ids = fl.ids.lane if dim == "lane" else fl.ids.warp
        test = b.icmp("eq", b.and_(ids, b.i32(mask)), b.i32(0))
        pred = test if pred is None else b.and_(pred, test)
    return pred


def and_predicates(b: LLVMBuilder, a: SSAValue | None, c: SSAValue | None) -> SSAValue | None:
    if a is None:
        return c
    if c is None:
        return a
    return b.and_(a, c)


def _policy(op: Operation, load: bool) -> CachePolicy:
    cache = CACHE_MODIFIER.value_of(op.cache).value
    evict = EVICTION_POLICY.value_of(op.evict).value
    volatile = load and bool(op.isVolatile.value.data)
    return CachePolicy(cache=cache, eviction="normal" if evict == "evict_normal" else evict,
                       volatile=volatile)


def vector_width(fl: FunctionLowering, ptr: SSAValue, mask: SSAValue | None,
                 element_bits: int, unique: list[int]) -> int:
    """Elements per access (Triton's getVectorSize, then the mask's alignment), never more
    than the layout keeps consecutive in each group of registers."""
    if not isinstance(ptr.type, TensorType):
        return 1
    vec = min(max(1, 128 // element_bits), fl.axis.contiguity(ptr))
    if mask is not None:
        vec = min(vec, fl.axis.mask_alignment(mask))
    vec = max(1, vec)
    coords = register_coordinates(fl.layouts.of(ptr.type))
    fastest = tensor_order(ptr.type)[0]
    while vec > 1 and not _consecutive(coords, unique, vec, fastest):
        vec //= 2
    return vec


def _consecutive(coords: list[tuple[int, ...]], unique: list[int], vec: int, dim: int) -> bool:
    """Each group of ``vec`` registers holds consecutive elements along ``dim``."""
    if len(unique) % vec:
        return False
    for start in range(0, len(unique), vec):
        first = coords[unique[start]]
        for k in range(1, vec):
            expected = tuple(c + k if d == dim else c for d, c in enumerate(first))
            if coords[unique[start + k]] != expected:
                return False
    return True


def _to_storage(b: LLVMBuilder, value: SSAValue, storage: Attribute) -> SSAValue:
    return b.int_cast(value, storage, signed=False) if value.type != storage else value


def _from_storage(b: LLVMBuilder, value: SSAValue, ty: Attribute) -> SSAValue:
    if value.type == ty:
        return value
    if ty == i1:
        return b.icmp("ne", value, b.constant(value.type, 0))
    return b.int_cast(value, ty)


# ----------------------------------------------------------------------------- load / store


@lowers("tt.load")
def _load(fl: FunctionLowering, op: Operation) -> None:
    ptr, mask, other = op.ptr, op.mask, op.other
    if isinstance(ptr.type, PointerType) and ptr.type.is_block_pointer or \
            isinstance(ptr.type, TensorType) and isinstance(ptr.type.element_type, PointerType) \
            and ptr.type.element_type.is_block_pointer:
        raise fl.error(op, "loads through block pointers need triton-rewrite-tensor-pointer")
    b = fl.b
    result = op.results[0]
    value_type = fl.llvm_type(result.type)
    storage = pointee_storage_type(ptr.type)
    ptrs = fl.get(ptr)
    masks = fl.get(mask) if mask is not None else None
    others = fl.get(other) if other is not None else None
    if isinstance(result.type, TensorType):
        unique, canonical = unique_registers(fl.layouts.of(result.type))
    else:
        unique, canonical = [0], [0]
    vec = vector_width(fl, ptr, mask, bit_width(storage), unique)
    policy = _policy(op, load=True)
    loaded: dict[int, SSAValue] = {}
    for start in range(0, len(unique), vec):
        regs = unique[start:start + vec]
        access = MemoryAccess(
            ptr=ptrs[regs[0]], element_type=storage, count=len(regs),
            pred=masks[regs[0]] if masks is not None else None,
            other=[_to_storage(b, others[r], storage) for r in regs] if others else None)
        for r, v in zip(regs, fl.hooks.load_global(b, access, policy)):
            loaded[r] = _from_storage(b, v, value_type)
    fl.set(result, [loaded[canonical[r]] for r in range(len(canonical))])


@lowers("tt.store")
def _store(fl: FunctionLowering, op: Operation) -> None:
    ptr, value, mask = op.ptr, op.value, op.mask
    b = fl.b
    storage = pointee_storage_type(ptr.type)
    ptrs = fl.get(ptr)
    values = fl.get(value)
    masks = fl.get(mask) if mask is not None else None
    if isinstance(ptr.type, TensorType):
        layout = fl.layouts.of(ptr.type)
        unique, _ = unique_registers(layout)
    else:
        layout, unique = None, [0]
    thread_pred = redundant_thread_predicate(fl, layout)
    vec = vector_width(fl, ptr, mask, bit_width(storage), unique)
    policy = _policy(op, load=False)
    for start in range(0, len(unique), vec):
        regs = unique[start:start + vec]
        pred = and_predicates(b, thread_pred, masks[regs[0]] if masks is not None else None)
        access = MemoryAccess(ptr=ptrs[regs[0]], element_type=storage, count=len(regs),
                              pred=pred)
        fl.hooks.store_global(b, access, [_to_storage(b, values[r], storage) for r in regs],
                              policy)


__all__ = ["pointee_storage_type", "unique_registers", "redundant_thread_predicate",
           "and_predicates", "vector_width"]
