"""Translation of ``nvvm.*`` ops into calls of ``llvm.nvvm.*`` intrinsics.

The intrinsic names are those MLIR's NVVM translation uses with LLVM 22 (the ones in the
corpus ``.llir`` files): ``nvvm.barrier0`` is ``llvm.nvvm.barrier.cta.sync.aligned.all(0)``,
``nvvm.ldmatrix`` with ``num = 4`` and a ``col`` layout is
``llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3``, and so on.
"""

from __future__ import annotations

from llvmlite import ir
from xdsl.ir import Operation

from tileopt.dialects.nvvm import SPECIAL_REGISTERS
from tileopt.target.conversion_table import CONVERTERS
from tileopt.target.function_emitter import FunctionEmitter

_I32 = ir.IntType(32)


@CONVERTERS.register(*(f"nvvm.read.ptx.sreg.{register}" for register, _ in SPECIAL_REGISTERS))
def _special_register(op: Operation, e: FunctionEmitter) -> None:
    e.set_result(op, e.call_intrinsic("llvm." + op.name, e.result_type(op), []))


@CONVERTERS.register("nvvm.barrier0")
def _barrier0(op: Operation, e: FunctionEmitter) -> None:
    e.call_intrinsic("llvm.nvvm.barrier.cta.sync.aligned.all", ir.VoidType(), [_I32(0)])


@CONVERTERS.register("nvvm.barrier")
def _barrier(op: Operation, e: FunctionEmitter) -> None:
    barrier_id = e.value(op.barrierId) if op.barrierId is not None else _I32(0)
    if op.numberOfThreads is not None:
        e.call_intrinsic("llvm.nvvm.barrier.cta.sync.aligned.count", ir.VoidType(),
                         [barrier_id, e.value(op.numberOfThreads)])
    else:
        e.call_intrinsic("llvm.nvvm.barrier.cta.sync.aligned.all", ir.VoidType(), [barrier_id])


@CONVERTERS.register("nvvm.bar.warp.sync")
def _bar_warp_sync(op: Operation, e: FunctionEmitter) -> None:
    e.call_intrinsic("llvm.nvvm.bar.warp.sync", ir.VoidType(), e.operands(op))


@CONVERTERS.register("nvvm.shfl.sync")
def _shfl_sync(op: Operation, e: FunctionEmitter) -> None:
    mask, value, offset, clamp = e.operands(op)
    if isinstance(value.type, ir.FloatType):
        suffix = "f32"
    elif value.type == _I32:
        suffix = "i32"
    else:
        raise e.error(op, f"nvvm.shfl.sync takes i32 or f32, not {value.type}")
    predicated = op.properties.get("return_value_and_is_valid") is not None
    name = f"llvm.nvvm.shfl.sync.{op.kind.data.value}.{suffix}" + ("p" if predicated else "")
    e.set_result(op, e.call_intrinsic(name, e.result_type(op), [mask, value, offset, clamp]))


@CONVERTERS.register("nvvm.vote.sync")
def _vote_sync(op: Operation, e: FunctionEmitter) -> None:
    e.set_result(op, e.call_intrinsic(f"llvm.nvvm.vote.{op.kind.data.value}.sync",
                                      e.result_type(op), e.operands(op)))


@CONVERTERS.register("nvvm.redux.sync")
def _redux_sync(op: Operation, e: FunctionEmitter) -> None:
    e.set_result(op, e.call_intrinsic(f"llvm.nvvm.redux.sync.{op.kind.data.value}",
                                      e.result_type(op), e.operands(op)))


_FENCE_PROXY = {
    ("alias", None): "llvm.nvvm.fence.proxy.alias",
    ("async", None): "llvm.nvvm.fence.proxy.async",
    ("async.global", None): "llvm.nvvm.fence.proxy.async.global",
    ("async.shared", "cta"): "llvm.nvvm.fence.proxy.async.shared_cta",
    ("async.shared", "cluster"): "llvm.nvvm.fence.proxy.async.shared_cluster",
}


@CONVERTERS.register("nvvm.fence.proxy")
def _fence_proxy(op: Operation, e: FunctionEmitter) -> None:
    space = op.space.data.value if op.space is not None else None
    key = (op.kind.data.value, space)
    if key not in _FENCE_PROXY:
        raise e.error(op, f"nvvm.fence.proxy with kind {key[0]} and space {space} is not supported")
    e.call_intrinsic(_FENCE_PROXY[key], ir.VoidType(), [])


def _matrix_intrinsic(op: Operation, e: FunctionEmitter, verb: str, count: int) -> str:
    shape = op.shape
    m, n = (shape.m.value.data, shape.n.value.data) if shape is not None else (8, 8)
    elt = op.eltType.data.value if op.eltType is not None else "b16"
    trans = ".trans" if op.layout.data.value == "col" else ""
    if count not in (1, 2, 4):
        raise e.error(op, f"{op.name} moves 1, 2 or 4 matrices, not {count}")
    return f"llvm.nvvm.{verb}.sync.aligned.m{m}n{n}.x{count}{trans}.{elt}.p3"


@CONVERTERS.register("nvvm.ldmatrix")
def _ldmatrix(op: Operation, e: FunctionEmitter) -> None:
    name = _matrix_intrinsic(op, e, "ldmatrix", op.num.value.data)
    e.set_result(op, e.call_intrinsic(name, e.result_type(op), e.operands(op)))


@CONVERTERS.register("nvvm.stmatrix")
def _stmatrix(op: Operation, e: FunctionEmitter) -> None:
    name = _matrix_intrinsic(op, e, "stmatrix", len(op.sources))
    e.call_intrinsic(name, ir.VoidType(), e.operands(op))


@CONVERTERS.register("nvvm.cp.async.commit.group")
def _cp_async_commit_group(op: Operation, e: FunctionEmitter) -> None:
    e.call_intrinsic("llvm.nvvm.cp.async.commit.group", ir.VoidType(), [])


@CONVERTERS.register("nvvm.cp.async.wait.group")
def _cp_async_wait_group(op: Operation, e: FunctionEmitter) -> None:
    e.call_intrinsic("llvm.nvvm.cp.async.wait.group", ir.VoidType(), [_I32(op.n.value.data)])


@CONVERTERS.register("nvvm.wgmma.fence.aligned")
def _wgmma_fence(op: Operation, e: FunctionEmitter) -> None:
    e.call_intrinsic("llvm.nvvm.wgmma.fence.sync.aligned", ir.VoidType(), [])


@CONVERTERS.register("nvvm.wgmma.commit.group.sync.aligned")
def _wgmma_commit_group(op: Operation, e: FunctionEmitter) -> None:
    e.call_intrinsic("llvm.nvvm.wgmma.commit_group.sync.aligned", ir.VoidType(), [])


@CONVERTERS.register("nvvm.wgmma.wait.group.sync.aligned")
def _wgmma_wait_group(op: Operation, e: FunctionEmitter) -> None:
    e.call_intrinsic("llvm.nvvm.wgmma.wait_group.sync.aligned", ir.VoidType(),
                     [ir.IntType(64)(op.group.value.data)])
