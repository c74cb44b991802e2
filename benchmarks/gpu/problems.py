"""The benchmark problems: for each corpus kernel, its inputs, outputs and float64 reference.

Sizes are the issue's ("full"); "small" ones make the same problems cheap enough for the
unit tests and the GPU self-test. Each problem gives values for every runtime parameter of
the kernel's signature (the corpus ``.json``), which outputs to poison and check, the
values the ``.json`` grid expression refers to, and the bytes an ideal kernel moves
(each input read once, each output written once) for the GB/s column.

Everything goes through an ``ops`` back end (:mod:`array_ops`): PyTorch on the GPU, plain
Python in the tests.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

NAN = float("nan")
INV_SQRT2 = 0.7071067811865476


@dataclass
class Output:
    """An output buffer: poisoned with ``poison`` before each run; ``written`` (a function
    of the buffer) selects what the kernel must write, ``unwritten`` what it must leave."""

    name: str
    poison: float = NAN
    written: Callable | None = None
    unwritten: Callable | None = None


@dataclass
class Problem:
    kernel: str
    args: dict[str, object]                 # signature name -> tensor or Python number
    outputs: list[Output]
    reference: dict[str, object]            # output name -> float64 (or exact) expectation
    grid_values: dict[str, int]             # names the .json grid expression uses
    bytes_moved: int
    tolerance: float                        # max relative error accepted
    exact: bool = False                     # integer results: compared for equality
    # output name -> per-element error scale (the dots: |A| @ |B| + |C|, see dot_scale);
    # an output not named here is measured against its floored |ref|.
    scale: dict[str, object] = field(default_factory=dict)
    reset: dict[str, float] = field(default_factory=dict)  # refill before every launch
    flops: int = 0                          # for the TF/s column (dots: 2 M N K)

    @property
    def input_names(self) -> list[str]:
        outs = {o.name for o in self.outputs}
        return [k for k, v in self.args.items() if k not in outs and not isinstance(v, (int, float))]


SIZES = {
    "full": dict(n=1 << 26, rows_softmax=65536, cols_softmax=1000, stride_softmax=1024,
                 ln_rows=16384, ln_cols=4096, rows_sum=32768, cols_sum=4096,
                 transpose=8192, cumsum_rows=65536, cumsum_cols=512, hist_n=1 << 24),
    # Not multiples of the block sizes (masks are exercised), but of 16 wherever the corpus
    # kernels were specialised for divisibility by 16 (n, strides, N of layernorm).
    "small": dict(n=5008, rows_softmax=3, cols_softmax=1000, stride_softmax=1024,
                  ln_rows=3, ln_cols=1536, rows_sum=48, cols_sum=304,
                  transpose=80, cumsum_rows=3, cumsum_cols=512, hist_n=3008),
    "tiny": dict(n=48, rows_softmax=2, cols_softmax=5, stride_softmax=16,
                 ln_rows=2, ln_cols=16, rows_sum=16, cols_sum=32,
                 transpose=16, cumsum_rows=2, cumsum_cols=6, hist_n=96),
}
# Matmul M, N, K: the 4096^3; smaller ones not multiples of the blocks (masks),
# but of 16 as the kernels' divisibility assumptions demand.
MATMUL_SIZES = {
    "full": (4096, 4096, 4096),
    "small": (272, 208, 176),
    "tiny": (48, 32, 32),
}


def _elementwise_tol(out_dtype: str) -> float:
    return 2e-3 if out_dtype == "f16" else 1e-5


def make_add(ops, size: str, kernel: str = "add") -> Problem:
    n = SIZES[size]["n"]
    x, y = ops.randn((n,)), ops.randn((n,))
    out = ops.full((n,), NAN)
    ref = ops.f64(x) + ops.f64(y)
    return Problem(kernel, dict(x_ptr=x, y_ptr=y, out_ptr=out, n=n), [Output("out_ptr")],
                   {"out_ptr": ref}, {"n": n}, 3 * 4 * n, 1e-6)


def make_axpy_f16(ops, size: str) -> Problem:
    n = SIZES[size]["n"]
    x, y = ops.randn((n,), "f16"), ops.randn((n,), "f16")
    alpha = 1.5
    out = ops.full((n,), NAN, "f16")
    ref = alpha * ops.f64(x) + ops.f64(y)
    return Problem("axpy_f16", dict(x_ptr=x, y_ptr=y, out_ptr=out, alpha=alpha, n=n),
                   [Output("out_ptr")], {"out_ptr": ref}, {"n": n}, 3 * 2 * n,
                   _elementwise_tol("f16"))


def gelu_reference(ops, x):
    x = ops.f64(x)
    y = 0.5 * x * (1.0 + ops.erf(x * INV_SQRT2))
    return ops.where(x > 0, y, ops.sigmoid(x) * x)


def make_gelu(ops, size: str) -> Problem:
    n = SIZES[size]["n"]
    x = ops.cast(ops.randn((n,)) * 3.0, "f32")
    out = ops.full((n,), NAN)
    return Problem("gelu", dict(x_ptr=x, out_ptr=out, n=n), [Output("out_ptr")],
                   {"out_ptr": gelu_reference(ops, x)}, {"n": n}, 2 * 4 * n, 1e-5)


def softmax_reference(ops, x):
    x = ops.f64(x)
    e = ops.exp(x - ops.max(x, axis=1, keepdims=True))
    return e / ops.sum(e, axis=1, keepdims=True)


def make_softmax(ops, size: str) -> Problem:
    s = SIZES[size]
    rows, cols, stride = s["rows_softmax"], s["cols_softmax"], s["stride_softmax"]
    x = ops.randn((rows, stride)) * 4.0  # the padding columns are never read
    out = ops.full((rows, stride), NAN)
    ref = softmax_reference(ops, ops.columns(x, 0, cols))
    return Problem(
        "softmax", dict(out_ptr=out, in_ptr=x, in_stride=stride, out_stride=stride, n_cols=cols),
        [Output("out_ptr", written=lambda t: ops.columns(t, 0, cols),
                unwritten=lambda t: ops.columns(t, cols, stride))],
        {"out_ptr": ref}, {"rows": rows}, 2 * 4 * rows * cols, 1e-5)


def layernorm_reference(ops, x, w, b, eps):
    x = ops.f64(x)
    n = x.shape[1]
    mean = ops.sum(x, axis=1, keepdims=True) / n
    centered = x - mean
    var = ops.sum(centered * centered, axis=1, keepdims=True) / n
    rstd = 1.0 / ops.sqrt(var + eps)
    y = centered * rstd * ops.f64(w) + ops.f64(b)
    return y, ops.squeeze(mean, 1), ops.squeeze(rstd, 1)


def make_layernorm_fwd(ops, size: str) -> Problem:
    s = SIZES[size]
    rows, cols = s["ln_rows"], s["ln_cols"]
    x = ops.randn((rows, cols), "f16") * 2.0 + 0.5
    x = ops.cast(x, "f16")
    w, b = ops.rand((cols,), "f16", 0.5, 1.5), ops.randn((cols,), "f16")
    y = ops.full((rows, cols), NAN, "f16")
    mean, rstd = ops.full((rows,), NAN), ops.full((rows,), NAN)
    eps = 1e-5
    ref_y, ref_mean, ref_rstd = layernorm_reference(ops, x, w, b, eps)
    return Problem(
        "layernorm_fwd",
        dict(X=x, Y=y, W=w, B=b, Mean=mean, Rstd=rstd, stride=cols, N=cols, eps=eps),
        [Output("Y"), Output("Mean"), Output("Rstd")],
        {"Y": ref_y, "Mean": ref_mean, "Rstd": ref_rstd}, {"rows": rows},
        2 * 2 * rows * cols + 2 * 2 * cols + 2 * 4 * rows, 4e-3)


def _make_sum(ops, name: str, m: int, n: int, axis: int) -> Problem:
    """Sum an ``m`` x ``n`` matrix along ``axis`` (1: rows, 0: columns)."""
    x = ops.rand((m, n))
    length = m if axis == 1 else n
    out = ops.full((length,), NAN)
    return Problem(name, dict(x_ptr=x, out_ptr=out, M=m, N=n, stride=n), [Output("out_ptr")],
                   {"out_ptr": ops.sum(ops.f64(x), axis=axis)}, {"M": m, "N": n},
                   4 * m * n + 4 * length, 1e-5)


def make_sum_rows(ops, size: str) -> Problem:
    s = SIZES[size]
    return _make_sum(ops, "sum_rows", s["rows_sum"], s["cols_sum"], axis=1)


def make_sum_cols(ops, size: str) -> Problem:
    s = SIZES[size]
    # 4096 x 32768: many columns, few rows
    return _make_sum(ops, "sum_cols", s["cols_sum"], s["rows_sum"], axis=0)


def make_transpose(ops, size: str) -> Problem:
    n = SIZES[size]["transpose"]
    x = ops.randn((n, n))
    y = ops.full((n, n), NAN)
    return Problem("transpose", dict(x_ptr=x, y_ptr=y, M=n, N=n, stride_x=n, stride_y=n),
                   [Output("y_ptr")], {"y_ptr": ops.transpose(ops.f64(x))}, {"M": n, "N": n},
                   2 * 4 * n * n, 0.0)


def make_cumsum(ops, size: str) -> Problem:
    s = SIZES[size]
    rows, cols = s["cumsum_rows"], s["cumsum_cols"]
    x = ops.rand((rows, cols))
    out = ops.full((rows, cols), NAN)
    return Problem("cumsum", dict(x_ptr=x, out_ptr=out, N=cols), [Output("out_ptr")],
                   {"out_ptr": ops.cumsum(ops.f64(x), axis=1)}, {"rows": rows},
                   2 * 4 * rows * cols, 1e-5)


NBINS = 64


def make_atomic_hist(ops, size: str) -> Problem:
    n = SIZES[size]["hist_n"]
    x = ops.randint(0, 1 << 30, (n,))
    hist = ops.full((NBINS,), 0, "i32")
    return Problem("atomic_hist", dict(x_ptr=x, hist_ptr=hist, n=n),
                   [Output("hist_ptr", poison=0)], {"hist_ptr": ops.bincount(x % NBINS, NBINS)},
                   {"n": n}, 4 * n + 4 * NBINS, 0.0, exact=True, reset={"hist_ptr": 0})


# Error bounds of the dots, relative to their scale (dot_scale): the standard bound of a
# floating-point dot product, |fl(a . b) - a . b| <= gamma_n * sum |a_i b_i| with n
# rounding steps and gamma_n = n u / (1 - n u) <= 2 n u. The steps are given two
# roundings each (u -> 2u): a non-fused multiply-add rounds twice, and the tensor cores'
# f32 accumulator is not IEEE (it may truncate). Products of f16/bf16 inputs are exact in
# f32 (11 + 11 significand bits fit in 24), so the inputs add nothing there.
F32_U = 2.0 ** -24   # unit roundoff of f32
F16_U = 2.0 ** -11   # unit roundoff of f16 (round to nearest)
TF32_CUT = 2.0 ** -10  # tf32 keeps 10 of f32's 23 fraction bits: what the tensor core
                       # drops (or rounds) of an f32 input is under 2^-10 of its magnitude


def accumulation_bound(steps: int) -> float:
    """Bound on an f32 sum's error over ``steps`` roundings, relative to sum |terms|."""
    return 4 * steps * F32_U


