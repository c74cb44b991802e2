"""LLVM values as numpy arrays, one row per GPU thread.

A scalar of type T over n threads is an array of shape (n,), a ``<k x T>`` vector (n, k), a
struct a tuple of such arrays. Integers are signless in LLVM and kept in numpy's signed type
of the same width (wrapping arithmetic); i1 is bool; pointers are int64 (see memory.py).
half is numpy float16, whose + - * / round exactly as the hardware does (computed through
float32, where double rounding is innocuous); bfloat is held in float32 arrays whose values
are always bf16 numbers (rounded to nearest even after every operation).
"""

from __future__ import annotations

import numpy as np

from tileopt.run.llvm_text import Type


def dtype(ty: Type) -> np.dtype:
    if ty.kind == "vec":
        return dtype(ty.elem)
    if ty.kind == "int":
        if ty.bits == 1:
            return np.dtype(bool)
        return np.dtype({8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}[ty.bits])
    if ty.kind == "float":
        return np.dtype({"half": np.float16, "bfloat": np.float32, "float": np.float32,
                         "double": np.float64}[ty.name])
    if ty.kind == "ptr":
        return np.dtype(np.int64)
    raise TypeError(f"no array type for {ty}")


def size_of(ty: Type) -> int:
    if ty.kind == "int":
        return max(1, ty.bits // 8)
    if ty.kind == "float":
        return ty.bits // 8
    if ty.kind == "ptr":
        return 4 if ty.addrspace == 3 else 8
    if ty.kind in ("vec", "array"):
        return ty.count * size_of(ty.elem)
    if ty.kind == "struct":
        return sum(size_of(f) for f in ty.fields)
    raise TypeError(f"no size for {ty}")


def bits_dtype(nbytes: int) -> np.dtype:
    return np.dtype({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[nbytes])


def round_bf16(x: np.ndarray) -> np.ndarray:
    """float32 -> the nearest bf16 value (ties to even), still as float32."""
    b = np.ascontiguousarray(x, np.float32).view(np.uint32)
    nan = (b & 0x7FFFFFFF) > 0x7F800000
    r = ((b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    r = np.where(nan, b | 0x00400000, r).astype(np.uint32)
    return r.view(np.float32)


def to_bytes(v, ty: Type, n: int) -> np.ndarray:
    """Values -> their little-endian bytes, shape (n, size_of(ty))."""
    if ty.kind == "struct":
        return np.concatenate([to_bytes(x, f, n) for x, f in zip(v, ty.fields)], axis=1)
    count = ty.count if ty.kind == "vec" else 1
    ety = ty.elem if ty.kind == "vec" else ty
    a = np.broadcast_to(np.asarray(v), (n, count) if ty.kind == "vec" else (n,))
    if ety.kind == "float" and ety.name == "bfloat":
        bits = (np.ascontiguousarray(a, np.float32).view(np.uint32) >> 16).astype(np.uint16)
    elif ety.kind == "int" and ety.bits == 1:
        bits = a.astype(np.uint8)
    elif ety.kind == "ptr" and ety.addrspace == 3:
        bits = a.astype(np.uint32)
    else:
        bits = np.ascontiguousarray(a, dtype(ety))
    return np.ascontiguousarray(bits).view(np.uint8).reshape(n, -1)


def from_bytes(raw: np.ndarray, ty: Type):
    """The inverse of to_bytes."""
    n = raw.shape[0]
    if ty.kind == "struct":
        out, pos = [], 0
        for f in ty.fields:
            s = size_of(f)
            out.append(from_bytes(raw[:, pos:pos + s], f))
            pos += s
        return tuple(out)
    ety = ty.elem if ty.kind == "vec" else ty
    raw = np.ascontiguousarray(raw)
    if ety.kind == "float" and ety.name == "bfloat":
        a = (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    elif ety.kind == "int" and ety.bits == 1:
        a = raw.view(np.uint8) != 0
    elif ety.kind == "ptr" and ety.addrspace == 3:
        a = raw.view(np.uint32).astype(np.int64)
    else:
        a = raw.view(dtype(ety))
    return a.reshape(n, ty.count) if ty.kind == "vec" else a.reshape(n)


def unsigned(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    if a.dtype == bool:
        return a
    return a.view(np.dtype(a.dtype.str.replace("i", "u")))


def const_array(value, ty: Type):
    """An LLVM constant as a numpy scalar (or (k,) array for vectors)."""
    if ty.kind == "vec":
        if value is None:
            return np.zeros(ty.count, dtype(ty))
        return np.array([const_array(v, ty.elem) for v in value], dtype(ty))
    if ty.kind == "struct":
        return tuple(const_array(None, f) for f in ty.fields)
    if value is None:
        return dtype(ty).type(0)
    if ty.kind == "float":
        if isinstance(value, tuple):
            kind, bits = value
            if kind == "bits16":
                return np.array([bits], np.uint16).view(np.float16)[0]
            if kind == "bitsbf16":
                return np.array([bits << 16], np.uint32).view(np.float32)[0]
            value = float(np.array([bits], np.uint64).view(np.float64)[0])
        return dtype(ty).type(value)
    if ty.kind == "int" and ty.bits == 1:
        return np.bool_(bool(value))
    return np.array([value & ((1 << max(ty.bits, 1)) - 1)], np.uint64).astype(
        bits_dtype(size_of(ty))).view(dtype(ty))[0] if ty.kind == "int" else np.int64(value)


def fma(a, b, c, out: np.dtype) -> np.ndarray:
    """a * b + c rounded once to ``out`` (float16 or float32; normal results).

    For these formats a * b is exact in float64; the float64 sum is rounded, and rounding
    it again to ``out`` is wrong only where it lands exactly halfway between two ``out``
    values; there the sum's rounding error (TwoSum) says which way the exact value lies.
    float64 operands are computed in long double (not single-rounded)."""
    out = np.dtype(out)
    if out == np.float64:
        wide = np.longdouble
        return (np.asarray(a, wide) * np.asarray(b, wide) + np.asarray(c, wide)).astype(out)
    a, b, c = (np.asarray(x, np.float64) for x in (a, b, c))
    p = a * b
    s = p + c
    v = s - p
    err = (p - (s - v)) + (c - v)
    low_bits = 52 - (np.finfo(out).nmant)
    low = s.view(np.uint64) & np.uint64((1 << low_bits) - 1)
    halfway = (low == np.uint64(1 << (low_bits - 1))) & (err != 0)
    s = np.where(halfway, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
    return s.astype(out)


def const_bytes(value, ty: Type) -> np.ndarray:
    """An LLVM constant (a global's initializer) as its little-endian bytes."""
    if ty.kind in ("array", "vec", "struct"):
        parts = ty.fields if ty.kind == "struct" else [ty.elem] * ty.count
        items = value if value is not None else [None] * len(parts)
        chunks = [const_bytes(v, t) for v, t in zip(items, parts)]
        return np.concatenate(chunks) if chunks else np.zeros(0, np.uint8)
    return to_bytes(np.asarray(const_array(value, ty)).reshape(1), ty, 1).reshape(-1).copy()
