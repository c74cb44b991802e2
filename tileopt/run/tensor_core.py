"""Warp- and warpgroup-wide matrix instructions: ``ldmatrix``, ``stmatrix``, ``mma.sync``
and ``wgmma.mma_async``, written from the PTX ISA's fragment layouts.

Every function here takes the rows of the executing threads (``rows``, whole warps or
whole warpgroups in launch order) and works on arrays shaped (groups, lanes, ...). Within a
warp, lane l has ``g = l // 4`` (groupID) and ``t = l % 4`` (threadID_in_group), the names
the ISA's layout tables use.

Products are exact in float64 (f16, bf16, tf32 and s8 inputs have at most 24 significant
bits) and each instruction's sum, C included, is rounded to f32 once: the hardware's
accumulation order and intermediate rounding are unspecified by the ISA, so results agree
with the GPU to within f32 rounding of the sum, not bit for bit. A tf32 operand is the f32
register with its 13 low mantissa bits ignored, as the tensor cores read it.
"""

from __future__ import annotations

import numpy as np

from tileopt.run.memory import KernelFault

# element type -> (numpy type of the stored element, bits)
_ELEMS = {"f16": (np.float16, 16), "bf16": (np.uint16, 16), "tf32": (np.float32, 32),
          "s8": (np.int8, 8), "u8": (np.uint8, 8), "f32": (np.float32, 32), "s32": (np.int32, 32)}


def whole_groups(rows: np.ndarray, size: int, what: str, describe) -> np.ndarray:
    """The executing rows as (groups, size): every thread of each warp (32) or warpgroup
    (128) must execute a ``.sync.aligned`` instruction together."""
    if len(rows) % size or (len(rows) and ((rows.reshape(-1, size) - rows.reshape(-1, size)[:, :1]
                                            != np.arange(size)).any()
                                           or (rows[::size] % size).any())):
        raise KernelFault(f"{what} needs every thread of its {'warp' if size == 32 else 'warpgroup'}"
                          f" to execute it together (a divergent .sync.aligned instruction near "
                          f"{describe(int(rows[0]))})")
    return rows.reshape(-1, size)


