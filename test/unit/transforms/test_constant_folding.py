"""The arithmetic behind canonicalize's constant folding: APInt wrap-around and signedness,
APFloat rounding per format, NaN and infinity rules.

References are independent of the code under test: Python's ``struct`` (C's float
conversion for f32, IEEE half for f16) for rounding, and hand-checked values elsewhere.
"""

from __future__ import annotations

import math
import random
import struct

import pytest
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
    f16,
    f32,
    i1,
    i8,
    i32,
)

from tileopt.transforms.canonicalization import constant_folding as cf
from tileopt.transforms.canonicalization.constant_folding import BF16, F16, F32, F64


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f16_bits(x: float) -> int:
    return struct.unpack("<H", struct.pack("<e", x))[0]


def nan_sign(x: float) -> bool:
    return math.copysign(1.0, x) < 0


# ---------------------------------------------------------------------------------------
# Integers
# ---------------------------------------------------------------------------------------


def test_wrap_around_and_signed_reading():
    assert cf.wrap(127 + 1, 8) == 0x80
    assert cf.to_signed(0x80, 8) == -128
    assert cf.to_signed(cf.wrap(-1, 32), 32) == -1
    assert cf.wrap(0x7FFFFFFF * 2, 32) == 0xFFFFFFFE
    assert cf.sext(0xFF, 8, 32) == 0xFFFFFFFF
    assert cf.zext(0xFF, 8, 32) == 0xFF


@pytest.mark.parametrize("a, b, quotient, remainder", [
    (7, 2, 3, 1), (-7, 2, -3, -1), (7, -2, -3, 1), (-7, -2, 3, -1)])
def test_signed_division_truncates_toward_zero(a, b, quotient, remainder):
    w = 32
    assert cf.to_signed(cf.sdiv(cf.wrap(a, w), cf.wrap(b, w), w), w) == quotient
    assert cf.to_signed(cf.srem(cf.wrap(a, w), cf.wrap(b, w), w), w) == remainder


def test_division_guards():
    w = 32
    minimum = cf.wrap(-(2 ** 31), w)
    assert cf.sdiv(minimum, cf.wrap(-1, w), w) is None  # overflows
    assert cf.sdiv(5, 0, w) is None and cf.udiv(5, 0, w) is None
    assert cf.srem(5, 0, w) is None and cf.urem(5, 0, w) is None
    # MIN % -1 is 0 (no overflow, unlike the division)
    assert cf.srem(minimum, cf.wrap(-1, w), w) == 0


def test_unsigned_division_reads_bits_unsigned():
    assert cf.udiv(0xFF, 2, 8) == 127
    assert cf.urem(0xFF, 0x10, 8) == 0xF


def test_floor_and_ceil_division():
    w = 32
    signed = lambda f, a, b: cf.to_signed(f(cf.wrap(a, w), cf.wrap(b, w), w), w)
    assert signed(cf.floordivsi, -7, 2) == -4
    assert signed(cf.floordivsi, 7, 2) == 3
    assert signed(cf.ceildivsi, 7, 2) == 4
    assert signed(cf.ceildivsi, -7, 2) == -3
    assert signed(cf.ceildivsi, 7, -2) == -3
    assert signed(cf.ceildivsi, -7, -2) == 4
    assert cf.ceildivsi(0, 5, w) == 0
    # MLIR gives up where negating MIN would overflow
    assert cf.ceildivsi(cf.wrap(-(2 ** 31), w), 2, w) is None
    assert cf.ceildivui(7, 2, w) == 4 and cf.ceildivui(8, 2, w) == 4


def test_shifts():
    assert cf.shl(1, 7, 8) == 0x80
    assert cf.shl(1, 8, 8) is None  # by the width: not folded
    assert cf.ashr(cf.wrap(-8, 8), 1, 8) == cf.wrap(-4, 8)
    assert cf.lshr(cf.wrap(-8, 8), 1, 8) == 124


def test_comparisons_signed_and_unsigned():
    minus_one = cf.wrap(-1, 32)
    assert cf.cmpi("slt", minus_one, 0, 32)
    assert not cf.cmpi("ult", minus_one, 0, 32)
    assert cf.cmpi("uge", minus_one, 0, 32)
    assert cf.cmpi("ne", 1, 2, 32) and cf.cmpi("eq", 3, 3, 32)


