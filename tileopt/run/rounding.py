"""IEEE arithmetic in f32 and f64 with the four rounding modes, correctly rounded.

The GPU's ``add``/``mul``/``fma``/``div``/``sqrt`` in ``.rn``/``.rz``/``.rm``/``.rp``
(PTX, and NVVM's intrinsics of them that libdevice calls) are exact operations rounded
once. Here each result is first known as a float64 ``hi`` (the nearest double to the exact
value) and the sign of ``exact - hi`` (from error-free transformations: TwoSum,
Dekker's product, the division and square-root residuals), which is all that rounding in
any mode needs. Subnormal inputs and results are kept (``.ftz`` is the caller's).

``float_operation`` gives these, and the approximations, by the names PTX and NVVM use
(``rcp`` with ``.approx.ftz.f32``): NVVM's intrinsics and inline PTX share it.
"""

from __future__ import annotations

import numpy as np

MODES = ("rn", "rz", "rm", "rp")
_SPLIT = np.float64(134217729.0)  # 2^27 + 1: Veltkamp's splitter for 53-bit doubles


def two_sum(a, b):
    """s + e == a + b exactly, s the rounded sum."""
    s = a + b
    v = s - a
    return s, (a - (s - v)) + (b - v)


def _split(a):
    c = _SPLIT * a
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a, b):
    """p + e == a * b exactly (Dekker; barring overflow and underflow)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _side(hi, lo):
    """The sign of exact - hi, where exact = hi + lo."""
    return np.sign(np.where(np.isfinite(hi), lo, 0.0))


def _round_odd_sum(a, b):
    """a + b rounded to odd: an inexact sum gets an odd last bit (Boldo and Melquiond)."""
    s, e = two_sum(a, b)
    odd = (s.view(np.uint64) & np.uint64(1)) == 1
    fix = (e != 0) & ~odd & np.isfinite(s)
    return np.where(fix, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)


def round_to(out, hi, side, mode: str) -> np.ndarray:
    """The exact value hi + (a quantity of sign ``side``, smaller than hi's half ulp)
    rounded to ``out`` (float32 or float64) in ``mode``."""
    out = np.dtype(out)
    hi = np.asarray(hi, np.float64)
    side = np.asarray(side, np.float64)
    with np.errstate(over="ignore"):   # past the largest value: infinity, then the mode
        r = hi.astype(out)
    wide = r.astype(np.float64)
    # exact - r: its sign from hi - r (exact in float64) or, where hi is r, from side
    d = np.sign(np.where(hi != wide, hi - wide, side))
    d = np.where(np.isnan(hi), 0, d)
    if mode == "rn":
        if out == np.float64:
            return r
        toward = np.nextafter(r, np.where(hi > wide, np.inf, -np.inf).astype(out))
        halfway = (hi != wide) & np.isfinite(toward) & \
            (np.abs(hi - wide) * 2 == np.abs(toward.astype(np.float64) - wide))
        return np.where(halfway & (side != 0) & (np.sign(hi - wide) == side), toward, r)
    if mode == "rz":
        step = (d != 0) & (np.sign(d) != np.sign(wide))
        return np.where(step, np.nextafter(r, out.type(0)), r)
    if mode in ("rm", "rp"):
        up = mode == "rp"
        step = d > 0 if up else d < 0
        return np.where(step, np.nextafter(r, out.type(np.inf if up else -np.inf)), r)
    raise ValueError(f"unknown rounding mode '{mode}'")


def _f64(*xs):
    return [np.asarray(x, np.float64) for x in xs]


def add(a, b, out, mode: str):
    a, b = _f64(a, b)
    s, e = two_sum(a, b)
    return round_to(out, s, _side(s, e), mode)


def mul(a, b, out, mode: str):
    a, b = _f64(a, b)
    p, e = two_prod(a, b)
    return round_to(out, p, _side(p, e), mode)


def fma(a, b, c, out, mode: str):
    """a * b + c rounded once: the float64 result by Boldo and Melquiond's emulated FMA
    (the product's low part added rounded to odd), the sign of its error from the sums."""
    a, b, c = _f64(a, b, c)
    ph, pl = two_prod(a, b)
    th, tl = two_sum(c, ph)
    v = _round_odd_sum(tl, pl)
    s, e = two_sum(th, v)
    # the error's bits lie below th's, so a non-zero e outweighs tl + pl - v
    side = np.where(e != 0, np.sign(e), _rest_sign(tl, pl, v))
    finite = np.isfinite(ph) & np.isfinite(c) & np.isfinite(s)
    s = np.where(finite, s, a * b + c)  # infinities and NaN as the plain arithmetic
    return round_to(out, s, np.where(finite, side, 0), mode)


def _rest_sign(tl, pl, v):
    """sign(tl + pl - v), exactly."""
    s, e = two_sum(tl, pl)
    return np.sign(np.where(s != v, s - v, e))


def div(a, b, out, mode: str):
    a, b = _f64(a, b)
    q = a / b
    p, pe = two_prod(q, b)
    r = (a - p) - pe          # a - q * b: a - p is exact (p is close to a)
    ok = np.isfinite(q) & (q != 0) & np.isfinite(r)
    return round_to(out, q, np.where(ok, np.sign(r) * np.sign(b), 0), mode)


def sqrt(a, out, mode: str):
    (a,) = _f64(a)
    q = np.sqrt(a)
    p, pe = two_prod(q, q)
    r = (a - p) - pe
    ok = np.isfinite(q) & (q > 0)
    return round_to(out, q, np.where(ok, np.sign(r), 0), mode)


def to_int(x, dtype, mode: str) -> np.ndarray:
    """A float to an integer type in ``mode``, saturating; NaN is 0 (as PTX ``cvt``)."""
    dtype = np.dtype(dtype)
    (x,) = _f64(x)
    r = {"rn": np.rint, "rz": np.trunc, "rm": np.floor, "rp": np.ceil}[mode](x)
    info = np.iinfo(dtype)
    lo, hi = float(info.min), float(info.max)
    big = r >= hi  # float(max) of 64-bit types rounds up: compare before the cast
    r = np.where(np.isnan(r), 0, np.clip(r, lo, hi))
    out = np.where(big, 0, r).astype(dtype)
    return np.where(big, info.max, out).astype(dtype)


def from_int(x, out, mode: str) -> np.ndarray:
    """An integer (int32/int64, signed or unsigned as its dtype) to float in ``mode``."""
    x = np.asarray(x)
    hi = x.astype(np.float64)
    if x.dtype.itemsize < 8:
        side = np.zeros(hi.shape)
    else:
        # x - hi exactly, in integers: hi is within 2^11 of x, 2^64 fits as float only
        top = hi >= 2.0 ** (64 if x.dtype.kind == "u" else 63)
        back = np.where(top, 0, hi).astype(x.dtype)
        rest = (x - back).view(np.int64) if x.dtype.kind == "u" else x - back
        side = np.where(top, -1, np.sign(rest))
    return round_to(out, hi, side, mode)


# ----------------------------------------------------------- operations by their PTX names

F32_MIN_NORMAL = np.float32(1.1754944e-38)

_APPROX = {"ex2": np.exp2, "lg2": np.log2, "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x),
           "rcp": lambda x: 1 / x, "sin": np.sin, "cos": np.cos, "div": np.divide,
           "tanh": np.tanh}
_EXACT = {"add": add, "sub": lambda a, b, out, mode: add(a, -b, out, mode), "mul": mul,
          "fma": fma, "div": div, "sqrt": sqrt,
          "rcp": lambda x, out, mode: div(np.ones_like(x), x, out, mode)}
# round is cvt.rni: to the nearest integer, ties to even
_ROUND = {"trunc": np.trunc, "floor": np.floor, "ceil": np.ceil, "round": np.rint}


def ftz(a):
    """f32 subnormals to zero of the same sign (other types as they are)."""
    a = np.asarray(a)
    if a.dtype != np.float32:
        return a
    return np.where(np.abs(a) < F32_MIN_NORMAL, np.copysign(np.float32(0), a), a).astype(np.float32)


def _xorsign_abs(pick):
    """fmin/fmax.xorsign.abs (what Triton's clamp(x, -limit, limit) becomes on sm_90):
    the magnitude of ``pick`` of the operands' magnitudes, the sign their signs' xor."""
    def run(a, b):
        a, b = np.asarray(a), np.asarray(b)
        magnitude = pick(np.abs(a), np.abs(b))
        return np.where(np.signbit(a) ^ np.signbit(b), -magnitude, magnitude).astype(a.dtype)
    return run


def _float_type(mods: list[str]):
    if any(m in ("d", "f64") for m in mods):
        return np.dtype(np.float64)
    return np.dtype(np.float32)


def flushed(fn, flush: bool):
    """fn on operands flushed with ``.ftz``, its result flushed too."""
    if not flush:
        return fn
    return lambda *a: ftz(fn(*[ftz(x) for x in a]))


def float_operation(op: str, mods: list[str]):
    """The function (numpy arrays in, array out) of a float operation named as NVVM and
    PTX name them, ``op`` with modifiers (``rcp``, ``[approx, ftz, f32]``); None if it is
    not one. Without a rounding mode, ``add``/``sub``/``mul``/``fma`` round to nearest."""
    if not set(mods) <= _KNOWN_MODIFIERS:
        return None
    fn = _float_function(op, mods)
    if fn is None or "sat" not in mods:
        return fn
    return lambda *a: _saturate(fn(*a))


_KNOWN_MODIFIERS = {"approx", "full", "ftz", "sat", "f", "d", "f32", "f64", "xorsign", "abs",
                    *MODES}


def _saturate(x):
    """``.sat``: clamped to [0, 1], NaN to 0."""
    x = np.asarray(x)
    return np.where(np.isnan(x), 0, np.clip(x, 0, 1)).astype(x.dtype)


def _float_function(op: str, mods: list[str]):
    flush = "ftz" in mods
    mode = next((m for m in mods if m in MODES), None)
    out = _float_type(mods)
    if "approx" in mods or (op == "div" and "full" in mods):
        if op not in _APPROX:
            return None
        fn = _APPROX[op]
        return flushed(lambda *a: np.asarray(fn(*[np.asarray(x, np.float64) for x in a]))
                       .astype(out), flush)
    if op in _EXACT and (mode is not None or op in ("add", "sub", "mul", "fma")):
        exact = _EXACT[op]
        return flushed(lambda *a: exact(*a, out, mode or "rn"), flush)
    if op == "fabs":
        return flushed(np.abs, flush)
    if op in ("fmax", "fmin") and set(mods) <= {"ftz", "f", "d"}:
        return flushed(np.fmax if op == "fmax" else np.fmin, flush)
    if op in ("fmax", "fmin") and {"xorsign", "abs"} <= set(mods) <= {"ftz", "f", "xorsign",
                                                                      "abs"}:
        return flushed(_xorsign_abs(np.fmax if op == "fmax" else np.fmin), flush)
    if op == "saturate":
        return flushed(_saturate, flush)
    if op in _ROUND:
        return flushed(_ROUND[op], flush)
    return None
