"""``tt.gather`` and ``tt.histogram``: ops that index by data, through shared memory.

- ``gather(src, idx, axis)``: every thread writes its elements of ``src`` to scratch (the
  whole tensor, row major), a barrier, and each result register reads ``src`` at its own
  coordinates with the one along ``axis`` replaced by its index. (Triton shuffles inside a
  warp where the layouts allow; tileopt always goes through shared memory, and its scratch
  rule asks for the whole source.)
- ``histogram(x)``: the bins (one counter each) are zeroed in scratch, a barrier, each
  distinct element adds one to its bin with a shared-memory atomic, a barrier, and each
  result register reads its bin. Threads that repeat another's elements (a broadcast
  layout) add nothing. As in Triton's lowering, an element's bin is its low bits: ``x &
  (P - 1)`` with ``P = max(bins, warp size)``, counted only when that is below ``bins``
  (so with 16 bins and 32 lanes, 33 counts in bin 1 and 20 nowhere). Triton ballots
  within each warp first; the counts are the same.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType, i8, i32
from xdsl.ir import Operation

from tileopt.conversion.indexing import element_coordinates, linear_index
from tileopt.conversion.shared_memory import scratch_rule
from tileopt.conversion.triton_gpu_to_llvm.shared_access import (
    from_storage,
    storage_bytes,
    storage_type,
    to_storage,
)
from tileopt.conversion.triton_gpu_to_llvm.load_store import (
    redundant_thread_predicate,
    unique_registers,
)
from tileopt.conversion.triton_gpu_to_llvm.lowering import (
    FunctionLowering,
    lowers,
    shared_memory_base,
)
from tileopt.conversion.type_converter import convert_scalar_type
from tileopt.dialects import llvm_ext


def _elements(ty: TensorType) -> int:
    count = 1
    for extent in ty.get_shape():
        count *= extent
    return count


@scratch_rule("tt.gather")
def gather_scratch(op: Operation) -> int:
    """The whole source tensor, in its storage type."""
    src: TensorType = op.operands[0].type
    return _elements(src) * storage_bytes(convert_scalar_type(src.element_type))


@scratch_rule("tt.histogram")
def histogram_scratch(op: Operation) -> int:
    """One counter of the result's type per bin."""
    result: TensorType = op.results[0].type
    return _elements(result) * storage_bytes(convert_scalar_type(result.element_type))


def _scratch_base(fl: FunctionLowering, op: Operation, size: int):
    offset = fl.module.shared.offset(op, size)
    fl.begin_shared_memory_use(op)
    return fl.b.gep(shared_memory_base(fl), fl.b.i32(offset), i8)


@lowers("tt.gather")
def _gather(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    src_type: TensorType = op.operands[0].type
    idx_type: TensorType = op.operands[1].type
    axis = op.axis.value.data
    shape = list(src_type.get_shape())
    element = fl.llvm_type(src_type)
    storage = storage_type(element)
    base = _scratch_base(fl, op, gather_scratch(op))

    src_layout = fl.layouts.of(src_type)
    src_coords = element_coordinates(b, fl.ids, src_layout)
    values = fl.get(op.operands[0])
    for r in unique_registers(src_layout)[0]:
        at = b.gep(base, linear_index(b, src_coords[r], shape), storage)
        fl.hooks.store_shared(b, at, [to_storage(b, values[r], storage)], None)
    fl.hooks.barrier(b)

    idx_coords = element_coordinates(b, fl.ids, fl.layouts.of(idx_type))
    indices = fl.get(op.operands[1])
    out = []
    for coords, index in zip(idx_coords, indices):
        coords = list(coords)
        coords[axis] = b.int_cast(index, i32, signed=True)
        at = b.gep(base, linear_index(b, coords, shape), storage)
        [value] = fl.hooks.load_shared(b, at, storage, 1, None)
        out.append(from_storage(b, value, element))
    fl.set(op.results[0], out)


@lowers("tt.histogram")
def _histogram(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    src_type: TensorType = op.operands[0].type
    result_type: TensorType = op.results[0].type
    bins = _elements(result_type)
    counter = fl.llvm_type(result_type)
    base = _scratch_base(fl, op, histogram_scratch(op))

    # Zero the bins: thread t clears bins t, t + threads, ...
    threads = fl.num_warps * fl.warp_size
    zero = b.constant(counter, 0)
    for start in range(0, bins, threads):
        bin_index = b.add(fl.ids.thread, b.i32(start))
        pred = b.icmp("ult", bin_index, b.i32(bins)) if start + threads > bins else None
        fl.hooks.store_shared(b, b.gep(base, bin_index, counter), [zero], pred)
    fl.hooks.barrier(b)

    src_layout = fl.layouts.of(src_type)
    owner = redundant_thread_predicate(fl, src_layout)
    values = fl.get(op.operands[0])
    one = b.constant(counter, 1)
    low_bits = max(bins, fl.warp_size) - 1
    for r in unique_registers(src_layout)[0]:
        value = b.and_(b.int_cast(values[r], i32, signed=False), b.i32(low_bits))
        counts = b.icmp("ult", value, b.i32(bins))
        if owner is not None:
            counts = b.and_(counts, owner)
        # No predicated atomics in LLVM: elements that do not count add 0 to bin 0.
        at = b.gep(base, b.select(counts, value, b.i32(0)), counter)
        b.insert(llvm_ext.AtomicRMWOp(llvm_ext.AtomicBinOp.ADD, at,
                                      b.select(counts, one, zero), "monotonic"))
    fl.hooks.barrier(b)

    out = []
    for coords in element_coordinates(b, fl.ids, fl.layouts.of(result_type)):
        [count] = fl.hooks.load_shared(b, b.gep(base, coords[0], counter), counter, 1, None)
        out.append(count)
    fl.set(op.results[0], out)
