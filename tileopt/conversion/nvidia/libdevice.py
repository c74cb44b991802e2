"""libdevice functions the NVIDIA lowering writes out inline.

Triton links CUDA's ``libdevice.10.bc`` into every kernel that calls an ``__nv_*``
function, and LLVM inlines it. tileopt's back end links it too when the module declares
such a function and the bitcode is found (``tileopt/target/nvptx.py``); the functions
here are ones the lowering itself needs, written out with the arithmetic libdevice uses
under Triton's settings (flush to zero on), so that no bitcode is needed and the PTX is
the same as Triton's.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import SSAValue

from tileopt.conversion.llvm_builder import LLVMBuilder

# erff: a degree-6 polynomial in x*x for |x| < 1.00296, else 1 - 2^p(|x|) with the sign
# of x. Branch-free: selects pick the coefficients. (c6, c5, ..., c0) for each range.
_ERF_THRESHOLD = 1.002959966659546
_ERF_SMALL = (8.483494457323104e-05, -0.0008213091641664505, 0.005213488824665546,
              -0.026868773624300957, 0.11284004896879196, -0.37612664699554443,
              0.12837915122509003)
_ERF_LARGE = (1.6425845387857407e-05, -0.0004680210549850017, 0.0052647641859948635,
              -0.034303076565265656, 0.1532936990261078, 0.9163130521774292,
              0.6282998323440552)


def erff(b: LLVMBuilder, x: SSAValue) -> SSAValue:
    """``__nv_erff(x)`` on an f32."""
    ty = x.type

    def fma(a: SSAValue, m: SSAValue, c: SSAValue) -> SSAValue:
        return b.call_intrinsic("llvm.nvvm.fma.rn.ftz.f", [a, m, c], ty)

    a = b.call_intrinsic("llvm.nvvm.fabs.ftz.f32", [x], ty)
    large = b.fcmp("oge", a, b.constant(ty, _ERF_THRESHOLD))
    t = b.select(large, a, b.float_op("fmul", x, x))
    coeffs = [b.select(large, b.constant(ty, hi), b.constant(ty, lo))
              for lo, hi in zip(_ERF_SMALL, _ERF_LARGE)]
    r = coeffs[0]
    for c in coeffs[1:]:
        r = fma(r, t, c)
    s = b.select(large, b.fneg(t), x)
    r = fma(r, s, s)
    # Large |x|: 1 - 2^r, with the sign of x.
    e = b.call_intrinsic("llvm.nvvm.ex2.approx.ftz.f", [r], ty)
    one_minus = b.float_op("fsub", b.constant(ty, 1.0), e)
    signed = b.intrinsic_op("copysign", [one_minus, x], ty)
    return b.select(large, signed, r)


# symbol -> its inline form (one function of the scalar arguments).
INLINE: dict[str, Callable[..., SSAValue]] = {
    "__nv_erff": erff,
}

__all__ = ["INLINE", "erff"]
