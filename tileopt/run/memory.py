"""The memory a launch sees, and the three checkers a GPU does not give you.

Global memory is one region per pointer argument: a pointer value is an int64 whose bits 40
and up name the region (0 is null, argument i is i + 1) and whose low 40 bits are a byte
offset into it, so address arithmetic works as on the GPU and every access can be checked
against the buffer it started from. Shared memory is an array per block of the launch
(addresses in ``addrspace(3)`` are byte offsets into it, 32 bits as in NVPTX's data layout);
a generic pointer to shared memory carries the SHARED region tag. Local memory (``alloca``,
``addrspace(5)``) is private to each thread: the same offset names a different byte in
each thread, and a generic pointer to it carries the LOCAL tag. The module's own globals
with an initializer (libdevice's tables) are regions after the arguments'.

Checks:
- bounds (as compute-sanitizer memcheck): an access outside its region, or through a null
  or unknown pointer, or misaligned, stops the launch with an error naming the thread, the
  block, the argument and the byte offset;
- races (as racecheck): per shared byte, the last writer and the readers since the last
  barrier of its block; a thread that reads or writes what another thread wrote, or writes
  what another thread read, since that barrier is reported (a write of the value already
  there is not a hazard);
- uninitialised shared reads: a byte never written since the block started;
- reads and writes of the destination of a ``cp.async`` whose group has not been waited
  for, and writes of an operand of a ``wgmma`` not waited for (async_copy.py).
Race and uninitialised reads are collected (the launch goes on, as with the GPU tools).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tileopt.ir import TileoptError

REGION_SHIFT = 40
OFFSET_MASK = (1 << REGION_SHIFT) - 1
SHARED_REGION = (1 << 20) - 1
LOCAL_REGION = SHARED_REGION - 1
MAX_REPORTS = 20
ATOMIC = -3        # the writer of shared bytes that atomics updated since the barrier


class KernelFault(TileoptError):
    """A fatal error of the launched kernel (an invalid access, a divergent barrier)."""


@dataclass
class Buffer:
    name: str
    data: np.ndarray           # uint8 view of the argument's bytes
    is_global: bool = False    # a global of the module (named @name), not an argument

    def describe(self, region: int, sized: bool = False) -> str:
        """``argument 0 (x.npy)`` or ``global @name``; ``sized``: with its bytes."""
        size = f"{self.data.size} bytes"
        if self.is_global:
            return f"global @{self.name}" + (f" ({size})" if sized else "")
        return f"argument {region - 1} ({self.name}" + (f", {size})" if sized else ")")


class Lanes:
    """Who lane l of the launch chunk is: its block (global linear id) and thread."""

    def __init__(self, first_block: int, blocks: int, threads: int, grid: tuple[int, int, int]):
        self.first_block, self.blocks, self.threads, self.grid = first_block, blocks, threads, grid
        n = blocks * threads
        self.count = n
        lane = np.arange(n, dtype=np.int64)
        self.local_block = lane // threads
        self.tid = (lane % threads).astype(np.int32)

    def describe(self, lane: int) -> str:
        b = self.first_block + int(lane) // self.threads
        gx, gy, _ = self.grid
        return (f"thread ({int(lane) % self.threads},0,0) of block "
                f"({b % gx},{b // gx % gy},{b // (gx * gy)})")


class Memory:
    def __init__(self, buffers: list[Buffer], shared_bytes: int, checks: bool = True):
        self.buffers = buffers
        self.shared_bytes = shared_bytes
        self.checks = checks
        self.reports: list[str] = []
        self.report_count = 0
        self._seen: set[tuple] = set()
        self.global_regions: dict[str, int] = {}   # the module's globals: name -> region

    # ---------------------------------------------------------------- per chunk
    def start_chunk(self, lanes: Lanes) -> None:
        self.lanes = lanes
        size = lanes.blocks * self.shared_bytes
        self.smem = np.zeros(size, np.uint8)
        self.init = np.zeros(size, bool)
        self.w_tid = np.full(size, -1, np.int32)
        self.w_epoch = np.full(size, -1, np.int32)
        self.r_tid = np.full(size, -1, np.int32)
        self.r_epoch = np.full(size, -1, np.int32)
        self.epoch = np.zeros(lanes.blocks, np.int32)
        self.pending = np.zeros(size, bool)     # destination of a cp.async not waited for
        self.in_flight = np.zeros(size, np.int32)   # operand of wgmmas not waited for
        self.copies = None                      # async_copy.copies_of(self) makes them
        self.wgmmas = None                      # async_copy.wgmmas_of(self)
        self.local = np.zeros((lanes.count, 0), np.uint8)   # each thread's stack frame
        self.frame: dict[int, int] = {}         # alloca (its id) -> offset in the frame

    def alloca(self, key: int, size: int, align: int) -> int:
        """The frame offset of an ``alloca`` (the same in every thread, as the stack of a
        GPU thread); its bytes are added to every thread's frame when first executed."""
        if key not in self.frame:
            off = -(-self.local.shape[1] // align) * align
            self.frame[key] = off
            grow = off + size - self.local.shape[1]
            self.local = np.pad(self.local, ((0, 0), (0, grow)))
        return self.frame[key]

    def barrier(self, local_blocks: np.ndarray) -> None:
        self.epoch[local_blocks] += 1

    # ---------------------------------------------------------------- reports
    def report(self, kind: str, message: str) -> None:
        self.report_count += 1
        if kind not in self._seen and len(self.reports) < MAX_REPORTS:
            self._seen.add(kind)
            self.reports.append(message)

    # ---------------------------------------------------------------- address decoding
    def _global_region(self, addr: np.ndarray, size: int, lanes: np.ndarray, what: str,
                       align: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Split global accesses by region; check them; -> [(region data, rows, offsets)]."""
        region = (addr >> REGION_SHIFT).astype(np.int64)
        offset = addr & OFFSET_MASK
        out = []
        for r in np.unique(region):
            rows = np.nonzero(region == r)[0]
            off = offset[rows]
            if r == 0 or r > len(self.buffers):
                lane = lanes[rows[0]]
                kind = "a null pointer" if r == 0 and off[0] < (1 << 20) else "an invalid pointer"
                raise KernelFault(f"{what} of {size} bytes through {kind} (address "
                                  f"{hex(int(addr[rows[0]]))}) by {self.lanes.describe(lane)}")
            buf = self.buffers[r - 1]
            bad = (off < 0) | (off + size > buf.data.size)
            if bad.any():
                k = int(np.argmax(bad))
                raise KernelFault(
                    f"out-of-bounds {what} of {size} bytes at byte offset {int(off[k])} of "
                    f"{buf.describe(r, sized=True)} by {self.lanes.describe(lanes[rows[k]])}")
            self._check_align(off, align, lanes[rows], what, buf.describe(r))
            out.append((buf.data, rows, off))
        return out

    def _check_align(self, off, align, lanes, what, where) -> None:
        if align > 1:
            bad = off % align != 0
            if bad.any():
                k = int(np.argmax(bad))
                raise KernelFault(f"misaligned {what} ({align}-byte access) at byte offset "
                                  f"{int(off[k])} of {where} by {self.lanes.describe(lanes[k])}")

    def _offsets(self, addr, size, lanes, what, align, space: str, limit: int,
                 room: str) -> np.ndarray:
        """Byte offsets into a space of ``limit`` bytes, bounds- and alignment-checked."""
        off = addr.astype(np.int64)
        bad = (off < 0) | (off + size > limit)
        if bad.any():
            k = int(np.argmax(bad))
            raise KernelFault(f"out-of-bounds {space} {what} of {size} bytes at byte offset "
                              f"{int(off[k])} ({room}) by {self.lanes.describe(lanes[k])}")
        self._check_align(off, align, lanes, f"{space} {what}", f"{space} memory")
        return off

    def _shared_index(self, addr, size, lanes, what, align) -> np.ndarray:
        off = self._offsets(addr, size, lanes, what, align, "shared", self.shared_bytes,
                            f"the kernel has {self.shared_bytes} bytes of shared memory")
        base = self.lanes.local_block[lanes] * self.shared_bytes + off
        return base[:, None] + np.arange(size)

    def _local_index(self, addr, size, lanes, what, align):
        frame = self.local.shape[1]
        off = self._offsets(addr, size, lanes, what, align, "local", frame,
                            f"the thread's frame has {frame} bytes")
        return lanes[:, None], off[:, None] + np.arange(size)

    def split_generic(self, addr: np.ndarray) -> dict[str, np.ndarray]:
        """Generic addresses by the space they point to: rows of each (present) space."""
        tag = addr >> REGION_SHIFT
        shared, local = tag == SHARED_REGION, tag == LOCAL_REGION
        parts = {"shared": shared, "local": local, "global": ~(shared | local)}
        return {space: rows for space, rows in parts.items() if rows.any()}

    # ---------------------------------------------------------------- access
    def read(self, space: str, addr: np.ndarray, size: int, lanes: np.ndarray,
             align: int = 1, where: str = "") -> np.ndarray:
        out = np.zeros((len(addr), size), np.uint8)
        if len(addr) == 0:
            return out
        if space == "generic":
            for part, rows in self.split_generic(addr).items():
                at = addr[rows] if part == "global" else addr[rows] & OFFSET_MASK
                out[rows] = self.read(part, at, size, lanes[rows], align, where)
            return out
        if space == "local":
            return self.local[self._local_index(addr, size, lanes, "load", align)]
        if space == "shared":
            fi = self._shared_index(addr, size, lanes, "load", align)
            if self.checks:
                self._check_shared_read(fi, lanes, where)
            return self.smem[fi]
        cols = np.arange(size)
        for data, rows, off in self._global_region(addr, size, lanes, "load", align):
            out[rows] = data[off[:, None] + cols]
        return out

    def write(self, space: str, addr: np.ndarray, data: np.ndarray, lanes: np.ndarray,
              align: int = 1, where: str = "") -> None:
        if len(addr) == 0:
            return
        size = data.shape[1]
        if space == "generic":
            for part, rows in self.split_generic(addr).items():
                at = addr[rows] if part == "global" else addr[rows] & OFFSET_MASK
                self.write(part, at, data[rows], lanes[rows], align, where)
            return
        if space == "local":
            self.local[self._local_index(addr, size, lanes, "store", align)] = data
            return
        if space == "shared":
            fi = self._shared_index(addr, size, lanes, "store", align)
            if self.checks:
                self._check_shared_write(fi, data, lanes, where)
            self.smem[fi] = data
            if self.checks:
                self._after_shared_write(fi, data, lanes, where)
            return
        cols = np.arange(size)
        for buf, rows, off in self._global_region(addr, size, lanes, "store", align):
            buf[off[:, None] + cols] = data[rows]

    def global_view(self, addr: np.ndarray, size: int, lanes: np.ndarray, what: str):
        return self._global_region(addr, size, lanes, what, size)

    def shared_view(self, addr: np.ndarray, size: int, lanes: np.ndarray, what: str,
                    where: str = ""):
        """An atomic's shared bytes, as ``global_view``: [(the block's memory, rows, byte
        index)]. Atomics of one instruction or of several threads do not race with each
        other; with a plain access of another thread since the barrier they do. The bytes
        count as written by ``ATOMIC`` (a plain read of them before a barrier is a race)."""
        fi = self._shared_index(addr, size, lanes, what, size)
        if self.checks:
            tid = self.lanes.tid[lanes][:, None]
            cur = self.epoch[self.lanes.local_block[lanes]][:, None]
            self._check_pending(fi, lanes, "writes", where)
            uninit = ~self.init[fi]
            if uninit.any():
                byte, lane = self._who(fi, lanes, int(np.argmax(uninit)))
                self.report(("uninit", where), f"atomic update of uninitialised shared memory "
                            f"at byte offset {byte} by {self.lanes.describe(lane)} ({where})")
            wt, rt = self.w_tid[fi], self.r_tid[fi]
            self._race((self.w_epoch[fi] == cur) & (wt >= 0) & (wt != tid), fi, lanes,
                       "updates", "written", wt, where)
            self._race((self.r_epoch[fi] == cur) & ((rt == -2) | ((rt >= 0) & (rt != tid))),
                       fi, lanes, "updates", "read", rt, where)
            self.init[fi] = True
            self.w_tid[fi] = ATOMIC
            self.w_epoch[fi] = np.broadcast_to(cur, fi.shape)
        return [(self.smem, np.arange(len(addr)), fi[:, 0])]

    # ---------------------------------------------------------------- shared checks
    def _who(self, fi, lanes, k):
        row, col = np.unravel_index(k, fi.shape)
        return int(fi[row, col]) % self.shared_bytes, lanes[row]

    def _thread_name(self, lane_tid: int) -> str:
        return f"thread ({lane_tid},0,0)"

    def _check_shared_read(self, fi, lanes, where) -> None:
        tid = self.lanes.tid[lanes][:, None]
        cur = self.epoch[self.lanes.local_block[lanes]][:, None]
        self._check_pending(fi, lanes, "reads", where)
        uninit = ~self.init[fi] & ~self.pending[fi]
        if uninit.any():
            byte, lane = self._who(fi, lanes, int(np.argmax(uninit)))
            self.report(("uninit", where), f"read of uninitialised shared memory at byte offset "
                        f"{byte} by {self.lanes.describe(lane)} ({where})")
        wt = self.w_tid[fi]
        self._race((self.w_epoch[fi] == cur) & ((wt >= 0) & (wt != tid) | (wt == ATOMIC)), fi,
                   lanes, "reads", "written", wt, where)
        # note the readers: one thread id, or -2 for several
        flat = fi.ravel()
        t = np.broadcast_to(tid, fi.shape).ravel()
        c = np.broadcast_to(cur, fi.shape).ravel()
        u, inv = np.unique(flat, return_inverse=True)
        tmin = np.full(len(u), np.iinfo(np.int32).max, np.int32)
        tmax = np.full(len(u), -1, np.int32)
        np.minimum.at(tmin, inv, t)
        np.maximum.at(tmax, inv, t)
        ce = np.empty(len(u), np.int32)
        ce[inv] = c
        old = np.where(self.r_epoch[u] == ce, self.r_tid[u], -1)
        multi = (tmin != tmax) | (old == -2) | ((old >= 0) & (old != tmin))
        self.r_tid[u] = np.where(multi, -2, tmin)
        self.r_epoch[u] = ce

    def _check_pending(self, fi, lanes, verb, where) -> None:
        hit = self.pending[fi]
        if hit.any():
            byte, lane = self._who(fi, lanes, int(np.argmax(hit)))
            self.report(("pending", where), f"{self.lanes.describe(lane)} {verb} shared memory "
                        f"at byte offset {byte}, the destination of a cp.async whose group "
                        f"has not been waited for ({where})")

    def _check_shared_write(self, fi, data, lanes, where) -> None:
        self._check_pending(fi, lanes, "writes", where)
        hit = self.in_flight[fi] > 0
        if hit.any():
            byte, lane = self._who(fi, lanes, int(np.argmax(hit)))
            self.report(("in flight", where), f"{self.lanes.describe(lane)} writes shared memory "
                        f"at byte offset {byte}, an operand of a wgmma whose group has not been "
                        f"waited for ({where})")
        tid = self.lanes.tid[lanes][:, None]
        cur = self.epoch[self.lanes.local_block[lanes]][:, None]
        wt = self.w_tid[fi]
        self._race((self.w_epoch[fi] == cur) & ((wt >= 0) & (wt != tid) & (self.smem[fi] != data)
                                                 | (wt == ATOMIC)),
                   fi, lanes, "writes", "written", wt, where)
        rt = self.r_tid[fi]
        self._race((self.r_epoch[fi] == cur) & ((rt == -2) | ((rt >= 0) & (rt != tid))),
                   fi, lanes, "writes", "read", rt, where)

    def _race(self, hazard, fi, lanes, verb, done, other, where) -> None:
        """Report the first byte where ``hazard`` holds: this thread ``verb`` what ``other``
        (a thread id, -2 for several threads) has ``done`` since the last barrier."""
        if not hazard.any():
            return
        k = int(np.argmax(hazard))
        byte, lane = self._who(fi, lanes, k)
        them = {-2: "several threads", ATOMIC: "atomics"}.get(int(other.flat[k])) or \
            self._thread_name(int(other.flat[k]))
        self.report(("race", where), f"shared-memory race: {self.lanes.describe(lane)} {verb} "
                    f"byte offset {byte}, {done} by {them} of the same block since the last "
                    f"barrier ({where})")

    def _after_shared_write(self, fi, data, lanes, where) -> None:
        clash = self.smem[fi] != data  # two threads of this instruction wrote different values
        if clash.any():
            byte, lane = self._who(fi, lanes, int(np.argmax(clash)))
            self.report(("race", where), f"shared-memory race: threads of one store write "
                        f"different values to byte offset {byte} (one of them "
                        f"{self.lanes.describe(lane)}) ({where})")
        tid = np.broadcast_to(self.lanes.tid[lanes][:, None], fi.shape)
        self.init[fi] = True
        self.w_tid[fi] = tid
        self.w_epoch[fi] = np.broadcast_to(self.epoch[self.lanes.local_block[lanes]][:, None],
                                           fi.shape)
