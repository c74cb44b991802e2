"""The few array operations the GPU harness needs, on two back ends.

The problems (:mod:`problems`) build inputs, poison outputs and compute float64 references
through an ``ops`` object, so the same code runs

- on the GPU machine with :class:`TorchOps` (PyTorch tensors on the device), and
- here, without a GPU, NumPy or PyTorch, with :class:`ListOps`: small arrays of Python
  floats (:class:`Array`), enough to test every reference at small sizes.

Arrays are 1-D or 2-D; element types are named ``f16``, ``f32``, ``f64``, ``i32``.
"""

from __future__ import annotations

import math
import operator
import random
import struct
from collections.abc import Callable, Sequence

DTYPES = ("f16", "bf16", "f32", "f64", "i32")


def _round_to(dtype: str, value: float) -> float:
    """``value`` rounded to ``dtype`` (Python floats are float64)."""
    if dtype == "f64" or value != value or value in (math.inf, -math.inf):
        return value
    if dtype == "f32":
        return struct.unpack("f", struct.pack("f", value))[0]
    if dtype == "f16":
        try:
            return struct.unpack("e", struct.pack("e", value))[0]
        except OverflowError:
            return math.copysign(math.inf, value)
    if dtype == "bf16":  # the upper half of the f32, rounded to nearest even
        bits = struct.unpack("I", struct.pack("f", value))[0]
        bits = (bits + 0x7FFF + (bits >> 16 & 1)) & 0xFFFF0000
        return struct.unpack("f", struct.pack("I", bits))[0]
    if dtype == "i32":
        return int(value)
    raise ValueError(f"unknown dtype {dtype}")


class Array:
    """A small dense row-major array of Python numbers with numpy-style broadcasting."""

    def __init__(self, shape: Sequence[int], data: list, dtype: str = "f64"):
        self.shape = tuple(shape)
        self.data = list(data)
        self.dtype = dtype
        assert len(self.data) == math.prod(self.shape), (shape, len(self.data))

    # -- element access
    def _index(self, idx: Sequence[int]) -> int:
        flat = 0
        for i, n in zip(idx, self.shape):
            flat = flat * n + i
        return flat

    def at(self, *idx: int):
        return self.data[self._index(idx)]

    def tolist(self):
        if len(self.shape) == 0:
            return self.data[0]
        if len(self.shape) == 1:
            return list(self.data)
        rows, cols = self.shape
        return [self.data[r * cols:(r + 1) * cols] for r in range(rows)]

    # -- broadcasting
    def _binary(self, other, fn: Callable, dtype: str | None = None) -> Array:
        other = other if isinstance(other, Array) else Array((), [other], self.dtype)
        shape = _broadcast_shape(self.shape, other.shape)
        a, b = _expand(self, shape), _expand(other, shape)
        return Array(shape, [fn(x, y) for x, y in zip(a, b)], dtype or self.dtype)

    def __add__(self, o): return self._binary(o, operator.add)
    def __radd__(self, o): return self._binary(o, lambda x, y: y + x)
    def __sub__(self, o): return self._binary(o, operator.sub)
    def __rsub__(self, o): return self._binary(o, lambda x, y: y - x)
    def __mul__(self, o): return self._binary(o, operator.mul)
    def __rmul__(self, o): return self._binary(o, lambda x, y: y * x)
    def __truediv__(self, o): return self._binary(o, _div)
    def __rtruediv__(self, o): return self._binary(o, lambda x, y: _div(y, x))
    def __gt__(self, o): return self._binary(o, operator.gt, "bool")
    def __lt__(self, o): return self._binary(o, operator.lt, "bool")
    def __mod__(self, o): return self._binary(o, operator.mod)
    def __neg__(self): return Array(self.shape, [-x for x in self.data], self.dtype)
    def __pow__(self, p): return Array(self.shape, [x ** p for x in self.data], self.dtype)

    def __repr__(self) -> str:
        return f"Array({self.shape}, {self.dtype}, {self.tolist()})"


def _div(x, y):
    if y == 0:
        return math.nan if x == 0 or x != x else math.copysign(math.inf, x)
    return x / y


