"""Constant folding arithmetic for ``arith`` ops, with the semantics of LLVM's APInt/APFloat.

MLIR folds ``arith`` ops on constants with ``APInt`` (fixed-width two's complement, wrap
around) and ``APFloat`` (the target float format, round to nearest even). Python has
unbounded ints and binary64 floats, so this module supplies both semantics:

integers
  Values are unsigned bit patterns of a given width; ``to_signed`` reads them signed.
  Division, remainder and shifts return None where MLIR refuses to fold (division by
  zero, signed overflow, a shift by the width or more).
floats
  ``FloatFormat`` describes f16, bf16, f32 and f64. Every value of these formats is a
  Python float, so a result computed in binary64 and rounded once to the format is exact
  for + - * / (binary64 carries more than twice the precision plus two bits of every
  smaller format). Rounding is done with exact rationals (nearest, ties to even,
  overflow to infinity); bit patterns come from the format's fields, NaN payloads kept in
  the high fraction bits as APFloat keeps them. Conversions that lose information
  (``truncf`` of a value the target cannot hold exactly) give None, as MLIR's
  ``convertFloatValue`` does.

The attribute layer at the end applies these to ``IntegerAttr``/``FloatAttr`` scalars and
``DenseIntOrFPElementsAttr`` tensors (splat or not, as MLIR's ``constFoldBinaryOp`` and
``constFoldCastOp``), building results of the op's own result type, encoding included.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, SSAValue

from tileopt.dialects.tt_types import element_type

INDEX_WIDTH = 64
"""Width of ``index`` when folding (MLIR's ``IndexType::kInternalStorageBitWidth``)."""


# ---------------------------------------------------------------------------------------
# Integers: unsigned bit patterns of a fixed width
# ---------------------------------------------------------------------------------------


def wrap(value: int, width: int) -> int:
    """``value`` modulo 2**width, as an unsigned bit pattern."""
    return value & ((1 << width) - 1)


def to_signed(bits: int, width: int) -> int:
    bits = wrap(bits, width)
    return bits - (1 << width) if bits >> (width - 1) else bits


def signed_min(width: int) -> int:
    return -(1 << (width - 1))


def signed_max(width: int) -> int:
    return (1 << (width - 1)) - 1


def all_ones(width: int) -> int:
    return (1 << width) - 1


def sext(bits: int, width: int, new_width: int) -> int:
    return wrap(to_signed(bits, width), new_width)


def zext(bits: int, width: int, new_width: int) -> int:
    return wrap(bits, width)


def _trunc_toward_zero(numerator: int, denominator: int) -> int:
    quotient = abs(numerator) // abs(denominator)
    return quotient if (numerator < 0) == (denominator < 0) else -quotient


def udiv(a: int, b: int, width: int) -> int | None:
    return None if b == 0 else a // b


def sdiv(a: int, b: int, width: int) -> int | None:
    """Signed division toward zero; None on division by zero or MIN / -1."""
    sa, sb = to_signed(a, width), to_signed(b, width)
    if sb == 0:
        return None
    quotient = _trunc_toward_zero(sa, sb)
    if quotient > signed_max(width):
        return None
    return wrap(quotient, width)


def urem(a: int, b: int, width: int) -> int | None:
    return None if b == 0 else a % b


def srem(a: int, b: int, width: int) -> int | None:
    """Signed remainder with the sign of the dividend (C's ``%``)."""
    sa, sb = to_signed(a, width), to_signed(b, width)
    if sb == 0:
        return None
    return wrap(sa - sb * _trunc_toward_zero(sa, sb), width)


def floordivsi(a: int, b: int, width: int) -> int | None:
    sa, sb = to_signed(a, width), to_signed(b, width)
    if sb == 0:
        return None
    quotient = sa // sb
    if quotient > signed_max(width):
        return None
    return wrap(quotient, width)


def ceildivui(a: int, b: int, width: int) -> int | None:
    if b == 0:
        return None
    quotient = -(-a // b)
    if quotient > all_ones(width):
        return None
    return quotient


def ceildivsi(a: int, b: int, width: int) -> int | None:
    """MLIR's signed ceiling division, which refuses to fold when any intermediate step
    (negating MIN, MIN / -1) overflows."""
    sa, sb = to_signed(a, width), to_signed(b, width)
    if sb == 0:
        return None
    if sa == 0:
        return 0
    low, high = signed_min(width), signed_max(width)
    if sa > 0 and sb > 0:
        quotient = (sa - 1) // sb + 1
    elif sa < 0 and sb < 0:
        if sa == low or sb == low:
            return None
        quotient = (-sa - 1) // (-sb) + 1
    elif sa < 0:  # b > 0: -((-a) / b)
        if sa == low:
            return None
        quotient = -((-sa) // sb)
    else:  # a > 0, b < 0: -(a / -b)
        if sb == low:
            return None
        quotient = -(sa // (-sb))
    if not low <= quotient <= high:
        return None
    return wrap(quotient, width)


def shl(a: int, b: int, width: int) -> int | None:
    return None if b >= width else wrap(a << b, width)


def lshr(a: int, b: int, width: int) -> int | None:
    return None if b >= width else a >> b


def ashr(a: int, b: int, width: int) -> int | None:
    return None if b >= width else wrap(to_signed(a, width) >> b, width)


CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def cmpi(predicate: str, a: int, b: int, width: int) -> bool:
    if predicate in ("eq", "ne"):
        return (a == b) == (predicate == "eq")
    if predicate[0] == "s":
        a, b = to_signed(a, width), to_signed(b, width)
    relation = predicate[1:]
    return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}[relation]


# ---------------------------------------------------------------------------------------
# Floats
# ---------------------------------------------------------------------------------------


class FloatFormat(NamedTuple):
    """An IEEE-754 binary format: exponent and stored fraction widths."""

    name: str
    exponent_bits: int
    fraction_bits: int

    @property
    def width(self) -> int:
        return 1 + self.exponent_bits + self.fraction_bits

    @property
    def bias(self) -> int:
        return (1 << (self.exponent_bits - 1)) - 1

    @property
    def min_exponent(self) -> int:
        return 1 - self.bias

    @property
    def max_exponent(self) -> int:
        return self.bias


F16 = FloatFormat("f16", 5, 10)
BF16 = FloatFormat("bf16", 8, 7)
F32 = FloatFormat("f32", 8, 23)
F64 = FloatFormat("f64", 11, 52)

_F64_FRACTION = 52


def _f64_bits(value: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def _f64_from_bits(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def _floor_log2(value: Fraction) -> int:
    """The exponent e with 2**e <= value < 2**(e+1), for value > 0."""
    exponent = value.numerator.bit_length() - value.denominator.bit_length()
    if Fraction(2) ** exponent > value:
        exponent -= 1
    return exponent


def round_to(value: float | int | Fraction, fmt: FloatFormat) -> float:
    """``value`` rounded to ``fmt`` (nearest, ties to even; too large gives infinity).
    NaN and infinities pass through; the sign of zero is kept."""
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value) or value == 0.0:
            return value
        negative = math.copysign(1.0, value) < 0
    else:
        if value == 0:
            return 0.0
        negative = value < 0
    magnitude = abs(Fraction(value))
    exponent = max(_floor_log2(magnitude), fmt.min_exponent)
    quantum_exponent = exponent - fmt.fraction_bits
    units = round(magnitude / Fraction(2) ** quantum_exponent)  # ties to even
    if units == 0:
        return -0.0 if negative else 0.0
    if quantum_exponent + units.bit_length() - 1 > fmt.max_exponent:
        result = math.inf
    else:
        result = math.ldexp(units, quantum_exponent)
    return -result if negative else result


def is_representable(value: float, fmt: FloatFormat) -> bool:
    if math.isnan(value) or math.isinf(value):
        return True
    return round_to(value, fmt) == value


def _quiet_bit(fmt: FloatFormat) -> int:
    return 1 << (fmt.fraction_bits - 1)


def float_to_bits(value: float, fmt: FloatFormat) -> int:
    """The bit pattern of ``value`` (which must be a value of ``fmt``)."""
    sign = 1 if math.copysign(1.0, value) < 0 else 0
    top = sign << (fmt.width - 1)
    exponent_all_ones = (1 << fmt.exponent_bits) - 1
    if math.isnan(value):
        # Payload in the high fraction bits, as APFloat narrows it.
        payload = (_f64_bits(value) & ((1 << _F64_FRACTION) - 1)) >> (
            _F64_FRACTION - fmt.fraction_bits)
        payload |= _quiet_bit(fmt) if payload == 0 else 0
        return top | (exponent_all_ones << fmt.fraction_bits) | payload
    if math.isinf(value):
        return top | (exponent_all_ones << fmt.fraction_bits)
    magnitude = abs(value)
    if magnitude == 0.0:
        return top
    mantissa, exponent = math.frexp(magnitude)  # magnitude = mantissa * 2**exponent
    exponent -= 1  # magnitude = 1.f * 2**exponent
    if exponent < fmt.min_exponent:
        fraction = int(math.ldexp(magnitude, fmt.fraction_bits - fmt.min_exponent))
        return top | fraction
    fraction = int(math.ldexp(mantissa * 2 - 1, fmt.fraction_bits))
    return top | ((exponent + fmt.bias) << fmt.fraction_bits) | fraction


def bits_to_float(bits: int, fmt: FloatFormat) -> float:
    bits = wrap(bits, fmt.width)
    negative = bits >> (fmt.width - 1)
    biased = (bits >> fmt.fraction_bits) & ((1 << fmt.exponent_bits) - 1)
    fraction = bits & ((1 << fmt.fraction_bits) - 1)
    if biased == (1 << fmt.exponent_bits) - 1:
        if fraction == 0:
            return -math.inf if negative else math.inf
        payload = fraction << (_F64_FRACTION - fmt.fraction_bits)
        return _f64_from_bits((negative << 63) | (0x7FF << _F64_FRACTION) | payload)
    if biased == 0:
        value = math.ldexp(fraction, fmt.min_exponent - fmt.fraction_bits)
    else:
        value = math.ldexp(fraction | (1 << fmt.fraction_bits),
                           biased - fmt.bias - fmt.fraction_bits)
    return -value if negative else value


def default_nan() -> float:
    """APFloat's NaN for an invalid operation: positive, quiet, no payload (Python's
    ``inf - inf`` on x86 is the negative one)."""
    return _f64_from_bits(0x7FF8000000000000)


def convert_exact(value: float, fmt: FloatFormat) -> float | None:
    """``value`` in ``fmt`` if that loses nothing (MLIR's ``convertFloatValue``: exact
    values, infinities, quiet NaNs whose dropped payload bits are zero), else None."""
    if math.isnan(value):
        bits = _f64_bits(value)
        if not bits & (1 << (_F64_FRACTION - 1)):
            return None  # signaling: converting raises invalid
        dropped = bits & ((1 << (_F64_FRACTION - fmt.fraction_bits)) - 1)
        return None if dropped else value
    if math.isinf(value):
        return value
    rounded = round_to(value, fmt)
    return rounded if rounded == value else None


def int_to_float(bits: int, width: int, signed: bool, fmt: FloatFormat) -> float:
    """``sitofp``/``uitofp``: the integer rounded once to ``fmt``."""
    value = to_signed(bits, width) if signed else wrap(bits, width)
    return round_to(value, fmt)


def float_to_int(value: float, width: int, signed: bool) -> int | None:
    """``fptosi``/``fptoui``: truncation toward zero; None for NaN, infinities and values
    out of range (APFloat's ``opInvalidOp``)."""
    if math.isnan(value) or math.isinf(value):
        return None
    truncated = int(value)  # toward zero
    low, high = (signed_min(width), signed_max(width)) if signed else (0, all_ones(width))
    if not low <= truncated <= high:
        return None
    return wrap(truncated, width)


def _propagate_nan(a: float, b: float) -> float | None:
    """The NaN an APFloat operation returns when an operand is NaN (the first one)."""
    if math.isnan(a):
        return a
    if math.isnan(b):
        return b
    return None


def _arithmetic(compute: Callable[[float, float], float]):
    def operation(a: float, b: float, fmt: FloatFormat) -> float:
        if (nan := _propagate_nan(a, b)) is not None:
            return nan
        result = compute(a, b)
        if math.isnan(result):
            return default_nan()
        return round_to(result, fmt)
    return operation


def _divide(a: float, b: float) -> float:
    if b == 0.0:
        if a == 0.0:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _multiply(a: float, b: float) -> float:
    if (math.isinf(a) and b == 0.0) or (math.isinf(b) and a == 0.0):
        return math.nan
    return a * b


def _remainder(a: float, b: float) -> float:
    if math.isinf(a) or b == 0.0:
        return math.nan
    return math.fmod(a, b)


addf = _arithmetic(lambda a, b: a + b)
subf = _arithmetic(lambda a, b: a - b)
mulf = _arithmetic(_multiply)
divf = _arithmetic(_divide)
remf = _arithmetic(_remainder)


def _is_negative(value: float) -> bool:
    return math.copysign(1.0, value) < 0


def _pick(a: float, b: float, larger: bool) -> float:
    """The larger (or smaller) of two numbers; -0 < +0."""
    if a == b == 0.0 and _is_negative(a) != _is_negative(b):
        return b if _is_negative(a) == larger else a
    return b if (a < b) == larger else a


def maxnumf(a: float, b: float, fmt: FloatFormat) -> float:
    """llvm::maxnum: a NaN operand gives the other one; -0 < +0."""
    return b if math.isnan(a) else a if math.isnan(b) else _pick(a, b, larger=True)


def minnumf(a: float, b: float, fmt: FloatFormat) -> float:
    return b if math.isnan(a) else a if math.isnan(b) else _pick(a, b, larger=False)


def maximumf(a: float, b: float, fmt: FloatFormat) -> float:
    """llvm::maximum: NaN propagates; -0 < +0."""
    return a if math.isnan(a) else b if math.isnan(b) else _pick(a, b, larger=True)


def minimumf(a: float, b: float, fmt: FloatFormat) -> float:
    return a if math.isnan(a) else b if math.isnan(b) else _pick(a, b, larger=False)


CMPF_PREDICATES = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt",
                   "uge", "ult", "ule", "une", "uno", "true")


def cmpf(predicate: str, a: float, b: float) -> bool:
    if predicate in ("false", "true"):
        return predicate == "true"
    unordered = math.isnan(a) or math.isnan(b)
    if predicate == "ord":
        return not unordered
    if predicate == "uno":
        return unordered
    if unordered:
        return predicate[0] == "u"
    relation = predicate[1:]
    return {"eq": a == b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b,
            "ne": a != b}[relation]


# ---------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------


def int_width(type_: Attribute) -> int | None:
    """Bit width of an integer or index type (or of a tensor of them)."""
    element = element_type(type_)
    if isinstance(element, IntegerType):
        return element.width.data
    if isinstance(element, IndexType):
        return INDEX_WIDTH
    return None


_FORMATS: dict[type, FloatFormat] = {
    Float16Type: F16, BFloat16Type: BF16, Float32Type: F32, Float64Type: F64,
}


def float_format(type_: Attribute) -> FloatFormat | None:
    """The format of a float type (or of a tensor of floats) that folding supports."""
    return _FORMATS.get(type(element_type(type_)))


# ---------------------------------------------------------------------------------------
# Attributes: scalars, splat and non-splat dense tensors
# ---------------------------------------------------------------------------------------

Element = int | float
"""An element value: an unsigned bit pattern for integers, a float for floats."""


@dataclass(frozen=True)
class Constant:
    """A constant operand: its type and its element values (one value for a scalar or a
    splat tensor)."""

    type: Attribute
    values: tuple[Element, ...]
    shaped: bool

    @property
    def splat(self) -> Element | None:
        """The value of a scalar or splat constant."""
        return self.values[0] if len(self.values) == 1 else None


_IS_CONSTANT_OP: dict[type, bool] = {}
"""owner class -> whether it is an ``arith.constant`` (``isinstance`` through the ABC
machinery costs more than the folders' own work on a non-constant)."""


def constant_attr(value: SSAValue) -> Attribute | None:
    """The attribute of the ``arith.constant`` defining ``value``."""
    owner = value.owner
    kind = type(owner)
    is_constant = _IS_CONSTANT_OP.get(kind)
    if is_constant is None:
        is_constant = _IS_CONSTANT_OP[kind] = issubclass(kind, arith.ConstantOp)
    return owner.value if is_constant else None  # type: ignore[union-attr]


_DECODED: dict[int, tuple[Attribute, Constant | None]] = {}
"""id(attribute) -> (the attribute, held so that its id is not reused; its decoding)."""
_DECODED_LIMIT = 1024
_NOT_HELD = (None, None)


def decode(attr: Attribute | None) -> Constant | None:
    """A constant attribute's values (integers as unsigned bit patterns); remembered per
    attribute object (attributes are immutable, a folder asks again on every visit)."""
    if attr is None:
        return None
    held, decoded = _DECODED.get(id(attr), _NOT_HELD)
    if held is not attr:
        decoded = _decode(attr)
        if len(_DECODED) >= _DECODED_LIMIT:  # (a long-lived process: let old ones go)
            _DECODED.clear()
        _DECODED[id(attr)] = (attr, decoded)
    return decoded


def _decode(attr: Attribute) -> Constant | None:
    if isinstance(attr, IntegerAttr):
        width = int_width(attr.type)
        if width is None:
            return None
        return Constant(attr.type, (wrap(attr.value.data, width),), False)
    if isinstance(attr, FloatAttr):
        if float_format(attr.type) is None:
            return None
        return Constant(attr.type, (attr.value.data,), False)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        shaped = attr.type
        if len(attr) == 0:
            return None
        width = int_width(shaped)
        if width is not None:
            raw = attr.get_values()
            values = (raw[0],) if attr.is_splat() else raw
            return Constant(shaped, tuple(wrap(v, width) for v in values), True)
        if float_format(shaped) is not None:
            raw = attr.get_values()
            values = (raw[0],) if attr.is_splat() else raw
            return Constant(shaped, tuple(values), True)
    return None


def constant_of(value: SSAValue) -> Constant | None:
    return decode(constant_attr(value))


def splat_of(value: SSAValue) -> Element | None:
    """The value of a scalar or splat constant operand (MLIR's ``m_ConstantInt`` and
    float matchers look through splats), else None."""
    const = constant_of(value)
    return None if const is None else const.splat


def encode(type_: Attribute, values: Sequence[Element]) -> Attribute:
    """An attribute of ``type_`` holding ``values`` (one value: a scalar or a splat)."""
    width = int_width(type_)
    if width is not None:
        stored = [to_signed(v, width) for v in values]  # xDSL keeps signless ints signed
        if isinstance(type_, TensorType | VectorType):
            return DenseIntOrFPElementsAttr.from_list(type_, stored)  # type: ignore[arg-type]
        return IntegerAttr(stored[0], type_)  # type: ignore[arg-type]
    if isinstance(type_, TensorType | VectorType):
        return DenseIntOrFPElementsAttr.from_list(type_, list(values))  # type: ignore[arg-type]
    return FloatAttr(values[0], type_)  # type: ignore[arg-type]


def bool_attr(type_: Attribute, value: bool) -> Attribute:
    """``true``/``false`` of type ``type_`` (i1 or a shape of i1)."""
    return encode(type_, [1 if value else 0])


def fold_elementwise(operands: Sequence[Constant], result_type: Attribute,
                     compute: Callable[..., Element | None]) -> Attribute | None:
    """``compute`` applied to the elements of constant operands (all scalars, or all
    tensors of one shape), giving an attribute of ``result_type``; None when any element
    does not fold."""
    if any(c.shaped != operands[0].shaped for c in operands):
        return None
    if all(len(c.values) == 1 for c in operands):
        result = compute(*(c.values[0] for c in operands))
        return None if result is None else encode(result_type, [result])
    count = max(len(c.values) for c in operands)
    columns = [c.values if len(c.values) == count else c.values * count for c in operands]
    results = []
    for elements in zip(*columns):
        result = compute(*elements)
        if result is None:
            return None
        results.append(result)
    return encode(result_type, results)
