"""Where each element lives, computed straight from each layout's hardware definition.

These are the independent references the linear-layout conversions are tested against.
Each function returns a :class:`Reference`: the sizes of the hardware index spaces and a
function from one hardware index (``register, lane, warp, block`` or ``offset, block``) to
the tensor coordinates held there. They are written from the documents that define the
layouts, not from Triton's linear-layout code:

- blocked: sizePerThread / threadsPerWarp / warpsPerCTA laid out along ``order``, the
  CTA tile repeated in registers (fastest dim first) and wrapped around a smaller tensor;
- nvidia_mma v2: PTX ``mma.m16n8k*`` accumulator and A/B fragments (groupID = lane / 4,
  threadID_in_group = lane % 4); v3: the ``wgmma`` accumulator fragment, one 16-row slice
  per warp;
- amd_mfma / amd_wmma: AMD's matrix instruction tables (amd_matrix_instruction_calculator,
  RDNA3/RDNA4 ISA guides) for the result and operand registers;
- shared layouts: the swizzle formulas (XOR of the ``vec``-element chunk index with the
  row's phase; CUDA's 16-byte-chunk swizzle for NVMMA tiles).

Where a tensor is smaller than the tile, the definition used is wrap-around: a coordinate
is taken modulo the tensor size, so several threads (or registers) hold the same element.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod


@dataclass
class Reference:
    in_sizes: dict[str, int]
    coord: Callable[..., tuple[int, ...]]

    def all_inputs(self, first_fastest: bool = False):
        """Every hardware index as ``{dim: value}``; the last dim varies fastest unless
        ``first_fastest``."""
        names = list(self.in_sizes)
        if first_fastest:
            names.reverse()
        for values in itertools.product(*(range(self.in_sizes[n]) for n in names)):
            yield dict(zip(names, values))


def delinearize(index: int, sizes: Sequence[int], order: Sequence[int]) -> list[int]:
    """Split ``index`` into per-dim coordinates, ``order[0]`` varying fastest."""
    coords = [0] * len(sizes)
    for d in order:
        coords[d] = index % sizes[d]
        index //= sizes[d]
    return coords


def _cga_piece(block: int, shape, ctas_per_cga, cta_split_num, cta_order):
    """Which piece of the tensor a CTA owns: its CTA coordinate modulo the split."""
    rank = len(shape)
    ctas = ctas_per_cga or [1] * rank
    split = cta_split_num or [1] * rank
    order = cta_order or list(range(rank - 1, -1, -1))
    cta = delinearize(block, ctas, order)
    per_cta = [shape[d] // split[d] for d in range(rank)]
    return [cta[d] % split[d] for d in range(rank)], per_cta, prod(ctas)


# ---------------------------------------------------------------------- blocked


def blocked(spt, tpw, wpc, order, shape, ctas_per_cga=None, cta_split_num=None, cta_order=None):
    rank = len(shape)
    _, per_cta, num_ctas = _cga_piece(0, shape, ctas_per_cga, cta_split_num, cta_order)
    tile = [spt[d] * tpw[d] * wpc[d] for d in range(rank)]
    reps = [max(1, per_cta[d] // tile[d]) for d in range(rank)]
    per_tile = prod(spt)
    # Each hardware index contributes an offset per dim; they add up (then wrap).
    reg_off = []
    for register in range(per_tile * prod(reps)):
        intra = delinearize(register % per_tile, spt, order)
        rep = delinearize(register // per_tile, reps, order)
        reg_off.append([rep[d] * tile[d] + intra[d] for d in range(rank)])
    lane_off = [
        [c * spt[d] for d, c in enumerate(delinearize(lane, tpw, order))] for lane in range(prod(tpw))
    ]
    warp_off = [
        [c * spt[d] * tpw[d] for d, c in enumerate(delinearize(warp, wpc, order))]
        for warp in range(prod(wpc))
    ]
    pieces = [_cga_piece(b, shape, ctas_per_cga, cta_split_num, cta_order)[0] for b in range(num_ctas)]

    def coord(register, lane, warp, block):
        r, l, w, p = reg_off[register], lane_off[lane], warp_off[warp], pieces[block]
        return tuple(p[d] * per_cta[d] + (r[d] + l[d] + w[d]) % per_cta[d] for d in range(rank))

    return Reference(
        {"register": len(reg_off), "lane": len(lane_off), "warp": len(warp_off), "block": num_ctas},
        coord,
    )


# ---------------------------------------------------------------------- slice


def slice_of(parent: Reference, dim: int) -> Reference:
    """A slice: each thread keeps its parent elements minus ``dim``, duplicates dropped,
    in the parent's register order."""
    per_thread: dict[tuple[int, int, int], list[tuple[int, ...]]] = {}
    for lane in range(parent.in_sizes["lane"]):
        for warp in range(parent.in_sizes["warp"]):
            for block in range(parent.in_sizes["block"]):
                seen: list[tuple[int, ...]] = []
                for register in range(parent.in_sizes["register"]):
                    c = parent.coord(register, lane, warp, block)
                    projected = c[:dim] + c[dim + 1 :]
                    if projected not in seen:
                        seen.append(projected)
                per_thread[(lane, warp, block)] = seen
    counts = {len(v) for v in per_thread.values()}
    assert len(counts) == 1, "threads hold different numbers of sliced elements"

    def coord(register, lane, warp, block):
        return per_thread[(lane, warp, block)][register]

    sizes = dict(parent.in_sizes)
    sizes["register"] = counts.pop()
    return Reference(sizes, coord)


