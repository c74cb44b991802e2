"""Atomic read-modify-writes on global and shared memory, as every front end of tileopt-run runs them
(inline PTX ``atom``/``red``, LLVM's ``atomicrmw``/``cmpxchg``, AMD buffer atomics).

They are applied one thread after another in the order of the rows given (thread order),
each access bounds-checked first, and each returns the value it replaced: one interleaving,
deterministic, as the rest of the interpreter.
"""

from __future__ import annotations

import numpy as np

from tileopt.run.memory import OFFSET_MASK, KernelFault

OPS = ("add", "sub", "exch", "cas", "min", "max", "and", "or", "xor", "inc", "dec")


def apply(mem, addr: np.ndarray, lanes: np.ndarray, op: str, vd: np.dtype, x: np.ndarray,
          y: np.ndarray | None = None, space: str = "global", where: str = "") -> np.ndarray:
    """``op`` on the ``vd`` values at ``addr`` (one per row; ``space`` global or shared)
    with operand ``x`` (``cas``: compare ``x``, new value ``y``); the old values, in
    ``vd``. Signed or unsigned min/max and the float forms follow ``vd``."""
    vd = np.dtype(vd)
    if op not in OPS:
        raise KernelFault(f"atomic '{op}' is not supported by tileopt-run")
    nbytes = vd.itemsize
    bd = np.dtype(f"u{nbytes}")
    old = np.zeros(len(addr), vd)
    x = np.asarray(x, vd)
    y = None if y is None else np.asarray(y, vd)
    if space == "generic":  # each part in the space it points to
        old = np.zeros(len(addr), np.dtype(vd))
        for part, rows in mem.split_generic(addr).items():
            at = addr[rows] if part == "global" else addr[rows] & OFFSET_MASK
            old[rows] = apply(mem, at, lanes[rows], op, vd, np.asarray(x)[rows],
                              None if y is None else np.asarray(y)[rows], part, where)
        return old
    if space == "shared":
        views = mem.shared_view(addr, nbytes, lanes, f"atomic {op}", where)
    elif space == "global":
        views = mem.global_view(addr, nbytes, lanes, f"atomic {op}")
    else:
        raise KernelFault(f"atomics on {space} memory are not supported")
    for data, sub, off in views:
        view = data.view(np.uint8)
        for r, o in zip(sub, off):
            cell = view[o:o + nbytes].view(vd)
            prev = cell[0]
            b = x[r]
            if op == "add":
                new = prev + b
            elif op == "sub":
                new = prev - b
            elif op == "exch":
                new = b
            elif op == "cas":
                new = y[r] if prev == b else prev
            elif op in ("min", "max"):
                new = min(prev, b) if op == "min" else max(prev, b)
            elif op in ("and", "or", "xor"):
                pa, pb = np.array([prev]).view(bd)[0], np.array([b]).view(bd)[0]
                new = np.array([{"and": pa & pb, "or": pa | pb, "xor": pa ^ pb}[op]], bd).view(vd)[0]
            elif op == "inc":
                new = vd.type(0) if prev >= b else prev + vd.type(1)
            else:
                new = b if (prev == 0 or prev > b) else prev - vd.type(1)
            cell[0] = new
            old[r] = prev
    return old
