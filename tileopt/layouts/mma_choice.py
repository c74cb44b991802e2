"""How Triton 3.6 picks the matrix-unit layouts of a dot: plain-number choosers.

``tritongpu-accelerate-matmul`` turns a ``tt.dot`` into a tensor-core dot; the layouts it
writes follow from the dot's shape, element types and the warp count alone, by the rules
here (Triton's ``mmaVersionToInstrShape``, ``warpsPerTileV2/V3`` and the ``#ttg.dot_op`` /
``#ttg.nvmma_shared`` attribute builders). The bank-conflict-free swizzle of a shared
buffer that feeds a dot operand (``#ttg.swizzled_shared`` for an ``#mma``/MFMA/WMMA
operand) is here too: reduce-data-duplication and the pipeliner both pick it.

Everything takes and returns plain numbers (or the dataclasses of
:mod:`tileopt.layouts.encodings`), so each rule is checked with pytest against the corpus
and hand-computed cases; the passes only read the IR and build the attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from tileopt.layouts.encodings import AmdMfma, AmdWmma, DotOperand, NvidiaMma

# wgmma's N choices, largest first (larger instructions are preferred). 8-bit integers
# have fewer (PTX ISA, wgmma .s8/.u8 shapes).
_WGMMA_N_FLOAT = tuple(range(256, 0, -8))
_WGMMA_N_INT8 = (224, 208, 192, 176, 160, 144, 128, 112, 96, 80, 64, 48, 32, 24, 16, 8)


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def instr_shape_v2(rank: int) -> tuple[int, ...]:
    """mma.sync's tile per warp: ``[16, 8]`` (``[1, 16, 8]`` for a batched dot)."""
    return (1,) * (rank - 2) + (16, 8)