# ---------------------------------------------------------------------------------------
# Float rounding
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt, struct_code, seed, span, exponents", [
    pytest.param(F32, "<f", 1234, 1e3, (-160, 130), id="f32-as-c"),
    pytest.param(F16, "<e", 99, 70000.0, (-28, 16), id="f16-as-ieee-half"),
])
def test_round_to_matches_struct_conversion(fmt, struct_code, seed, span, exponents):
    rng = random.Random(seed)
    values = [rng.uniform(-span, span) for _ in range(2000)]
    values += [math.ldexp(rng.random(), rng.randint(*exponents)) for _ in range(2000)]
    for x in values:
        try:
            expected = struct.unpack(struct_code, struct.pack(struct_code, x))[0]
        except OverflowError:
            expected = math.copysign(math.inf, x)
        assert cf.round_to(x, fmt) == expected, x


def test_round_to_ties_to_even_and_overflow():
    assert cf.round_to(2049.0, F16) == 2048.0  # halfway between 2048 and 2050
    assert cf.round_to(2051.0, F16) == 2052.0
    assert cf.round_to(65519.0, F16) == 65504.0  # below the halfway point to 65536
    assert cf.round_to(65520.0, F16) == math.inf  # the halfway point rounds to even: inf
    assert cf.round_to(1 + 2 ** -8, BF16) == 1.0  # bf16 keeps 7 fraction bits
    assert cf.round_to(1 + 3 * 2 ** -9, BF16) == 1 + 2 ** -7
    assert math.copysign(1.0, cf.round_to(-1e-60, F32)) < 0  # underflow keeps the sign


def test_integers_round_once():
    # 2^60 + 2^36 + 1 is just above halfway between two f32 neighbours; through f64 it
    # would first become the halfway point and then round down to even.
    value = 2 ** 60 + 2 ** 36 + 1
    assert cf.int_to_float(value, 64, True, F32) == 2 ** 60 + 2 ** 37
    assert cf.round_to(float(value), F32) == 2 ** 60
    assert cf.int_to_float(cf.wrap(-1, 32), 32, True, F32) == -1.0
    assert cf.int_to_float(cf.wrap(-1, 32), 32, False, F32) == 2.0 ** 32
    assert cf.int_to_float(2 ** 53 + 1, 64, False, F64) == 2.0 ** 53


def test_float_to_int_truncates_and_refuses_out_of_range():
    assert cf.float_to_int(3.9, 32, True) == 3
    assert cf.to_signed(cf.float_to_int(-3.9, 32, True), 32) == -3
    assert cf.float_to_int(255.5, 8, False) == 255
    assert cf.float_to_int(256.0, 8, False) is None
    assert cf.float_to_int(-1.0, 8, False) is None
    assert cf.float_to_int(-0.5, 8, False) == 0  # truncates to zero first
    assert cf.float_to_int(2.0 ** 31, 32, True) is None
    assert cf.float_to_int(-(2.0 ** 31), 32, True) == 0x80000000
    assert cf.float_to_int(math.nan, 32, True) is None
    assert cf.float_to_int(math.inf, 32, True) is None


def test_exact_conversion_only():
    tenth_f32 = struct.unpack("<f", struct.pack("<f", 0.1))[0]
    assert cf.convert_exact(0.5, F16) == 0.5
    assert cf.convert_exact(tenth_f32, F16) is None  # inexact
    assert cf.convert_exact(1e10, F16) is None  # overflows
    assert cf.convert_exact(-math.inf, F16) == -math.inf
    assert math.isnan(cf.convert_exact(math.nan, F16))
    assert cf.convert_exact(tenth_f32, F64) == tenth_f32


# ---------------------------------------------------------------------------------------
# Bits
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [0.0, -0.0, 1.0, -2.5, 1e-40, 3.4028234663852886e38,
                                   math.inf, -math.inf, 2 ** -149])
def test_f32_bits_match_struct(value):
    assert cf.float_to_bits(value, F32) == f32_bits(value)
    assert cf.bits_to_float(f32_bits(value), F32) == struct.unpack(
        "<f", struct.pack("<f", value))[0]


@pytest.mark.parametrize("value", [0.0, 1.0, -65504.0, 2 ** -24, 2 ** -14, math.inf])
def test_f16_bits_match_struct(value):
    assert cf.float_to_bits(value, F16) == f16_bits(value)
    assert cf.bits_to_float(f16_bits(value), F16) == value


def test_bf16_and_nan_bits():
    assert cf.float_to_bits(1.0, BF16) == 0x3F80
    assert cf.float_to_bits(-math.inf, F32) == 0xFF800000
    assert cf.bits_to_float(0x3F80, BF16) == 1.0
    nan = cf.bits_to_float(0x7FC00001, F32)
    assert math.isnan(nan) and cf.float_to_bits(nan, F32) == 0x7FC00001  # payload kept