# ---------------------------------------------------------------------- NVIDIA mma


def ampere_mma(warps_per_cta, shape):
    """mma.m16n8k* accumulator: c0,c1 at (groupID, 2*tig + i), c2,c3 eight rows down."""
    wm, wn = warps_per_cta
    tile_m, tile_n = 16 * wm, 8 * wn
    rep_m, rep_n = max(1, shape[0] // tile_m), max(1, shape[1] // tile_n)

    def coord(register, lane, warp, block):
        i, rep = register % 4, register // 4
        rn, rm = rep % rep_n, rep // rep_n  # N repeats first
        group, tig = lane // 4, lane % 4
        w_n, w_m = warp % wn, warp // wn  # warps walk N first
        row = rm * tile_m + w_m * 16 + group + 8 * (i // 2)
        col = rn * tile_n + w_n * 8 + 2 * tig + i % 2
        return (row % shape[0], col % shape[1])

    return Reference({"register": 4 * rep_m * rep_n, "lane": 32, "warp": wm * wn, "block": 1}, coord)


def hopper_mma(warps_per_cta, instr_n, shape):
    """wgmma accumulator: warp w owns rows 16*w..; d[i] at row groupID + 8*((i/2)%2),
    column 8*(i/4) + 2*tig + i%2."""
    wm, wn = warps_per_cta
    per_instr = instr_n // 2
    tile_m, tile_n = 16 * wm, instr_n * wn
    rep_m, rep_n = max(1, shape[0] // tile_m), max(1, shape[1] // tile_n)

    def coord(register, lane, warp, block):
        i, rep = register % per_instr, register // per_instr
        rn, rm = rep % rep_n, rep // rep_n
        group, tig = lane // 4, lane % 4
        w_m, w_n = warp % wm, warp // wm  # warps walk M first on Hopper
        row = rm * tile_m + w_m * 16 + group + 8 * ((i // 2) % 2)
        col = rn * tile_n + w_n * instr_n + 8 * (i // 4) + 2 * tig + i % 2
        return (row % shape[0], col % shape[1])

    return Reference(
        {"register": per_instr * rep_m * rep_n, "lane": 32, "warp": wm * wn, "block": 1}, coord
    )


def ampere_dot_operand(op_idx, k_width, warps_per_cta, shape, warps_m_first=False):
    """PTX A/B fragments of mma.m16n8k{8,16,32} generalised by k_width (values per 32 bits):
    A: row groupID (+8 for the second pair), column tig*w + j (+4w for the upper half);
    B: row(k) tig*w + j (+4w), column groupID. Warps repeat along M (A) or N (B) only.
    wgmma's A operand from registers has the same per-warp fragment, with the warps of a
    warpgroup stacked along M first (``warps_m_first``)."""
    w = k_width
    wm, wn = warps_per_cta
    if op_idx == 0:
        tile_m, tile_k = 16 * wm, 8 * w
        reps_k, reps_m = max(1, shape[1] // tile_k), max(1, shape[0] // tile_m)
        per = 4 * w

        def coord(register, lane, warp, block):
            i, rep = register % per, register // per
            rk, rm = rep % reps_k, rep // reps_k  # K repeats first
            j, m_hi, k_hi = i % w, (i // w) % 2, i // (2 * w)
            group, tig = lane // 4, lane % 4
            w_m = warp % wm if warps_m_first else warp // wn
            row = rm * tile_m + w_m * 16 + group + 8 * m_hi
            col = rk * tile_k + tig * w + j + 4 * w * k_hi
            return (row % shape[0], col % shape[1])

        return Reference({"register": per * reps_k * reps_m, "lane": 32, "warp": wm * wn, "block": 1}, coord)
    tile_k, tile_n = 8 * w, 8 * wn
    reps_k, reps_n = max(1, shape[0] // tile_k), max(1, shape[1] // tile_n)
    per = 2 * w

    def coord_b(register, lane, warp, block):
        i, rep = register % per, register // per
        rk, rn = rep % reps_k, rep // reps_k
        j, k_hi = i % w, i // w
        group, tig = lane // 4, lane % 4
        w_n = warp % wn
        row = rk * tile_k + tig * w + j + 4 * w * k_hi
        col = rn * tile_n + w_n * 8 + group
        return (row % shape[0], col % shape[1])

    return Reference({"register": per * reps_k * reps_n, "lane": 32, "warp": wm * wn, "block": 1}, coord_b)


def fma_dot_operand(op_idx, spt, tpw, wpc, order, shape):
    """Dot operand of a blocked result: each thread holds its rows (A) or columns (B) of the
    result for the whole K extent; threads and warps along K hold copies."""
    rank = len(shape)
    k = rank - 1 if op_idx == 0 else rank - 2
    thread = list(spt)
    thread[k] = shape[k]
    tile = [spt[d] * tpw[d] * wpc[d] for d in range(rank)]
    tile[k] = shape[k]
    reps = [max(1, shape[d] // tile[d]) for d in range(rank)]
    per = prod(thread)

    def coord(register, lane, warp, block):
        intra = delinearize(register % per, thread, order)
        rep = delinearize(register // per, reps, order)
        lc = delinearize(lane, tpw, order)
        wc = delinearize(warp, wpc, order)
        out = []
        for d in range(rank):
            if d == k:
                out.append(intra[d])
            else:
                v = rep[d] * tile[d] + wc[d] * spt[d] * tpw[d] + lc[d] * spt[d] + intra[d]
                out.append(v % shape[d])
        return tuple(out)

    return Reference({"register": per * prod(reps), "lane": prod(tpw), "warp": prod(wpc), "block": 1}, coord)


# ---------------------------------------------------------------------- AMD mfma / wmma


def _mfma_instr(m_dim, n_dim, transposed, element_bits, i, lane):
    """(m, n) of register i / lane in one MFMA output tile (AMD's instruction tables).

    32x32 (32-bit): m = i%4 + 8*(i/4) + 4*(lane/32), n = lane%32.
    16x16 (32-bit): m = i + 4*(lane/16),               n = lane%16.
    16x16 f64:      m = lane/16 + 4*i,                 n = lane%16 (one row per register, as
                    Triton describes the f64 MFMA; not checked against AMD's table).
    A transposed layout swaps the roles of m and n.
    """
    a, b = (n_dim, m_dim) if transposed else (m_dim, n_dim)
    along = lane % b
    if element_bits == 64:
        other = lane // b + 4 * i
    elif a == 32:
        other = i % 4 + 8 * (i // 4) + 4 * (lane // 32)
    else:
        other = i % 4 + 4 * (lane // b) + 16 * (i // 4)
    return (along, other) if transposed else (other, along)


def amd_mfma(instr, transposed, warps_per_cta, shape, tiles_per_warp=(1, 1), element_bits=32):
    m_dim, n_dim = instr
    wm, wn = warps_per_cta
    tm_, tn_ = tiles_per_warp
    per = m_dim * n_dim // 64
    reps_n = max(1, shape[1] // (n_dim * wn * tn_))
    reps_m = max(1, shape[0] // (m_dim * wm * tm_))

    def coord(register, lane, warp, block):
        i, r = register % per, register // per
        tn = r % tn_
        r //= tn_
        rn = r % reps_n
        r //= reps_n
        tm = r % tm_
        rm = r // tm_
        m_in, n_in = _mfma_instr(m_dim, n_dim, transposed, element_bits, i, lane)
        w_n, w_m = warp % wn, warp // wn
        n = n_in + n_dim * (tn + tn_ * (w_n + wn * rn))
        m = m_in + m_dim * (tm + tm_ * (w_m + wm * rm))
        return (m % shape[0], n % shape[1])

    return Reference(
        {"register": per * tn_ * reps_n * tm_ * reps_m, "lane": 64, "warp": wm * wn, "block": 1}, coord
    )


def amd_mfma_operand(op_idx, k_width, instr, warps_per_cta, shape, tiles_per_warp=(1, 1)):
    """MFMA A/B operand: lane l holds k_width consecutive K values at K = k_width*(l / nonK),
    M (or N) = l % nonK; registers then repeat along K, then tiles, then the non-K dim."""
    m_dim, n_dim = instr
    non_k = m_dim if op_idx == 0 else n_dim
    k_axis, nk_axis = (1, 0) if op_idx == 0 else (0, 1)
    wm, wn = warps_per_cta
    w_nk = wm if op_idx == 0 else wn
    t_nk = tiles_per_warp[nk_axis]
    k_tile = 64 // non_k * k_width
    reps_k = max(1, shape[k_axis] // k_tile)
    reps_nk = max(1, shape[nk_axis] // (non_k * t_nk * w_nk))

    def coord(register, lane, warp, block):
        j, r = register % k_width, register // k_width
        rk = r % reps_k
        r //= reps_k
        t = r % t_nk
        rnk = r // t_nk
        my_w = warp // wn if op_idx == 0 else warp % wn
        k = j + k_width * (lane // non_k) + k_tile * rk
        nk = lane % non_k + non_k * (t + t_nk * (my_w + w_nk * rnk))
        out = [0, 0]
        out[k_axis], out[nk_axis] = k % shape[k_axis], nk % shape[nk_axis]
        return tuple(out)

    return Reference(
        {"register": k_width * reps_k * t_nk * reps_nk, "lane": 64, "warp": wm * wn, "block": 1}, coord
    )


def amd_wmma(version, transposed, warps_per_cta, shape):
    """WMMA 16x16 result, wave32. v1 (RDNA3): VGPR r of lane l is row 2r + l/16, column
    l%16. v2/v3 (RDNA4): row r + 8*(l/16). Transposed swaps rows and columns."""
    wm, wn = warps_per_cta
    reps_n = max(1, shape[1] // (16 * wn))
    reps_m = max(1, shape[0] // (16 * wm))

    def coord(register, lane, warp, block):
        i, rep = register % 8, register // 8
        rn, rm = rep % reps_n, rep // reps_n
        other = 2 * i + lane // 16 if version == 1 else i + 8 * (lane // 16)
        along = lane % 16
        m_in, n_in = (along, other) if transposed else (other, along)
        w_n, w_m = warp % wn, warp // wn
        return ((m_in + 16 * (w_m + wm * rm)) % shape[0], (n_in + 16 * (w_n + wn * rn)) % shape[1])

    return Reference({"register": 8 * reps_n * reps_m, "lane": 32, "warp": wm * wn, "block": 1}, coord)


def amd_wmma_operand(version, op_idx, k_width, warps_per_cta, shape, k_dim=16):
    """WMMA 16x16xK operand, wave32: lane l holds row (A) / column (B) l%16. On RDNA3 (v1)
    lanes 16..31 repeat lanes 0..15 and a lane holds all K; later versions give the upper
    half-wave the next k_width K values."""
    wm, wn = warps_per_cta
    k_axis, nk_axis = (1, 0) if op_idx == 0 else (0, 1)
    depth = 2
    in_tile = max(1, k_dim // (depth * k_width))
    k_tile = k_width * in_tile * (1 if version == 1 else depth)
    w_nk = wm if op_idx == 0 else wn
    reps_k = max(1, shape[k_axis] // k_tile)
    reps_nk = max(1, shape[nk_axis] // (16 * w_nk))
    per = k_width * in_tile

    def coord(register, lane, warp, block):
        i, r = register % per, register // per
        rk, rnk = r % reps_k, r // reps_k
        j, kr = i % k_width, i // k_width
        if version == 1:
            k = j + k_width * kr
        else:
            k = j + k_width * (lane // 16) + k_width * depth * kr
        k += k_tile * rk
        my_w = warp // wn if op_idx == 0 else warp % wn
        nk = lane % 16 + 16 * (my_w + w_nk * rnk)
        out = [0, 0]
        out[k_axis], out[nk_axis] = k % shape[k_axis], nk % shape[nk_axis]
        return tuple(out)

    return Reference({"register": per * reps_k * reps_nk, "lane": 32, "warp": wm * wn, "block": 1}, coord)


# ---------------------------------------------------------------------- shared memory


def swizzled_shared(vec, per_phase, max_phase, order, shape, rotating=False):
    """Offset o of a swizzled buffer: rows of the ``order[0]`` dim, the ``vec``-element chunk
    index XORed with the row's phase (row // per_phase) % max_phase; the rotating variant
    also XORs the block number (row // (per_phase*max_phase)) % max_phase."""
    rank = len(shape)
    cols = shape[order[0]]
    rows = shape[order[1]] if rank > 1 else 1

    def coord(offset, block):
        col_stored = offset % cols
        rest = offset // cols
        out = [0] * rank
        if rank == 1:
            out[0] = offset
            return tuple(out)
        row = rest % rows
        rest //= rows
        phase = (row // per_phase) % max_phase
        if rotating:
            phase ^= (row // (per_phase * max_phase)) % max_phase
        chunk = (col_stored // vec) ^ phase
        out[order[0]] = (chunk * vec + col_stored % vec) % cols
        out[order[1]] = row
        for d in order[2:]:
            out[d] = rest % shape[d]
            rest //= shape[d]
        return tuple(out)

    return Reference({"offset": prod(shape), "block": 1}, coord)


def nvmma_shared(swizzle_bytes, transposed, element_bits, shape):
    """NVMMA tiles for a 2-d buffer: the contiguous dim cut into atoms of one swizzle row
    (swizzle_bytes), each atom a column of rows; inside, the 16-byte chunk index of an
    element is XORed with (row // (128 / swizzle_bytes)) % (swizzle_bytes / 16)."""
    contig = 0 if transposed else 1
    other = 1 - contig
    atom_cols = swizzle_bytes * 8 // element_bits
    chunk = 128 // element_bits
    per_phase, max_phase = 128 // swizzle_bytes, swizzle_bytes // 16
    rows = shape[other]

    def coord(offset, block):
        col_stored = offset % atom_cols
        row = (offset // atom_cols) % rows
        atom = offset // (atom_cols * rows)
        phase = (row // per_phase) % max_phase
        col = ((col_stored // chunk) ^ phase) * chunk + col_stored % chunk
        out = [0, 0]
        out[contig] = atom * atom_cols + col
        out[other] = row
        return tuple(out)

    return Reference({"offset": prod(shape), "block": 1}, coord)
