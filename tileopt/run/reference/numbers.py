"""Element types as numpy sees them, and the element-wise ops of ``arith``, ``math`` and
``tt`` in the op's own type (the reference's arithmetic, written from the ops' definitions).

Integers are numpy integers of their width (i1 is bool) and wrap around; unsigned ops view
them as unsigned. f16 is float16 (numpy computes each operation in float32 and rounds once),
f32 is float32, bf16 is held in float32 and rounded to nearest even after every operation,
as the GPU keeps it in 16 bits.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import (BFloat16Type, Float16Type, Float32Type, Float64Type,
                                   IndexType, IntegerType, TensorType)

from tileopt.dialects.tt_types import PointerType

INT = {1: np.bool_, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
UINT = {1: np.bool_, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


class Unsupported(Exception):
    """An op or type the reference does not evaluate (the caller names the op)."""


def element(ty):
    return ty.element_type if isinstance(ty, TensorType) else ty


def shape(ty) -> tuple[int, ...]:
    return tuple(ty.get_shape()) if isinstance(ty, TensorType) else ()


def is_bf16(ty) -> bool:
    return isinstance(element(ty), BFloat16Type)


def fp8_name(ty) -> str | None:
    name = type(element(ty)).__name__
    return name if name.startswith("Float8") else None


def np_dtype(ty):
    """The numpy type that holds elements of ``ty`` (bf16 and fp8 in float32)."""
    e = element(ty)
    if isinstance(e, IntegerType):
        return INT[e.width.data]
    if isinstance(e, IndexType):
        return np.int64
    if isinstance(e, Float16Type):
        return np.float16
    if isinstance(e, (Float32Type, BFloat16Type)) or fp8_name(e):
        return np.float32
    if isinstance(e, Float64Type):
        return np.float64
    raise Unsupported(f"element type {e}")


def storage_dtype(ty):
    """The numpy type of the bytes in memory (bf16 as its 16 bits)."""
    return np.uint16 if is_bf16(ty) else np_dtype(ty)


def width(ty) -> int:
    e = element(ty)
    if isinstance(e, IntegerType):
        return e.width.data
    if isinstance(e, PointerType):
        return 64
    return np.dtype(np_dtype(e)).itemsize * 8 if not is_bf16(e) else 16


def round_bf16(x: np.ndarray) -> np.ndarray:
    """float32 -> the nearest bf16 (ties to even), held in float32; NaN stays NaN."""
    x = np.asarray(x, np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    out = rounded.view(np.float32)
    return np.where(np.isnan(x), x, out).astype(np.float32)


def bf16_from_bits(bits: np.ndarray) -> np.ndarray:
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32)


def bf16_to_bits(x: np.ndarray) -> np.ndarray:
    return (round_bf16(x).view(np.uint32) >> 16).astype(np.uint16)


# fp8 (e4m3fn: no infinities, 448 largest; e5m2: IEEE-like), as value tables: a conversion
# to fp8 picks the nearest value, ties to the even code, saturating as cvt.satfinite does.
def _fp8_table(name: str) -> np.ndarray:
    exp_bits, man_bits, bias = (4, 3, 7) if "E4M3" in name else (5, 2, 15)
    vals = []
    for code in range(128):
        e, m = code >> man_bits, code & ((1 << man_bits) - 1)
        if e == 0:
            v = m / (1 << man_bits) * 2.0 ** (1 - bias)
        else:
            v = (1 + m / (1 << man_bits)) * 2.0 ** (e - bias)
        if "E4M3" in name and code == 127:
            v = math.nan
        if "E5M2" in name and e == (1 << exp_bits) - 1:
            v = math.inf if m == 0 else math.nan
        vals.append(v)
    return np.array(vals)


def to_fp8(x: np.ndarray, name: str, rtz: bool = False) -> np.ndarray:
    table = _fp8_table(name)
    finite = table[np.isfinite(table)]
    a = np.abs(np.asarray(x, np.float64))
    idx = np.searchsorted(finite, a)               # finite[idx-1] < a <= finite[idx]
    hi = np.clip(idx, 0, len(finite) - 1)
    lo = np.clip(idx - 1, 0, len(finite) - 1)
    dlo, dhi = a - finite[lo], finite[hi] - a
    if rtz:
        pick = np.where(finite[hi] == a, hi, lo)
    else:
        pick = np.where(dlo < dhi, lo, np.where(dhi < dlo, hi, np.where(lo % 2 == 0, lo, hi)))
    pick = np.where(a >= finite[-1], len(finite) - 1, pick)
    out = np.copysign(finite[pick], x)
    return np.where(np.isnan(x), np.nan, out).astype(np.float32)


def fit(x, ty) -> np.ndarray:
    """``x`` in ``ty``'s holding type, rounded as the type is (bf16, fp8)."""
    dt = np_dtype(ty)
    with np.errstate(all="ignore"):
        if np.issubdtype(dt, np.integer) and np.asarray(x).dtype.kind == "u":
            out = np.asarray(x).astype(UINT[width(ty)]).view(dt)
        else:
            out = np.asarray(x).astype(dt)
    if is_bf16(ty):
        out = round_bf16(out)
    elif fp8_name(ty):
        out = to_fp8(out, fp8_name(ty))
    return out


