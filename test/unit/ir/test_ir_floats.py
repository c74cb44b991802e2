"""Float literals as MLIR prints them, and exact bit patterns (tileopt.ir.floats)."""

from __future__ import annotations

import math
import random
import struct
from pathlib import Path

import pytest
from xdsl.dialects.builtin import bf16, f16, f32, f64

from tileopt.ir.floats import (bits_to_float, float_format, float_to_bits, format_float,
                               format_float_bits)

F16 = float_format(f16)
BF16 = float_format(bf16)
F32 = float_format(f32)
F64 = float_format(f64)
MLIR_TEXT = Path(__file__).resolve().parent / "data" / "mlir_float_text.txt"


def _f32(value: float) -> float:
    return struct.unpack("<f", struct.pack("<f", value))[0]


@pytest.mark.parametrize("value, type_, text", [
    # what Triton 3.6 writes in the corpus
    (0.0, f32, "0.000000e+00"),
    (1.0, f32, "1.000000e+00"),
    (0.5, f32, "5.000000e-01"),
    (0.0, f16, "0.000000e+00"),
    (_f32(0.7071067811865476), f32, "0.707106769"),
    (_f32(1.4426950408889634), f32, "1.44269502"),
    (-math.inf, f32, "0xFF800000"),
    # MLIR's rules: six digits when they read back exactly, else natural precision,
    # else the bits
    (-0.0, f32, "-0.000000e+00"),
    (-2.5, f16, "-2.500000e+00"),
    (1.5, bf16, "1.500000e+00"),
    (_f32(1.234567), f32, "1.23456705"),
    (1.0 / 3.0, f64, "0.33333333333333331"),
    (_f32(123456789.0), f32, "0x4CEB79A3"),
    (16777217.0, f64, "0x4170000010000000"),
    (math.inf, f16, "0x7C00"),
    (math.nan, f32, "0x7FC00000"),
    (65504.0, f16, "6.550400e+04"),
    (1e20, f64, "1.000000e+20"),
])
def test_format_like_mlir(value, type_, text):
    assert format_float(value, type_) == text


@pytest.mark.parametrize("bits, fmt, text", [
    (0x7E01, F16, "0x7E01"),  # NaN payloads survive
    (0xFFC00001, F32, "0xFFC00001"),
    (0x7FC1, BF16, "0x7FC1"),
    (0xFFF0000000000000, F64, "0xFFF0000000000000"),
    (0x0001, F16, "5.960460e-08"),  # smallest subnormal reads back from 7 digits
    (0x3C00, F16, "1.000000e+00"),
])
def test_format_bits(bits, fmt, text):
    assert format_float_bits(bits, fmt) == text


def test_bits_round_trip_f32_f16_match_struct():
    rng = random.Random(1234)
    for _ in range(2000):
        bits = rng.getrandbits(32)
        value = struct.unpack("<f", bits.to_bytes(4, "little"))[0]
        if math.isnan(value):
            continue
        assert bits_to_float(bits, F32) == value or (value == 0 and bits_to_float(bits, F32) == 0)
        assert float_to_bits(value, F32) == bits
    for _ in range(2000):
        bits = rng.getrandbits(16)
        value = struct.unpack("<e", bits.to_bytes(2, "little"))[0]
        if math.isnan(value):
            continue
        assert float_to_bits(bits_to_float(bits, F16), F16) == bits
        assert bits_to_float(bits, F16) == value


def test_rounding_to_nearest_even_like_struct():
    rng = random.Random(99)
    for _ in range(2000):
        value = rng.uniform(-1e6, 1e6) * 10 ** rng.randint(-30, 20)
        expected = struct.unpack("<I", struct.pack("<f", value))[0] if abs(value) < 3e38 \
            else None
        if expected is not None:
            assert float_to_bits(value, F32) == expected


def test_every_printed_value_reads_back_to_the_same_bits():
    """Whatever text MLIR's rules choose, it must denote the exact value."""
    from fractions import Fraction

    rng = random.Random(7)
    for fmt in (F16, BF16, F32):
        width = fmt.width
        for _ in range(500):
            bits = rng.getrandbits(width)
            text = format_float_bits(bits, fmt)
            if text.startswith("0x"):
                assert int(text, 16) == bits
                continue
            read = float_to_bits(Fraction(text), fmt)
            if text.startswith("-") and read == 0:
                read = 1 << (width - 1)
            assert read == bits, (hex(bits), text)


def _mlir_float_text() -> list[tuple[str, int, str]]:
    rows = [line.split() for line in MLIR_TEXT.read_text().splitlines()]
    return [(name, int(bits, 16), text) for name, bits, text in rows]


def test_format_like_mlir_for_every_float_type():
    """tileopt's text for each bit pattern of ``data/mlir_float_text.txt`` (MLIR's own
    output, made by ``data/make_mlir_float_text.py``): f32, f16, bf16, f64 and the f8
    types. APFloat truncates to a few digits more than it keeps before it rounds, so
    f32 0.01 is ``0.00999999977``, not ``1.000000e-02`` (issue 12)."""
    from tileopt.ir import make_context, parse_module

    ctx = make_context()
    wrong = []
    for name, bits, text in _mlir_float_text():
        type_ = parse_module(f"%c = arith.constant 0.0 : {name}", ctx=ctx).body.block \
            .first_op.results[0].type
        got = format_float_bits(bits, float_format(type_))
        if got != text:
            wrong.append(f"{name} 0x{bits:X}: MLIR {text}, tileopt {got}")
    assert not wrong, "\n".join(wrong[:20])