def dot_scale(ops, a, b, c=None):
    """|A| @ |B| (+ |C|) in float64: the per-element scale of a dot's rounding error."""
    scale = ops.matmul(ops.abs(ops.f64(a)), ops.abs(ops.f64(b)))
    return scale if c is None else scale + ops.abs(ops.f64(c))


def matmul_tolerance(k: int) -> float:
    """f16 in, K f32 accumulation steps, f16 out (rounding: F16_U of |out|)."""
    acc = accumulation_bound(k)
    return acc + F16_U * (1 + acc)


def make_matmul(ops, size: str, kernel: str) -> Problem:
    """The corpus matmuls: C = A @ B, A (M x K) and B (K x N) row-major f16, C f16."""
    m, n, k = MATMUL_SIZES[size]
    a, b = ops.randn((m, k), "f16"), ops.randn((k, n), "f16")
    c = ops.full((m, n), NAN, "f16")
    args = dict(a_ptr=a, b_ptr=b, c_ptr=c, M=m, N=n, K=k, stride_am=k, stride_ak=1,
                stride_bk=n, stride_bn=1, stride_cm=n, stride_cn=1)
    return Problem(kernel, args, [Output("c_ptr")], {"c_ptr": ops.matmul(ops.f64(a), ops.f64(b))},
                   {"M": m, "N": n}, 2 * (m * k + k * n + m * n), matmul_tolerance(k),
                   flops=2 * m * n * k, scale={"c_ptr": dot_scale(ops, a, b)})