def unsigned(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x)
    return x if x.dtype == np.bool_ else x.view(UINT[x.dtype.itemsize * 8])


def _tdiv(a, b):
    """Signed division rounding toward zero (numpy's // floors); b == 0 gives 0."""
    b = np.where(b == 0, 1, b)
    q = a // b
    return q + ((a % b != 0) & ((a < 0) != (b < 0)))


def _shift(a, b, op):
    bits = a.dtype.itemsize * 8
    big = (unsigned(b).astype(np.uint64) >= bits)
    out = op(a, np.where(big, 0, b).astype(a.dtype))
    return np.where(big, 0 if op is not np.right_shift or a.dtype.kind == "u" else
                    np.where(a < 0, -1, 0), out).astype(a.dtype)


def _mulhi(a, b):
    ua, ub = unsigned(a), unsigned(b)
    if ua.dtype == np.uint32:
        return ((ua.astype(np.uint64) * ub.astype(np.uint64)) >> 32).astype(np.uint32).view(a.dtype)
    if ua.dtype == np.uint64:
        f = np.frompyfunc(lambda p, q: (int(p) * int(q)) >> 64, 2, 1)
        return f(ua, ub).astype(np.uint64).view(a.dtype)
    raise Unsupported(f"tt.mulhiui of {a.dtype}")


def _libm(fn):
    """A float function computed in float64 and rounded once to the operand's type."""
    def run(*xs):
        dt = np.result_type(*xs)
        return fn(*(np.asarray(x, np.float64) for x in xs)).astype(dt)
    return run


_erf = np.vectorize(math.erf, otypes=[np.float64])
_verbs = {
    "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "log10": np.log10,
    "log1p": np.log1p, "expm1": np.expm1, "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "tanh": np.tanh, "erf": _erf, "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x),
    "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc, "absf": np.abs,
    "round": lambda x: np.where(x >= 0, np.floor(x + 0.5), np.ceil(x - 0.5)),
    "roundeven": np.rint, "atan": np.arctan, "asin": np.arcsin, "acos": np.arccos,
    "sinh": np.sinh, "cosh": np.cosh, "cbrt": np.cbrt,
}
MATH_UNARY = {f"math.{k}": _libm(v) for k, v in _verbs.items()}
MATH_UNARY["math.absi"] = np.abs
MATH_BINARY = {"math.powf": _libm(np.power), "math.atan2": _libm(np.arctan2),
               "math.copysign": np.copysign}

# libdevice functions by name (the f32 forms Inductor calls; the f64 forms too).
LIBDEVICE = {f"__nv_{k}{s}": _libm(v) for k, v in _verbs.items() if k not in ("absf",)
             for s in ("f", "")}
