"""Ops that create or reshape tensors: make_range, splat, broadcast, expand_dims, reshape,
trans.

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
from tileopt.conversion.indexing import element_coordinates
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
