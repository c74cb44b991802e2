"""Translation of ``rocdl.*`` ops into calls of ``llvm.amdgcn.*`` intrinsics.

Ops are matched by name and read through the property names of MLIR's ROCDLOps.td
(``dpp_ctrl``, ``row_mask``, ``fi``, ``boundControl``, ...), so this works with whichever
Python classes declare them (``tileopt.dialects.rocdl`` the TritonGPU-level ones,
``tileopt.dialects.rocdl_llvm`` the LLVM-level ones). Matrix-core ops (``rocdl.mfma.*``,
``rocdl.wmma.*``, ``rocdl.smfmac.*``) map one to one onto the intrinsic of the same name.
``rocdl.barrier`` is, as in MLIR, a workgroup release fence, ``s_barrier`` and an acquire
fence.
"""

from __future__ import annotations

from llvmlite import ir
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation

from tileopt.target import llvmlite_additions as add
from tileopt.target.conversion_table import CONVERTERS
from tileopt.target.function_emitter import FunctionEmitter

_I1, _I16, _I32 = ir.IntType(1), ir.IntType(16), ir.IntType(32)

# Ops whose intrinsic is ``llvm.amdgcn.<op name after "rocdl.">`` with the op's operands.
_DIRECT = {
    **{f"rocdl.{kind}.id.{axis}": f"llvm.amdgcn.{kind}.id.{axis}"
       for kind in ("workitem", "workgroup") for axis in "xyz"},
    "rocdl.s.barrier": "llvm.amdgcn.s.barrier",
    "rocdl.s.barrier.signal": "llvm.amdgcn.s.barrier.signal",
    "rocdl.s.barrier.wait": "llvm.amdgcn.s.barrier.wait",
    "rocdl.wave_barrier": "llvm.amdgcn.wave.barrier",
    "rocdl.ballot": "llvm.amdgcn.ballot",
    "rocdl.readlane": "llvm.amdgcn.readlane",
    "rocdl.readfirstlane": "llvm.amdgcn.readfirstlane",
    "rocdl.ds_bpermute": "llvm.amdgcn.ds.bpermute",
    "rocdl.ds_swizzle": "llvm.amdgcn.ds.swizzle",
    "rocdl.mbcnt.lo": "llvm.amdgcn.mbcnt.lo",
    "rocdl.mbcnt.hi": "llvm.amdgcn.mbcnt.hi",
    "rocdl.make.buffer.rsrc": "llvm.amdgcn.make.buffer.rsrc",
    "rocdl.raw.ptr.buffer.load": "llvm.amdgcn.raw.ptr.buffer.load",
    "rocdl.raw.ptr.buffer.store": "llvm.amdgcn.raw.ptr.buffer.store",
    "rocdl.raw.ptr.buffer.atomic.fadd": "llvm.amdgcn.raw.ptr.buffer.atomic.fadd",
    "rocdl.raw.ptr.buffer.atomic.fmax": "llvm.amdgcn.raw.ptr.buffer.atomic.fmax",
    "rocdl.raw.ptr.buffer.atomic.smax": "llvm.amdgcn.raw.ptr.buffer.atomic.smax",
    "rocdl.raw.ptr.buffer.atomic.umin": "llvm.amdgcn.raw.ptr.buffer.atomic.umin",
    "rocdl.raw.ptr.buffer.atomic.cmpswap": "llvm.amdgcn.raw.ptr.buffer.atomic.cmpswap",
}

# Ops with one integer property that LLVM takes as the intrinsic's only (immediate) operand.
_IMMEDIATE = {
    "rocdl.s.waitcnt": ("llvm.amdgcn.s.waitcnt", "bitfield", _I32),
    "rocdl.s.setprio": ("llvm.amdgcn.s.setprio", "priority", _I16),
    "rocdl.sched.barrier": ("llvm.amdgcn.sched.barrier", "mask", _I32),
    "rocdl.s.sleep": ("llvm.amdgcn.s.sleep", "count", _I32),
    "rocdl.iglp.opt": ("llvm.amdgcn.iglp.opt", "variant", _I32),
}

_MATRIX_PREFIXES = ("rocdl.mfma.", "rocdl.wmma.", "rocdl.smfmac.")


def _result_type(op: Operation, e: FunctionEmitter) -> ir.Type:
    return e.result_type(op) if op.results else ir.VoidType()


@CONVERTERS.register(*_DIRECT)
def _direct(op: Operation, e: FunctionEmitter) -> None:
    instr = e.call_intrinsic(_DIRECT[op.name], _result_type(op, e), e.operands(op))
    if op.results:
        e.set_result(op, instr)


def _integer_property(op: Operation, e: FunctionEmitter, name: str) -> int:
    attr = op.properties.get(name, op.attributes.get(name))
    if attr is None:
        # Dialect modules may name the single immediate differently; take the only one.
        ints = [a for a in op.properties.values() if isinstance(a, IntegerAttr)]
        if len(ints) != 1:
            raise e.error(op, f"{op.name} needs its '{name}' property")
        attr = ints[0]
    return attr.value.data


@CONVERTERS.register(*_IMMEDIATE)
def _immediate(op: Operation, e: FunctionEmitter) -> None:
    intrinsic, prop, typ = _IMMEDIATE[op.name]
    e.call_intrinsic(intrinsic, ir.VoidType(), [typ(_integer_property(op, e, prop))])


@CONVERTERS.register("rocdl.sched.group.barrier")
def _sched_group_barrier(op: Operation, e: FunctionEmitter) -> None:
    args = [_I32(_integer_property(op, e, name)) for name in ("mask", "size", "groupId")]
    e.call_intrinsic("llvm.amdgcn.sched.group.barrier", ir.VoidType(), args)


@CONVERTERS.register("rocdl.barrier")
def _barrier(op: Operation, e: FunctionEmitter) -> None:
    e.insert(add.Fence(e.builder.block, "release", syncscope="workgroup"))
    e.call_intrinsic("llvm.amdgcn.s.barrier", ir.VoidType(), [])
    e.insert(add.Fence(e.builder.block, "acquire", syncscope="workgroup"))


@CONVERTERS.register("rocdl.update.dpp")
def _update_dpp(op: Operation, e: FunctionEmitter) -> None:
    old, src = e.operands(op)
    controls = [_I32(_integer_property(op, e, name)) for name in ("dpp_ctrl", "row_mask", "bank_mask")]
    bound = _I1(bool(_integer_property(op, e, "bound_ctrl")))
    e.set_result(op, e.call_intrinsic("llvm.amdgcn.update.dpp", e.result_type(op),
                                      [old, src, *controls, bound]))


@CONVERTERS.register("rocdl.permlanex16", "rocdl.permlane16")
def _permlane16(op: Operation, e: FunctionEmitter) -> None:
    flags = [_I1(bool(_integer_property(op, e, name))) for name in ("fi", "boundControl")]
    name = "llvm.amdgcn." + op.name.removeprefix("rocdl.")
    e.set_result(op, e.call_intrinsic(name, e.result_type(op), [*e.operands(op), *flags]))


@CONVERTERS.register_prefix(*_MATRIX_PREFIXES)
def _matrix_op(op: Operation, e: FunctionEmitter) -> None:
    """``rocdl.mfma.*`` / ``wmma.*`` / ``smfmac.*``: the intrinsic of the same name."""
    instr = e.call_intrinsic("llvm.amdgcn." + op.name.removeprefix("rocdl."),
                             _result_type(op, e), e.operands(op))
    if op.results:
        e.set_result(op, instr)