def to_f64(bits: np.ndarray, elem: str) -> np.ndarray:
    """Raw element bits (uint64 array) -> float64 values of the element type."""
    if elem == "bf16":
        return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    if elem == "tf32":
        return (bits.astype(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64)
    store, nbits = _ELEMS[elem]
    width = {8: np.uint8, 16: np.uint16, 32: np.uint32}[nbits]
    return bits.astype(width).view(store).astype(np.float64)


def unpack(regs: np.ndarray, elem: str) -> np.ndarray:
    """(..., r) 32-bit registers -> (..., r * per) float64 elements, low bits first."""
    nbits = _ELEMS[elem][1]
    per = 32 // nbits
    shifts = (np.arange(per, dtype=np.uint64) * np.uint64(nbits))
    parts = (regs[..., None] >> shifts) & np.uint64((1 << nbits) - 1)
    return to_f64(parts, elem).reshape(regs.shape[:-1] + (regs.shape[-1] * per,))


# ------------------------------------------------------------------------- ldmatrix
def ldmatrix(mem, addr: np.ndarray, lanes: np.ndarray, count: int, trans: bool,
             where: str) -> np.ndarray:
    """``ldmatrix.sync.aligned.m8n8.x<count>[.trans].b16``: ``addr`` (warps, 32) shared
    offsets; lanes 8i..8i+7 give the rows of matrix i. -> (warps, 32, count) uint64, the
    register of matrix i holding row g, columns 2t and 2t+1 (of the transpose with .trans)."""
    warps = addr.shape[0]
    src = addr[:, :8 * count].reshape(-1)
    raw = mem.read("shared", src, 16, lanes[:, :8 * count].reshape(-1), 16, where)
    m = raw.view(np.uint16).reshape(warps, count, 8, 8)       # [w, matrix, row, col]
    if trans:
        m = m.transpose(0, 1, 3, 2)
    lane = np.arange(32)
    g, c = lane // 4, 2 * (lane % 4)
    lo = m[:, :, g, c].astype(np.uint64)                       # (w, count, 32)
    hi = m[:, :, g, c + 1].astype(np.uint64)
    return (lo | (hi << np.uint64(16))).transpose(0, 2, 1)


def stmatrix(mem, addr: np.ndarray, regs: np.ndarray, lanes: np.ndarray, trans: bool,
             where: str) -> None:
    """``stmatrix.sync.aligned.m8n8.x<count>[.trans].b16``: the inverse of ldmatrix;
    ``regs`` (warps, 32, count)."""
    warps, _, count = regs.shape
    lane = np.arange(32)
    g, c = lane // 4, 2 * (lane % 4)
    m = np.zeros((warps, count, 8, 8), np.uint16)
    r = regs.transpose(0, 2, 1)
    m[:, :, g, c] = (r & np.uint64(0xFFFF)).astype(np.uint16)
    m[:, :, g, c + 1] = (r >> np.uint64(16)).astype(np.uint16)
    if trans:
        m = m.transpose(0, 1, 3, 2)
    data = np.ascontiguousarray(m).view(np.uint8).reshape(warps * count * 8, 16)
    mem.write("shared", addr[:, :8 * count].reshape(-1), data,
              lanes[:, :8 * count].reshape(-1), 16, where)


# ------------------------------------------------------------------------- mma.sync
def _a_coords(shape: str, elem: str):
    """(row, col) of each A element a_i of every lane: arrays (32, n)."""
    lane = np.arange(32)[:, None]
    g, t = lane // 4, lane % 4
    if shape == "m16n8k16" and elem in ("f16", "bf16"):
        i = np.arange(8)[None, :]
        return g + 8 * ((i // 2) % 2), 2 * t + (i % 2) + 8 * (i // 4)
    if shape == "m16n8k8" and elem == "tf32":
        i = np.arange(4)[None, :]
        return g + 8 * (i % 2), t + 4 * (i // 2)
    if shape == "m16n8k32" and elem in ("s8", "u8"):
        i = np.arange(16)[None, :]
        return g + 8 * ((i // 4) % 2), 4 * t + (i % 4) + 16 * (i // 8)
    return None


def _b_coords(shape: str, elem: str):
    """(row k, col n) of each B element b_i of every lane."""
    lane = np.arange(32)[:, None]
    g, t = lane // 4, lane % 4
    if shape == "m16n8k16":
        i = np.arange(4)[None, :]
        return 2 * t + (i % 2) + 8 * (i // 2), g + 0 * i
    if shape == "m16n8k8":
        i = np.arange(2)[None, :]
        return t + 4 * i, g + 0 * i
    i = np.arange(8)[None, :]                       # m16n8k32
    return 4 * t + (i % 4) + 16 * (i // 4), g + 0 * i


def _cd_coords():
    """(row, col) of each C/D element c_i (f32 or s32) of an m16n8 tile."""
    lane = np.arange(32)[:, None]
    g, t = lane // 4, lane % 4
    i = np.arange(4)[None, :]
    return g + 8 * (i // 2), 2 * t + (i % 2)


def mma_sync(shape: str, types: list[str], a: np.ndarray, b: np.ndarray,
             c: np.ndarray) -> np.ndarray:
    """``mma.sync.aligned.<shape>.row.col.<d>.<a>.<b>.<c>``: a, b, c as (warps, 32, regs)
    uint64 register bits -> d (warps, 32, 4) uint64."""
    d_t, a_t, b_t, c_t = types
    m, n, k = (int(x) for x in shape[1:].replace("n", " ").replace("k", " ").split())
    coords = _a_coords(shape, a_t)
    if coords is None or a_t != b_t or d_t != c_t or d_t not in ("f32", "s32"):
        raise KernelFault(f"mma.sync .{shape} with .{d_t}.{a_t}.{b_t}.{c_t} is not supported")
    warps = a.shape[0]
    w = np.arange(warps)[:, None, None]
    av, bv = unpack(a, a_t), unpack(b, b_t)
    A = np.zeros((warps, m, k))
    B = np.zeros((warps, k, n))
    ar, ac = coords
    A[w, ar[None], ac[None]] = av
    br, bc = _b_coords(shape, b_t)
    B[w, br[None], bc[None]] = bv
    cr, cc = _cd_coords()
    C = np.zeros((warps, m, n))
    C[w, cr[None], cc[None]] = to_f64(c, c_t)
    D = A @ B + C
    return from_f64(D[w, cr[None], cc[None]], d_t)


def from_f64(x: np.ndarray, elem: str) -> np.ndarray:
    """float64 results -> f32 (rounded once) or s32 (wrapping) register bits."""
    if elem == "s32":
        return (x.astype(np.int64) & 0xFFFFFFFF).astype(np.uint64)
    return x.astype(np.float32).view(np.uint32).astype(np.uint64)


# ------------------------------------------------------------------------- wgmma
SWIZZLE_BYTES = {0: 0, 1: 128, 2: 64, 3: 32}   # descriptor bits 62-63


def descriptor_addresses(desc: np.ndarray, rows: int, cols: int, esize: int,
                         mn_major: bool) -> np.ndarray:
    """Shared byte offsets of a (rows=M or N) x (cols=K) operand read through wgmma's
    64-bit matrix descriptor (start address, LBO, SBO >> 4; swizzle mode), in the
    canonical layouts of the PTX ISA. ``desc`` (groups,) -> (groups, rows, cols).

    Units of 16 bytes are "chunks"; a core matrix is 8 rows of one chunk. K-major: each
    row's K elements are contiguous; without swizzle, core matrices are 128 contiguous
    bytes, the next one along K at LBO, along M/N at SBO; with a swizzle of W bytes, 8 rows
    of W bytes form an atom, the next 8 rows at SBO. MN-major: the same with the roles of
    the two dimensions swapped (8 K-rows of MN-contiguous elements): without swizzle the
    next core matrix along K at LBO, along M/N at SBO; with a swizzle, the next W bytes
    along M/N at LBO, the next 8 K-rows at SBO. A swizzle XORs the 16-byte chunk index
    (address bits 4 and up) with the row within the 8-row pattern (address bits 7 and up),
    on the shared-memory address itself."""
    desc = desc.astype(np.uint64)
    start = ((desc & np.uint64(0x3FFF)) << np.uint64(4)).astype(np.int64)
    lbo = (((desc >> np.uint64(16)) & np.uint64(0x3FFF)) << np.uint64(4)).astype(np.int64)
    sbo = (((desc >> np.uint64(32)) & np.uint64(0x3FFF)) << np.uint64(4)).astype(np.int64)
    base_off = ((desc >> np.uint64(49)) & np.uint64(7)).astype(np.int64)
    mode = ((desc >> np.uint64(62)) & np.uint64(3)).astype(np.int64)
    if (base_off != 0).any():
        raise KernelFault("wgmma descriptor with a non-zero matrix base offset is not supported")
    if len(np.unique(mode)) > 1:
        raise KernelFault("wgmma descriptors of one instruction with different swizzle modes")
    width = SWIZZLE_BYTES[int(mode[0])] if len(mode) else 0
    r = np.arange(rows)[:, None]
    c = np.arange(cols)[None, :]
    S, L = sbo[:, None, None], lbo[:, None, None]
    if not mn_major:
        row, kb = r, c * esize
        if width == 0:
            off = (row // 8) * S + (kb // 16) * L + (row % 8) * 16 + kb % 16
        else:
            off = (row // 8) * S + (kb // width) * L + (row % 8) * width + kb % width
    else:
        mb, krow = r * esize, c
        if width == 0:
            off = (krow // 8) * L + (mb // 16) * S + (krow % 8) * 16 + mb % 16
        else:
            off = (krow // 8) * S + (mb // width) * L + (krow % 8) * width + mb % width
    addr = start[:, None, None] + off
    if width:
        mask = width // 16 - 1
        addr = addr ^ (((addr >> 7) & mask) << 4)
    return addr


def wgmma(shape: str, types: list[str], a, b_desc: np.ndarray, c: np.ndarray,
          scale_d: np.ndarray, imms: list[int], read) -> np.ndarray:
    """``wgmma.mma_async.sync.aligned.<shape>.<d>.<a>.<b>``. ``a``: (groups, 128, 4)
    registers, or (groups,) descriptors; ``c`` (groups, 128, n/2) accumulator bits;
    ``scale_d`` (groups,) 0 or 1; ``imms``: imm-scale-a, imm-scale-b[, imm-trans-a]
    [, imm-trans-b]; ``read(addr (groups, r, c), esize)`` -> element bits.
    -> d (groups, 128, n/2)."""
    d_t, a_t, b_t = types
    m, n, k = (int(x) for x in shape[1:].replace("n", " ").replace("k", " ").split())
    if m != 64 or d_t != "f32" or a_t != b_t or a_t not in ("f16", "bf16", "tf32"):
        raise KernelFault(f"wgmma .{shape}.{d_t}.{a_t}.{b_t} is not supported")
    esize = _ELEMS[a_t][1] // 8
    a_regs = a.ndim == 3
    scale_a, scale_b = imms[0], imms[1]
    trans = imms[2:]
    if a_t == "tf32" and any(trans):
        raise KernelFault("wgmma with .tf32 operands has no transpose")
    trans_a = 0 if a_regs else (trans[0] if trans else 0)
    trans_b = (trans[-1] if trans else 0)
    if a_regs and len(trans) > 1:
        raise KernelFault("wgmma with A in registers takes only imm-trans-b")
    groups = len(c)
    if a_regs:
        A = np.zeros((groups, 64, k))
        ar, ac = _a_coords({16: "m16n8k16", 8: "m16n8k8"}[k], a_t)
        warp = np.arange(4)[:, None, None]
        gi = np.arange(groups)[:, None, None, None]
        vals = unpack(a, a_t).reshape(groups, 4, 32, -1)
        A[gi, (16 * warp + ar[None])[None], ac[None, None]] = vals
    else:
        A = to_f64(read(descriptor_addresses(a, 64, k, esize, bool(trans_a)), esize), a_t)
    # B is K x N; its descriptor names it N x K (K-major unless transposed)
    B = to_f64(read(descriptor_addresses(b_desc, n, k, esize, bool(trans_b)), esize),
               b_t).transpose(0, 2, 1)
    A = A * (1 if scale_a >= 0 else -1)
    B = B * (1 if scale_b >= 0 else -1)
    rows, cols = _wg_cd_coords(n)
    gi = np.arange(groups)[:, None, None]
    C = np.zeros((groups, 64, n))
    C[gi, rows[None], cols[None]] = to_f64(c, "f32")
    D = A @ B + C * scale_d[:, None, None]
    return from_f64(D[gi, rows[None], cols[None]], "f32")


def _wg_cd_coords(n: int):
    """(row, col) of accumulator d_i of each of the 128 threads: warp w owns rows 16w..,
    and each n8 slice j holds d_4j..d_4j+3 as an m16n8 C fragment."""
    cr, cc = _cd_coords()                                  # (32, 4)
    warp = np.arange(4)[:, None, None]
    j = np.arange(n // 8)[None, None, :, None]
    rows = (16 * warp[..., None] + cr[None, :, None, :]) + 0 * j
    cols = np.broadcast_to(8 * j + cc[None, :, None, :], rows.shape)
    return rows.reshape(128, -1), cols.reshape(128, -1)
