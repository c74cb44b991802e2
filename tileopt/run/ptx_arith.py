"""Inline PTX arithmetic for ``ptx.AsmCall``: what libdevice's and the NVIDIA lowering's
asm strings use besides memory and tensor cores.

- Integers: ``add``/``sub``/``mul``/``mad`` (``.lo``, ``.hi``, ``.wide``) with the carry
  flag (``.cc`` sets it, ``addc``/``subc``/``madc`` add it in; ``sub`` carries a borrow),
  one flag per thread for the asm statement; ``bfind[.shiftamt]``.
- Floats: ``add``/``sub``/``mul``/``fma``/``mad`` (with the rounding mode, default
  ``.rn``), ``div``, ``rcp``, ``sqrt``, ``rsqrt``, ``ex2``, ``lg2``, ``sin``, ``cos``,
  ``tanh`` (``.approx`` in float64 rounded once, as the NVVM intrinsics:
  ``rounding.float_operation``), ``setp`` (ordered and unordered comparisons), ``selp``.
- ``cvt``: ``.rz`` f32 to f16/bf16; to the 8-bit floats in pairs,
  ``cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 d, a, b`` (a in the high byte, b in the low; the
  nearest value, ties to even, beyond the largest finite value that value, NaN to 0x7F)
  and back, ``cvt.rn.f16x2.{e4m3x2,e5m2x2}`` (the low byte to the low half).
Registers hold raw bits (``uint64``); a float operand is the bits of its ``.f32``/``.f64``.
"""

from __future__ import annotations

import numpy as np

from tileopt.run import rounding as R
from tileopt.run import values as V

_FLOAT_BITS = {16: np.float16, 32: np.float32, 64: np.float64}
# 8-bit floats: (exponent bits, mantissa bits, codes of finite magnitudes)
_FP8 = {"e4m3": (4, 3, 127), "e5m2": (5, 2, 124)}


def fp8_values(kind: str) -> np.ndarray:
    """The magnitudes of the finite codes 0.. of an 8-bit float, ascending (float64)."""
    ebits, mbits, count = _FP8[kind]
    bias = (1 << (ebits - 1)) - 1
    code = np.arange(count)
    exp, man = code >> mbits, code & ((1 << mbits) - 1)
    sub = man * 2.0 ** (1 - bias - mbits)
    return np.where(exp == 0, sub, (1 + man / 2 ** mbits) * 2.0 ** (exp - bias))


def to_fp8(x: np.ndarray, kind: str) -> np.ndarray:
    """f32 -> 8-bit float codes: nearest, ties to the even code, saturating to the
    largest finite value, NaN to 0x7F."""
    values = fp8_values(kind)
    mag = np.abs(np.asarray(x, np.float64))
    hi = np.clip(np.searchsorted(values, mag), 1, len(values) - 1)
    lo = hi - 1
    d_lo, d_hi = mag - values[lo], values[hi] - mag
    code = np.where((d_hi < d_lo) | ((d_hi == d_lo) & (hi % 2 == 0)), hi, lo)
    code = np.where(mag >= values[-1], len(values) - 1, code)
    sign = np.signbit(x).astype(np.int64) << 7
    return np.where(np.isnan(x), 0x7F, code | sign).astype(np.uint64)


def from_fp8(code: np.ndarray, kind: str) -> np.ndarray:
    """8-bit float codes -> float64 (NaN and, for e5m2, infinities as such)."""
    values = fp8_values(kind)
    code = np.asarray(code).astype(np.int64) & 0xFF
    mag = code & 0x7F
    val = np.where(mag < len(values), values[np.minimum(mag, len(values) - 1)], np.nan)
    if kind == "e5m2":
        val = np.where(mag == 0x7C, np.inf, val)
    return np.where(code & 0x80, -val, val)


