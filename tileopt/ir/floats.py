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
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type

# (exponent bits, explicit mantissa bits) of the IEEE formats Triton uses.
_FORMATS = {
    Float16Type: (5, 10),
    BFloat16Type: (8, 7),
    Float32Type: (8, 23),
    Float64Type: (11, 52),
}


def float_format(type_) -> tuple[int, int] | None:
    """(exponent bits, mantissa bits) of a float type, or None for unusual formats."""
    return _FORMATS.get(type(type_))


def bits_to_float(bits: int, fmt: tuple[int, int]) -> float:
    """The value of an IEEE bit pattern (exact: every format here fits in a double)."""
    exp_bits, man_bits = fmt
    sign = -1.0 if bits >> (exp_bits + man_bits) & 1 else 1.0
    exponent = bits >> man_bits & ((1 << exp_bits) - 1)
    mantissa = bits & ((1 << man_bits) - 1)
    bias = (1 << (exp_bits - 1)) - 1
    if exponent == (1 << exp_bits) - 1:
        return sign * math.inf if mantissa == 0 else math.nan
    if exponent == 0:
        return sign * math.ldexp(mantissa, 1 - bias - man_bits)
    return sign * math.ldexp(mantissa | (1 << man_bits), exponent - bias - man_bits)


def float_to_bits(value: float | Fraction, fmt: tuple[int, int]) -> int:
    """Round a value to the nearest IEEE bit pattern (ties to even), like APFloat."""
    exp_bits, man_bits = fmt
    sign_bit = 1 << (exp_bits + man_bits)
    if isinstance(value, float):
        if math.isnan(value):
            return ((1 << exp_bits) - 1) << man_bits | 1 << (man_bits - 1)
        if fmt == (11, 52):
            return struct.unpack("<Q", struct.pack("<d", value))[0]
        sign = sign_bit if math.copysign(1.0, value) < 0 else 0
        if math.isinf(value):
            return sign | ((1 << exp_bits) - 1) << man_bits
        exact = Fraction(abs(value))
    else:
        sign = sign_bit if value < 0 else 0
        exact = abs(value)
    if exact == 0:
        return sign
    bias = (1 << (exp_bits - 1)) - 1
    # exponent of the leading bit, clamped to the subnormal range
    e = exact.numerator.bit_length() - exact.denominator.bit_length()
    if Fraction(2) ** e > exact:
        e -= 1
    e = max(e, 1 - bias)
    scaled = exact / Fraction(2) ** (e - man_bits)  # mantissa with man_bits fraction bits
    mantissa = math.floor(scaled)
    rest = scaled - mantissa
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and mantissa & 1):
        mantissa += 1
    if mantissa >> (man_bits + 1):  # rounding carried into a new leading bit
        mantissa >>= 1
        e += 1
    if mantissa >> man_bits == 0:  # subnormal
        return sign | mantissa
    biased = e + bias
    if biased >= (1 << exp_bits) - 1:
        return sign | ((1 << exp_bits) - 1) << man_bits  # overflow to inf
    return sign | biased << man_bits | (mantissa & ((1 << man_bits) - 1))


def _apfloat_to_string(value: float, precision: int, max_padding: int,
                       truncate_zero: bool) -> str:
    """``llvm::APFloat::toString`` for a finite value (``IEEEFloat::toString``)."""
    text = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        if not max_padding:
            if truncate_zero:
                return text + "0.0E+0"
            return text + "0.0" + "0" * max(precision - 1, 0) + "e+00"
        return text + "0"
    with localcontext() as ctx:
        ctx.prec = 800
        exact = Decimal(abs(value))
        # digits and exponent such that value = digits * 10**exp, then keep `precision`
        # significant digits, rounding half up on the decimal expansion as APFloat does
        sign_, digit_tuple, exp = exact.as_tuple()
        digits = "".join(map(str, digit_tuple))
        if len(digits) > precision:
            cut = len(digits) - precision
            q = Decimal((0, digit_tuple, exp)).quantize(Decimal((0, (1,), exp + cut)),
                                                         rounding=ROUND_HALF_UP)
            _, digit_tuple, exp = q.as_tuple()
            digits = "".join(map(str, digit_tuple))
        stripped = digits.rstrip("0")
        exp += len(digits) - len(stripped)
        digits = stripped or "0"
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


def _natural_precision(fmt: tuple[int, int]) -> int:
    # APFloat: "2 + semantics->precision * 59 / 196" (precision counts the hidden bit)
    return 2 + (fmt[1] + 1) * 59 // 196


def _reads_back(text: str, bits: int, fmt: tuple[int, int]) -> bool:
    read = float_to_bits(Fraction(text), fmt)
    if text.startswith("-") and read == 0:
        read = 1 << (fmt[0] + fmt[1])  # "-0.0" reads back as negative zero
    return read == bits


def format_float_bits(bits: int, fmt: tuple[int, int]) -> str:
    """MLIR's text for the float with this bit pattern."""
    value = bits_to_float(bits, fmt)
    if not (math.isnan(value) or math.isinf(value)):
        text = _apfloat_to_string(value, 6, 0, False)
        if _reads_back(text, bits, fmt):
            return text
        text = _apfloat_to_string(value, _natural_precision(fmt), 3, True)
        if "." in text:
            return text
    return f"0x{bits:X}"


def format_float(value: float, type_) -> str:
    """MLIR's text for a float value of an xDSL float type."""
    fmt = float_format(type_)
    if fmt is None:
        return repr(value)
    return format_float_bits(float_to_bits(value, fmt), fmt)