def _broadcast_shape(a: tuple, b: tuple) -> tuple:
    rank = max(len(a), len(b))
    a = (1,) * (rank - len(a)) + a
    b = (1,) * (rank - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            raise ValueError(f"shapes {a} and {b} do not broadcast")
        out.append(max(x, y))
    return tuple(out)


def _expand(arr: Array, shape: tuple) -> list:
    own = (1,) * (len(shape) - len(arr.shape)) + arr.shape
    out = []
    for flat in range(math.prod(shape)):
        idx, rest = [], flat
        for n in reversed(shape):
            idx.append(rest % n)
            rest //= n
        idx.reverse()
        src = 0
        for i, n in zip(idx, own):
            src = src * n + (i if n > 1 else 0)
        out.append(arr.data[src])
    return out


class ListOps:
    """Pure-Python back end (float64 arithmetic, values rounded to each dtype)."""

    name = "python"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    # creation
    def rand(self, shape, dtype="f32", low=0.0, high=1.0) -> Array:
        return Array(shape, [_round_to(dtype, self.rng.uniform(low, high))
                             for _ in range(math.prod(shape))], dtype)

    def randn(self, shape, dtype="f32") -> Array:
        return Array(shape, [_round_to(dtype, self.rng.gauss(0.0, 1.0))
                             for _ in range(math.prod(shape))], dtype)

    def randint(self, low, high, shape, dtype="i32") -> Array:
        return Array(shape, [self.rng.randrange(low, high) for _ in range(math.prod(shape))], dtype)

    def full(self, shape, value, dtype="f32") -> Array:
        return Array(shape, [_round_to(dtype, value) if dtype != "i32" else int(value)]
                     * math.prod(shape), dtype)

    def from_rows(self, rows: list, dtype: str = "f32") -> Array:
        if rows and isinstance(rows[0], list):
            return Array((len(rows), len(rows[0])), [_round_to(dtype, v) for r in rows for v in r], dtype)
        return Array((len(rows),), [_round_to(dtype, v) for v in rows], dtype)

    # conversion
    def f64(self, x: Array) -> Array:
        return Array(x.shape, [float(v) for v in x.data], "f64")

    def cast(self, x: Array, dtype: str) -> Array:
        return Array(x.shape, [_round_to(dtype, v) for v in x.data], dtype)

    # elementwise
    def _map(self, x: Array, fn) -> Array:
        return Array(x.shape, [fn(v) for v in x.data], x.dtype)

    def exp(self, x): return self._map(x, lambda v: math.exp(v) if v < 709 else math.inf)
    def erf(self, x): return self._map(x, math.erf)
    def sqrt(self, x): return self._map(x, math.sqrt)
    def abs(self, x): return self._map(x, abs)
    def isnan(self, x): return Array(x.shape, [v != v for v in x.data], "bool")

    def sigmoid(self, x):
        return self._map(x, lambda v: 1.0 / (1.0 + math.exp(-v)) if v > -709 else 0.0)

    def where(self, cond: Array, a, b) -> Array:
        a = a if isinstance(a, Array) else Array((), [a])
        b = b if isinstance(b, Array) else Array((), [b])
        shape = _broadcast_shape(_broadcast_shape(cond.shape, a.shape), b.shape)
        c, x, y = _expand(cond, shape), _expand(a, shape), _expand(b, shape)
        return Array(shape, [p if k else q for k, p, q in zip(c, x, y)], a.dtype)

    # reductions and reshuffles
    def _reduce(self, x: Array, axis: int, fn, keepdims: bool) -> Array:
        if len(x.shape) == 1:
            value = fn(x.data)
            return Array((1,) if keepdims else (), [value], x.dtype)
        rows, cols = x.shape
        if axis == 1:
            vals = [fn(x.data[r * cols:(r + 1) * cols]) for r in range(rows)]
            return Array((rows, 1) if keepdims else (rows,), vals, x.dtype)
        vals = [fn(x.data[c::cols]) for c in range(cols)]
        return Array((1, cols) if keepdims else (cols,), vals, x.dtype)

    def sum(self, x, axis=0, keepdims=False): return self._reduce(x, axis, math.fsum, keepdims)
    def max(self, x, axis=0, keepdims=False): return self._reduce(x, axis, max, keepdims)

    def amax(self, x: Array) -> float:
        return max(x.data)

    def count(self, x: Array) -> int:
        """Number of true elements of a bool array."""
        return sum(1 for v in x.data if v)

    def cumsum(self, x: Array, axis: int = 1) -> Array:
        rows, cols = x.shape if len(x.shape) == 2 else (1, x.shape[0])
        out = list(x.data)
        if axis == len(x.shape) - 1:
            for r in range(rows):
                acc = 0.0
                for c in range(cols):
                    acc += out[r * cols + c]
                    out[r * cols + c] = acc
        else:
            for c in range(cols):
                acc = 0.0
                for r in range(rows):
                    acc += out[r * cols + c]
                    out[r * cols + c] = acc
        return Array(x.shape, out, x.dtype)

    def matmul(self, a: Array, b: Array) -> Array:
        (m, k), (_, n) = a.shape, b.shape
        return Array((m, n), [math.fsum(a.data[i * k + x] * b.data[x * n + j] for x in range(k))
                              for i in range(m) for j in range(n)], "f64")

    def transpose(self, x: Array) -> Array:
        rows, cols = x.shape
        return Array((cols, rows), [x.data[r * cols + c] for c in range(cols) for r in range(rows)], x.dtype)

    def bincount(self, x: Array, bins: int) -> Array:
        counts = [0] * bins
        for v in x.data:
            counts[int(v)] += 1
        return Array((bins,), counts, "i32")

    def columns(self, x: Array, start: int, stop: int) -> Array:
        rows, cols = x.shape
        data = [x.data[r * cols + c] for r in range(rows) for c in range(start, stop)]
        return Array((rows, stop - start), data, x.dtype)

    def squeeze(self, x: Array, axis: int) -> Array:
        assert x.shape[axis] == 1
        return Array(x.shape[:axis] + x.shape[axis + 1:], x.data, x.dtype)

    def numel(self, x: Array) -> int:
        return math.prod(x.shape)

    def nbytes(self, x: Array) -> int:
        return math.prod(x.shape) * {"f16": 2, "f32": 4, "f64": 8, "i32": 4}[x.dtype]


class TorchOps:
    """PyTorch back end: tensors on ``device``, random numbers from ``torch.Generator``."""

    name = "torch"

    def __init__(self, torch, device: str = "cuda", seed: int = 0):
        self.torch = torch
        self.device = device
        self.gen = torch.Generator(device=device)
        self.gen.manual_seed(seed)
        self.dtypes = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
                       "f64": torch.float64, "i32": torch.int32}

    def rand(self, shape, dtype="f32", low=0.0, high=1.0):
        t = self.torch.rand(tuple(shape), generator=self.gen, device=self.device,
                            dtype=self.torch.float32)
        return (t * (high - low) + low).to(self.dtypes[dtype])

    def randn(self, shape, dtype="f32"):
        return self.torch.randn(tuple(shape), generator=self.gen, device=self.device,
                                dtype=self.torch.float32).to(self.dtypes[dtype])

    def randint(self, low, high, shape, dtype="i32"):
        return self.torch.randint(low, high, tuple(shape), generator=self.gen,
                                  device=self.device, dtype=self.dtypes[dtype])

    def full(self, shape, value, dtype="f32"):
        return self.torch.full(tuple(shape), value, device=self.device, dtype=self.dtypes[dtype])

    def from_rows(self, rows, dtype="f32"):
        return self.torch.tensor(rows, device=self.device, dtype=self.dtypes[dtype])

    def f64(self, x): return x.to(self.torch.float64)
    def cast(self, x, dtype): return x.to(self.dtypes[dtype])
    def exp(self, x): return self.torch.exp(x)
    def erf(self, x): return self.torch.erf(x)
    def sqrt(self, x): return self.torch.sqrt(x)
    def abs(self, x): return self.torch.abs(x)
    def isnan(self, x): return self.torch.isnan(x)
    def sigmoid(self, x): return self.torch.sigmoid(x)

    def where(self, cond, a, b):
        return self.torch.where(cond, a, b)

    def sum(self, x, axis=0, keepdims=False): return x.sum(dim=axis, keepdim=keepdims)
    def max(self, x, axis=0, keepdims=False): return x.amax(dim=axis, keepdim=keepdims)
    def amax(self, x): return float(x.max())
    def count(self, x): return int(x.sum())
    def cumsum(self, x, axis=1): return self.torch.cumsum(x, dim=axis)
    def transpose(self, x): return x.t().contiguous()
    def matmul(self, a, b): return a @ b

    def bincount(self, x, bins):
        return self.torch.bincount(x.flatten().to(self.torch.int64), minlength=bins).to(self.torch.int32)

    def columns(self, x, start, stop): return x[:, start:stop]
    def squeeze(self, x, axis): return x.squeeze(axis)
    def numel(self, x): return x.numel()
    def nbytes(self, x): return x.numel() * x.element_size()


def max_relative_error(ops, out, ref, scale=None) -> float:
    """max_i |out_i - ref_i| / max(|ref_i|, 1e-3 * max_j |ref_j|), in float64; with
    ``scale`` (an array like ``ref``, positive) max_i |out_i - ref_i| / scale_i instead.

    An element near zero is measured against a thousandth of the tensor's largest
    magnitude, so cancellation in the reference does not blow the figure up. NaN or an
    infinity where the reference is finite counts as infinite error.
    """
    out64, ref64 = ops.f64(out), ops.f64(ref)
    if ops.count(ops.isnan(out64)) != ops.count(ops.isnan(ref64)):
        return math.inf
    diff = ops.abs(out64 - ref64)
    if scale is not None:
        denom = ops.f64(scale)
    else:
        denom = ops.abs(ref64)
        floor = 1e-3 * ops.amax(denom)
        if floor == 0:
            floor = 1.0
        if isinstance(denom, Array):
            denom = Array(denom.shape, [max(v, floor) for v in denom.data], "f64")
        else:
            denom = denom.clamp(min=floor)
    ratio = diff / denom
    value = ops.amax(ratio)
    return math.inf if value != value else value