PROBLEMS: dict[str, Callable] = {
    "add": lambda ops, size: make_add(ops, size, "add"),
    "add_nodiv": lambda ops, size: make_add(ops, size, "add_nodiv"),
    "axpy_f16": make_axpy_f16,
    "gelu": make_gelu,
    "softmax": make_softmax,
    "layernorm_fwd": make_layernorm_fwd,
    "sum_rows": make_sum_rows,
    "sum_cols": make_sum_cols,
    "cumsum": make_cumsum,
    "transpose": make_transpose,
    "atomic_hist": make_atomic_hist,
    "matmul": lambda ops, size: make_matmul(ops, size, "matmul"),
    "matmul_small": lambda ops, size: make_matmul(ops, size, "matmul_small"),
    "block_ptr_matmul": lambda ops, size: make_matmul(ops, size, "block_ptr_matmul"),
}
"""The issue's corpus kernels, in the order the table lists them."""

KERNELS = list(PROBLEMS)


@dataclass(frozen=True)
class DotCase:
    """A hand-written dot kernel (``dots/<name>.ttir``, no Triton PTX):
    ``dot_kernel(a, b, c, d)`` computes D = A @ B + C for row-major A (m x k), B (k x n)
    and C, D (m x n) in one program; ``acc`` False: C is not read (the dot starts at 0).
    ``chain_n``: a chained dot instead, D = f16(A @ B) @ C with C (n x chain_n) in the
    input type and D (m x chain_n), the second dot's A taken from the first's registers.
    ``tf32``: f32 inputs the tensor core reads as tf32 (f32 without it: ieee, the FMA path)."""

    m: int
    n: int
    k: int
    in_dtype: str
    acc: bool = False
    chain_n: int = 0
    tf32: bool = False

    @property
    def tolerance(self) -> float:
        """The error bound relative to the dot's scale (make_dot_case)."""
        first = accumulation_bound(self.k + self.acc)
        if self.chain_n:
            # The kernel's f16(A @ B) and the reference's differ by at most one rounding
            # each (2 F16_U) plus the first dot's error; the second dot then accumulates
            # n terms of magnitude up to (1 + F16_U)(1 + first) (|A| @ |B|) |C|.
            second = accumulation_bound(self.n)
            return 2 * F16_U + (1 + F16_U) * (first + second * (1 + first))
        if self.tf32:
            inputs = 2 * TF32_CUT + TF32_CUT ** 2  # (1 + e_a)(1 + e_b) - 1
            return inputs + first * (1 + inputs)
        return first


