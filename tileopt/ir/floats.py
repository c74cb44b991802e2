"""Float literals the way MLIR prints them, and the bit patterns behind them.

MLIR (``printFloatValue`` in ``mlir/lib/IR/AsmPrinter.cpp``) prints a float as

1. ``APFloat::toString(precision=6, max_padding=0, truncate_zero=false)``, i.e.
   ``1.000000e+00``, when that text reads back to the same bits;
2. otherwise the shortest "natural precision" ``APFloat::toString()`` text
   (``0.707106769``, ``1.44269502``) when it contains a ``.``;
3. otherwise the bit pattern in hexadecimal: ``0xFF800000`` (-inf), ``0x7FC00000``.

xDSL's own printer differs in the fallback and writes NaN/inf in lower case, so tileopt
formats floats here, from the bit pattern, which also keeps NaN payloads exact.
"""

from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING, NamedTuple

from xdsl.dialects import builtin

if TYPE_CHECKING:
    from fractions import Fraction


class FloatSemantics(NamedTuple):
    """An APFloat semantics: field widths, exponent bias and which patterns are special.

    ``kind``: ``"ieee"`` (all-ones exponent: inf and NaN), ``"fn"`` (no inf; only the
    all-ones pattern is NaN: f8E4M3FN), ``"fnuz"`` (no inf, no negative zero; the
    negative-zero pattern is the one NaN: the FNUZ f8 types).
    """

    exp_bits: int
    man_bits: int
    bias: int
    kind: str = "ieee"

    @property
    def width(self) -> int:
        return 1 + self.exp_bits + self.man_bits


def _ieee(exp_bits: int, man_bits: int) -> FloatSemantics:
    return FloatSemantics(exp_bits, man_bits, (1 << (exp_bits - 1)) - 1)


_FORMATS = {
    builtin.Float16Type: _ieee(5, 10),
    builtin.BFloat16Type: _ieee(8, 7),
    builtin.Float32Type: _ieee(8, 23),
    builtin.Float64Type: _ieee(11, 52),
    builtin.Float8E5M2Type: _ieee(5, 2),
    builtin.Float8E4M3Type: _ieee(4, 3),
    builtin.Float8E3M4Type: _ieee(3, 4),
    builtin.Float8E4M3FNType: FloatSemantics(4, 3, 7, "fn"),
    builtin.Float8E4M3FNUZType: FloatSemantics(4, 3, 8, "fnuz"),
    builtin.Float8E5M2FNUZType: FloatSemantics(5, 2, 16, "fnuz"),
    builtin.Float8E4M3B11FNUZType: FloatSemantics(4, 3, 11, "fnuz"),
}


def float_format(type_) -> FloatSemantics | None:
    """The semantics of a float type, or None for formats tileopt leaves to xDSL."""
    return _FORMATS.get(type(type_))


def _special(bits: int, fmt: FloatSemantics) -> float | None:
    """inf or NaN for a special bit pattern of ``fmt``, else None."""
    sign_bit = 1 << (fmt.width - 1)
    magnitude = bits & (sign_bit - 1)
    if fmt.kind == "fnuz":
        return math.nan if bits == sign_bit else None
    if fmt.kind == "fn":
        return math.nan if magnitude == sign_bit - 1 else None
    if magnitude >> fmt.man_bits == (1 << fmt.exp_bits) - 1:
        if magnitude & ((1 << fmt.man_bits) - 1):
            return math.nan
        return -math.inf if bits & sign_bit else math.inf
    return None


def _significand_exponent(bits: int, fmt: FloatSemantics) -> tuple[int, int]:
    """(integer significand, power of two) of a finite float's magnitude."""
    exponent = bits >> fmt.man_bits & ((1 << fmt.exp_bits) - 1)
    mantissa = bits & ((1 << fmt.man_bits) - 1)
    if exponent == 0:
        return mantissa, 1 - fmt.bias - fmt.man_bits
    return mantissa | 1 << fmt.man_bits, exponent - fmt.bias - fmt.man_bits