def instr_shape_v3(shape: Sequence[int], element_bits: int, int8: bool,
                   num_warps: int) -> tuple[int, int, int]:
    """wgmma's ``[m, n, k]`` for a dot of result ``shape`` (M, N) and A of
    ``element_bits``: k covers 32 bytes, n is the largest valid N that divides the
    result's N and does not exceed what each warp group gets along N."""
    m_size, n_size = shape[0], shape[1]
    if m_size % 64 or n_size % 8:
        raise ValueError(f"wgmma needs M % 64 == 0 and N % 8 == 0, got {m_size}x{n_size}")
    m_warps = max(m_size // 16, 1)
    n_warps = max(num_warps // m_warps, 1)
    max_n = max(n_size // n_warps, 8)
    for n in _WGMMA_N_INT8 if int8 else _WGMMA_N_FLOAT:
        if n_size % n == 0 and n <= max_n:
            return 16, n, 256 // element_bits
    raise ValueError(f"no wgmma instruction fits N = {n_size}")


def warps_per_cta_v2(shape: Sequence[int], num_warps: int) -> tuple[int, ...]:
    """Warps of an mma.sync dot with no chained dot: split M and N so that the per-warp
    repetitions of the 16x8 tile stay balanced (fewest A + B registers), ties to M."""
    if len(shape) == 3:
        return (num_warps, 1, 1)
    warps = [1, 1]
    reps = [_ceil_div(shape[0], 16), _ceil_div(shape[1], 8)]
    while prod(warps) < num_warps:
        if reps[0] >= reps[1]:
            warps[0] *= 2
            if reps[0] != 1:  # more warps than tiles: the rest go along M
                reps[0] //= 2
        else:
            warps[1] *= 2
            reps[1] //= 2
    return tuple(warps)


def warps_per_cta_v2_chained(shape: Sequence[int], num_warps: int) -> tuple[int, ...]:
    """Warps of an mma.sync dot chained to another dot that has no ``#mma`` yet: all along
    the longer of M and N."""
    if len(shape) == 3:
        return (num_warps, 1, 1)
    return (num_warps, 1) if shape[0] >= shape[1] else (1, num_warps)


def warps_per_cta_v3(shape: Sequence[int], num_warps: int,
                     chained: bool = False) -> tuple[int, int]:
    """Warps of a wgmma dot: warp groups of 4 along M while M has rows left for them (16
    per warp), then along N; all along M when the result feeds another dot (attention),
    so that row reductions stay inside a warp."""
    if chained:
        return (num_warps, 1)
    warps = [4, 1]
    while warps[0] * warps[1] < num_warps:
        if shape[0] > 16 * warps[0]:
            warps[0] *= 2
        else:
            warps[1] *= 2
    return (warps[0], warps[1])


def k_width(parent: object, element_bits: int) -> int:
    """``kWidth`` of a dot operand: consecutive K elements per thread that fill 32 bits for
    an mma.sync/wgmma parent, 0 (none) for any other."""
    if isinstance(parent, NvidiaMma) and parent.version_major in (2, 3):
        return 32 // element_bits
    return 0


def nvmma_swizzle_bytes(shape: Sequence[int], order: Sequence[int], element_bits: int) -> int:
    """``swizzlingByteWidth`` of the ``#ttg.nvmma_shared`` buffer wgmma reads: the widest
    of 128/64/32 bytes that tiles the contiguous dimension, 0 (no swizzle) when no width
    tiles it or there are fewer than 8 rows for the 8-row swizzle pattern."""
    contiguous_bytes = shape[order[0]] * element_bits // 8
    swizzle = next((w for w in (128, 64, 32)
                    if contiguous_bytes >= w and contiguous_bytes % w == 0), 0)
    rows = prod(shape[d] for d in order[1:])
    if len(shape) < 2 or rows < 8:
        return 0
    return swizzle


def nvmma_transposed(order: Sequence[int]) -> bool:
    """``transposed`` of ``#ttg.nvmma_shared``: dimension 0 is the contiguous one."""
    return order[0] == 0


def dot_operand_swizzle(dot: DotOperand, shape: Sequence[int], order: Sequence[int],
                        element_bits: int, need_trans: bool = False) -> tuple[int, int, int]:
    """``(vec, perPhase, maxPhase)`` of the ``#ttg.swizzled_shared`` buffer a dot operand
    is read from without bank conflicts (Triton's ``SwizzledSharedEncodingAttr`` builder
    for a dot operand); ``(1, 1, 1)`` where no swizzle helps. ``need_trans``: the buffer
    is read through a transposed view, so (for mma.sync/wgmma parents) its tile's K and
    M/N sides swap."""
    op_idx, kw, parent = dot.op_idx, dot.k_width, dot.parent
    if isinstance(parent, (AmdMfma, AmdWmma)):
        k_dim = 1 if op_idx == 0 else 0
        is_mfma = isinstance(parent, AmdMfma)
        gfx950 = is_mfma and parent.version == 4
        if order[0] != k_dim and not (gfx950 and element_bits in (8, 16)):
            return 1, 1, 1  # k not contiguous: no bank conflicts
        banks = 64 if gfx950 else 32
        inner = shape[order[0]]
        per_phase = max(1, banks * 32 // element_bits // inner)
        # RDNA3's kWidth of 16 holds each of 8 elements twice (the two half-waves read
        # the same K values): the reads are 8 wide (Triton 3.6's gfx1100 buffers).
        vec = kw // 2 if not is_mfma and parent.version == 1 else kw
        max_phase = max(min(16 // per_phase, inner // vec), 1)
        if is_mfma and parent.instr_shape[0] == 4:
            max_phase = 4
        return vec, per_phase, max_phase
    if not isinstance(parent, NvidiaMma) or parent.version_major not in (2, 3):
        return 1, 1, 1
    rank = len(order)
    # Rows of the contiguous dimension one 128-byte line holds (Triton 3.6's wheel: kWidth
    # plays no part, and a dimension narrower than kWidth still gets one).
    per_phase = max(1024 // (shape[order[0]] * element_bits), 1)
    mat_m, mat_n, mat_k = 8, 8, 4 * kw
    row_major = order[0] == rank - 1
    if op_idx == 0:
        m, k = (mat_k, mat_m) if need_trans else (mat_m, mat_k)
        vec, stride = (k, m) if row_major else (m, k)
    else:
        n, k = (mat_k, mat_n) if need_trans else (mat_n, mat_k)
        vec, stride = (n, k) if row_major else (k, n)
    # A kWidth past 32 bits' worth of elements (Triton 3.6's wheel, checked against it
    # for 8-, 16- and 32-bit operands of both indices and orders) divides the phases.
    scale = max(kw * element_bits // 32, 1)
    return vec, per_phase, max(stride // per_phase // scale, 1)


# ------------------------------------------------------------------ AMD matrix cores
#
# Element kinds of MFMA operands, by name: "f32", "xf32" (f32 read as tf32, CDNA3 only),
# "f16", "bf16", "i8", "fp8" (the FNUZ fp8 types on CDNA3, the OCP ones on CDNA4).

# K of the MFMA instruction per (kind, mDim) for each CDNA generation (mfma version);
# several Ks where the generation has a short and a long instruction.
_MFMA_K: dict[int, dict[tuple[str, int], tuple[int, ...]]] = {
    1: {("f32", 32): (2,), ("f32", 16): (4,), ("f16", 32): (8,), ("f16", 16): (16,),
        ("bf16", 32): (4,), ("bf16", 16): (8,), ("i8", 32): (8,), ("i8", 16): (16,)},
    2: {("f32", 32): (2,), ("f32", 16): (4,), ("f16", 32): (8,), ("f16", 16): (16,),
        ("bf16", 32): (8,), ("bf16", 16): (16,), ("i8", 32): (8,), ("i8", 16): (16,)},
    3: {("f32", 32): (2,), ("f32", 16): (4,), ("xf32", 32): (4,), ("xf32", 16): (8,),
        ("f16", 32): (8,), ("f16", 16): (16,), ("bf16", 32): (8,), ("bf16", 16): (16,),
        ("i8", 32): (16,), ("i8", 16): (32,), ("fp8", 32): (16,), ("fp8", 16): (32,)},
    4: {("f32", 32): (2,), ("f32", 16): (4,), ("f16", 32): (16, 8), ("f16", 16): (32, 16),
        ("bf16", 32): (16, 8), ("bf16", 16): (32, 16), ("i8", 32): (32, 16),
        ("i8", 16): (64, 32), ("fp8", 32): (16,), ("fp8", 16): (32,)},
}


@dataclass(frozen=True)
class MfmaChoice:
    """An MFMA instruction for a dot: ``m x n x k``, and ``k_base`` K elements per lane."""

    m: int
    n: int
    k: int

    @property
    def k_base(self) -> int:
        # 64 lanes hold one m x k (or k x n) operand tile: k_base = m * k / 64.
        return self.m * self.k // 64


def mfma_tile(shape: Sequence[int], forced_non_k: int = 0) -> int:
    """M = N of the MFMA instruction Triton 3.6 picks for a dot of result ``shape`` (…, M,
    N): 32 when M and N are both at least 32, 16 when the smaller is 16..31, 0 for none
    (``forced_non_k``, the matrix-instruction-size option, overrides). Not written: the
    4x64 and 64x4 instructions Triton takes for a smaller M or N (tileopt keeps those
    dots on FMA; its MFMA lowering has only the square ones)."""
    if forced_non_k:
        return forced_non_k
    smaller = min(shape[-2], shape[-1])
    return 32 if smaller >= 32 else 16 if smaller >= 16 else 0


def mfma_candidate(version: int, shape: Sequence[int], k_size: int, kind: str,
                   forced_non_k: int = 0) -> MfmaChoice | None:
    """The instruction of :func:`mfma_tile`'s size for operands of ``kind``: of two Ks
    the longer if ``k_size`` reaches it; None if the generation has none."""
    m_dim = mfma_tile(shape, forced_non_k)
    ks = _MFMA_K.get(version, {}).get((kind, m_dim))
    if not ks:
        return None
    return MfmaChoice(m_dim, m_dim, next((k for k in ks[:-1] if k_size >= k), ks[-1]))


def mfma_instruction(version: int, shape: Sequence[int], k_size: int, kind: str,
                     forced_non_k: int = 0) -> MfmaChoice | None:
    """The MFMA instruction Triton 3.6 uses for the dot (:func:`mfma_candidate`), None
    (the dot stays on FMA) where there is none or ``k_size`` is not a multiple of its K,
    which would duplicate data (also for a forced size)."""
    choice = mfma_candidate(version, shape, k_size, kind, forced_non_k)
    return choice if choice is not None and k_size % choice.k == 0 else None


def mfma_k_width(choice: MfmaChoice, k_pack: int, chained_tail: bool,
                 element_bits: int = 16) -> int:
    """``kWidth`` of an MFMA dot operand: the instruction's K elements per lane, times
    ``k_pack`` (wider LDS reads feeding several instructions) except for the second dot
    of a chain, whose A operand is the first dot's accumulator layout: there 16-bit
    operands take the 4 consecutive elements a lane holds of an MFMA accumulator, also
    where the instruction reads 8 (gfx950's 16x16x32; Triton 3.6's output)."""
    if chained_tail:
        return min(choice.k_base, 4) if element_bits == 16 else choice.k_base
    return choice.k_base * k_pack


def amd_warps_per_cta(shape: Sequence[int], num_warps: int, tile: tuple[int, int],
                      chain_head: bool = False, chain_tail: bool = False) -> tuple[int, ...]:
    """warpsPerCTA of an MFMA/WMMA dot (``tile``: M x N of one instruction). Batched dots
    put all warps on the batch; the first dot of a chain (attention) puts them on M, so
    row reductions stay in a warp; the second one covers M first (never more warps than
    M tiles) and N with the rest. Otherwise warps double along M while the per-warp M
    extent (counted in pairs of tiles) is at least the N extent and M has tiles left,
    else along N; a split wider than N is turned around."""
    if len(shape) == 3:
        return (num_warps, 1, 1)
    if chain_head:
        return (num_warps, 1)
    if chain_tail:
        along_m = min(num_warps, _ceil_div(shape[0], tile[0]))
        return (along_m, num_warps // along_m)
    warps = [1, 1]
    while warps[0] * warps[1] < num_warps:
        m_reps = shape[0] // (tile[0] * 2) // warps[0]
        n_reps = shape[1] // tile[1] // warps[1]
        if m_reps >= n_reps and warps[0] < shape[0] // tile[0]:
            warps[0] *= 2
        else:
            warps[1] *= 2
    if warps[1] * tile[1] > shape[1]:
        return (warps[1], warps[0])
    return (warps[0], warps[1])


WMMA_TILE = (16, 16, 16)
"""M x N x K of one RDNA3/RDNA4 WMMA instruction."""


def wmma_k_width(version: int) -> int:
    """``kWidth`` of a WMMA dot operand: the K elements one lane holds (16 on RDNA3, whose
    lanes 16-31 repeat lanes 0-15; 8 on RDNA4)."""
    return {1: 16, 2: 8}[version]
