"""``convert-builtin-func-to-llvm``: calls of Triton's HIP built-in functions -> LLVM ops.

Triton's HIP device library (``tl.extra.hip.libdevice``) names some functions
``__triton_hip_*``: they have no bitcode anywhere, and this pass, last in Triton's AMD
``llir`` stage, replaces each call with what it stands for: ``iabs``/``fabs`` (absolute
values), ``rint``/``llrint`` (round to nearest even, then to i64), ``fast_fdividef``
(``a * rcp(b)``), ``fast_expf`` (``exp2(x * log2 e)``; the AMDGPU ``exp2`` instruction
when ``ftz``) and ``fast_tanhf`` (``1 - 2 / (e^(2|x|) + 1)`` with the sign of ``x``, which
cannot overflow). Calls of other functions stay.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import Float32Type
from xdsl.ir import Operation, SSAValue

from tileopt.conversion.llvm_builder import LLVMBuilder
from tileopt.conversion.scalar_lowering import InPlaceBuilder
from tileopt.ir.walks import ops_in_walk_order
from tileopt.passes import Pass, PassFailure, option, register_pass

LOG2E = 1.4426950408889634
PREFIX = "__triton_hip_"


def _fast_exp(b: LLVMBuilder, x: SSAValue, ftz: bool) -> SSAValue:
    scaled = b.float_op("fmul", x, b.constant(x.type, LOG2E))
    if ftz:
        return b.call_intrinsic("llvm.amdgcn.exp2", [scaled], x.type)
    return b.intrinsic_op("exp2", [scaled], x.type)


def _fast_tanh(b: LLVMBuilder, x: SSAValue, ftz: bool) -> SSAValue:
    ty = x.type
    magnitude = b.intrinsic_op("fabs", [x], ty)
    grown = _fast_exp(b, b.float_op("fmul", magnitude, b.constant(ty, 2.0)), ftz)
    ratio = b.float_op("fdiv", b.constant(ty, 2.0),
                       b.float_op("fadd", grown, b.constant(ty, 1.0)))
    positive = b.float_op("fsub", b.constant(ty, 1.0), ratio)
    negative = b.fcmp("olt", x, b.constant(ty, 0.0))
    sign = b.select(negative, b.constant(ty, -1.0), b.constant(ty, 1.0))
    return b.float_op("fmul", positive, sign)


# name after the prefix -> (argument count, expansion(b, args, result type, ftz))
_BUILTINS: dict[str, tuple[int, Callable]] = {
    "iabs": (1, lambda b, a, ty, ftz: b.intrinsic_op("abs", [a[0]], ty, is_int_min_poison=False)),
    "fabs": (1, lambda b, a, ty, ftz: b.intrinsic_op("fabs", [a[0]], ty)),
    "rint": (1, lambda b, a, ty, ftz: b.intrinsic_op("rint", [a[0]], ty)),
    "llrint": (1, lambda b, a, ty, ftz: b.cast(
        "fptosi", b.intrinsic_op("rint", [a[0]], a[0].type), ty)),
    "fast_fdividef": (2, lambda b, a, ty, ftz: b.float_op(
        "fmul", a[0], b.call_intrinsic("llvm.amdgcn.rcp", [a[1]], ty))),
    "fast_expf": (1, lambda b, a, ty, ftz: _fast_exp(b, a[0], ftz)),
    "fast_tanhf": (1, lambda b, a, ty, ftz: _fast_tanh(b, a[0], ftz)),
}
_F32_ONLY = {"fast_fdividef", "fast_expf", "fast_tanhf"}


@register_pass
@dataclass(frozen=True)
class ConvertBuiltinFuncToLLVM(Pass):
    """Replace calls of Triton's __triton_hip_* built-in functions with LLVM ops."""

    name = "convert-builtin-func-to-llvm"

    ftz: bool = option(True, "flush denormals: fast exp uses the AMDGPU exp2 instruction")

    def apply(self, ctx: Context, root: Operation) -> None:
        for op in ops_in_walk_order(root):
            if not isinstance(op, llvm.CallOp) or op.callee is None:
                continue
            callee = op.callee.root_reference.data
            if not callee.startswith(PREFIX):
                continue
            builtin = callee.removeprefix(PREFIX)
            if builtin not in _BUILTINS:
                raise PassFailure(op, f"unknown HIP built-in function '{callee}' (known: "
                                      + ", ".join(PREFIX + n for n in _BUILTINS) + ")")
            count, expand = _BUILTINS[builtin]
            args = list(op.args)
            if len(args) != count or len(op.results) != 1:
                raise PassFailure(op, f"'{callee}' takes {count} argument(s) and returns one "
                                      "value")
            if builtin in _F32_ONLY and not isinstance(args[0].type, Float32Type):
                raise PassFailure(op, f"'{callee}' is defined on f32, not {args[0].type}")
            result = op.results[0]
            value = expand(InPlaceBuilder(op), args, result.type, self.ftz)
            result.replace_all_uses_with(value)
            op.detach()
            op.erase()