def bits_to_float(bits: int, fmt: FloatSemantics) -> float:
    """The value of a bit pattern (exact: every format here fits in a double)."""
    special = _special(bits, fmt)
    if special is not None:
        if math.isnan(special) and fmt.kind != "fnuz":
            # keep sign and payload in the double's NaN, as APFloat widens it
            sign = bits >> (fmt.width - 1) & 1
            payload = (bits & ((1 << fmt.man_bits) - 1)) << (52 - fmt.man_bits)
            return struct.unpack("<d", struct.pack("<Q", sign << 63 | 0x7FF << 52 | payload))[0]
        return special
    significand, exp2 = _significand_exponent(bits, fmt)
    value = math.ldexp(significand, exp2)
    return -value if bits >> (fmt.width - 1) & 1 else value


def _nan_bits(fmt: FloatSemantics) -> int:
    if fmt.kind == "fnuz":
        return 1 << (fmt.width - 1)
    if fmt.kind == "fn":
        return (1 << (fmt.width - 1)) - 1
    return ((1 << fmt.exp_bits) - 1) << fmt.man_bits | 1 << (fmt.man_bits - 1)


def float_to_bits(value: float | Fraction, fmt: FloatSemantics) -> int:
    """Round a value to the nearest bit pattern (ties to even), like APFloat; a value
    past the largest finite one is inf, or NaN where the format has no inf."""
    from fractions import Fraction  # here: a run that prints no such float never needs it

    sign_bit = 1 << (fmt.width - 1)
    if isinstance(value, float):
        if math.isnan(value):
            return _nan_bits_of(value, fmt)
        if fmt == _ieee(11, 52):
            return struct.unpack("<Q", struct.pack("<d", value))[0]
        sign = sign_bit if math.copysign(1.0, value) < 0 else 0
        if math.isinf(value):
            return _overflow(sign, fmt)
        exact = Fraction(abs(value))
    else:
        sign = sign_bit if value < 0 else 0
        exact = abs(value)
    if fmt.kind == "fnuz" and exact == 0:
        return 0
    if exact == 0:
        return sign
    man_bits = fmt.man_bits
    # exponent of the leading bit, clamped to the subnormal range
    e = exact.numerator.bit_length() - exact.denominator.bit_length()
    if Fraction(2) ** e > exact:
        e -= 1
    e = max(e, 1 - fmt.bias)
    scaled = exact / Fraction(2) ** (e - man_bits)  # mantissa with man_bits fraction bits
    mantissa = math.floor(scaled)
    rest = scaled - mantissa
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and mantissa & 1):
        mantissa += 1
    if mantissa >> (man_bits + 1):  # rounding carried into a new leading bit
        mantissa >>= 1
        e += 1
    if mantissa >> man_bits == 0:  # subnormal (or zero, rounded down)
        return (0 if fmt.kind == "fnuz" and mantissa == 0 else sign) | mantissa
    biased = e + fmt.bias
    bits = sign | biased << man_bits | (mantissa & ((1 << man_bits) - 1))
    if biased > (1 << fmt.exp_bits) - 1 or _special(bits, fmt) is not None:
        return _overflow(sign, fmt)
    return bits


def _nan_bits_of(value: float, fmt: FloatSemantics) -> int:
    """A NaN double narrowed: sign and high payload bits kept (quiet if none is left)."""
    double = struct.unpack("<Q", struct.pack("<d", value))[0]
    sign = (double >> 63) << (fmt.width - 1)
    if fmt.kind == "fnuz":
        return _nan_bits(fmt)
    if fmt.kind == "fn":
        return sign | _nan_bits(fmt)
    payload = (double & ((1 << 52) - 1)) >> (52 - fmt.man_bits)
    return sign | ((1 << fmt.exp_bits) - 1) << fmt.man_bits | (payload or 1 << (fmt.man_bits - 1))


def _overflow(sign: int, fmt: FloatSemantics) -> int:
    if fmt.kind == "ieee":
        return sign | ((1 << fmt.exp_bits) - 1) << fmt.man_bits
    return _nan_bits(fmt)


