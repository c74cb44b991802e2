"""How a ``ttg.convert_layout`` moves data: not at all, inside threads, by warp shuffles, or
through shared memory (Triton 3.6's ``cvtNeedsSharedMemory`` and friends in
``lib/Analysis/Utility.cpp``), decided with linear layouts.

The conversion map ``dst^-1 . src`` sends each (register, lane, warp, block) of the
destination to where its element lives in the source. Block, warp, lane and register are
divided out of it, slowest first, while the map is the identity on them
(:func:`minimal_conversion`). What is left says where data moves:

- nothing: the two layouts are spellings of one (:attr:`ConversionPath.NONE`);
- registers only: each thread permutes its own registers (``REGISTERS``);
- registers and lanes: warp shuffles, when the permutation of index bits swaps at most
  one register bit with a lane bit (:func:`warp_decomposition`, ``WARP_SHUFFLE``);
- anything else goes through shared memory (``SHARED_MEMORY``); its scratch buffer is
  sized by :mod:`tileopt.analysis.shared_swizzling`.

Both the allocation analysis and the ``convert_layout`` lowering ask this module, so they
agree on which conversions own a scratch buffer. Pure Python; no xDSL.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from tileopt.layouts.encodings import (
    Encoding,
    get_contig_per_thread,
    get_order,
    to_linear_layout,
)
from tileopt.layouts.linear_layout import LayoutError, LinearLayout

REGISTER, LANE, WARP, BLOCK = "register", "lane", "warp", "block"


class ConversionPath(enum.Enum):
    NONE = "none"
    REGISTERS = "registers"
    WARP_SHUFFLE = "warp-shuffle"
    SHARED_MEMORY = "shared-memory"


def minimal_conversion(src: LinearLayout, dst: LinearLayout) -> LinearLayout:
    """The part of ``dst^-1 . src`` that moves data (Triton's ``minimalCvtLayout``): the
    input dims both layouts share, slowest first, are divided out while trivial."""
    common = []
    for s_dim, d_dim in zip(reversed(src.in_dims), reversed(dst.in_dims)):
        if s_dim != d_dim:
            break
        common.append(s_dim)
    conversion = dst.invert_and_compose(src)
    for dim in common:
        reduced = conversion.quotient([dim])
        if reduced is None:
            break
        conversion = reduced
    return conversion


@dataclass(frozen=True)
class WarpDecomposition:
    """A conversion inside warps as permutations of index bits (Triton's
    ``DecomposedWarpConversion`` without its byte-permute selectors).

    With broadcast registers removed and the register and lane dims padded to equal sizes,
    the map from source (register, lane) bits to destination bits is a permutation ``P``,
    factored as ``P = P_mixed . P_lane . P_reg``: ``p_reg`` permutes register bits (a
    renumbering), ``p_lane`` lane bits (one ``shfl.idx`` per register), and each
    ``(register bit, lane bit)`` in ``mixed_transpositions`` swaps a register bit with a
    lane bit (a select, a shuffle, a select). ``n_pack``: low register bits packed into
    one 32-bit shuffle (sub-32-bit elements)."""

    p_reg: LinearLayout
    p_lane: LinearLayout
    mixed_transpositions: tuple[tuple[int, int], ...]
    n_pack: int


def _pad(layout: LinearLayout, reg_bits: int, lane_bits: int) -> LinearLayout:
    zero = (0,) * layout.num_out_dims()
    bases = {REGISTER: list(layout.get_bases(REGISTER)), LANE: list(layout.get_bases(LANE))}
    bases[REGISTER] += [zero] * (reg_bits - len(bases[REGISTER]))
    bases[LANE] += [zero] * (lane_bits - len(bases[LANE]))
    return LinearLayout(bases, list(layout.out_dim_sizes().items()), require_surjective=False)


def warp_decomposition(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> WarpDecomposition:
    """Triton's ``getWarpLayoutConvertDecomposition`` for a conversion that stays inside
    warps: build the permutation ``P``, then walk its cycles, cutting each run of lane
    bits out of a cycle that mixes register and lane bits as one transposition."""
    src = src.remove_zero_bases_along_dim(REGISTER)
    dst = dst.remove_zero_bases_along_dim(REGISTER)
    reg_bits = max(src.in_dim_size_log2(REGISTER), dst.in_dim_size_log2(REGISTER))
    lane_bits = max(src.in_dim_size_log2(LANE), dst.in_dim_size_log2(LANE))
    dims = (REGISTER, LANE)
    out_dims = src.out_dims
    s = _pad(src.sublayout(list(dims), out_dims), reg_bits, lane_bits)
    t = _pad(dst.sublayout(list(dims), out_dims), reg_bits, lane_bits)
    p = s.invert_and_compose(t).transpose_outs(list(dims))
    p_bases = {d: [list(b) for b in p.get_bases(d)] for d in dims}

    s_flat, t_flat = s.flatten_outs(), t.flatten_outs()
    src_zeros, dst_zeros = [], []
    for dim_idx, dim in enumerate(dims):
        for i in range(s_flat.in_dim_size_log2(dim)):
            s_val, t_val = s_flat.get_basis(dim, i)[0], t_flat.get_basis(dim, i)[0]
            if s_val == 0 and t_val == 0:
                p_bases[dim][i][dim_idx] = 1 << i  # a fixed point
            elif s_val == 0:
                src_zeros.append((dim_idx, i))
            elif t_val == 0:
                dst_zeros.append((dim_idx, i))
    for (src_dim, src_idx), (dst_dim, dst_idx) in zip(src_zeros, dst_zeros):
        p_bases[dims[src_dim]][src_idx][dst_dim] = 1 << dst_idx

    reg_perm = [0] * reg_bits
    lane_perm = [0] * lane_bits
    mixed: list[tuple[int, int]] = []
    visited = [False] * (reg_bits + lane_bits)

    def flat(dim: str, index: int) -> int:
        return index if dim == REGISTER else reg_bits + index

    for dim in dims:
        for i in range(reg_bits if dim == REGISTER else lane_bits):
            if visited[flat(dim, i)]:
                continue
            entry = (dim, i)
            curr_dim, curr_idx = entry
            reg_start = lane_start = lane_end = reg_end = -1
            for _ in range(reg_bits + lane_bits + 1):
                visited[flat(curr_dim, curr_idx)] = True
                next_dim = next_idx = None
                for k, value in enumerate(p_bases[curr_dim][curr_idx]):
                    if value:
                        next_dim, next_idx = dims[k], value.bit_length() - 1
                if next_dim is None:
                    raise LayoutError("the conversion inside a warp is not a permutation")
                if curr_dim == REGISTER and next_dim == REGISTER:
                    reg_perm[curr_idx] = 1 << next_idx
                elif curr_dim == LANE and next_dim == LANE:
                    lane_perm[curr_idx] = 1 << next_idx
                elif curr_dim == REGISTER:
                    reg_start, lane_start = curr_idx, next_idx
                else:
                    reg_end, lane_end = next_idx, curr_idx
                if reg_end >= 0:
                    reg_perm[reg_start] = 1 << reg_end
                    lane_perm[lane_end] = 1 << lane_start
                    mixed.append((reg_end, lane_start))
                    reg_start = lane_start = lane_end = reg_end = -1
                curr_dim, curr_idx = next_dim, next_idx
                if flat(curr_dim, curr_idx) == flat(*entry):
                    break
            else:
                raise LayoutError("the conversion inside a warp is not a permutation")

    n_pack = min(max(0, (min(max(32 // bitwidth, 1), 4)).bit_length() - 1), reg_bits - len(mixed))
    p_reg = LinearLayout({REGISTER: [(b,) for b in reg_perm]}, [(REGISTER, 1 << reg_bits)])
    p_lane = LinearLayout({LANE: [(b,) for b in lane_perm]}, [(LANE, 1 << lane_bits)])
    return WarpDecomposition(p_reg, p_lane, tuple(mixed), n_pack)


def conversion_path(src_enc: Encoding, dst_enc: Encoding, shape: Sequence[int],
                    bitwidth: int = 32) -> ConversionPath:
    """How a conversion of a ``shape`` tensor moves data (Triton's ``cvtReordersRegisters``,
    ``cvtNeedsWarpShuffle``, ``cvtNeedsSharedMemory``).

    Inside a warp, shuffles are used when the bit permutation has at most one mixed
    register/lane transposition (decided at 32 bits, as Triton does); more go through
    shared memory. Layouts without a linear form go through shared memory too.
    ``bitwidth`` is accepted for symmetry with the lowering and does not change the answer.
    """
    try:
        src = to_linear_layout(src_enc, shape)
        dst = to_linear_layout(dst_enc, shape)
        conversion = minimal_conversion(src, dst)
        if not conversion.out_dims:
            return ConversionPath.NONE
        if conversion.out_dims == [REGISTER]:
            return ConversionPath.REGISTERS
        if conversion.out_dims == [REGISTER, LANE]:
            if len(warp_decomposition(src, dst, 32).mixed_transpositions) < 2:
                return ConversionPath.WARP_SHUFFLE
    except LayoutError:
        pass
    return ConversionPath.SHARED_MEMORY


def scratch_vector_lengths(src_enc: Encoding, dst_enc: Encoding,
                           shape: Sequence[int]) -> tuple[int, int]:
    """Elements per shared store and load of the padded scheme (Triton's
    ``getScratchCvtInOutVecLengths``): vectors only along the last dim."""
    rank = len(shape)
    in_order, out_order = get_order(src_enc, shape), get_order(dst_enc, shape)
    src_contig = get_contig_per_thread(src_enc, shape)[in_order[0]]
    dst_contig = get_contig_per_thread(dst_enc, shape)[out_order[0]]
    inner = rank - 1
    in_vec = 1 if out_order[0] != inner or in_order[0] != inner else src_contig
    out_vec = 1 if out_order[0] != inner else dst_contig
    return in_vec, out_vec


def is_conversion_warp_synchronous(src: LinearLayout, dst: LinearLayout) -> bool:
    """Each warp reads back only what it wrote (Triton's ``isCvtDimSync(.., warp)``): a
    shared-memory conversion then needs only a warp-level barrier between its halves."""
    for dim in (BLOCK, WARP):
        if not (src.has_in_dim(dim) and dst.has_in_dim(dim)):
            return False
        conversion = dst.invert_and_compose(src)
        if not conversion.is_trivial_over([dim]):
            return False
        if src.get_free_variable_masks().get(dim, 0) or dst.get_free_variable_masks().get(dim, 0):
            return False
    return True
