"""The AMDGPU target of tileopt-run: ``llvm.amdgcn.*`` intrinsics of LLVM IR for
``amdgcn-amd-amdhsa``, on CDNA3 (gfx942, waves of 64) and RDNA3 (gfx1100, waves of 32).

The wave size comes from the architecture, which the caller names (the module's LLVM IR
does not say it). Work-item and work-group ids come from the launch; ``s_barrier`` is the
block-wide barrier of interp.py; scheduling hints and ``s_waitcnt`` are no-ops (threads run
in lock step, memory operations complete at once). Cross-lane operations are in
amdgpu_lanes.py, buffer resources and the raw buffer intrinsics in amdgpu_buffer.py. AMD's
approximate math (``sqrt``, ``rcp``, ``rsq``, ``exp2``, ``log``, ...) is computed in
float64 and rounded once, within the hardware's stated error, not bit-equal to it.
"""

from __future__ import annotations

import numpy as np

from tileopt.run import amdgpu_buffer as B
from tileopt.run import amdgpu_lanes as L
from tileopt.run import amdgpu_matrix as X
from tileopt.run.interp import Executor, Target, block_barrier
from tileopt.run.memory import KernelFault
from tileopt.target.gpu_target import GPUTarget


def _workitem(axis: str):
    def run(ex: Executor, ins, args):
        return ex.lanes.tid if axis == "x" else np.zeros(ex.n, np.int32)
    return run


def _workgroup(axis: str):
    def run(ex: Executor, ins, args):
        gx, gy, _ = ex.lanes.grid
        b = ex.lanes.first_block + ex.lanes.local_block
        return {"x": b % gx, "y": b // gx % gy, "z": b // (gx * gy)}[axis].astype(np.int32)
    return run


def _no_op(ex: Executor, ins, args):
    """s_waitcnt (memory operations complete when they execute here), scheduling hints and
    priorities (there is one schedule: lock step)."""
    return None


NO_OPS = ("s.waitcnt", "sched.barrier", "sched.group.barrier", "iglp.opt", "s.setprio",
          "s.sleep", "s.nop")

_MATH = {"sqrt": np.sqrt, "rcp": lambda x: 1 / x, "rsq": lambda x: 1 / np.sqrt(x),
         "exp2": np.exp2, "log": np.log2,  # v_log_f32 is the base-2 logarithm
         "sin": lambda x: np.sin(2 * np.pi * x), "cos": lambda x: np.cos(2 * np.pi * x),  # revolutions
         "fract": lambda x: np.minimum(x - np.floor(x), np.nextafter(1.0, 0.0)),
         "fdiv.fast": np.divide, "ldexp": lambda x, e: np.ldexp(x, e.astype(np.int64)),
         "fmed3": lambda a, b, c: np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))}


def _math(name: str):
    op = next((k for k in sorted(_MATH, key=len, reverse=True) if name == k or
               name.startswith(k + ".")), None)
    if op is None:
        return None

    def run(ex: Executor, ins, args):
        out_t = np.asarray(args[0]).dtype
        r = _MATH[op](*[np.asarray(a).astype(np.float64) for a in args])
        return np.asarray(r).astype(out_t)
    return run


class AmdgpuTarget(Target):
    def __init__(self, target: GPUTarget):
        self.arch = target.arch
        self.warp_size = target.warp_size
        self.gfx9 = target.arch.startswith("gfx9")
        self._cache: dict[str, object] = {}

    def intrinsic(self, name: str):
        if not name.startswith("llvm.amdgcn."):
            return None
        if name not in self._cache:
            self._cache[name] = self._lookup(name[len("llvm.amdgcn."):])
        return self._cache[name]

    def _lookup(self, rest: str):
        wave = self.warp_size
        parts = rest.split(".")
        if rest.startswith("workitem.id."):
            return _workitem(parts[2])
        if rest.startswith("workgroup.id."):
            return _workgroup(parts[2])
        if rest == "s.barrier":
            return block_barrier
        if rest in NO_OPS:
            return _no_op
        if rest.startswith(("update.dpp.", "mov.dpp.")):
            return L.update_dpp(self.gfx9, wave, parts[0] == "update")
        if parts[0] in ("permlane16", "permlanex16"):
            if self.gfx9:
                raise KernelFault(f"'llvm.amdgcn.{rest}' does not exist on {self.arch} "
                                  "(GFX10 and later)")
            return L.permlane(wave, parts[0] == "permlanex16")
        if rest == "ds.bpermute":
            return L.bpermute(wave)
        if rest == "ds.permute":
            return L.permute(wave)
        if rest == "ds.swizzle":
            return L.swizzle(wave)
        if parts[0] == "readlane":
            return L.readlane(wave)
        if parts[0] == "readfirstlane":
            return L.readfirstlane(wave)
        if parts[0] == "ballot":
            return L.ballot(wave, int(parts[1][1:]))
        if parts[0] == "mbcnt":
            return L.mbcnt(parts[1] == "hi", wave)
        if rest.startswith("make.buffer.rsrc."):
            return B.make_rsrc
        if rest.startswith("raw.ptr.buffer.load."):
            return B.load
        if rest.startswith("raw.ptr.buffer.store."):
            return B.store
        if rest.startswith("raw.ptr.buffer.atomic."):
            return B.atomic(parts[4])
        if parts[0] == "mfma":
            return X.mfma(rest[len("mfma."):], wave)
        if parts[0] == "wmma":
            return X.wmma(rest[len("wmma."):], wave)
        return _math(rest)
