"""NVVM's arithmetic intrinsics (``llvm.nvvm.<op>...``), as libdevice and the NVIDIA
lowering call them, read from their names.

- Correctly rounded operations, ``{add,mul,fma,div,rcp,sqrt}.{rn,rz,rm,rp}[.ftz].{f,d}``:
  exact, rounded once in the mode (``rounding.py``), bit for bit the GPU's.
- Approximations, ``{ex2,lg2,sin,cos,rsqrt,sqrt,rcp,div,tanh}.approx[.ftz]`` and
  ``div.full``: computed in float64 and rounded to nearest once. The GPU's instruction is
  within its documented error of this, not equal to it: the one place where a run here may
  differ from the GPU in the last bits.
- ``fabs``, ``fmax``/``fmin`` (a NaN operand gives the other one), ``saturate`` (to [0, 1],
  NaN to 0), ``trunc``/``floor``/``ceil`` and ``round`` (to nearest even, as ``cvt.rni``).
- Conversions ``{f,d}2{i,ui,ll,ull}.<mode>`` (saturating, NaN to 0),
  ``{i,ui,ll,ull}2{f,d}.<mode>``, ``d2f.<mode>``, ``f2h.rn``; ``d2i.hi``/``d2i.lo`` and
  ``lohi.i2d`` (a double's words); ``mulhi.{i,ui,ll,ull}``.
``.ftz`` flushes f32 subnormal operands and results to zero of the same sign, as the GPU.
The float operations are ``rounding.float_operation``, which inline PTX shares.
"""

from __future__ import annotations

import numpy as np

from tileopt.run import rounding as R
from tileopt.run import values as V

_INTS = {"i": np.int32, "ui": np.uint32, "ll": np.int64, "ull": np.uint64}
_FLOATS = {"f": np.float32, "d": np.float64, "h": np.float16}


def _as_result(ins, r):
    """``r`` in the numpy type of the call's result (integers signless: same bits)."""
    r, want = np.asarray(r), V.dtype(ins.type)
    if r.dtype == want:
        return r
    return r.view(want) if r.dtype.itemsize == want.itemsize else r.astype(want)


def _wrap(fn, flush: bool = False):
    """The intrinsic's handler: fn on the operands as numpy arrays, in the call's type."""
    fn = R.flushed(fn, flush)
    return lambda ex, ins, args: _as_result(ins, fn(*[np.asarray(x) for x in args]))


def intrinsic(rest: str):
    """The handler of ``llvm.nvvm.<rest>``, None if it is not one of these."""
    parts = rest.split(".")
    op, mods = parts[0], parts[1:]
    flush = "ftz" in mods
    mode = next((m for m in mods if m in R.MODES), None)
    fn = R.float_operation(op, mods) if op not in ("add", "sub", "mul", "fma") or mode else None
    if fn is not None:
        return _wrap(fn)
    if rest in ("d2i.hi", "d2i.lo"):
        return _word(1 if rest.endswith("hi") else 0)
    if rest == "lohi.i2d":
        return _lohi
    if op == "mulhi" and len(mods) == 1 and mods[0] in _INTS:
        return _mulhi(np.dtype(_INTS[mods[0]]))
    if "2" in op and mode is not None:
        src, _, dst = op.partition("2")
        if src in _FLOATS and dst in _INTS:
            return _wrap(lambda x: R.to_int(x, _INTS[dst], mode), flush)
        if src in _INTS and dst in _FLOATS:
            return _wrap(lambda x: R.from_int(x.view(_INTS[src]), _FLOATS[dst], mode))
        if src == "d" and dst == "f":
            return _wrap(lambda x: R.round_to(np.float32, x, 0, mode), flush)
        if src == "f" and dst == "h" and mode == "rn":
            return _wrap(lambda x: x.astype(np.float16).view(np.int16), flush)
    return None


def _word(k: int):
    """d2i.lo / d2i.hi: word k of a double's bits."""
    def run(ex, ins, args):
        x = np.asarray(args[0], np.float64)
        words = np.ascontiguousarray(x.reshape(-1)).view(np.int32).reshape(-1, 2)
        return words[:, k].reshape(x.shape)
    return run


def _lohi(ex, ins, args):
    lo, hi = (np.asarray(a).astype(np.uint32).astype(np.uint64) for a in args)
    return ((hi << np.uint64(32)) | lo).view(np.float64)


def _mulhi(dtype: np.dtype):
    """The high half of the double-width product."""
    bits = dtype.itemsize * 8

    def run(ex, ins, args):
        a, b = (np.asarray(x).view(dtype) for x in args)
        if bits == 32:
            wide = np.int64 if dtype.kind == "i" else np.uint64
            return ((a.astype(wide) * b.astype(wide)) >> 32).astype(dtype).view(np.int32)
        a_, b_ = (np.array(x, dtype=object) for x in (a, b))
        high = (a_ * b_) >> 64
        return np.array([int(v) & (2 ** 64 - 1) for v in np.ravel(high)],
                        np.uint64).reshape(np.shape(high)).view(np.int64)
    return run
