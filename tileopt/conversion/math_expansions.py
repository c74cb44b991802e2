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
    """The f32 instructions an expansion is built from, and whether it may branch.

    ``branches``: each range of a piecewise function is computed in its own block, so a
    lane runs one polynomial with constant coefficients (AMD: fewer live registers than
    selecting every coefficient; ROCm's ocml works this way). Otherwise the expansion is
    branch-free (NVIDIA: what libdevice does)."""

    fma: Ternary
    fabs: Unary
    exp2: Unary
    branches: bool = False


def generic_f32_primitives(branches: bool = False) -> FloatPrimitives:
    """``llvm.fma``, ``llvm.fabs``, ``llvm.exp2``: what a target without special forms uses."""
    return FloatPrimitives(
        fma=lambda b, x, y, z: b.intrinsic_op("fma", [x, y, z], x.type),
        fabs=lambda b, x: b.intrinsic_op("fabs", [x], x.type),
        exp2=lambda b, x: b.intrinsic_op("exp2", [x], x.type),
        branches=branches)


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

    def polynomial(t: SSAValue, coeffs: list[SSAValue],
                   scale: Callable[[], SSAValue]) -> SSAValue:
        """``p(t) * s + s``, with ``s = scale()`` made after the chain, as libdevice does."""
        r = coeffs[0]
        for c in coeffs[1:]:
            r = ops.fma(b, r, t, c)
        s = scale()
        return ops.fma(b, r, s, s)

    def large_result(r: SSAValue) -> SSAValue:
        # Large |x|: 1 - 2^r, with the sign of x.
        one_minus = b.float_op("fsub", b.constant(ty, 1.0), ops.exp2(b, r))
        return b.intrinsic_op("copysign", [one_minus, x], ty)

    if ops.branches:
        with b.guarded(large, [ty], [b.poison(ty)]) as far:
            r = polynomial(a, [b.constant(ty, c) for c in _ERF_LARGE], lambda: b.fneg(a))
            far.yield_([large_result(r)])
        near = b.icmp("eq", large, b.i1(False))
        with b.guarded(near, [ty], [far.results[0]]) as result:
            square = b.float_op("fmul", x, x)
            small = polynomial(square, [b.constant(ty, c) for c in _ERF_SMALL], lambda: x)
            result.yield_([small])
        return result.results[0]
    t = b.select(large, a, b.float_op("fmul", x, x))
    coeffs = [b.select(large, b.constant(ty, hi), b.constant(ty, lo))
              for lo, hi in zip(_ERF_SMALL, _ERF_LARGE)]
    r = polynomial(t, coeffs, lambda: b.select(large, b.fneg(t), x))
    return b.select(large, large_result(r), r)


__all__ = ["FloatPrimitives", "erf_f32", "generic_f32_primitives"]
