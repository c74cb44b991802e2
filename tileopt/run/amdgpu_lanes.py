"""Cross-lane operations of the AMDGPU target: DPP, permlane, ds_(b)permute, ds_swizzle,
readlane, ballot, mbcnt.

A wave is ``wave`` consecutive threads of a block (64 on CDNA3, 32 on RDNA3); lane l of a
wave is thread ``tid % wave``. A DPP row is 16 lanes and a bank 4 lanes of a row, as the
ISA documents define them. EXEC is the executor's active mask: a lane is "active" when it
executes the call. Each operation returns the new value for the active threads only.
"""

from __future__ import annotations

import numpy as np

from tileopt.run.interp import popcount
from tileopt.run.memory import KernelFault


class Wave:
    """The active threads of a call, seen as lanes of their waves."""

    def __init__(self, ex, size: int):
        if ex.lanes.threads % size:
            raise KernelFault(f"a block of {ex.lanes.threads} threads is not a whole number of "
                              f"{size}-lane waves")
        self.ex, self.size = ex, size
        self.rows = ex.idx
        self.lane = (ex.lanes.tid[self.rows] % size).astype(np.int64)
        self.base = self.rows - self.lane
        self.active = np.zeros(ex.n, bool)
        self.active[self.rows] = True

    def arg(self, v) -> np.ndarray:
        """An operand, one value per active thread."""
        return np.asarray(self.ex.full(v))[self.rows]

    def result(self, values, like) -> np.ndarray:
        """``values`` (one per active thread) as a full array of ``like``'s type."""
        like = np.asarray(like)
        out = np.zeros((self.ex.n,) + like.shape[1:], like.dtype)
        out[self.rows] = values
        return out

    def fetch(self, v, src_lane: np.ndarray):
        """``v`` of lane ``src_lane`` of each active thread's wave, and whether that lane is
        active (EXEC set)."""
        src = self.base + (src_lane % self.size)
        return np.asarray(self.ex.full(v))[src], self.active[src]

    def wave_bits(self, pred: np.ndarray) -> np.ndarray:
        """Per active thread, the mask (uint64) of the active lanes of its wave where
        ``pred`` (given per active thread) holds."""
        bits = np.zeros(self.ex.n, np.uint64)
        bits[self.rows] = np.where(pred, np.uint64(1) << self.lane.astype(np.uint64), 0)
        per_wave = np.bitwise_or.reduce(bits.reshape(-1, self.size), axis=1)
        return per_wave[self.rows // self.size]


def _select(enabled, valid, fetched, bound_ctrl, old):
    """DPP and permlane writes: a lane not enabled keeps ``old``; an enabled lane whose
    source is invalid gets 0 with ``bound_ctrl``, else keeps ``old``."""
    if fetched.ndim == 2:
        enabled, valid = enabled[:, None], valid[:, None]
    return np.where(enabled & valid, fetched,
                    np.where(enabled & bound_ctrl, np.zeros_like(fetched), old))


# ----------------------------------------------------------------------------- DPP

def dpp_source(ctrl: int, lane: np.ndarray, wave: int, gfx9: bool):
    """The source lane of each lane for a DPP_CTRL value, and whether it is in range."""
    row, pos = lane & ~15, lane & 15
    every = np.ones(lane.shape, bool)
    n = ctrl & 15
    if ctrl <= 0xFF:  # quad_perm: lane i of a quad reads quad lane ctrl[2i+1:2i]
        return (lane & ~3) | ((ctrl >> (2 * (lane & 3))) & 3), every
    if 0x101 <= ctrl <= 0x10F:  # row_shl:n, lane reads lane + n of its row
        return lane + n, pos + n < 16
    if 0x111 <= ctrl <= 0x11F:  # row_shr:n, lane reads lane - n of its row
        return lane - n, pos >= n
    if 0x121 <= ctrl <= 0x12F:  # row_ror:n
        return row | ((pos - n) & 15), every
    if ctrl == 0x140:  # row_mirror
        return row | (15 - pos), every
    if ctrl == 0x141:  # row_half_mirror
        return (lane & ~7) | (7 - (lane & 7)), every
    if gfx9:
        if ctrl in (0x130, 0x134):  # wave_shl:1, wave_rol:1
            return (lane + 1) % wave, every if ctrl == 0x134 else lane + 1 < wave
        if ctrl in (0x138, 0x13C):  # wave_shr:1, wave_ror:1
            return (lane - 1) % wave, every if ctrl == 0x13C else lane >= 1
        if ctrl == 0x142:  # row_bcast:15, lane 15 of the previous row to each row but the first
            return row - 1, lane >= 16
        if ctrl == 0x143:  # row_bcast:31, lane 31 to rows 2 and 3
            return np.full(lane.shape, 31), lane >= 32
    elif 0x150 <= ctrl <= 0x15F:  # row_share:n, lane n of the row
        return row | n, every
    elif 0x160 <= ctrl <= 0x16F:  # row_xmask:n, lane pos ^ n of the row
        return row | (pos ^ n), every
    family = "GFX9" if gfx9 else "GFX10 and later"
    raise KernelFault(f"DPP control {hex(ctrl)} is not a {family} DPP mode")


def _uniform(v, what: str) -> int:
    a = np.asarray(v)
    if a.ndim and (a != a.reshape(-1)[0]).any():
        raise KernelFault(f"{what} must be an immediate")
    return int(a.reshape(-1)[0])


def update_dpp(gfx9: bool, wave: int, has_old: bool):
    """llvm.amdgcn.update.dpp(old, src, ctrl, row_mask, bank_mask, bound_ctrl) and
    llvm.amdgcn.mov.dpp(src, ...) (old undefined: 0 here)."""

    def run(ex, ins, args):
        w = Wave(ex, wave)
        if not has_old:
            args = [np.zeros((), np.asarray(args[0]).dtype)] + list(args)
        old, src = args[0], args[1]
        ctrl, row_mask, bank_mask = (_uniform(a, "a DPP control") for a in args[2:5])
        bound = bool(_uniform(args[5], "bound_ctrl"))
        lane_src, ok = dpp_source(ctrl, w.lane, wave, gfx9)
        fetched, src_active = w.fetch(src, lane_src)
        enabled = (((row_mask >> (w.lane >> 4)) & 1) != 0) & (((bank_mask >> ((w.lane >> 2) & 3)) & 1) != 0)
        return w.result(_select(enabled, ok & src_active, fetched, bound, w.arg(old)), src)
    return run


def permlane(wave: int, cross: bool):
    """llvm.amdgcn.permlane16 / permlanex16(old, src, sel_lo, sel_hi, fetch_inactive,
    bound_ctrl): lane i of a row reads lane sel[i] (a 4-bit field, sel_lo for lanes 0-7,
    sel_hi for 8-15) of its own row (permlane16) or of the other row of its 32-lane half
    (permlanex16)."""

    def run(ex, ins, args):
        w = Wave(ex, wave)
        old, src, lo, hi = args[:4]
        fi = bool(_uniform(args[4], "fetch_inactive"))
        bound = bool(_uniform(args[5], "bound_ctrl"))
        pos = w.lane & 15
        sel = np.where(pos < 8, w.arg(lo).astype(np.int64), w.arg(hi).astype(np.int64))
        nib = (sel >> (4 * (pos & 7))) & 15
        row = w.lane >> 4
        fetched, src_active = w.fetch(src, ((row ^ 1 if cross else row) << 4) | nib)
        valid = src_active | fi
        return w.result(_select(np.ones(len(w.rows), bool), valid, fetched, bound, w.arg(old)), src)
    return run


# ----------------------------------------------------------------------------- LDS permutes

def bpermute(wave: int):
    """ds_bpermute(addr, data): each lane reads ``data`` of lane (addr / 4) mod wave; 0 when
    that lane is inactive (the ISA's pseudocode)."""

    def run(ex, ins, args):
        w = Wave(ex, wave)
        addr = w.arg(args[0]).astype(np.int64) & 0xFFFFFFFF
        fetched, src_active = w.fetch(args[1], addr // 4)
        return w.result(np.where(src_active, fetched, 0), args[1])
    return run


def swizzle(wave: int):
    """ds_swizzle(data, offset): with offset bit 15 set, lane i of each group of four reads
    lane offset[2(i%4)+1 : 2(i%4)] of the group; else, within each group of 32 lanes,
    lane i reads lane ((i & and) | or) ^ xor with and = offset[4:0], or = offset[9:5],
    xor = offset[14:10]. An inactive source gives 0, as for ds_bpermute."""

    def run(ex, ins, args):
        w = Wave(ex, wave)
        offset = _uniform(args[1], "a ds_swizzle offset")
        if offset & 0x8000:
            pos = w.lane & 3
            source = (w.lane & ~3) | ((offset >> (2 * pos)) & 3)
        else:
            inner = w.lane & 31
            source = (w.lane & ~31) | (((inner & (offset & 31)) | ((offset >> 5) & 31))
                                       ^ ((offset >> 10) & 31))
        fetched, src_active = w.fetch(args[0], source)
        return w.result(np.where(src_active, fetched, 0), args[0])
    return run


def permute(wave: int):
    """ds_permute(addr, data): each active lane writes ``data`` to lane (addr / 4) mod wave
    (the highest lane wins); each lane returns what was written to it, 0 if nothing."""

    def run(ex, ins, args):
        w = Wave(ex, wave)
        addr = w.arg(args[0]).astype(np.int64) & 0xFFFFFFFF
        dest = w.base + (addr // 4) % wave
        winner = np.full(ex.n, -1, np.int64)
        np.maximum.at(winner, dest, w.rows)
        data = np.asarray(ex.full(args[1]))
        got = winner[w.rows]
        return w.result(np.where(got >= 0, data[np.maximum(got, 0)], 0), args[1])
    return run


# ----------------------------------------------------------------------------- scalar reads

def readlane(wave: int):
    """v_readlane: the register of the given lane, whether or not that lane is active."""

    def run(ex, ins, args):
        w = Wave(ex, wave)
        lane = w.arg(args[1]).astype(np.int64)
        if ((lane < 0) | (lane >= wave)).any():
            raise KernelFault(f"readlane of lane {int(lane.max())} in a wave of {wave}")
        return w.result(np.asarray(ex.full(args[0]))[w.base + lane], args[0])
    return run


def readfirstlane(wave: int):
    def run(ex, ins, args):
        w = Wave(ex, wave)
        first = np.full(ex.n // wave, wave, np.int64)
        np.minimum.at(first, w.rows // wave, w.lane)
        return w.result(np.asarray(ex.full(args[0]))[w.base + first[w.rows // wave]], args[0])
    return run


def ballot(wave: int, bits: int):
    """The mask of the active lanes of the wave whose predicate is true."""
    if bits < wave:
        raise KernelFault(f"ballot.i{bits} in a wave of {wave} lanes")

    def run(ex, ins, args):
        w = Wave(ex, wave)
        mask = w.wave_bits(w.arg(args[0]).astype(bool))
        dt = np.int64 if bits == 64 else np.int32
        return w.result(mask.astype(np.dtype(f"u{bits // 8}")).view(dt), np.zeros(1, dt))
    return run


def mbcnt(high: bool, wave: int):
    """mbcnt.lo(mask, acc) / mbcnt.hi(mask, acc): ``acc`` plus the set bits of ``mask`` (the
    low or high 32 bits of a 64-lane mask) that belong to lanes below this one."""

    def run(ex, ins, args):
        w = Wave(ex, wave)
        mask = w.arg(args[0]).astype(np.int64) & 0xFFFFFFFF
        below = np.clip(w.lane - (32 if high else 0), 0, 32)
        under = mask & ((np.int64(1) << below) - 1)
        return w.result(w.arg(args[1]).astype(np.int32) + popcount(under).astype(np.int32),
                        np.zeros(1, np.int32))
    return run
