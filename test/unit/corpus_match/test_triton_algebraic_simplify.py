"""``triton-algebraic-simplify`` (not a Triton pass, so no corpus dumps to match): it must
keep every corpus ``.ttir`` valid, and the float identities it relies on must be exact
for every input, NaN, infinities and signed zeros included (checked here in f32 and f64
arithmetic, as the hardware computes them)."""

from __future__ import annotations

import math
import struct

import pytest

from tileopt.ir import make_context, parse_module
from tileopt.passes import get_pass

from pass_harness import KERNELS, TARGETS

SPECIAL = [0.0, -0.0, 1.0, -1.5, 3.0e38, -3.0e38, 1.0e-45, -1.0e-45, 1.0e-40,
           math.inf, -math.inf, math.nan, 0.1, 7.0]


def f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


def same(a: float, b: float) -> bool:
    """Bit-for-bit equal results (NaN equals NaN; +0 and -0 differ)."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


@pytest.mark.parametrize("rounding", [f32, float], ids=["f32", "f64"])
def test_float_rewrites_are_exact(rounding):
    for x in map(rounding, SPECIAL):
        assert same(rounding(x * 1.0), x)
        assert same(rounding(x - 0.0), x)
        assert same(rounding(x + -0.0), x)
        for k in range(0, 20):
            power = 2.0 ** k
            quotient = rounding(x / power) if power else x
            assert same(quotient, rounding(x * rounding(2.0 ** -k)))


def test_rewrites_left_out_are_not_exact():
    assert not same(-0.0 + 0.0, -0.0)          # x + 0.0 needs nsz
    assert not same(-0.0 - -0.0, -0.0)         # x - (-0.0)
    assert math.isnan(math.inf * 0.0)          # x * 0.0
    assert math.isnan(math.inf - math.inf)     # x - x
    assert -7 // 2 != int(-7 / 2)              # signed x / 2 is not x >> 1 for x < 0


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", TARGETS)
def test_corpus_ttir_stays_valid(corpus, target, kernel):
    path = corpus / target / f"{kernel}.ttir"
    ctx = make_context()
    module = parse_module(path.read_text(), str(path), ctx)
    get_pass("triton-algebraic-simplify")().apply(ctx, module)
    module.verify()