# ---------------------------------------------------------------------------------------
# Float arithmetic: rounding per format, NaN and infinity
# ---------------------------------------------------------------------------------------


def test_arithmetic_rounds_in_the_format():
    assert cf.addf(1.0, 2 ** -24, F32) == 1.0  # tie, to even
    assert cf.addf(1.0, 2 ** -24 + 2 ** -47, F32) == 1 + 2 ** -23
    assert cf.addf(2048.0, 1.0, F16) == 2048.0
    assert cf.mulf(60000.0, 2.0, F16) == math.inf
    assert cf.divf(1.0, 3.0, F32) == struct.unpack("<f", struct.pack("<f", 1 / 3))[0]


def test_invalid_operations_give_the_positive_quiet_nan():
    for result in (cf.addf(math.inf, -math.inf, F32), cf.mulf(0.0, math.inf, F32),
                   cf.divf(0.0, 0.0, F32), cf.remf(1.0, 0.0, F32)):
        assert math.isnan(result) and not nan_sign(result)
        assert cf.float_to_bits(result, F32) == 0x7FC00000


def test_nan_operands_propagate_and_division_by_zero_is_signed():
    payload = cf.bits_to_float(0xFFC00123, F32)
    assert cf.float_to_bits(cf.addf(payload, 1.0, F32), F32) == 0xFFC00123
    assert cf.float_to_bits(cf.mulf(2.0, payload, F32), F32) == 0xFFC00123
    assert cf.divf(1.0, 0.0, F32) == math.inf
    assert cf.divf(1.0, -0.0, F32) == -math.inf
    assert cf.divf(-1.0, 0.0, F32) == -math.inf


def test_signed_zero_sums():
    assert nan_sign(cf.addf(-0.0, -0.0, F32))
    assert not nan_sign(cf.addf(-0.0, 0.0, F32))  # why x + 0.0 is not folded to x


def test_min_max_flavours():
    assert cf.maxnumf(math.nan, 1.0, F32) == 1.0
    assert math.isnan(cf.maximumf(1.0, math.nan, F32))
    assert cf.minnumf(1.0, math.nan, F32) == 1.0
    assert math.isnan(cf.minimumf(math.nan, 1.0, F32))
    assert not nan_sign(cf.maxnumf(-0.0, 0.0, F32))
    assert nan_sign(cf.minimumf(0.0, -0.0, F32))


def test_cmpf_predicates():
    assert cf.cmpf("uno", math.nan, 1.0) and not cf.cmpf("ord", math.nan, 1.0)
    assert not cf.cmpf("one", math.nan, 1.0) and cf.cmpf("une", math.nan, 1.0)
    assert cf.cmpf("ueq", math.nan, 1.0) and not cf.cmpf("oeq", math.nan, math.nan)
    assert cf.cmpf("oeq", -0.0, 0.0) and cf.cmpf("olt", 1.0, 2.0)
    assert cf.cmpf("true", math.nan, math.nan) and not cf.cmpf("false", 1.0, 1.0)


# ---------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------


def test_decode_and_encode_scalars_and_splats():
    assert cf.decode(IntegerAttr(-1, i8)).values == (0xFF,)
    assert cf.decode(IntegerAttr(-1, i1)).values == (1,)
    assert cf.encode(i8, [0x80]) == IntegerAttr(-128, i8)
    splat = DenseIntOrFPElementsAttr.from_list(TensorType(f16, [4]), [0.5])
    assert cf.decode(splat).splat == 0.5
    assert cf.encode(f32, [1.5]) == FloatAttr(1.5, f32)


def test_fold_elementwise_splat_and_not():
    ty = TensorType(i32, [3])
    splat = cf.decode(DenseIntOrFPElementsAttr.from_list(ty, [2]))
    values = cf.decode(DenseIntOrFPElementsAttr.from_list(ty, [1, 2, 3]))
    assert cf.fold_elementwise([splat, splat], ty, lambda a, b: a * b) == \
        DenseIntOrFPElementsAttr.from_list(ty, [4])
    assert cf.fold_elementwise([values, splat], ty, lambda a, b: a + b) == \
        DenseIntOrFPElementsAttr.from_list(ty, [3, 4, 5])
    # one element that does not fold stops the whole fold
    assert cf.fold_elementwise([values, splat], ty,
                               lambda a, b: None if a == 2 else a) is None
