"""libdevice functions the NVIDIA lowering writes out inline.

Triton links CUDA's ``libdevice.10.bc`` into every kernel that calls an ``__nv_*``
function, and LLVM inlines it. tileopt's back end links it too when the module declares
such a function and the bitcode is found (``tileopt/target/nvptx.py``); the functions
here are ones the lowering itself needs, written out with the arithmetic libdevice uses
under Triton's settings (flush to zero on), so that no bitcode is needed and the PTX is
the same as Triton's. The expansions themselves are shared with the other vendors
(``conversion/math_expansions.py``); this file picks the ``nvvm`` instructions.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import SSAValue

from tileopt.conversion.llvm_builder import LLVMBuilder
from tileopt.conversion.math_expansions import FloatPrimitives, erf_f32

# The flush-to-zero f32 forms libdevice's erff is made of.
_FTZ_F32 = FloatPrimitives(
    fma=lambda b, x, y, z: b.call_intrinsic("llvm.nvvm.fma.rn.ftz.f", [x, y, z], x.type),
    fabs=lambda b, x: b.call_intrinsic("llvm.nvvm.fabs.ftz.f32", [x], x.type),
    exp2=lambda b, x: b.call_intrinsic("llvm.nvvm.ex2.approx.ftz.f", [x], x.type))


def erff(b: LLVMBuilder, x: SSAValue) -> SSAValue:
    """``__nv_erff(x)`` on an f32."""
    return erf_f32(b, x, _FTZ_F32)


# symbol -> its inline form (one function of the scalar arguments).
INLINE: dict[str, Callable[..., SSAValue]] = {
    "__nv_erff": erff,
}

__all__ = ["INLINE", "erff"]