class PtxArith:
    """Methods ``i_<opcode>`` of AsmCall for arithmetic (see the module's docstring)."""

    # ------------------------------------------------------------------ helpers
    def _float_in(self, op, bits: int) -> np.ndarray:
        raw = self._read(op, bits).astype(V.bits_dtype(bits // 8))
        return raw.view(_FLOAT_BITS[bits])

    def _float_out(self, op, value, on, bits: int) -> None:
        raw = np.asarray(value, _FLOAT_BITS[bits]).view(V.bits_dtype(bits // 8))
        self._write(op, raw.astype(np.uint64), on, bits)

    def _type(self, pi):
        """(kind, bits) of the instruction's type modifier: ('f', 32), ('u', 32)..."""
        t = next((m for m in reversed(pi.mods) if m[:1] in "bsuf" and m[1:].isdigit()), None)
        if t is None:
            raise self.error(pi, "PTX instruction without a type")
        return t[0], int(t[1:])

    def _carry(self):
        if getattr(self, "cc", None) is None:
            self.cc = np.zeros(len(self.ex.idx), np.uint64)
        return self.cc

    # ------------------------------------------------------------------ integers and floats
    def _arith(self, pi, on, op: str, carry_in: bool = False):
        kind, bits = self._type(pi)
        d, *srcs = pi.operands
        if kind == "f":
            fn = R.float_operation("fma" if op == "mad" else op,
                                   [m for m in pi.mods if m != f"f{bits}"]
                                   + ["d" if bits == 64 else "f"])
            if fn is None:
                raise self.error(pi, f"unsupported PTX form '{pi.opcode}.{'.'.join(pi.mods)}'")
            return self._float_out(d, fn(*[self._float_in(s, bits) for s in srcs]), on, bits)
        if op == "fma":
            raise self.error(pi, "fma needs a float type")
        wide = "wide" in pi.mods
        out_bits = 2 * bits if wide else bits
        mask = (1 << out_bits) - 1
        # the low bits and the carry do not depend on signedness: unsigned but for the
        # high half (and the whole) of a product
        a, b = (int_values(self._read(x, bits), bits, kind if op in ("mul", "mad") else "u")
                for x in srcs[:2])
        carry = self._carry().astype(object) if carry_in else 0
        if op in ("mul", "mad"):
            part = ((a * b) >> bits if "hi" in pi.mods else a * b) & mask
            addend = int_values(self._read(srcs[2], out_bits), out_bits, "u") if op == "mad" \
                else 0
            total = part + addend + carry
        elif op == "add":
            total = a + b + carry
        else:  # the carry of a subtraction is its borrow
            total = a - b - carry
        if "cc" in pi.mods:
            out = (total < 0) if op == "sub" else (total >> out_bits) & 1
            self.cc = np.where(on, np.asarray(out, dtype=object).astype(np.uint64), self._carry())
        self._write(d, np.asarray(total & mask, dtype=object).astype(np.uint64), on, out_bits)

    def i_add(self, pi, on):
        self._arith(pi, on, "add")

    def i_sub(self, pi, on):
        self._arith(pi, on, "sub")

    def i_mul(self, pi, on):
        self._arith(pi, on, "mul")

    def i_mad(self, pi, on):
        self._arith(pi, on, "mad")

    def i_fma(self, pi, on):
        self._arith(pi, on, "fma")

    def i_addc(self, pi, on):
        self._arith(pi, on, "add", carry_in=True)

    def i_subc(self, pi, on):
        self._arith(pi, on, "sub", carry_in=True)

    def i_madc(self, pi, on):
        self._arith(pi, on, "mad", carry_in=True)

    def _float_only(self, pi, on):
        if self._type(pi)[0] != "f":
            raise self.error(pi, f"unsupported PTX form '{pi.opcode}.{'.'.join(pi.mods)}'")
        self._arith(pi, on, pi.opcode)

    i_div = i_rcp = i_sqrt = i_rsqrt = i_ex2 = i_lg2 = i_sin = i_cos = i_tanh = _float_only

    _CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
            "gt": np.greater, "ge": np.greater_equal, "lo": np.less, "ls": np.less_equal,
            "hi": np.greater, "hs": np.greater_equal}

    def i_setp(self, pi, on):
        cmp = pi.mods[0]
        kind, bits = self._type(pi)
        d, a, b = pi.operands[:3]
        if kind == "f":
            x, y = self._float_in(a, bits), self._float_in(b, bits)
            nan = np.isnan(x) | np.isnan(y)
            if cmp in ("num", "nan"):
                r = ~nan if cmp == "num" else nan
            else:  # eq..ge are ordered (false with a NaN), equ..geu unordered (true)
                unordered = len(cmp) == 3 and cmp.endswith("u")
                r = self._CMP[cmp[:2]](x, y)
                r = (r | nan) if unordered else (r & ~nan)
        else:
            x, y = (int_values(self._read(o, bits), bits, kind) for o in (a, b))
            r = np.asarray(self._CMP[cmp](x, y), bool)
        self._write(d, r.astype(np.uint64), on, 1)

    def i_selp(self, pi, on):
        _, bits = self._type(pi)
        d, a, b, p = pi.operands
        pick = self._read(p, 1) != 0
        self._write(d, np.where(pick, self._read(a, bits), self._read(b, bits)), on, bits)

    def i_bfind(self, pi, on):
        kind, bits = self._type(pi)
        out = []
        for x in int_values(self._read(pi.operands[1], bits), bits, kind):
            x = ~x if x < 0 else x  # signed: the highest bit unlike the sign
            pos = int(x).bit_length() - 1
            out.append(0xFFFFFFFF if pos < 0 else bits - 1 - pos if "shiftamt" in pi.mods
                       else pos)
        self._write(pi.operands[0], np.array(out, np.uint64), on, 32)

    # ------------------------------------------------------------------ conversions
    def i_cvt(self, pi, on):
        mods = [m for m in pi.mods if m != "satfinite"]
        d, *srcs = pi.operands
        if len(mods) == 3 and mods[0] == "rn" and mods[1] in ("e4m3x2", "e5m2x2") and \
                mods[2] == "f32" and "satfinite" in pi.mods:
            kind = mods[1][:4]
            high, low = (to_fp8(self._float_in(s, 32), kind) for s in srcs)
            return self._write(d, (high << np.uint64(8)) | low, on, 16)
        if mods in (["rn", "f16x2", "e4m3x2"], ["rn", "f16x2", "e5m2x2"]):
            kind = mods[2][:4]
            pair = self._read(srcs[0], 16)
            halves = [from_fp8(pair >> np.uint64(8 * k), kind).astype(np.float16)
                      .view(np.uint16).astype(np.uint64) for k in (0, 1)]
            return self._write(d, halves[0] | (halves[1] << np.uint64(16)), on, 32)
        if mods in (["rz", "f16", "f32"], ["rz", "bf16", "f32"]):
            x = self._float_in(srcs[0], 32)
            if mods[1] == "f16":
                r = R.round_to(np.float16, x, 0, "rz").view(np.uint16)
            else:  # toward zero: the high half of the f32, NaN kept quiet
                bits = x.view(np.uint32)
                r = np.where(np.isnan(x), (bits >> 16) | 0x40, bits >> 16).astype(np.uint16)
            return self._write(d, r.astype(np.uint64), on, 16)
        raise self.error(pi, f"unsupported cvt form '.{'.'.join(pi.mods)}'")


def int_values(raw: np.ndarray, bits: int, kind: str) -> np.ndarray:
    """Raw register bits as Python integers (an object array: products and carries need
    more than 64 bits), signed for ``.s`` types."""
    vals = (np.asarray(raw, np.uint64) & np.uint64((1 << min(bits, 64)) - 1)).astype(object)
    if kind == "s":
        vals = np.where(vals >> (bits - 1), vals - (1 << bits), vals)
    return vals
