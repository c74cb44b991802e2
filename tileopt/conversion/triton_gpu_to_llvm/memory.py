"""``ttg.local_alloc``, ``ttg.local_load``, ``ttg.local_store``: tensors in and out of
shared-memory buffers (the value model is ``shared_view``'s, the accesses
``shared_access``'s: vectors as wide as both layouts allow, 8x8 matrices where the
target has instructions for them and the layouts have their shape)."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from tileopt.conversion.triton_gpu_to_llvm.load_store import unique_registers
from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers
from tileopt.conversion.triton_gpu_to_llvm.shared_access import (
    access_of_view,
    load_matrices,
    load_registers,
    matrix_plan,
    storage_type,
    store_matrices,
    store_registers,
)
from tileopt.conversion.triton_gpu_to_llvm.shared_view import (
    SharedView,
    frame_base,
    set_view,
    view_of,
)


def _store(fl: FunctionLowering, op: Operation, tensor: SSAValue, view: SharedView) -> None:
    layout = fl.layouts.of(tensor.type)
    values = fl.get(tensor)
    access = access_of_view(fl, layout, view)
    plan = matrix_plan(access, view.element_bytes) if fl.hooks.matrix_moves()[1] else None
    if plan is not None and store_matrices(fl, access, plan, values):
        return
    unique, _ = unique_registers(layout)
    store_registers(fl, access, unique, values, storage_type(view.element_type))


@lowers("ttg.local_alloc")
def _local_alloc(fl: FunctionLowering, op: Operation) -> None:
    result = op.results[0]
    set_view(fl, result, frame_base(fl, op))
    if op.operands:
        _store(fl, op, op.operands[0], view_of(fl, result))


@lowers("ttg.local_store")
def _local_store(fl: FunctionLowering, op: Operation) -> None:
    _store(fl, op, op.operands[0], view_of(fl, op.operands[1]))


@lowers("ttg.local_load")
def _local_load(fl: FunctionLowering, op: Operation) -> None:
    result = op.results[0]
    view = view_of(fl, op.operands[0])
    layout = fl.layouts.of(result.type)
    element_type = fl.llvm_type(result.type)
    access = access_of_view(fl, layout, view)
    count = layout.in_dim_size("register")
    plan = matrix_plan(access, view.element_bytes) if fl.hooks.matrix_moves()[0] else None
    loaded = None
    if plan is not None:
        loaded = load_matrices(fl, access, plan, count, element_type)
    if loaded is None:
        unique, canonical = unique_registers(layout)
        loaded = load_registers(fl, access, unique, storage_type(view.element_type),
                                element_type)
        loaded = {r: loaded[canonical[r]] for r in range(count)}
    fl.set(result, [loaded[r] for r in range(count)])
