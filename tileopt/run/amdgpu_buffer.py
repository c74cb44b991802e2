"""AMD buffer resources and the raw buffer intrinsics (``llvm.amdgcn.make.buffer.rsrc``,
``raw.ptr.buffer.load/store/atomic.*``).

A resource (``ptr addrspace(8)``) is held as a tuple of arrays, one row per thread: the base
address (a global pointer of the interpreter, see memory.py), ``num_records`` and the
stride. An access of a raw buffer (stride 0) at byte offset ``voffset`` is range checked by
the hardware against ``num_records``: a load of an offset at or past it gives 0, a store or
atomic there is dropped (an atomic returns 0). Triton masks buffer operations this way,
with an offset past the range in the masked-off lanes, so such an access is not an error
here. An offset inside the range is an ordinary access of the base pointer's buffer, which
the bounds checker checks as any other: a real out-of-bounds access is reported. Accesses
wider than 4 bytes are range checked dword by dword.
"""

from __future__ import annotations

import numpy as np

from tileopt.run import atomics
from tileopt.run import values as V
from tileopt.run.memory import KernelFault


def make_rsrc(ex, ins, args):
    base, stride, records, _flags = args
    return (np.asarray(ex.full(base)).astype(np.int64),
            np.asarray(ex.full(records)).astype(np.int64) & 0xFFFFFFFF,
            np.asarray(ex.full(stride)).astype(np.int64))


def _where(ex, rsrc, voffset, soffset):
    """(base, offset, num_records) of each active thread's access."""
    if not isinstance(rsrc, tuple):
        raise KernelFault("a buffer resource that does not come from make.buffer.rsrc")
    rows = ex.idx
    base, records, stride = (np.asarray(p)[rows] for p in rsrc)
    if (stride != 0).any():
        raise KernelFault("structured buffers (a resource with a stride) are not supported")
    if (np.asarray(ex.full(soffset))[rows] != 0).any():
        raise KernelFault("a buffer access with a non-zero soffset is not supported")
    off = np.asarray(ex.full(voffset))[rows].astype(np.int64) & 0xFFFFFFFF
    return base, off, records


def _chunk(size: int) -> int:
    return 4 if size >= 4 else size


def load(ex, ins, args):
    rsrc, voffset, soffset, _aux = args
    base, off, records = _where(ex, rsrc, voffset, soffset)
    size = V.size_of(ins.type)
    step = _chunk(size)
    raw = np.zeros((len(off), size), np.uint8)
    for k in range(0, size, step):
        inside = off + k < records
        if inside.any():
            raw[inside, k:k + step] = ex.mem.read("global", base[inside] + off[inside] + k, step,
                                                  ex.idx[inside], 1, ex.where(ins))
    got = V.from_bytes(raw, ins.type)
    out = np.zeros((ex.n,) + got.shape[1:], got.dtype)
    out[ex.idx] = got
    return out


def store(ex, ins, args):
    value, rsrc, voffset, soffset, _aux = args
    base, off, records = _where(ex, rsrc, voffset, soffset)
    data = V.to_bytes(value, ins.args[0].type, ex.n)[ex.idx]
    size = data.shape[1]
    step = _chunk(size)
    for k in range(0, size, step):
        inside = off + k < records
        if inside.any():
            ex.mem.write("global", base[inside] + off[inside] + k, data[inside, k:k + step],
                         ex.idx[inside], 1, ex.where(ins))


# buffer atomic -> (atomics op, unsigned)
_ATOMICS = {"add": ("add", False), "sub": ("sub", False), "swap": ("exch", False),
            "smin": ("min", False), "smax": ("max", False), "umin": ("min", True),
            "umax": ("max", True), "and": ("and", False), "or": ("or", False),
            "xor": ("xor", False), "fadd": ("add", False), "fmin": ("min", False),
            "fmax": ("max", False), "cmpswap": ("cas", False)}


def atomic(kind: str):
    """raw.ptr.buffer.atomic.<kind>(vdata, rsrc, voffset, soffset, aux); cmpswap takes
    (src, cmp, rsrc, ...) and stores src where the memory holds cmp."""
    if kind not in _ATOMICS:
        raise KernelFault(f"buffer atomic '{kind}' is not supported by tileopt-run")
    op, unsigned = _ATOMICS[kind]

    def run(ex, ins, args):
        values, (rsrc, voffset, soffset) = args[:-4], args[-4:-1]  # then the cache policy
        base, off, records = _where(ex, rsrc, voffset, soffset)
        ty = ins.args[0].type
        vd = V.dtype(ty)
        vd = np.dtype(f"u{vd.itemsize}") if unsigned else vd
        vals = [np.asarray(ex.full(v))[ex.idx].astype(V.dtype(ty)).view(vd) for v in values]
        if op == "cas":  # the operand order of atomics.apply: compare, then the new value
            vals = vals[::-1]
        inside = off < records
        old = np.zeros(len(off), vd)
        old[inside] = atomics.apply(ex.mem, base[inside] + off[inside], ex.idx[inside], op, vd,
                                    *[v[inside] for v in vals])
        out = np.zeros(ex.n, V.dtype(ty))
        out[ex.idx] = old.view(out.dtype)
        return out
    return run
