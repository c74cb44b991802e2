"""Math functions the lowering writes out as arithmetic, shared by the vendors.

A function lands here when LLVM has no intrinsic for it and a vendor would otherwise
need its device library's bitcode for an op that is not a call (``math.erf``). The
vendor supplies the three primitives (its fused multiply-add, absolute value and
base-2 exponential), so each target keeps its own instruction choice (NVIDIA: the
flush-to-zero ``nvvm`` forms libdevice uses under Triton's settings; AMD: the generic
LLVM intrinsics).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.ir import SSAValue

from tileopt.conversion.llvm_builder import LLVMBuilder

Unary = Callable[[LLVMBuilder, SSAValue], SSAValue]
Ternary = Callable[[LLVMBuilder, SSAValue, SSAValue, SSAValue], SSAValue]


@dataclass(frozen=True)
class FloatPrimitives:
    """The f32 instructions an expansion is built from."""

    fma: Ternary
    fabs: Unary
    exp2: Unary


def generic_f32_primitives() -> FloatPrimitives:
    """``llvm.fma``, ``llvm.fabs``, ``llvm.exp2``: what a target without special forms uses."""
    return FloatPrimitives(
        fma=lambda b, x, y, z: b.intrinsic_op("fma", [x, y, z], x.type),
        fabs=lambda b, x: b.intrinsic_op("fabs", [x], x.type),
        exp2=lambda b, x: b.intrinsic_op("exp2", [x], x.type))


# erf on f32: a degree-6 polynomial in x*x for |x| < 1.00296, else 1 - 2^p(|x|) with the
# sign of x (the form of CUDA's libdevice ``erff``). Branch-free: selects pick the
# coefficients. (c6, c5, ..., c0) for each range.
_ERF_THRESHOLD = 1.002959966659546
_ERF_SMALL = (8.483494457323104e-05, -0.0008213091641664505, 0.005213488824665546,
              -0.026868773624300957, 0.11284004896879196, -0.37612664699554443,
              0.12837915122509003)
_ERF_LARGE = (1.6425845387857407e-05, -0.0004680210549850017, 0.0052647641859948635,
              -0.034303076565265656, 0.1532936990261078, 0.9163130521774292,
              0.6282998323440552)


def erf_f32(b: LLVMBuilder, x: SSAValue, ops: FloatPrimitives) -> SSAValue:
    """``erf(x)`` on an f32, to about 2 ulp."""
    ty = x.type
    a = ops.fabs(b, x)
    large = b.fcmp("oge", a, b.constant(ty, _ERF_THRESHOLD))
    t = b.select(large, a, b.float_op("fmul", x, x))
    coeffs = [b.select(large, b.constant(ty, hi), b.constant(ty, lo))
              for lo, hi in zip(_ERF_SMALL, _ERF_LARGE)]
    r = coeffs[0]
    for c in coeffs[1:]:
        r = ops.fma(b, r, t, c)
    s = b.select(large, b.fneg(t), x)
    r = ops.fma(b, r, s, s)
    # Large |x|: 1 - 2^r, with the sign of x.
    e = ops.exp2(b, r)
    one_minus = b.float_op("fsub", b.constant(ty, 1.0), e)
    signed = b.intrinsic_op("copysign", [one_minus, x], ty)
    return b.select(large, signed, r)


__all__ = ["FloatPrimitives", "erf_f32", "generic_f32_primitives"]
