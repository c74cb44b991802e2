"""How a ``ttg.convert_layout`` moves data: not at all, inside threads, by warp shuffles, or
through shared memory (Triton 3.6's ``cvtNeedsSharedMemory`` and friends in
``lib/Analysis/Utility.cpp``), decided with linear layouts.

The conversion map ``dst^-1 . src`` sends each (register, lane, warp, block) of the
destination to where its element lives in the source. Block, warp, lane and register are
divided out of it, slowest first, while the map is the identity on them
(:func:`minimal_conversion`). What is left says where data moves:

- nothing: the two layouts are spellings of one (:attr:`ConversionPath.NONE`);
- registers only: each thread permutes its own registers (``REGISTERS``);
- registers and lanes: one warp shuffle round can do it when the map splits into
  register permutation, shuffle, register permutation with at most one select on each
  side (:func:`warp_shuffle_decomposition`, ``WARP_SHUFFLE``);
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
    AmdMfma,
    DotOperand,
    Encoding,
    NvidiaMma,
    get_contig_per_thread,
    get_order,
    get_warps_per_cta,
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
    """The part of ``dst^-1 . src`` that moves data (Triton's ``minimalCvtLayout``)."""
    conversion = dst.invert_and_compose(src)
    for dim in (BLOCK, WARP, LANE, REGISTER):
        if not conversion.has_in_dim(dim):
            continue
        reduced = conversion.quotient([dim])
        if reduced is None:
            break
        conversion = reduced
    return conversion


@dataclass(frozen=True)
class WarpShuffle:
    """A conversion done as ``P1 . shuffle . P2``: ``p2_inverse`` picks, per destination
    lane, the source register to send; ``shuffle`` (lane -> source lane, from destination
    (lane, register)) is one shuffle per register; ``p1`` puts the received values in the
    destination registers. ``reduced_p1``/``reduced_p2`` keep only the lane bits that
    change the register choice (each needs a select)."""

    p1: LinearLayout
    shuffle: LinearLayout
    p2_inverse: LinearLayout
    reduced_p1: LinearLayout
    reduced_p2: LinearLayout


def _identity(size: int, in_dim: str, out_dim: str) -> LinearLayout:
    if size == 1:
        return LinearLayout({in_dim: []}, [(out_dim, 1)])
    return LinearLayout.identity_1d(size, in_dim, out_dim)


def _zeros(size: int, in_dim: str, out_dim: str, out_size: int) -> LinearLayout:
    if size == 1:
        return LinearLayout({in_dim: []}, [(out_dim, out_size)])
    return LinearLayout.zeros_1d(size, in_dim, out_dim, out_size)


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


def warp_shuffle_decomposition(src_enc: Encoding, dst_enc: Encoding, shape: Sequence[int],
                               bitwidth: int, is_pointer: bool = False) -> WarpShuffle | None:
    """Triton's ``getWarpLayoutConvertDecomposition``; None when one shuffle round with at
    most one select per side cannot do the conversion (or shared memory is faster)."""
    src = to_linear_layout(src_enc, shape)
    dst = to_linear_layout(dst_enc, shape)
    conversion = minimal_conversion(src, dst)
    if conversion.out_dims != [REGISTER, LANE]:
        return None
    c = conversion.sublayout([d for d in conversion.in_dims if d in (REGISTER, LANE)],
                             [REGISTER, LANE])
    c = c.transpose_ins([REGISTER, LANE])
    reg_bits, lane_bits = c.in_dim_size_log2(REGISTER), c.in_dim_size_log2(LANE)

    # Lanes whose source is another register of the same lane cannot be shuffled until P2
    # mixes a register that does change lanes into them.
    missing = []
    for i in range(lane_bits):
        to_reg, to_lane = c.get_bases(LANE)[i]
        if to_reg != 0:
            if to_lane != 0:
                return None
            missing.append(i)
        elif to_lane == 0:
            return None  # broadcast along lanes: not a permutation
    p_prime_lane = [[0] for _ in range(lane_bits)]
    for i in range(reg_bits):
        to_reg, to_lane = c.get_bases(REGISTER)[i]
        if to_lane == 0:
            continue
        if missing:
            p_prime_lane[missing.pop()][0] |= 1 << i
    if missing:
        return None

    reg_size, lanes = c.in_dim_size(REGISTER), c.in_dim_size(LANE)
    p_prime = LinearLayout({LANE: [tuple(b) for b in p_prime_lane]}, [(REGISTER, reg_size)],
                           require_surjective=False)
    p2_top = _identity(reg_size, REGISTER, REGISTER).concat_outs(
        _zeros(reg_size, REGISTER, LANE, lanes))
    p2_bottom = p_prime.concat_outs(_identity(lanes, LANE, LANE))
    p2_inverse = p2_top.concat_ins(p2_bottom)
    cp = p2_inverse.compose(c)
    l_inv = cp.sublayout([LANE], [LANE]).pseudo_invert()
    r = cp.sublayout([REGISTER], [LANE]).compose(l_inv)
    w_left = _identity(reg_size, REGISTER, REGISTER).concat_ins(
        _zeros(lanes, LANE, REGISTER, reg_size))
    w_inverse = w_left.concat_outs(r.concat_ins(l_inv))
    p1 = w_inverse.compose(cp)

    p1 = p1.sublayout([REGISTER, LANE], [REGISTER])
    p2_inverse = p2_inverse.sublayout([REGISTER, LANE], [REGISTER])
    cp = cp.sublayout([REGISTER, LANE], [LANE])
    reduced_p1 = p1.remove_zero_bases_along_dim(LANE)
    reduced_p2 = p2_inverse.remove_zero_bases_along_dim(LANE)
    # More than one select per side is slower than shared memory.
    if reduced_p1.in_dim_size(LANE) > 2 or reduced_p2.in_dim_size(LANE) > 2:
        return None
    for enc in (src_enc, dst_enc):
        if isinstance(enc, DotOperand) and enc.k_width == 0:
            return None
    # Sub-32-bit values are shuffled one per 32-bit register; wide shared accesses win.
    in_vec, out_vec = scratch_vector_lengths(src_enc, dst_enc, shape)
    if not is_pointer and bitwidth < 32 and in_vec > 4 and out_vec > 4:
        return None
    return WarpShuffle(p1, cp, p2_inverse, reduced_p1, reduced_p2)


def _is_float8(element: str) -> bool:
    return element.startswith("f8")


def _mma_v3_to_dot_shortcut(src_enc: Encoding, dst_enc: Encoding, shape: Sequence[int],
                            bitwidth: int) -> bool:
    """Hopper accumulator to 8-bit A operand: a register permutation Triton lowers with a
    dedicated shuffle (``matchMmaV3AndDotOperandLayout``)."""
    if not (isinstance(src_enc, NvidiaMma) and isinstance(dst_enc, DotOperand)):
        return False
    return (src_enc.version_major == 3 and dst_enc.op_idx == 0
            and src_enc.warps_per_cta[1] == 1 and bitwidth == 8
            and dst_enc.k_width == 32 // bitwidth
            and conversion_path(dst_enc.parent, src_enc, shape, bitwidth)
            is not ConversionPath.SHARED_MEMORY)


def _mfma_to_dot_shortcut(src_enc: Encoding, dst_enc: Encoding, element: str) -> bool:
    """CDNA fp8 MFMA accumulator to its own A operand (``matchMFMAAndDotOperandShuffleCase``)."""
    if not (isinstance(src_enc, AmdMfma) and isinstance(dst_enc, DotOperand)):
        return False
    return (dst_enc.parent == src_enc and dst_enc.op_idx == 0 and src_enc.is_transposed
            and dst_enc.k_width == 8 and tuple(src_enc.instr_shape[:2]) in ((16, 16), (32, 32))
            and _is_float8(element) and src_enc.warps_per_cta[1] == 1)


def conversion_path(src_enc: Encoding, dst_enc: Encoding, shape: Sequence[int], bitwidth: int,
                    is_pointer: bool = False, element: str = "") -> ConversionPath:
    """How a conversion of a ``shape`` tensor of ``bitwidth``-bit elements moves data.

    ``element`` is the element type's name (``f32``, ``f8E4M3FN``...), consulted for the
    fp8 special cases. Layouts without a linear form go through shared memory.
    """
    try:
        src = to_linear_layout(src_enc, shape)
        dst = to_linear_layout(dst_enc, shape)
        conversion = minimal_conversion(src, dst)
    except LayoutError:
        return ConversionPath.SHARED_MEMORY
    if not conversion.out_dims:
        return ConversionPath.NONE
    if conversion.out_dims == [REGISTER]:
        return ConversionPath.REGISTERS
    if conversion.out_dims == [REGISTER, LANE] and warp_shuffle_decomposition(
            src_enc, dst_enc, shape, bitwidth, is_pointer) is not None:
        return ConversionPath.WARP_SHUFFLE
    if _mma_v3_to_dot_shortcut(src_enc, dst_enc, shape, bitwidth):
        return ConversionPath.REGISTERS
    if _mfma_to_dot_shortcut(src_enc, dst_enc, element):
        return ConversionPath.WARP_SHUFFLE
    return ConversionPath.SHARED_MEMORY


def warps_along(encoding: Encoding, shape: Sequence[int], axis: int) -> int:
    """Warps holding distinct data along ``axis`` (Triton's ``getWarpsPerCTA(enc, shape)``)."""
    return get_warps_per_cta(encoding, shape)[axis]
