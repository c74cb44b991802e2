"""``cp.async`` and ``wgmma`` with their commit and wait groups, in a lock-step interpreter.

The interpreter runs every thread in lock step, so "asynchronous" needs a definition: a
``cp.async`` reads its global source when it is issued (bounds-checked then, the
``src-size`` bytes only, the rest of the ``cp-size`` bytes zero) and holds the bytes; they
land in shared memory only when the issuing thread's ``cp.async.wait_group N`` (or
``wait_all``) completes the group they belong to: every group that thread committed except
its newest N. Copies issued after a thread's last ``commit_group`` are in no group yet and
no wait completes them. Until a copy lands its destination bytes are *pending*: any read or
write of them by any thread is reported (the GPU would read stale or half-written data),
like the race checker's reports. Since the copy may land at any time between issue and
wait, it is checked as a write both when issued (another thread's read or write of the
destination since the last barrier is a race) and when it lands (a write by the issuing
thread at the wait, so another thread that reads it without a barrier in between is a
race).

A ``wgmma.mma_async`` computes its product when it executes (its accumulator registers are
complete at once), but the GPU may read its shared-memory operands at any time until the
``wgmma.wait_group`` that retires its group (committed by ``wgmma.commit_group``, per
warpgroup, counted on its first thread). Until then its operand bytes are *in flight*: a
write to them is reported; when retired, the operands count as read by the warpgroup's
first thread at the wait, so another thread that overwrites them without a barrier after
the wait is a race.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tileopt.run.memory import KernelFault, Memory


@dataclass
class _Copy:
    lanes: np.ndarray      # issuing threads (rows of the chunk)
    group: np.ndarray      # the group each belongs to: its thread's commit count at issue
    dst: np.ndarray        # shared byte offsets
    data: np.ndarray       # (rows, cp-size) bytes
    where: str
    landed: np.ndarray     # bool per row


class AsyncCopies:
    def __init__(self, mem: Memory):
        self.mem = mem
        self.committed = np.zeros(mem.lanes.count, np.int64)
        self.copies: list[_Copy] = []

    def issue(self, dst: np.ndarray, src: np.ndarray, cp_size: int, src_size: np.ndarray,
              lanes: np.ndarray, where: str) -> None:
        if cp_size not in (4, 8, 16):
            raise KernelFault(f"cp.async of {cp_size} bytes (4, 8 or 16 are valid)")
        if ((src_size < 0) | (src_size > cp_size)).any():
            raise KernelFault(f"cp.async src-size {int(src_size.max())} outside 0..{cp_size}")
        mem = self.mem
        data = np.zeros((len(lanes), cp_size), np.uint8)
        for size in np.unique(src_size):
            rows = np.nonzero(src_size == size)[0]
            if size:
                data[rows, :size] = mem.read("global", src[rows], int(size), lanes[rows],
                                             cp_size, where)
        fi = mem._shared_index(dst, cp_size, lanes, "cp.async store", cp_size)
        if mem.checks:  # it may land at any time until the wait: a write from now on
            mem._check_shared_write(fi, data, lanes, where)
        mem.pending[fi] = True
        self.copies.append(_Copy(lanes, self.committed[lanes].copy(), dst, data, where,
                                 np.zeros(len(lanes), bool)))

    def commit(self, lanes: np.ndarray) -> None:
        self.committed[lanes] += 1

    def wait(self, newest_left: int, lanes: np.ndarray) -> None:
        waiting = np.zeros(self.mem.lanes.count, bool)
        waiting[lanes] = True
        for cp in self.copies:
            done = ~cp.landed & waiting[cp.lanes] & \
                (cp.group < self.committed[cp.lanes] - newest_left)
            if not done.any():
                continue
            rows = np.nonzero(done)[0]
            fi = self.mem._shared_index(cp.dst[rows], cp.data.shape[1], cp.lanes[rows],
                                        "cp.async store", 1)
            self.mem.pending[fi] = False
            self.mem.write("shared", cp.dst[rows], cp.data[rows], cp.lanes[rows], 1, cp.where)
            cp.landed[rows] = True
        self.copies = [cp for cp in self.copies if not cp.landed.all()]


def copies_of(mem: Memory) -> AsyncCopies:
    """The copies in flight of the launch chunk that ``mem`` holds."""
    if mem.copies is None:
        mem.copies = AsyncCopies(mem)
    return mem.copies


@dataclass
class _Reads:
    lanes: np.ndarray      # the first thread of each warpgroup, per address
    group: np.ndarray
    addr: np.ndarray       # shared byte offsets of the elements read
    size: int
    where: str


class WgmmaReads:
    def __init__(self, mem: Memory):
        self.mem = mem
        self.committed = np.zeros(mem.lanes.count, np.int64)
        self.reads: list[_Reads] = []

    def issue(self, addr: np.ndarray, size: int, lanes: np.ndarray, where: str) -> None:
        fi = self.mem._shared_index(addr, size, lanes, "wgmma operand load", size)
        np.add.at(self.mem.in_flight, fi.ravel(), 1)
        self.reads.append(_Reads(lanes, self.committed[lanes].copy(), addr, size, where))

    def commit(self, lanes: np.ndarray) -> None:
        self.committed[lanes] += 1

    def wait(self, newest_left: int, lanes: np.ndarray) -> None:
        waiting = np.zeros(self.mem.lanes.count, bool)
        waiting[lanes] = True
        keep = []
        for rd in self.reads:
            done = waiting[rd.lanes] & (rd.group < self.committed[rd.lanes] - newest_left)
            if done.any():
                fi = self.mem._shared_index(rd.addr[done], rd.size, rd.lanes[done], "", 1)
                np.add.at(self.mem.in_flight, fi.ravel(), -1)
                # the operands are read as of now: record the reads in this barrier epoch
                self.mem.read("shared", rd.addr[done], rd.size, rd.lanes[done], 1, rd.where)
            if not done.all():
                keep.append(_Reads(rd.lanes[~done], rd.group[~done], rd.addr[~done], rd.size,
                                   rd.where))
        self.reads = keep


def wgmmas_of(mem: Memory) -> WgmmaReads:
    """The wgmma operand reads in flight of the launch chunk that ``mem`` holds."""
    if mem.wgmmas is None:
        mem.wgmmas = WgmmaReads(mem)
    return mem.wgmmas
