"""Ops that create or reshape tensors: make_range, splat, unsplat, broadcast, expand_dims,
reshape, trans, join, split, cat.

``make_range`` is the only one that computes: each register holds ``start`` plus its
element's coordinate (``indexing``). The others move values between registers of one
thread (``register_maps``); when a layout pair would need elements to change threads,
the TritonGPU passes should have put a ``convert_layout`` there, and the lowering says so.
``reshape`` with ``allow_reorder`` may put elements anywhere, so, as Triton does, it keeps
the register order when no thread-local map exists.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from tileopt.conversion import register_maps
from tileopt.conversion.indexing import element_coordinates, register_coordinates
from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers


@lowers("tt.make_range")
def _make_range(fl: FunctionLowering, op: Operation) -> None:
    result = op.results[0]
    layout = fl.layouts.of(result.type)
    start = fl.b.i32(op.start.value.data)
    coords = element_coordinates(fl.b, fl.ids, layout)
    fl.set(result, [fl.b.add(c[0], start) for c in coords])


@lowers("tt.splat")
def _splat(fl: FunctionLowering, op: Operation) -> None:
    value = fl.scalar(op.operands[0])
    fl.set(op.results[0], [value] * fl.layouts.num_registers(op.results[0].type))


@lowers("tt.unsplat")
def _unsplat(fl: FunctionLowering, op: Operation) -> None:
    # a one-element tensor: every thread holds the element in its first register
    fl.set(op.results[0], fl.get(op.operands[0])[:1])


def _move(fl: FunctionLowering, op: Operation, dst_to_src) -> bool:
    """Result registers picked from source registers; False when that is impossible."""
    src_type, dst_type = op.operands[0].type, op.results[0].type
    mapping = register_maps.register_map(fl.layouts.of(src_type), fl.layouts.of(dst_type),
                                         dst_to_src)
    if mapping is None:
        return False
    values = fl.get(op.operands[0])
    fl.set(op.results[0], [values[i] for i in mapping])
    return True


def _not_thread_local(fl: FunctionLowering, op: Operation):
    return fl.error(op, f"the layouts of {op.operands[0].type} and {op.results[0].type} "
                        "would move elements between threads (insert a ttg.convert_layout)")


@lowers("tt.broadcast")
def _broadcast(fl: FunctionLowering, op: Operation) -> None:
    src: TensorType = op.operands[0].type
    dst: TensorType = op.results[0].type
    dims = [d for d, (s, t) in enumerate(zip(src.get_shape(), dst.get_shape())) if s != t]
    if not _move(fl, op, register_maps.zero_dims(dims)):
        raise _not_thread_local(fl, op)


@lowers("tt.expand_dims")
def _expand_dims(fl: FunctionLowering, op: Operation) -> None:
    if not _move(fl, op, register_maps.drop_dim(op.axis.value.data)):
        raise _not_thread_local(fl, op)


@lowers("tt.trans")
def _trans(fl: FunctionLowering, op: Operation) -> None:
    order = [int(v) for v in op.order.get_values()]
    if not _move(fl, op, register_maps.permute_dims(order)):
        raise _not_thread_local(fl, op)


@lowers("tt.reshape")
def _reshape(fl: FunctionLowering, op: Operation) -> None:
    src: TensorType = op.operands[0].type
    dst: TensorType = op.results[0].type
    if _move(fl, op, register_maps.reshape(list(dst.get_shape()), list(src.get_shape()))):
        return
    if op.allow_reorder is None:
        raise _not_thread_local(fl, op)
    values = fl.get(op.operands[0])
    if len(values) != fl.layouts.num_registers(dst):
        raise fl.error(op, "reshape with allow_reorder changes the elements per thread")
    fl.set(op.results[0], values)


@lowers("tt.join")
def _join(fl: FunctionLowering, op: Operation) -> None:
    """``join(a, b)``: a new last dim of 2, held in one thread's registers (Triton's layout
    rule for join), so element ``(x, k)`` is register ``x`` of ``a`` (k = 0) or ``b``."""
    dst_layout = fl.layouts.of(op.results[0].type)
    mapping = register_maps.register_map(fl.layouts.of(op.operands[0].type), dst_layout,
                                         lambda coords: coords[:-1])
    if mapping is None:
        raise _not_thread_local(fl, op)
    halves = [fl.get(v) for v in op.operands]
    last = [coords[-1] for coords in register_coordinates(dst_layout)]
    fl.set(op.results[0], [halves[k][i] for k, i in zip(last, mapping)])


@lowers("tt.split")
def _split(fl: FunctionLowering, op: Operation) -> None:
    """``split``: the two halves of a last dim of 2 that one thread holds."""
    src_layout = fl.layouts.of(op.operands[0].type)
    dst_layout = fl.layouts.of(op.results[0].type)
    # Threads must agree on the first half (a linear map); the second is one register away.
    if register_maps.register_map(src_layout, dst_layout, lambda c: (*c, 0)) is None:
        raise _not_thread_local(fl, op)
    where = {coords: r for r, coords in reversed(list(enumerate(register_coordinates(src_layout))))}
    values = fl.get(op.operands[0])
    dst_coords = register_coordinates(dst_layout)
    for k, result in enumerate(op.results):
        fl.set(result, [values[where[(*coords, k)]] for coords in dst_coords])


@lowers("tt.cat")
def _cat(fl: FunctionLowering, op: Operation) -> None:
    """``cat`` (``can_reorder``: any element order): each thread's registers of the two
    operands, one after the other, as Triton lowers it."""
    values = fl.get(op.operands[0]) + fl.get(op.operands[1])
    if len(values) != fl.layouts.num_registers(op.results[0].type):
        raise fl.error(op, "the result layout does not hold the operands' registers per thread")
    fl.set(op.results[0], values)
