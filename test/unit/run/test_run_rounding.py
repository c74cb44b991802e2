"""tileopt.run.rounding: correctly rounded f32/f64 arithmetic in the four IEEE modes,
against exact rational arithmetic (fractions)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from tileopt.run import rounding as R


def exact_round(x: Fraction, fmt, mode: str):
    """The ``fmt`` value ``mode`` rounds the rational x to, found among the neighbours of
    the float nearest to it."""
    r = fmt(float(x))
    cands = [c for c in (r, np.nextafter(r, fmt(np.inf)), np.nextafter(r, fmt(-np.inf)))
             if np.isfinite(c)]
    val = lambda c: Fraction(float(c))  # noqa: E731
    if mode == "rn":
        bits = {np.float32: np.uint32, np.float64: np.uint64}[fmt]
        return min(cands, key=lambda c: (abs(val(c) - x), int(np.array(c).view(bits)) & 1))
    if mode == "rz":
        return max((c for c in cands if abs(val(c)) <= abs(x)), key=lambda c: abs(val(c)))
    if mode == "rm":
        return max((c for c in cands if val(c) <= x), key=val)
    return min((c for c in cands if val(c) >= x), key=val)


def operands(fmt, count=300):
    rng = np.random.default_rng(7)
    for k in range(count):
        a, b, c = (fmt(rng.standard_normal() * 2.0 ** rng.integers(-30, 30)) for _ in range(3))
        if k % 3 == 0:
            c = fmt(-(a * b))          # cancellation: the low part decides
        if k % 5 == 0:
            b, c = fmt(1), np.nextafter(-a, fmt(0))   # a result one ulp of a
        yield a, b, c


@pytest.mark.parametrize("fmt", [np.float32, np.float64])
@pytest.mark.parametrize("mode", R.MODES)
def test_operations_round_as_ieee_says(fmt, mode):
    F = lambda v: Fraction(float(v))  # noqa: E731
    for a, b, c in operands(fmt):
        for got, want in ((R.fma(a, b, c, fmt, mode), F(a) * F(b) + F(c)),
                          (R.add(a, c, fmt, mode), F(a) + F(c)),
                          (R.mul(a, b, fmt, mode), F(a) * F(b)),
                          (R.div(a, b, fmt, mode), F(a) / F(b))):
            assert np.asarray(got, fmt) == exact_round(want, fmt, mode), (a, b, c)
        root = R.sqrt(abs(a), fmt, mode)
        r = F(root)
        # the square root is exact rounding where the neighbours' squares bracket |a|
        lo, hi = F(np.nextafter(root, fmt(0))), F(np.nextafter(root, fmt(np.inf)))
        assert lo * lo < F(abs(a)) < hi * hi or r * r == F(abs(a))


def test_f32_ties_from_the_low_part():
    # 1 + 2^-24 is halfway between two f32: ties to even (1), but with anything more
    # (+2^-60) it is nearer the next one
    one = np.float32(1)
    assert R.round_to(np.float32, 1 + 2.0 ** -24, 0, "rn") == one
    assert R.round_to(np.float32, 1 + 2.0 ** -24, 1, "rn") == np.nextafter(one, np.float32(2))
    assert R.round_to(np.float32, 1 + 2.0 ** -24, -1, "rn") == one


def test_overflow_in_each_mode():
    big = np.float32(3e38)
    assert np.isinf(R.mul(big, np.float32(2), np.float32, "rn"))
    assert R.mul(big, np.float32(2), np.float32, "rz") == np.finfo(np.float32).max
    assert R.mul(big, np.float32(-2), np.float32, "rp") == -np.finfo(np.float32).max


@pytest.mark.parametrize("mode, want", [("rn", [2, 4, -2]), ("rz", [2, 3, -2]),
                                        ("rm", [2, 3, -3]), ("rp", [3, 4, -2])])
def test_to_int(mode, want):
    assert list(R.to_int(np.array([2.5, 3.5, -2.5]), np.int32, mode)) == want
    assert list(R.to_int(np.array([np.nan, 1e30, -1e30]), np.int32, mode)) == \
        [0, 2 ** 31 - 1, -2 ** 31]


def test_from_int_64_bit():
    x = np.array([2 ** 53 + 1, 2 ** 63 - 1, -(2 ** 53 + 1)], np.int64)
    assert list(R.from_int(x, np.float64, "rn")) == [2.0 ** 53, 2.0 ** 63, -2.0 ** 53]
    assert list(R.from_int(x, np.float64, "rp")) == [2.0 ** 53 + 2, 2.0 ** 63, -2.0 ** 53]
    assert list(R.from_int(x, np.float64, "rz")) == [2.0 ** 53, 2.0 ** 63 - 1024, -2.0 ** 53]
    u = np.array([2 ** 64 - 1], np.uint64)
    assert R.from_int(u, np.float32, "rz")[0] == np.nextafter(np.float32(2 ** 64), np.float32(0))


def test_min_xorsign_abs():
    """PTX min.xorsign.abs (Triton's clamp(x, -limit, limit) on sm_90): the smaller
    magnitude, signed by the xor of the signs."""
    fn = R.float_operation("fmin", ["xorsign", "abs", "f"])
    a = np.array([3.0, -3.0, 0.5, -0.5], np.float32)
    b = np.array([2.0, 2.0, -2.0, -2.0], np.float32)
    assert fn(a, b).tolist() == [2.0, -2.0, -0.5, 0.5]
    assert R.float_operation("fmin", ["xorsign", "f"]) is None  # only with .abs