def _decimal_digits(significand: int, exp2: int, precision: int) -> tuple[str, int]:
    """The digits APFloat keeps of ``significand * 2**exp2`` (> 0) for ``precision``
    significant digits, and the power of ten of the last one (``IEEEFloat::toString``).

    APFloat first drops whole tens from the exact integer by truncating division, as many
    as its bit count allows (``(bits - bits_for_precision) * 59 / 196``), and only then
    rounds the digits left to ``precision``, half up on the first dropped digit. The
    truncation can leave exactly ``precision`` digits with nothing to round: the f32 value
    nearest 0.01 (0.0099999997764...) keeps ``999999`` and reads ``9.999990e-03``, so
    MLIR, finding that it does not read back, prints ``0.00999999977``.
    """
    trailing = (significand & -significand).bit_length() - 1
    significand >>= trailing
    exp2 += trailing
    exp10 = 0
    if exp2 >= 0:
        significand <<= exp2
    else:
        significand *= 5 ** -exp2
        exp10 = exp2
    bits_required = (precision * 196 + 58) // 59
    bits = significand.bit_length()
    if bits > bits_required:
        removable = (bits - bits_required) * 59 // 196
        if removable:
            significand //= 10 ** removable
            exp10 += removable
    digits = str(significand)
    stripped = digits.rstrip("0")
    exp10 += len(digits) - len(stripped)
    digits = stripped
    if len(digits) > precision:
        cut = len(digits) - precision
        kept, first_dropped = digits[:precision], digits[precision]
        exp10 += cut
        if first_dropped >= "5":
            rounded = str(int(kept) + 1)
            if len(rounded) > len(kept):  # carried through: one digit left
                return "1", exp10 + len(kept)
            kept = rounded
        stripped = kept.rstrip("0")
        return stripped, exp10 + len(kept) - len(stripped)
    return digits, exp10


def _apfloat_to_string(significand: int, exp2: int, negative: bool, precision: int,
                       max_padding: int, truncate_zero: bool) -> str:
    """``llvm::APFloat::toString`` for the finite value ``significand * 2**exp2``."""
    text = "-" if negative else ""
    if significand == 0:
        if not max_padding:
            if truncate_zero:
                return text + "0.0E+0"
            return text + "0.0" + "0" * max(precision - 1, 0) + "e+00"
        return text + "0"
    digits, exp = _decimal_digits(significand, exp2, precision)
    ndigits = len(digits)
    if not max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or ndigits + exp > precision
    else:
        msd = exp + ndigits - 1
        scientific = msd < 0 and -msd > max_padding
    if scientific:
        exp += ndigits - 1
        text += digits[0] + "."
        if ndigits == 1 and truncate_zero:
            text += "0"
        else:
            text += digits[1:]
        if not truncate_zero and precision > ndigits - 1:
            text += "0" * (precision - ndigits + 1)
        text += "E" if truncate_zero else "e"
        text += "+" if exp >= 0 else "-"
        exp_text = str(abs(exp))
        if not truncate_zero and len(exp_text) < 2:
            exp_text = "0" + exp_text
        return text + exp_text
    if exp >= 0:
        return text + digits + "0" * exp
    whole = exp + ndigits
    if whole > 0:
        return text + digits[:whole] + "." + digits[whole:]
    return text + "0." + "0" * (-whole) + digits


def _natural_precision(fmt: FloatSemantics) -> int:
    # APFloat: "2 + semantics->precision * 59 / 196" (precision counts the hidden bit)
    return 2 + (fmt.man_bits + 1) * 59 // 196


def _reads_back(text: str, bits: int, fmt: FloatSemantics) -> bool:
    from fractions import Fraction

    read = float_to_bits(Fraction(text), fmt)
    if text.startswith("-") and read == 0 and fmt.kind != "fnuz":
        read = 1 << (fmt.width - 1)  # "-0.0" reads back as negative zero
    return read == bits


def format_float_bits(bits: int, fmt: FloatSemantics) -> str:
    """MLIR's text for the float with this bit pattern."""
    value = bits_to_float(bits, fmt)
    if not (math.isnan(value) or math.isinf(value)):
        significand, exp2 = _significand_exponent(bits, fmt)
        negative = bool(bits >> (fmt.width - 1) & 1)
        text = _apfloat_to_string(significand, exp2, negative, 6, 0, False)
        if _reads_back(text, bits, fmt):
            return text
        text = _apfloat_to_string(significand, exp2, negative, _natural_precision(fmt),
                                  3, True)
        if "." in text:
            return text
    return f"0x{bits:X}"


def format_float(value: float, type_) -> str:
    """MLIR's text for a float value of an xDSL float type."""
    fmt = float_format(type_)
    if fmt is None:
        return repr(value)
    return format_float_bits(float_to_bits(value, fmt), fmt)
