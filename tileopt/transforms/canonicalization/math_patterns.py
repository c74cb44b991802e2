"""Folders of MLIR's ``math`` ops (``MathOps.cpp``): a constant operand is evaluated.

MLIR evaluates them two ways, and so which float types fold differs by op:

APFloat, every float type
  ``absf``, ``copysign``, ``ceil``, ``floor``, ``roundeven``: exact operations; NaNs keep
  their sign and payload (``absf`` clears the sign).
the host's C math library, f32 and f64 only
  ``acos`` ... ``tanh``, ``round`` (ties away from zero), ``trunc``, ``atan2``, ``powf``: the ``float`` function (``sinf``) for f32,
  the ``double`` one for f64, so results, NaN signs included, are whatever the host libm
  gives (here: the same libm, through ctypes). ``log``, ``log2``, ``log10`` and ``sqrt``
  of a value whose sign bit is set (-0.0 too) and ``log1p`` of one below -1 do not fold.
integers
  ``absi`` (wraps: abs(MIN) is MIN), ``ctlz``, ``cttz`` (the width for zero), ``ctpop``,
  ``ipowi`` (modulo 2**width; a negative power gives 0 except for 1 and -1 as base, and
  0 to a negative power does not fold).

``cbrt``, ``rsqrt``, ``fma`` and ``fpowi`` have no folder in the MLIR Triton 3.6 is built
on, so they stay.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Callable
from functools import cache

from xdsl.dialects import math as xmath
from xdsl.ir import Operation

from tileopt.dialects.canonicalization import add_folder
from tileopt.transforms.canonicalization import constant_folding as cf
from tileopt.transforms.canonicalization.arith_patterns import FoldResult, fold_cast


@cache
def _libm() -> ctypes.CDLL | None:
    """The C math library, loaded at the first fold that needs it: looking it up by name
    (``ctypes.util.find_library`` runs ``ldconfig -p``) cost every command's start-up a
    subprocess; glibc's name is tried first."""
    try:
        return ctypes.CDLL("libm.so.6")
    except OSError:
        pass
    from ctypes.util import find_library

    name = find_library("m")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


@cache
def _host_function(name: str, arity: int, single: bool) -> Callable[..., float] | None:
    """libm's ``name`` (``namef`` for f32) taking ``arity`` floats, or None."""
    libm = _libm()
    if libm is None:
        return None
    c_type = ctypes.c_float if single else ctypes.c_double
    try:
        function = getattr(libm, name + ("f" if single else ""))
    except AttributeError:
        return None
    function.restype = c_type
    function.argtypes = [c_type] * arity
    return function


def _negative(x: float) -> bool:
    return math.copysign(1.0, x) < 0


def _host_folder(name: str, arity: int, declines: Callable[..., bool] | None = None):
    """A folder through libm for f32/f64 operands, declining where MLIR does."""
    def fold(op: Operation) -> FoldResult:
        fmt = cf.float_format(op.results[0].type)
        function = _host_function(name, arity, fmt is cf.F32) if fmt in (cf.F32, cf.F64) \
            else None
        operands = [cf.constant_of(v) for v in op.operands]
        if function is None or any(c is None for c in operands):
            return None

        def compute(*xs: float) -> float | None:
            if declines is not None and declines(*xs):
                return None
            return float(function(*xs))

        attr = cf.fold_elementwise(operands, op.results[0].type, compute)
        return None if attr is None else [attr]
    return fold


def _exact_folder(compute: Callable[..., cf.Element]):
    """A folder computing exactly in any format (APFloat's own operations)."""
    def fold(op: Operation) -> FoldResult:
        if len(op.operands) == 1:
            return fold_cast(op, compute)
        operands = [cf.constant_of(v) for v in op.operands]
        if any(c is None for c in operands):
            return None
        attr = cf.fold_elementwise(operands, op.results[0].type, compute)
        return None if attr is None else [attr]
    return fold


def _to_integral(rounding: Callable[[float], int]) -> Callable[[float], float]:
    """roundToIntegral: NaNs and infinities unchanged, a zero result keeps x's sign."""
    def compute(x: float) -> float:
        if math.isnan(x) or math.isinf(x):
            return x
        return math.copysign(float(rounding(x)), x)
    return compute


def _integer_folder(compute: Callable[..., int | None]):
    def fold(op: Operation) -> FoldResult:
        width = cf.int_width(op.results[0].type)
        operands = [cf.constant_of(v) for v in op.operands]
        if width is None or any(c is None for c in operands):
            return None
        attr = cf.fold_elementwise(operands, op.results[0].type,
                                   lambda *xs: compute(*xs, width))
        return None if attr is None else [attr]
    return fold


def _ctlz(x: int, width: int) -> int:
    return width - x.bit_length()


def _cttz(x: int, width: int) -> int:
    return width if x == 0 else (x & -x).bit_length() - 1


def _ipowi(base: int, power: int, width: int) -> int | None:
    base, power = cf.to_signed(base, width), cf.to_signed(power, width)
    if power < 0:
        if base == 0:
            return None
        if base == -1:
            return cf.wrap(-1 if power % 2 else 1, width)
        return 1 if base == 1 else 0
    return pow(base, power, 1 << width)


_HOST_UNARY = ("acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "erf",
               "exp", "exp2", "expm1", "round", "sin", "sinh", "tan", "tanh", "trunc")

_FOLDERS: dict[str, Callable[[Operation], FoldResult]] = {
    **{name: _host_folder(name, 1) for name in _HOST_UNARY},
    "log": _host_folder("log", 1, _negative),
    "log2": _host_folder("log2", 1, _negative),
    "log10": _host_folder("log10", 1, _negative),
    "sqrt": _host_folder("sqrt", 1, _negative),
    "log1p": _host_folder("log1p", 1, lambda x: _negative(x + 1.0)),
    "atan2": _host_folder("atan2", 2),
    "powf": _host_folder("pow", 2),
    "absf": _exact_folder(lambda x: math.copysign(x, 1.0)),
    "copysign": _exact_folder(math.copysign),
    "ceil": _exact_folder(_to_integral(math.ceil)),
    "floor": _exact_folder(_to_integral(math.floor)),
    "roundeven": _exact_folder(_to_integral(round)),
    "absi": _integer_folder(lambda x, width: cf.wrap(abs(cf.to_signed(x, width)), width)),
    "ctlz": _integer_folder(_ctlz),
    "cttz": _integer_folder(_cttz),
    "ctpop": _integer_folder(lambda x, width: bin(x).count("1")),
    "ipowi": _integer_folder(_ipowi),
}

for _op in xmath.Math.operations:
    if (_fold := _FOLDERS.get(_op.name.removeprefix("math."))) is not None:
        add_folder(_op, _fold)
