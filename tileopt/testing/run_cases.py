"""The corpus kernels at small sizes for tileopt-run, with float64 numpy references.

Each case gives the kernel's arguments in order (arrays for pointers, numbers for scalars,
as kernels.py in ../shared/corpus declares them), a grid of at least two blocks with a
ragged last one where the kernel has a mask, and a check of the arrays after the launch.
Outputs start as NaN (or a sentinel), so an element the kernel must not touch is checked
too: a mask off by one shows either as a wrong value or as a clobbered sentinel.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

# The corpus kernels with a tt.dot, and the others.
DOT = ("matmul", "matmul_small", "block_ptr_matmul")
# Triton 3.9's corpus: block pointers are gone, tensor descriptors came.
DOT_39 = ("matmul", "matmul_small", "desc_matmul")
NON_DOT = ("add", "add_nodiv", "axpy_f16", "gelu", "softmax", "layernorm_fwd", "sum_rows",
           "sum_cols", "cumsum", "transpose", "atomic_hist")


@dataclass
class Case:
    args: list
    grid: tuple
    check: Callable[[dict], None]   # argument position -> array after the launch


def _close(got, want, rtol=1e-5, atol=1e-6):
    """|got - want| <= atol + rtol * |want| everywhere (atol may vary per element)."""
    got = np.asarray(got, np.float64)
    bound = atol + rtol * np.abs(want)
    bad = ~(np.abs(got - want) <= bound)
    if bad.any():
        k = np.unravel_index(int(np.argmax(bad)), bad.shape)
        raise AssertionError(f"{int(bad.sum())} of {bad.size} elements differ; first at {k}: "
                             f"got {got[k]!r}, want {np.broadcast_to(want, got.shape)[k]!r}")


def _vector_add(n: int, rng) -> Case:
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    return Case([x, y, out, n], (math.ceil(n / 1024),),
                lambda o: _close(o[2], x.astype(np.float64) + y, 1e-7, 0))


def add(rng, scale=1) -> Case:
    return _vector_add(2512 * scale, rng)           # n % 16 == 0, as its .ttir assumes


def add_nodiv(rng, scale=1) -> Case:
    return _vector_add(2500 * scale, rng)


def axpy_f16(rng, scale=1) -> Case:
    n = 4112 * scale
    x = rng.standard_normal(n).astype(np.float16)
    y = rng.standard_normal(n).astype(np.float16)
    out = np.zeros(n, np.float16)
    alpha = 1.75
    want = (alpha * x.astype(np.float64) + y).astype(np.float16).astype(np.float64)
    return Case([x, y, out, alpha, n], (math.ceil(n / 2048),),
                lambda o: _close(o[2], want, 0, 2 ** -10 * np.maximum(1, np.abs(want))))


def gelu(rng, scale=1) -> Case:
    n = 2512 * scale
    x = (rng.standard_normal(n) * 3).astype(np.float32)
    out = np.zeros(n, np.float32)
    xd = x.astype(np.float64)
    erf = np.vectorize(math.erf)(xd * 0.7071067811865476)
    want = np.where(xd > 0, 0.5 * xd * (1 + erf), xd / (1 + np.exp(-xd)))
    return Case([x, out, n], (math.ceil(n / 1024),), lambda o: _close(o[1], want, 1e-5, 1e-6))


def softmax(rng, scale=1) -> Case:
    rows, cols, stride = 3 * scale, 1000, 1008
    x = rng.standard_normal((rows, stride)).astype(np.float32)
    out = np.full((rows, stride), np.nan, np.float32)
    xd = x[:, :cols].astype(np.float64)
    e = np.exp(xd - xd.max(1, keepdims=True))
    want = e / e.sum(1, keepdims=True)

    def check(o):
        _close(o[0][:, :cols], want, 1e-5, 1e-7)
        assert np.isnan(o[0][:, cols:]).all(), "softmax wrote past n_cols"
    return Case([out, x, stride, stride, cols], (rows,), check)


def layernorm_fwd(rng, scale=1) -> Case:
    rows, n = 3 * scale, 2064
    x = rng.standard_normal((rows, n)).astype(np.float16)
    w = rng.standard_normal(n).astype(np.float16)
    b = rng.standard_normal(n).astype(np.float16)
    y = np.zeros((rows, n), np.float16)
    mean = np.zeros(rows, np.float32)
    rstd = np.zeros(rows, np.float32)
    eps = 1e-5
    xd = x.astype(np.float64)
    mu = xd.mean(1)
    rs = 1 / np.sqrt(((xd - mu[:, None]) ** 2).mean(1) + eps)
    want = (xd - mu[:, None]) * rs[:, None] * w + b

    def check(o):
        _close(o[4], mu, 1e-5, 1e-6)
        _close(o[5], rs, 1e-5, 1e-6)
        _close(o[1], want, 0, 2 ** -9 * np.maximum(1, np.abs(want)))
    return Case([x, y, w, b, mean, rstd, n, n, eps], (rows,), check)


def sum_rows(rng, scale=1) -> Case:
    m, n, stride = 40 * scale, 300, 304
    x = rng.standard_normal((m, stride)).astype(np.float32)
    out = np.zeros(m, np.float32)
    want = x[:, :n].astype(np.float64).sum(1)
    return Case([x, out, m, n, stride], (math.ceil(m / 16),), lambda o: _close(o[1], want, 1e-5, 1e-5))


def sum_cols(rng, scale=1) -> Case:
    m, n, stride = 100 * scale, 300, 304
    x = rng.standard_normal((m, stride)).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    want = x[:, :n].astype(np.float64).sum(0)
    return Case([x, out, m, n, stride], (math.ceil(n / 128),), lambda o: _close(o[1], want, 1e-5, 1e-5))


def cumsum(rng, scale=1) -> Case:
    rows, n = 3 * scale, 300
    x = rng.standard_normal((rows, n)).astype(np.float32)
    out = np.zeros((rows, n), np.float32)
    want = np.cumsum(x.astype(np.float64), 1)
    return Case([x, out, n], (rows,), lambda o: _close(o[1], want, 1e-5, 1e-5))


def transpose(rng, scale=1) -> Case:
    m, n, sx, sy = 100 * scale, 70, 80, 112 * scale
    x = rng.standard_normal((m, sx)).astype(np.float32)
    y = np.full((n, sy), np.nan, np.float32)

    def check(o):
        _close(o[1][:, :m], x[:, :n].T.astype(np.float64), 0, 0)
        assert np.isnan(o[1][:, m:]).all(), "transpose wrote outside the M x N result"
    return Case([x, y, m, n, sx, sy], (math.ceil(m / 64), math.ceil(n / 64)), check)


def atomic_hist(rng, scale=1) -> Case:
    n = 2512 * scale
    x = rng.integers(0, 1000, n).astype(np.int32)
    hist = np.zeros(64, np.int32)
    want = np.bincount(x % 64, minlength=64)
    return Case([x, hist, n], (math.ceil(n / 1024),), lambda o: _close(o[1], want, 0, 0))


def _matmul(rng, block: tuple[int, int], block_ptr: bool, scale=1, k_steps=1) -> Case:
    """C = A @ B in f16 (f32 accumulation): two blocks and a ragged tail along M and N, and
    a K loop of ``k_steps + 1`` steps, the last ragged (M, N, K multiples of 16, as the .ttir
    assumes). C has a padding column (stride N + 16) that must stay NaN."""
    (bm, bn), bk = block, block[0] // 2
    m, n, k = (bm + 16) * scale, bn + 16, bk * k_steps + 16
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n + 16), np.nan, np.float16)
    want = (a.astype(np.float64) @ b).astype(np.float16).astype(np.float64)
    strides = [k, 1, n, 1, n + 16, 1] if block_ptr else [k, n, n + 16]
    grid = (math.ceil(m / bm), math.ceil(n / bn)) if block_ptr else \
        (math.ceil(m / bm) * math.ceil(n / bn),)

    def check(o):
        # f32 sums in another order than float64's, then rounded to f16: one f16 ulp
        _close(o[2][:, :n], want, 0, 2 ** -10 * np.maximum(1, np.abs(want)))
        assert np.isnan(o[2][:, n:]).all(), "matmul wrote outside the M x N result"
    return Case([a, b, c, m, n, k, *strides], grid, check)


def matmul(rng, scale=1, k_steps=1) -> Case:
    return _matmul(rng, (128, 128), False, scale, k_steps)


def matmul_small(rng, scale=1, k_steps=1) -> Case:
    return _matmul(rng, (64, 64), False, scale, k_steps)


def block_ptr_matmul(rng, scale=1, k_steps=1) -> Case:
    return _matmul(rng, (64, 64), True, scale, k_steps)


def desc_matmul(rng, scale=1, k_steps=1) -> Case:
    """C = A @ B through tensor descriptors (128x128x64 blocks): two blocks and a ragged
    tail along M and N, a K loop of ``k_steps + 1`` steps, the last ragged, which the
    descriptors' bounds (not a mask of the kernel's) keep in range; the reads past them
    must give 0. M, N, K multiples of 16, as the .ttir assumes; C is dense (stride N)."""
    m, n, k = 144 * scale, 144, 64 * k_steps + 16
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, np.float16)
    want = (a.astype(np.float64) @ b).astype(np.float16).astype(np.float64)
    return Case([a, b, c, m, n, k], (math.ceil(m / 128), math.ceil(n / 128)),
                lambda o: _close(o[2], want, 0, 2 ** -10 * np.maximum(1, np.abs(want))))


CASES: dict[str, Callable] = {name: globals()[name] for name in NON_DOT + DOT + ("desc_matmul",)}


def compile_options(meta: Path) -> str:
    """``{num-warps=.. num-ctas=.. num-stages=..}``: the options Triton compiled a kernel
    with, from its .json (matmul: 8 warps, 3 stages), for a pipeline name."""
    d = json.loads(meta.read_text())
    return "{" + " ".join(f"{k.replace('_', '-')}={d[k]}" for k in ("num_warps", "num_ctas",
                                                                    "num_stages") if k in d) + "}"