DOT_CASES = {
    "dot_bf16_64x32x16": DotCase(64, 32, 16, "bf16"),
    "dot_tf32_64x64x32": DotCase(64, 64, 32, "f32", tf32=True),
    "dot_ieee_f32_64x64x32": DotCase(64, 64, 32, "f32"),
    "dot_fma_f32_32x32x16": DotCase(32, 32, 16, "f32"),
    "dot_acc_f16_64x64x32": DotCase(64, 64, 32, "f16", acc=True),
    "dot_chain_f16_64x64x32": DotCase(64, 64, 32, "f16", chain_n=32),
}


def make_dot_case(ops, size: str, name: str) -> Problem:
    """Checked per element against the dot's own error scale, |A| @ |B| (+ |C|): the
    floored |ref| would blow up an element that cancels to near zero (a tf32 dot's
    2^-10 input error, or a few f32 roundings, on an element at 1e-3 max|ref|)."""
    case = DOT_CASES[name]
    m, n, k = case.m, case.n, case.k
    a, b = ops.randn((m, k), case.in_dtype), ops.randn((k, n), case.in_dtype)
    size_of = {"bf16": 2, "f16": 2, "f32": 4}[case.in_dtype]
    moved = size_of * (m * k + k * n)
    ref = ops.matmul(ops.f64(a), ops.f64(b))
    scale = dot_scale(ops, a, b)
    flops = 2 * m * n * k
    if case.chain_n:
        c = ops.randn((n, case.chain_n), case.in_dtype)
        ref = ops.matmul(ops.f64(ops.cast(ref, case.in_dtype)), ops.f64(c))
        scale = ops.matmul(scale, ops.abs(ops.f64(c)))
        n, flops = case.chain_n, flops + 2 * m * n * case.chain_n
        moved += size_of * c.shape[0] * n
    elif case.acc:
        c = ops.randn((m, n))
        ref = ref + ops.f64(c)
        scale = scale + ops.abs(ops.f64(c))
        moved += 4 * m * n
    else:
        c = ops.full((m, n), NAN)
    d = ops.full((m, n), NAN)
    return Problem(name, dict(a_ptr=a, b_ptr=b, c_ptr=c, d_ptr=d), [Output("d_ptr")],
                   {"d_ptr": ref}, {}, moved + 4 * m * n, case.tolerance, flops=flops,
                   scale={"d_ptr": scale})


HAND_WRITTEN: dict[str, Callable] = {
    name: (lambda ops, size, name=name: make_dot_case(ops, size, name)) for name in DOT_CASES}
"""Kernels with no Triton PTX to compare with: only checked (and timed) as tileopt's."""

# Triton 3.9's corpus kernels beyond 3.6's (``../shared/corpus-3.9``; --kernel names them):
# desc_matmul takes matmul's arguments and reads them through tensor descriptors.
PROBLEMS_39: dict[str, Callable] = {
    "desc_matmul": lambda ops, size: make_matmul(ops, size, "desc_matmul"),
}

ALL_PROBLEMS: dict[str, Callable] = {**PROBLEMS, **HAND_WRITTEN, **PROBLEMS_39}


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def ideal_time_ms(bytes_moved: int, bandwidth_gbs: float) -> float:
    return bytes_moved / (bandwidth_gbs * 1e9) * 1e3 if bandwidth_gbs else math.nan
