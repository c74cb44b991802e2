"""The shared-memory layout a ``convert_layout`` goes through (Triton's generic swizzling).

When a layout conversion must move data between warps it writes the tensor to shared
memory in the source layout and reads it back in the destination layout. Triton 3.6 picks
the shared-memory layout with linear algebra over GF(2) (``lib/Tools/GenericSwizzling.cpp``):
the flattened tensor index is split into

- ``vector``: the elements one thread moves with one (up to 128-bit) access,
- ``bank``: the rest of one 32-bank x 32-bit row, chosen so that neither the writing nor
  the reading warp hits a bank twice (swizzling by xor where both cannot be satisfied),
- ``segment``: the rows, and
- ``reps``: index bits that live in registers on both sides; the conversion walks them in
  sequential rounds that reuse one smaller buffer, so they cost no shared memory.

:func:`optimal_swizzling` returns that layout (input dims vector/bank/segment/reps, output
dims the tensor's) for the source/destination register layouts and the shared-memory
instructions each side may use (:class:`LocalMemOpTile`: plain ``ld``/``st.shared``,
``ldmatrix``/``stmatrix`` where the target has them). The scratch buffer holds every
element of one round: :func:`scratch_elements`. The lowering of ``convert_layout`` must
use the same layout, so it calls the same function.

Pure Python on :class:`~tileopt.layouts.LinearLayout`; nothing here imports xDSL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from tileopt.layouts.linear_layout import LinearLayout, rref

REGISTER, LANE = "register", "lane"
VECTOR, BANK, SEGMENT, REPS = "vector", "bank", "segment", "reps"

BANK_BITS = 32 * 32
"""One row of shared memory: 32 banks of 32 bits."""


@dataclass(frozen=True)
class LocalMemOpTile:
    """The lanes of a shared-memory instruction that address contiguous memory.

    ``lane_contig``: lane bits whose data is contiguous with the registers of one access;
    ``lane_addr``: lane bits that supply the addresses of one 128-bit-per-lane phase.
    """

    lane_contig: tuple[int, ...]
    lane_addr: tuple[int, ...]


LD_ST_SHARED = LocalMemOpTile((), (0, 1, 2))
LD_ST_MATRIX = LocalMemOpTile((0, 1), (2, 3, 4))
LD_ST_MATRIX_TRANS = LocalMemOpTile((2, 3, 4), (0, 1))


def shared_access_tiles(bitwidth: int, ldmatrix: bool = False, stmatrix: bool = False
                        ) -> tuple[list[LocalMemOpTile], list[LocalMemOpTile]]:
    """The instructions the writing (source) and reading (destination) side may use
    (Triton's ``getSrcDstTiles``): ``st.shared``/``ld.shared`` always, ``stmatrix`` on the
    writing side where the target has it (sm_90), ``ldmatrix`` on the reading side (sm_75+)."""
    src, dst = [LD_ST_SHARED], [LD_ST_SHARED]
    if ldmatrix or stmatrix:
        if bitwidth <= 32:
            if stmatrix:
                src.append(LD_ST_MATRIX)
            if ldmatrix:
                dst.append(LD_ST_MATRIX)
        if bitwidth == 16:
            if stmatrix:
                src.append(LD_ST_MATRIX_TRANS)
            if ldmatrix:
                dst.append(LD_ST_MATRIX_TRANS)
    return src, dst


# ------------------------------------------------------------------ GF(2) helpers


def _log2_floor(value: int) -> int:
    """LLVM's ``Log2_32``: floor(log2(value)), -1 for 0."""
    return value.bit_length() - 1


def _lowest_bit(value: int) -> int:
    return (value & -value).bit_length() - 1


def nullspace_basis(vectors: Sequence[int], dim: int) -> list[int]:
    """A basis of the vectors orthogonal to all of ``vectors`` (free columns in order)."""
    rows = rref(vectors, dim)
    pivots = {_lowest_bit(r) for r in rows if r}
    basis = []
    for free in range(dim):
        if free in pivots:
            continue
        vec = 1 << free
        for r in rows:
            if r & (1 << free):
                vec ^= 1 << _lowest_bit(r)
        basis.append(vec)
    return basis


def complement_basis(basis: Sequence[int], dim: int) -> list[int]:
    """Unit vectors completing ``basis`` to the whole space (the non-pivot columns)."""
    rows = rref(basis, dim)
    pivots = {_lowest_bit(r) for r in rows if r}
    return [1 << i for i in range(dim) if i not in pivots]


def intersection_basis(b1: Sequence[int], b2: Sequence[int], dim: int) -> list[int]:
    """A basis of span(b1) ∩ span(b2); for unit vectors, those of ``b1`` also in ``b2``,
    in ``b1``'s order (Triton keeps that order as a heuristic)."""
    def power_of_2(x: int) -> bool:
        return x > 0 and x & (x - 1) == 0

    if all(power_of_2(b) for b in b1) and all(power_of_2(b) for b in b2):
        in_b2 = set(b2)
        return [b for b in b1 if b != 0 and b in in_b2]
    joint = nullspace_basis(b1, dim) + nullspace_basis(b2, dim)
    return nullspace_basis(joint, dim)


def flat_bases(layout: LinearLayout, in_dim: str) -> list[int]:
    """The bases of ``in_dim`` of a layout with one output dim, as integers."""
    if not layout.has_in_dim(in_dim):
        return []
    return [basis[0] for basis in layout.get_bases(in_dim)]


def remove_broadcast_registers(layout: LinearLayout) -> LinearLayout:
    """The layout without the register bases that hold copies (Triton's
    ``actionRemoveBroadcastedRegs``): one register per distinct element."""
    if not layout.has_in_dim(REGISTER):
        return layout
    return layout.remove_zero_bases_along_dim(REGISTER)


# ------------------------------------------------------------------ the swizzled layout


def _compute_segment(bank_src: Sequence[int], bank_dst: Sequence[int], dim: int,
                     length: int) -> list[int]:
    """The bases that pick a row: first unit vectors neither side uses within a row; if
    those are too few, xors of one side's and the other's row bases (conflict-free), and
    only then plain ones (each costs a two-way bank conflict on one side)."""
    set_src = set(bank_src) - {0}
    set_dst = set(bank_dst) - {0}
    segment = [1 << b for b in range(dim)
               if (1 << b) not in set_src and (1 << b) not in set_dst]
    if len(segment) >= length:
        return segment[:length]
    a = sorted(v for v in set_src if v not in set_dst)
    b = sorted(v for v in set_dst if v not in set_src)
    if len(a) > len(b):
        a, b = b, a
    conflicts = min(max(0, length - len(a) - len(segment)), len(a))
    for i in range(conflicts, len(a)):
        segment.append(a[i] ^ b[i])
    segment += a[:conflicts]
    segment += b[:conflicts]
    return segment[:length]


def _split_reps(src_flat: LinearLayout, dst_flat: LinearLayout, segment: Sequence[int],
                leave_reps: int) -> tuple[list[int], list[int]]:
    """Segment bases held in registers on both sides become rounds (``reps``), except the
    first ``leave_reps`` (ldmatrix/stmatrix .x4 need them to vectorise)."""
    src_regs = set(flat_bases(src_flat, REGISTER))
    dst_regs = set(flat_bases(dst_flat, REGISTER))
    kept, reps = [], []
    for s in segment:
        if s in src_regs and s in dst_regs:
            if leave_reps > 0:
                leave_reps -= 1
                kept.append(s)
            elif s not in reps:
                reps.append(s)
        elif s not in kept:
            kept.append(s)
    return kept, reps


def _swizzled_layout(src_flat: LinearLayout, dst_flat: LinearLayout, bitwidth: int,
                     vbasis: Sequence[int], tile_src: Sequence[int], tile_dst: Sequence[int],
                     out_dims: Sequence[tuple[str, int]], leave_reps: int = 0) -> LinearLayout:
    """Triton's ``optimalSwizzling`` core: vector, bank, segment and reps bases."""
    dim = src_flat.total_out_dim_size_log2()
    bank_src = list(vbasis) + list(tile_src)
    bank_dst = list(vbasis) + list(tile_dst)
    len_bank = min(_log2_floor(BANK_BITS // ((1 << len(vbasis)) * bitwidth)), dim - len(vbasis))
    len_segment = dim - len_bank - len(vbasis)
    sbasis = _compute_segment(bank_src, bank_dst, dim, len_segment)
    bbasis = complement_basis(list(vbasis) + sbasis, dim)
    segment, reps = _split_reps(src_flat, dst_flat, sbasis, leave_reps)
    out_name = src_flat.out_dims[0]
    flat = LinearLayout(
        {VECTOR: [(v,) for v in vbasis], BANK: [(b,) for b in bbasis],
         SEGMENT: [(s,) for s in segment], REPS: [(r,) for r in reps]},
        [(out_name, 1 << dim)], require_surjective=True)
    return flat.reshape_outs(list(out_dims))


def _vector_bases(src_flat: LinearLayout, dst_flat: LinearLayout, bitwidth: int) -> list[int]:
    """Triton's ``getVbasis``: the bases one thread moves per access.

    Registers consecutive on both sides come first (at most 128 bits). Below 32 bits the
    vector is filled up to one 32-bit bank word from one side's registers (the side whose
    next registers are lanes on the other side: those vectorise further without bank
    conflicts), then extended with such registers up to 128 bits.
    """
    reg_src = flat_bases(src_flat, REGISTER)
    reg_dst = flat_bases(dst_flat, REGISTER)
    dim = src_flat.total_out_dim_size_log2()
    vbasis = intersection_basis(reg_src, reg_dst, dim)
    vbasis = vbasis[:_log2_floor(128 // bitwidth)]
    bases_per_bank = 0 if bitwidth > 32 else _log2_floor(32 // bitwidth)
    lane_src = set(flat_bases(src_flat, LANE))
    lane_dst = set(flat_bases(dst_flat, LANE))

    def after_bank0(regs: Sequence[int], vec: Sequence[int], other_lanes: set[int]) -> list[int]:
        extra: list[int] = []
        max_log2 = _log2_floor(128 // max(bitwidth, 32))
        for r in regs:
            if r in vec:
                continue
            if r in other_lanes:
                extra.append(r)
            if len(extra) == max_log2:
                break
        return extra

    def fill(regs: Sequence[int], vec: Sequence[int]) -> list[int]:
        return list(vec) + [regs[i] for i in range(len(vec), min(bases_per_bank, len(regs)))]

    def is_prefix(prefix: Sequence[int], regs: Sequence[int]) -> bool:
        return list(regs[:len(prefix)]) == list(prefix)

    vec_src = True
    if (1 << len(vbasis)) * bitwidth < 32:
        src_prefix, dst_prefix = is_prefix(vbasis, reg_src), is_prefix(vbasis, reg_dst)
        if vbasis and not src_prefix and not dst_prefix:
            reg_src = list(vbasis) + [r for r in reg_src if r not in vbasis]
            reg_dst = list(vbasis) + [r for r in reg_dst if r not in vbasis]
            src_prefix = dst_prefix = True
        if src_prefix and dst_prefix:
            more_src = after_bank0(reg_src, fill(reg_src, vbasis), lane_dst)
            more_dst = after_bank0(reg_dst, fill(reg_dst, vbasis), lane_src)
            # Triton compares the two lists lexicographically (SmallVector's operator>=).
            src_prefix = more_src >= more_dst
            dst_prefix = more_dst > more_src
        vec_src = src_prefix
        vbasis = fill(reg_src if vec_src else reg_dst, vbasis)
    if vec_src:
        vbasis += after_bank0(reg_src, vbasis, lane_dst)
    else:
        vbasis += after_bank0(reg_dst, vbasis, lane_src)
    return vbasis


def optimal_swizzling_ld_st(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> LinearLayout:
    """The shared layout for plain ``st.shared``/``ld.shared`` on both sides
    (Triton's ``optimalSwizzlingLdSt``). ``src``/``dst`` have no broadcast registers."""
    src_flat, dst_flat = src.flatten_outs(), dst.flatten_outs()
    reg_src, reg_dst = flat_bases(src_flat, REGISTER), flat_bases(dst_flat, REGISTER)
    vbasis = _vector_bases(src_flat, dst_flat, bitwidth)

    def vector_size(regs: Sequence[int]) -> int:
        for i, v in enumerate(vbasis):
            if not (i < len(regs) and regs[i] == v):
                return i
        return len(vbasis)

    def lane_tile(lanes: list[int], regs: Sequence[int]) -> list[int]:
        # A 64/128-bit access covers 2/4 banks per lane: fewer lanes make one wavefront.
        size = vector_size(regs)
        if (1 << size) * bitwidth > 32:
            drop = _log2_floor((1 << size) * bitwidth // 32)
            lanes = lanes[:len(lanes) - drop]
        return [b for b in lanes if b not in vbasis]

    tile_src = lane_tile(flat_bases(src_flat, LANE), reg_src)
    tile_dst = lane_tile(flat_bases(dst_flat, LANE), reg_dst)
    return _swizzled_layout(src_flat, dst_flat, bitwidth, vbasis, tile_src, tile_dst,
                            list(src.out_dim_sizes().items()))


def _instruction_tile(a: LinearLayout, b: LinearLayout, n_reg_a: int, n_reg_b: int,
                      lane_ids_a: Sequence[int], lane_ids_b: Sequence[int]) -> list[int] | None:
    """Triton's ``optimalSwizzlingTile``: the contiguous tile two instructions agree on
    (registers shared by both, then the contiguous lanes of ``b``), or None."""
    if n_reg_a < n_reg_b:
        return _instruction_tile(b, a, n_reg_b, n_reg_a, lane_ids_b, lane_ids_a)
    dim = a.total_out_dim_size_log2()
    cvt = b.invert_and_compose(a)
    reg_a, reg_b = flat_bases(a, REGISTER), flat_bases(b, REGISTER)
    lane_a, lane_b = flat_bases(a, LANE), flat_bases(b, LANE)
    vbasis = intersection_basis(reg_a, reg_b, dim)
    if len(vbasis) < n_reg_b:
        return None
    vbasis = vbasis[:n_reg_b]
    if any(i >= len(lane_a) for i in lane_ids_a) or any(i >= len(lane_b) for i in lane_ids_b):
        return None
    tile_a = [lane_a[i] for i in lane_ids_a]
    tile_b = [lane_b[i] for i in lane_ids_b]
    if 0 in tile_a or 0 in tile_b:
        return None
    # b's first lanes must be a's registers, the rest a's lanes, one to one.
    for i in range(n_reg_a - n_reg_b):
        if cvt.get_basis(LANE, lane_ids_b[i], REGISTER) == 0:
            return None
    tail_b = list(lane_ids_b)[len(lane_ids_b) - len(lane_ids_a):]
    for idx_a, idx_b in zip(lane_ids_a, tail_b):
        if cvt.get_basis(LANE, idx_b, LANE) != 1 << idx_a:
            return None
    return list(vbasis) + tile_b


def bank_conflicts(tile_src: Sequence[int], tile_dst: Sequence[int],
                   smem: LinearLayout) -> tuple[int, int]:
    """(read, write) extra wavefronts: segment bases inside one instruction's tile."""
    flat = smem.flatten_outs()
    segment = flat_bases(flat, SEGMENT)
    rank = smem.total_out_dim_size_log2()
    write = 1 << len(intersection_basis(segment, tile_src, rank))
    read = 1 << len(intersection_basis(segment, tile_dst, rank))
    return read - 1, write - 1


def optimal_swizzling(src: LinearLayout, dst: LinearLayout, src_tiles: Sequence[LocalMemOpTile],
                      dst_tiles: Sequence[LocalMemOpTile], bitwidth: int
                      ) -> tuple[LinearLayout, tuple[int, int]]:
    """The shared layout and the (source, destination) instruction pair that minimise bank
    conflicts (ties: the fewest rounds). ``src``/``dst`` have no broadcast registers."""
    src_flat, dst_flat = src.flatten_outs(), dst.flatten_outs()
    total_bases = _log2_floor(128 // bitwidth)
    pairs = []
    for i_src, t_src in enumerate(src_tiles):
        for i_dst, t_dst in enumerate(dst_tiles):
            tile = _instruction_tile(src_flat, dst_flat, total_bases - len(t_src.lane_contig),
                                     total_bases - len(t_dst.lane_contig), t_src.lane_contig,
                                     t_dst.lane_contig)
            if tile is not None:
                pairs.append(((i_src, i_dst), tile))

    reg_src, reg_dst = flat_bases(src_flat, REGISTER), flat_bases(dst_flat, REGISTER)
    lane_src, lane_dst = flat_bases(src_flat, LANE), flat_bases(dst_flat, LANE)

    def address_tile(instr: LocalMemOpTile, regs: Sequence[int], lanes: Sequence[int],
                     vbasis: Sequence[int]) -> list[int] | None:
        needed = 3 - len(instr.lane_addr)
        tile = []
        for r in regs:
            if needed == 0:
                break
            if r not in vbasis:
                tile.append(r)
                needed -= 1
        if needed > 0 or any(i >= len(lanes) for i in instr.lane_addr):
            return None
        return tile + [lanes[i] for i in instr.lane_addr]

    candidates = []
    for (i_src, i_dst), vbasis in pairs:
        t_src = address_tile(src_tiles[i_src], reg_src, lane_src, vbasis)
        t_dst = address_tile(dst_tiles[i_dst], reg_dst, lane_dst, vbasis)
        if t_src is None or t_dst is None:
            continue

        def missing(t: LocalMemOpTile) -> int:
            return len(t.lane_contig) + len(t.lane_addr) - 3

        leave = min(missing(src_tiles[i_src]), missing(dst_tiles[i_dst]))
        candidates.append(((i_src, i_dst), vbasis, t_src, t_dst, leave))

    if not candidates:
        return optimal_swizzling_ld_st(src, dst, bitwidth), (0, 0)
    best = None
    for instrs, vbasis, t_src, t_dst, leave in candidates:
        smem = _swizzled_layout(src_flat, dst_flat, bitwidth, vbasis, t_src, t_dst,
                                list(src.out_dim_sizes().items()), leave)
        read, write = bank_conflicts(t_src, t_dst, smem)
        key = (read + write, -smem.in_dim_size(REPS))
        if best is None or key < best[0]:
            best = (key, smem, instrs)
    return best[1], best[2]


def conversion_shared_layout(
        src: LinearLayout, dst: LinearLayout, bitwidth: int,
        tiles: tuple[Sequence[LocalMemOpTile], Sequence[LocalMemOpTile]] | None = None,
) -> LinearLayout:
    """The shared layout of a conversion from register layout ``src`` to ``dst``.

    ``tiles``: the (source, destination) instructions the target offers
    (:func:`shared_access_tiles`; NVIDIA's lowering); None: plain loads and stores chosen
    by ``optimalSwizzlingLdSt`` directly (the generic and AMD lowering).
    """
    key = None if tiles is None else (tuple(tiles[0]), tuple(tiles[1]))
    return _conversion_shared_layout(src, dst, bitwidth, key)


@lru_cache(maxsize=1024)
def _conversion_shared_layout(
        src: LinearLayout, dst: LinearLayout, bitwidth: int,
        tiles: tuple[tuple[LocalMemOpTile, ...], tuple[LocalMemOpTile, ...]] | None,
) -> LinearLayout:
    # Remembered: the allocator, the lowering's allocation and its checks ask for every
    # conversion again (layouts and tiles are immutable, so the answer is the same).
    src = remove_broadcast_registers(src)
    dst = remove_broadcast_registers(dst)
    if tiles is None:
        return optimal_swizzling_ld_st(src, dst, bitwidth)
    return optimal_swizzling(src, dst, tiles[0], tiles[1], bitwidth)[0]


def scratch_elements(
        src: LinearLayout, dst: LinearLayout, bitwidth: int,
        tiles: tuple[Sequence[LocalMemOpTile], Sequence[LocalMemOpTile]] | None = None,
) -> int:
    """Elements of the scratch buffer a conversion from ``src`` to ``dst`` needs: one
    round of the swizzled layout (Triton's ``getNumScratchElemsSwizzledCvt``)."""
    smem = conversion_shared_layout(src, dst, bitwidth, tiles)
    return smem.total_out_dim_size() // smem.in_dim_size(REPS)
