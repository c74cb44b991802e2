"""The NVIDIA target of tileopt-run: NVVM intrinsics, warp shuffles, barriers, inline PTX.

Special registers come from the launch (thread and block ids, 32-thread warps). Barriers
require every live thread of the block and start a new race epoch. ``shfl.sync`` computes
each lane's source lane as PTX defines it (mode, lane offset, clamp and segment mask from
the ``c`` operand), and checks that the executing lanes are exactly the member mask.
Approximate math (``ex2.approx``, ``div.full``, ``sqrt.approx``, ...) is computed in float64
and rounded to f32 once: within the hardware's stated error, not bit-equal to it.
"""

from __future__ import annotations

import numpy as np

from tileopt.run import nvvm_math, ptx
from tileopt.run import tensor_core as TC
from tileopt.run.async_copy import copies_of, wgmmas_of
from tileopt.run import values as V
from tileopt.run.interp import Executor, Target, block_barrier
from tileopt.run.memory import KernelFault

def _sreg(name: str):
    def run(ex: Executor, ins, args):
        lanes = ex.lanes
        reg, axis = name.rsplit(".", 1) if "." in name else (name, "")
        k = "xyz".index(axis) if axis in ("x", "y", "z") else 0
        if reg == "tid":
            v = lanes.tid if k == 0 else np.zeros(ex.n, np.int32)
        elif reg == "ntid":
            v = np.full(ex.n, lanes.threads if k == 0 else 1, np.int32)
        elif reg in ("ctaid", "nctaid"):
            gx, gy, gz = lanes.grid
            if reg == "nctaid":
                return np.full(ex.n, lanes.grid[k], np.int32)
            b = lanes.first_block + lanes.local_block
            v = (b % gx, b // gx % gy, b // (gx * gy))[k].astype(np.int32)
        elif name == "laneid":
            v = lanes.tid % 32
        elif name == "warpid":
            v = lanes.tid // 32
        else:
            return None
        return np.asarray(v, np.int32)
    return run


def _shuffle(mode: str, with_pred: bool):
    def run(ex: Executor, ins, args):
        mask, val, b, c = (np.asarray(ex.full(a))[ex.idx] for a in args)
        tid = ex.lanes.tid[ex.idx].astype(np.int64)
        rows = ex.idx
        lane = tid % 32
        if ex.lanes.threads % 32:
            raise KernelFault("shfl.sync needs a block size that is a multiple of 32")
        mask = mask.astype(np.int64) & 0xFFFFFFFF
        # executing lanes must be the member mask of their warp
        act = np.zeros(ex.n, bool)
        act[rows] = True
        warp_bits = (act.reshape(-1, 32) * (1 << np.arange(32, dtype=np.int64))).sum(1)
        wb = warp_bits[rows // 32]
        if ((mask >> lane) & 1 == 0).any() or (mask != wb).any():
            k = int(np.argmax(((mask >> lane) & 1 == 0) | (mask != wb)))
            raise KernelFault(f"shfl.sync with member mask {hex(int(mask[k]))} executed by lanes "
                              f"{hex(int(wb[k]))} of the warp of {ex.lanes.describe(rows[k])}")
        b = b.astype(np.int64)
        c = c.astype(np.int64)
        seg = (c >> 8) & 31
        clamp = c & 31
        max_lane = (lane & seg) | (clamp & ~seg)
        min_lane = lane & seg
        if mode == "up":
            j = lane - b
            ok = j >= max_lane
        elif mode == "down":
            j = lane + b
            ok = j <= max_lane
        elif mode == "bfly":
            j = lane ^ b
            ok = j <= max_lane
        else:
            j = min_lane | (b & ~seg & 31)
            ok = j <= max_lane
        j = np.where(ok, j, lane)
        src = rows - lane + j
        full = np.asarray(ex.full(args[1]))
        out = np.zeros(ex.n, full.dtype)
        out[rows] = full[src]
        if with_pred:
            p = np.zeros(ex.n, bool)
            p[rows] = ok
            return (out, p)
        return out
    return run


def _matrix(name: str):
    """llvm.nvvm.{ld,st}matrix.sync.aligned.m8n8.x<1|2|4>[.trans].b16[.p3]."""
    parts = name.split(".")
    count = int(parts[4][1:])
    trans = "trans" in parts
    load = parts[0] == "ldmatrix"

    def run(ex: Executor, ins, args):
        rows = TC.whole_groups(ex.idx, 32, parts[0], ex.lanes.describe)
        addr = np.asarray(ex.full(args[0]))[rows].astype(np.int64)
        where = ex.where(ins)
        if not load:
            regs = np.stack([np.asarray(ex.full(a))[rows].astype(np.uint32).astype(np.uint64)
                             for a in args[1:]], -1)
            TC.stmatrix(ex.mem, addr, regs, rows, trans, where)
            return None
        got = TC.ldmatrix(ex.mem, addr, rows, count, trans, where)
        outs = []
        for k in range(count):
            full = np.zeros(ex.n, np.int32)
            full[rows.reshape(-1)] = got[..., k].reshape(-1).astype(np.uint32).view(np.int32)
            outs.append(full)
        return tuple(outs) if count > 1 else outs[0]
    return run


def _cp_async(name: str):
    def run(ex: Executor, ins, args):
        copies = copies_of(ex.mem)
        if name == "commit.group":
            copies.commit(ex.idx)
        elif name == "wait.group":
            copies.wait(int(np.asarray(args[0]).reshape(-1)[0]), ex.idx)
        else:  # wait.all
            copies.commit(ex.idx)
            copies.wait(0, ex.idx)
    return run


def _no_op(ex: Executor, ins, args):
    """wgmma.fence (the product is complete when mma_async executes, in lock step) and
    fence.proxy.async (generic and async proxies are one memory here)."""
    return None


def _wgmma_commit(ex: Executor, ins, args):
    wgmmas_of(ex.mem).commit(ex.idx)


def _reflect(sm: int):
    """``__nvvm_reflect("name")``, libdevice's question about the compilation, answered
    as LLVM's NVVMReflect pass does: ``__CUDA_FTZ`` and ``__CUDA_PREC_SQRT`` from the
    module flags ``nvvm-reflect-ftz`` / ``nvvm-reflect-prec-sqrt`` (Triton and tileopt
    set the first to 1), ``__CUDA_ARCH`` the SM version times 10, anything else 0."""
    def run(ex: Executor, ins, args):
        arg = ins.args[0]
        init = ex.module.initializers.get(getattr(arg, "name", "")) \
            if getattr(arg, "is_global", False) else None
        if init is None:
            raise KernelFault("__nvvm_reflect needs a constant string argument")
        name = bytes(init.value or []).split(b"\0")[0].decode()
        flags = {"__CUDA_FTZ": "nvvm-reflect-ftz", "__CUDA_PREC_SQRT": "nvvm-reflect-prec-sqrt"}
        if name == "__CUDA_ARCH":
            return np.int32(sm * 10)
        return np.int32(ex.module.module_flag(flags[name]) or 0 if name in flags else 0)
    return run


class NvidiaTarget(Target):
    warp_size = 32

    def __init__(self, sm: int = 90):
        self.sm = sm  # __CUDA_ARCH for libdevice

    def intrinsic(self, name: str):
        if name == "__nvvm_reflect":
            return _reflect(self.sm)
        if not name.startswith("llvm.nvvm."):
            return None
        rest = name[len("llvm.nvvm."):]
        if rest.startswith("read.ptx.sreg."):
            return _sreg(rest[len("read.ptx.sreg."):])
        if rest in ("barrier0", "barrier.sync", "barrier.cta.sync.aligned.all",
                    "barrier.cta.sync.aligned", "barrier.cta.sync.all", "bar.sync"):
            return block_barrier
        if rest.startswith(("ldmatrix.sync.aligned.m8n8.", "stmatrix.sync.aligned.m8n8.")):
            return _matrix(rest)
        if rest in ("cp.async.commit.group", "cp.async.wait.group", "cp.async.wait.all"):
            return _cp_async(rest[len("cp.async."):])
        if rest == "wgmma.commit_group.sync.aligned":
            return _wgmma_commit
        if rest == "wgmma.fence.sync.aligned" or rest.startswith("fence.proxy.async"):
            return _no_op
        if rest.startswith("shfl.sync."):
            mode, suffix = rest.split(".")[2:4]
            return _shuffle(mode, suffix.endswith("p"))
        return nvvm_math.intrinsic(rest)

    def inline_asm(self, ex: Executor, instr, args):
        return ptx.AsmCall(ex, instr, args).run()
