"""The reference's memory: the kernel's buffers and pointers into them.

A pointer (scalar or tensor) is a ``Pointers``: for each element the buffer it points into
(argument number + 1, 0 for null) and a byte offset, so ``tt.addptr`` scales by the
pointee's size and ``tt.int_to_ptr``/``tt.ptr_to_int`` see an address (buffer << 40 |
offset). Every access is checked against its buffer; ``touched`` keeps the furthest byte
each buffer was accessed at, so a caller can size buffers from a first run.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tileopt.run.reference.numbers import (Unsupported, bf16_from_bits, bf16_to_bits,
                                           fit, is_bf16, storage_dtype)

SHIFT = 40


@dataclass
class Pointers:
    buf: np.ndarray      # int64, buffer number + 1 (0: null)
    off: np.ndarray      # int64, byte offset

    @property
    def shape(self):
        return self.off.shape

    def map(self, fn) -> "Pointers":
        return Pointers(fn(self.buf), fn(self.off))

    def address(self) -> np.ndarray:
        return (self.buf.astype(np.int64) << SHIFT) + self.off

    @staticmethod
    def of_address(addr) -> "Pointers":
        addr = np.asarray(addr, np.int64)
        return Pointers(addr >> SHIFT, addr & ((1 << SHIFT) - 1))


class OutOfBounds(Exception):
    pass


class Memory:
    def __init__(self, arrays: list[np.ndarray], names: list[str]):
        self.data = [np.ascontiguousarray(a).reshape(-1).view(np.uint8).copy() for a in arrays]
        self.names = names
        self.touched = [0] * len(arrays)

    def _index(self, ptr: Pointers, mask, ty, what):
        """Element indices of the active elements, checked."""
        dt = np.dtype(storage_dtype(ty))
        m = np.ones(ptr.shape, bool) if mask is None else np.broadcast_to(mask, ptr.shape)
        buf, off = ptr.buf[m], ptr.off[m]
        if buf.size == 0:
            return m, None, None
        if (buf != buf.flat[0]).any():
            raise Unsupported(f"a {what} through pointers into several buffers")
        b = int(buf.flat[0]) - 1
        if b < 0:
            raise OutOfBounds(f"{what} through a null pointer")
        data = self.data[b]
        lo, hi = int(off.min()), int(off.max()) + dt.itemsize
        self.touched[b] = max(self.touched[b], hi)
        if lo < 0 or hi > data.size or (off % dt.itemsize).any():
            raise OutOfBounds(f"{what} of bytes [{lo}, {hi}) of argument {b} ({self.names[b]}, "
                              f"{data.size} bytes)")
        return m, data.view(dt), off // dt.itemsize

    def load(self, ptr: Pointers, mask, other, ty) -> np.ndarray:
        m, view, idx = self._index(ptr, mask, ty, "load")
        out = np.zeros(ptr.shape, storage_dtype(ty))
        if view is not None:
            out[m] = view[idx]
        vals = bf16_from_bits(out) if is_bf16(ty) else out
        if other is not None:
            vals = np.where(m, vals, other)
        return fit(vals, ty)

    def store(self, ptr: Pointers, value, mask, ty) -> None:
        m, view, idx = self._index(ptr, mask, ty, "store")
        if view is None:
            return
        v = np.broadcast_to(value, ptr.shape)[m]
        view[idx] = bf16_to_bits(v) if is_bf16(ty) else v.astype(view.dtype)

    def rmw(self, ptr: Pointers, mask, ty, update) -> np.ndarray:
        """Atomics one element after another in row-major order: ``update(i, old)`` gives
        element i's new value; returns the old values."""
        m, view, idx = self._index(ptr, mask, ty, "atomic")
        old = np.zeros(ptr.shape, np.dtype(storage_dtype(ty)))
        if view is None:
            return fit(old, ty)
        flat = np.flatnonzero(m)
        for k, i in zip(flat, idx):
            old.flat[k] = view[i]
            cur = bf16_from_bits(view[i]) if is_bf16(ty) else view[i]
            new = update(k, cur)
            view[i] = bf16_to_bits(new) if is_bf16(ty) else np.asarray(new).astype(view.dtype)
        return fit(bf16_from_bits(old) if is_bf16(ty) else old, ty)
