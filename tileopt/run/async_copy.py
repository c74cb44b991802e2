"""``cp.async`` and its commit and wait groups, in a lock-step interpreter.

The interpreter runs every thread in lock step, so "asynchronous" needs a definition: a
``cp.async`` reads its global source when it is issued (bounds-checked then, the
``src-size`` bytes only, the rest of the ``cp-size`` bytes zero) and holds the bytes; they
land in shared memory only when the issuing thread's ``cp.async.wait_group N`` (or
``wait_all``) completes the group they belong to: every group that thread committed except
its newest N. Copies issued after a thread's last ``commit_group`` are in no group yet and
no wait completes them. Until a copy lands its destination bytes are *pending*: any read or
write of them by any thread is reported (the GPU would read stale or half-written data),
like the race checker's reports. A landed copy counts as a write by the issuing thread at
the time of the wait, so another thread that reads it without a barrier in between is a
race.
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