LIBDEVICE.update({"__nv_fabsf": np.abs, "__nv_fabs": np.abs, "__nv_powf": _libm(np.power),
                  "__nv_pow": _libm(np.power), "__nv_fmaxf": np.fmax, "__nv_fminf": np.fmin,
                  "__nv_isnanf": lambda x: np.isnan(x).astype(np.int32),
                  "__nv_isinff": lambda x: np.isinf(x).astype(np.int32),
                  "__nv_signbitf": lambda x: np.signbit(x).astype(np.int32),
                  "__nv_atan2f": _libm(np.arctan2), "__nv_fmodf": _libm(np.fmod),
                  "__nv_erfcf": _libm(lambda x: 1 - _erf(x)),
                  "__nv_nearbyintf": np.rint, "__nv_rintf": np.rint,
                  "__nv_ilogbf": lambda x: np.frexp(x)[1].astype(np.int32) - 1})

CMPI = {0: np.equal, 1: np.not_equal, 2: np.less, 3: np.less_equal, 4: np.greater,
        5: np.greater_equal, 6: "ult", 7: "ule", 8: "ugt", 9: "uge"}
_UCMP = {"ult": np.less, "ule": np.less_equal, "ugt": np.greater, "uge": np.greater_equal}


def cmpi(pred: int, a, b):
    fn = CMPI[pred]
    if isinstance(fn, str):
        return _UCMP[fn](unsigned(a), unsigned(b))
    return fn(a, b)


def cmpf(pred: int, a, b):
    """arith.cmpf: 0 false, 1-6 ordered eq gt ge lt le ne, 7 ord, 8-13 unordered, 14 uno, 15 true."""
    nan = np.isnan(a) | np.isnan(b)
    base = {1: np.equal, 2: np.greater, 3: np.greater_equal, 4: np.less, 5: np.less_equal,
            6: np.not_equal}
    if pred == 0:
        return np.zeros(np.broadcast(a, b).shape, bool)
    if pred == 15:
        return np.ones(np.broadcast(a, b).shape, bool)
    if pred == 7:
        return ~nan
    if pred == 14:
        return nan
    if pred <= 6:
        return base[pred](a, b) & ~nan
    return base[pred - 7](a, b) | nan


BINARY = {
    "arith.addi": np.add, "arith.subi": np.subtract, "arith.muli": np.multiply,
    "arith.andi": np.bitwise_and, "arith.ori": np.bitwise_or, "arith.xori": np.bitwise_xor,
    "arith.divsi": _tdiv, "arith.remsi": lambda a, b: a - _tdiv(a, b) * np.where(b == 0, 0, b),
    "arith.divui": lambda a, b: (unsigned(a) // np.where(b == 0, 1, unsigned(b))).view(a.dtype)
    if a.dtype != np.bool_ else a,
    "arith.remui": lambda a, b: (unsigned(a) % np.where(b == 0, 1, unsigned(b))).view(a.dtype)
    if a.dtype != np.bool_ else a & ~b,
    "arith.floordivsi": lambda a, b: a // np.where(b == 0, 1, b),
    "arith.ceildivsi": lambda a, b: -((-a) // np.where(b == 0, 1, b)),
    "arith.minsi": np.minimum, "arith.maxsi": np.maximum,
    "arith.minui": lambda a, b: np.minimum(unsigned(a), unsigned(b)).view(a.dtype),
    "arith.maxui": lambda a, b: np.maximum(unsigned(a), unsigned(b)).view(a.dtype),
    "arith.shli": lambda a, b: _shift(a, b, np.left_shift),
    "arith.shrsi": lambda a, b: _shift(a, b, np.right_shift),
    "arith.shrui": lambda a, b: _shift(unsigned(a), unsigned(b), np.right_shift).view(a.dtype),
    "arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply,
    "arith.divf": np.divide, "arith.remf": np.fmod,
    "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin,
    "arith.maximumf": np.maximum, "arith.minimumf": np.minimum,
    "tt.precise_divf": np.divide, "tt.mulhiui": _mulhi,
    **MATH_BINARY,
}
UNARY = {"arith.negf": np.negative, "tt.precise_sqrt": np.sqrt, **MATH_UNARY}


def np_dtype_or_none(ty):
    try:
        return np_dtype(ty)
    except (Unsupported, AttributeError):
        return None
