"""The matrix-unit layout choosers (``tileopt.layouts.mma_choice``).

Two kinds of check: every choice Triton 3.6 made for the corpus dot kernels on NVIDIA
(read from the corpus ``.ttgir`` files, so a wrong rule fails here), and hand-worked cases
outside the corpus, each computed from the rule in its comment.
"""

from __future__ import annotations

import pytest

from tileopt.dialects.layout_of import encoding_of
from tileopt.dialects.ttg import LocalLoadOp, num_warps
from tileopt.dialects.ttg_types import MemDescType
from tileopt.ir import make_context, parse_module
from tileopt.layouts import mma_choice as mc
from tileopt.layouts.encodings import (AmdMfma, AmdWmma, Blocked, DotOperand, NvidiaMma, NvmmaShared,
                                       SwizzledShared)

DOT_KERNELS = ("matmul", "matmul_small", "block_ptr_matmul")
NVIDIA = ("cuda-sm80", "cuda-sm90")


def _bits(ty) -> int:
    return ty.get_element_type().bitwidth


def _corpus_module(corpus, target, kernel):
    path = corpus / target / f"{kernel}.ttgir"
    return parse_module(path.read_text(), str(path), make_context())


def _the_dot(module):
    dots = [op for op in module.walk() if op.name in ("tt.dot", "ttng.warp_group_dot")]
    assert len(dots) == 1
    return dots[0]


@pytest.mark.parametrize("kernel", DOT_KERNELS)
@pytest.mark.parametrize("target", NVIDIA)
def test_corpus_mma_layout(corpus, target, kernel):
    """instrShape and warpsPerCTA of the dot's ``#mma``, kWidth of its register operands."""
    module = _corpus_module(corpus, target, kernel)
    dot = _the_dot(module)
    mma = encoding_of(dot.results[0].type)
    assert isinstance(mma, NvidiaMma)
    shape = list(dot.results[0].type.get_shape())
    warps = num_warps(module)
    a_bits = _bits(dot.operands[0].type)
    if target == "cuda-sm80":
        assert mma.version_major == 2
        assert mma.instr_shape == mc.instr_shape_v2(len(shape))
        assert mma.warps_per_cta == mc.warps_per_cta_v2(shape, warps)
        for operand in dot.operands[:2]:
            assert encoding_of(operand.type).k_width == mc.k_width(mma, a_bits)
    else:
        assert mma.version_major == 3
        assert mma.instr_shape == mc.instr_shape_v3(shape, a_bits, False, warps)
        assert mma.warps_per_cta == mc.warps_per_cta_v3(shape, warps)


@pytest.mark.parametrize("kernel", DOT_KERNELS)
def test_corpus_nvmma_swizzle(corpus, kernel):
    """The ``#nvmma_shared`` wgmma operands of sm90: swizzle from the contiguous dim."""
    dot = _the_dot(_corpus_module(corpus, "cuda-sm90", kernel))
    for operand in dot.operands[:2]:
        ty = operand.type
        shared = encoding_of(ty)
        assert isinstance(shared, NvmmaShared)
        order = [0, 1] if shared.transposed else [1, 0]
        assert shared.transposed == mc.nvmma_transposed(order)
        assert shared.swizzling_byte_width == mc.nvmma_swizzle_bytes(
            list(ty.get_shape()), order, _bits(ty))


@pytest.mark.parametrize("kernel", DOT_KERNELS)
def test_corpus_dot_operand_swizzle(corpus, kernel):
    """Every sm80 ``local_load`` into an ``#mma`` operand reads a buffer swizzled as
    ``dot_operand_swizzle`` says (pipelined buffers and reduce-data-duplication's)."""
    module = _corpus_module(corpus, "cuda-sm80", kernel)
    loads = [op for op in module.walk() if isinstance(op, LocalLoadOp)
             and isinstance(encoding_of(op.results[0].type), DotOperand)]
    assert len(loads) == 2
    for load in loads:
        src = load.operands[0].type
        assert isinstance(src, MemDescType)
        shared = encoding_of(src)
        assert isinstance(shared, SwizzledShared)
        dst = load.results[0].type
        got = mc.dot_operand_swizzle(encoding_of(dst), list(dst.get_shape()),
                                     list(shared.order), _bits(dst))
        assert got == (shared.vec, shared.per_phase, shared.max_phase)


# ----------------------------------------------------------------------- hand cases


@pytest.mark.parametrize(("shape", "warps", "expected"), [
    ((128, 128), 8, (2, 4)),   # reps 8x16: N, M, N
    ((64, 64), 4, (2, 2)),     # reps 4x8: N, then the tie goes to M
    ((16, 64), 4, (1, 4)),     # reps 1x8: all along N
    ((64, 32), 4, (2, 2)),     # reps 4x4: tie to M, then 2x4: N
    ((16, 16), 8, (4, 2)),     # reps 1x2: N, then M has one tile left: the rest to M
    ((2, 64, 64), 4, (4, 1, 1)),  # batched: all warps along the batch
])
def test_warps_per_cta_v2(shape, warps, expected):
    assert mc.warps_per_cta_v2(shape, warps) == expected


@pytest.mark.parametrize(("shape", "warps", "expected"), [
    ((128, 64), 4, (4, 1)),
    ((64, 128), 8, (1, 8)),
    ((64, 64), 4, (4, 1)),     # ties to M
])
def test_warps_per_cta_v2_chained(shape, warps, expected):
    assert mc.warps_per_cta_v2_chained(shape, warps) == expected


@pytest.mark.parametrize(("shape", "warps", "chained", "expected"), [
    ((64, 64), 8, False, (4, 2)),    # 64 rows fill one warp group: the next goes along N
    ((256, 128), 8, False, (8, 1)),
    ((128, 128), 16, False, (8, 2)),
    ((64, 32), 4, False, (4, 1)),
    ((64, 64), 8, True, (8, 1)),     # a chained dot keeps every warp along M
])
def test_warps_per_cta_v3(shape, warps, chained, expected):
    assert mc.warps_per_cta_v3(shape, warps, chained) == expected


@pytest.mark.parametrize(("shape", "bits", "int8", "warps", "expected"), [
    ((64, 32), 16, False, 4, (16, 32, 16)),    # 64x32x16 bf16: one warp group, n = N
    ((128, 128), 32, False, 4, (16, 128, 8)),  # tf32: k = 32 bytes / 4
    ((64, 256), 8, True, 8, (16, 128, 32)),    # 2 warp groups along N: n <= 128
    ((64, 88), 16, False, 4, (16, 88, 16)),    # 88 is a wgmma N for floats...
    ((64, 88), 8, True, 4, (16, 8, 32)),       # ... not for i8: the largest divisor is 8
])
def test_instr_shape_v3(shape, bits, int8, warps, expected):
    assert mc.instr_shape_v3(shape, bits, int8, warps) == expected


def test_instr_shape_v3_rejects_shapes_wgmma_lacks():
    with pytest.raises(ValueError):
        mc.instr_shape_v3((32, 64), 16, False, 4)


def test_instr_shape_v2():
    assert mc.instr_shape_v2(2) == (16, 8)
    assert mc.instr_shape_v2(3) == (1, 16, 8)


def test_k_width():
    mma = NvidiaMma(2, 0, (2, 2), (16, 8))
    assert [mc.k_width(mma, bits) for bits in (8, 16, 32)] == [4, 2, 1]
    assert mc.k_width(Blocked((1, 1), (8, 4), (4, 1), (1, 0)), 16) == 0


@pytest.mark.parametrize(("shape", "order", "bits", "expected"), [
    ((64, 32), (1, 0), 16, 64),    # 64-byte rows
    ((32, 64), (1, 0), 16, 128),
    ((64, 32), (0, 1), 16, 128),   # dim 0 contiguous: 64 x 2 bytes
    ((16, 48), (1, 0), 16, 32),    # 96 bytes: only 32 divides it
    ((64, 8), (1, 0), 16, 0),      # 16-byte rows: too narrow to swizzle
    ((4, 64), (1, 0), 16, 0),      # 4 rows: fewer than the 8-row pattern
    ((64, 16), (1, 0), 32, 64),
])
def test_nvmma_swizzle_bytes(shape, order, bits, expected):
    assert mc.nvmma_swizzle_bytes(shape, order, bits) == expected


def test_dot_operand_swizzle_tf32():
    """A 64x32 f32 A operand (kWidth 1): rows of 128 bytes change phase every row; ldmatrix
    reads 16-byte (4-element) pieces of 8 rows."""
    dot = DotOperand(0, NvidiaMma(2, 0, (2, 2), (16, 8)), 1)
    assert mc.dot_operand_swizzle(dot, [64, 32], [1, 0], 32) == (4, 1, 8)


def test_dot_operand_swizzle_blocked_parent_is_plain():
    dot = DotOperand(0, Blocked((1, 1), (8, 4), (4, 1), (1, 0)), 0)
    assert mc.dot_operand_swizzle(dot, [64, 32], [1, 0], 16) == (1, 1, 1)


def test_dot_operand_swizzle_transposed_read():
    """Read through a transposed view, an i8 A operand (kWidth 4: the mma tile is 8 x 16
    along m x k; row-major 64x32, perPhase 128 / (32 * 4 / 4) = 4) swaps its tile's
    sides: untransposed vec = k = 16 and maxPhase = m / 4 = 2; transposed vec = 8 and
    maxPhase = 16 / 4 = 4."""
    dot = DotOperand(0, NvidiaMma(2, 0, (2, 2), (16, 8)), 4)
    assert mc.dot_operand_swizzle(dot, [64, 32], [1, 0], 8) == (16, 4, 2)
    assert mc.dot_operand_swizzle(dot, [64, 32], [1, 0], 8, need_trans=True) == (8, 4, 4)


# ------------------------------------------------------------------ AMD matrix cores

AMD = ("hip-gfx942", "hip-gfx1100")


@pytest.mark.parametrize("kernel", DOT_KERNELS)
@pytest.mark.parametrize("target", AMD)
def test_corpus_amd_mma_layout(corpus, target, kernel):
    """The MFMA/WMMA layout of each corpus dot and its operands' kWidth (kPack 1) follow
    from the dot's shape, K, types and warp count."""
    module = _corpus_module(corpus, target, kernel)
    dots = [op for op in module.walk() if op.name == "tt.dot"]  # the pipeliner peels some
    assert len({op.results[0].type for op in dots}) == 1
    dot = dots[0]
    mma = encoding_of(dot.results[0].type)
    shape = list(dot.results[0].type.get_shape())
    k = dot.operands[0].type.get_shape()[-1]
    widths = {encoding_of(operand.type).k_width for operand in dot.operands[:2]}
    if target == "hip-gfx942":
        assert isinstance(mma, AmdMfma) and mma.version == 3
        choice = mc.mfma_instruction(3, shape, k, "f16")
        assert mma.instr_shape == (choice.m, choice.n, choice.k)
        assert mma.warps_per_cta == mc.amd_warps_per_cta(shape, num_warps(module),
                                                         (choice.m, choice.n))
        assert mma.is_transposed
        assert widths == {mc.mfma_k_width(choice, 1, False)}
    else:
        assert isinstance(mma, AmdWmma) and mma.version == 1 and mma.is_transposed
        tile = mc.WMMA_TILE[:2]
        assert mma.warps_per_cta == mc.amd_warps_per_cta(shape, num_warps(module), tile)
        assert widths == {mc.wmma_k_width(1)}


@pytest.mark.parametrize(("version", "shape", "k", "kind", "forced", "expected"), [
    (3, (128, 128), 64, "f16", 0, (32, 32, 8)),
    (3, (64, 16), 64, "f16", 0, (16, 16, 16)),   # min(M, N) = 16: the 16x16 instruction
    (3, (64, 64), 32, "fp8", 0, (32, 32, 16)),
    (3, (64, 64), 32, "xf32", 0, (32, 32, 4)),
    (2, (64, 64), 32, "i8", 0, (32, 32, 8)),     # CDNA2's int8 instruction is half as deep
    (3, (64, 64), 64, "i8", 16, (16, 16, 32)),   # matrix-instruction-size=16 forces 16x16
    (4, (64, 64), 64, "f16", 0, (32, 32, 16)),   # gfx950: the double-K f16 instruction...
    (4, (64, 64), 8, "f16", 0, (32, 32, 8)),     # ...unless K only fits the short one
])
def test_mfma_instruction(version, shape, k, kind, forced, expected):
    choice = mc.mfma_instruction(version, shape, k, kind, forced)
    assert (choice.m, choice.n, choice.k) == expected


@pytest.mark.parametrize(("version", "shape", "k", "kind"), [
    (3, (8, 64), 64, "f16"),    # M under 16: no instruction
    (3, (64, 64), 4, "f16"),    # K under one instruction's 8: data would be duplicated
    (2, (64, 64), 32, "fp8"),   # no fp8 MFMA before CDNA3
    (3, (64, 64), 32, "f64"),   # no f64 entry: the FMA path
])
def test_mfma_instruction_none(version, shape, k, kind):
    assert mc.mfma_instruction(version, shape, k, kind) is None


def test_forced_mfma_size_still_refuses_to_duplicate_data():
    """matrix-instruction-size=16 with K = 4 under the 16x16x16's 16: Triton 3.6 keeps the
    dot on FMA (accelerate-amd-matmul-mfma.mlir's small-K case), as without the option."""
    assert mc.mfma_candidate(3, (128, 256), 4, "f16", 16) == mc.MfmaChoice(16, 16, 16)
    assert mc.mfma_instruction(3, (128, 256), 4, "f16", 16) is None


def test_mfma_k_width():
    """K elements per lane: 32x32x8 spreads 8 K over 2 lane groups (4 each), 16x16x16
    over 4 (4 each); kPack multiplies, except for the second dot of a chain."""
    assert mc.mfma_k_width(mc.MfmaChoice(32, 32, 8), 1, False) == 4
    assert mc.mfma_k_width(mc.MfmaChoice(16, 16, 16), 2, False) == 8
    assert mc.mfma_k_width(mc.MfmaChoice(32, 32, 8), 2, True) == 4
    assert mc.mfma_k_width(mc.MfmaChoice(32, 32, 2), 1, False) == 1
    # gfx950's 16x16x32 (8 per lane) as a chain's second dot: 4 for 16-bit operands, as
    # Triton 3.6 gives (accelerate-amd-matmul-chain-dot.mlir), the instruction's 16 for
    # 8-bit ones (16x16x64).
    assert mc.mfma_k_width(mc.MfmaChoice(16, 16, 32), 1, True, 16) == 4
    assert mc.mfma_k_width(mc.MfmaChoice(16, 16, 64), 1, True, 8) == 16


@pytest.mark.parametrize(("shape", "warps", "tile", "head", "tail", "expected"), [
    ((128, 128), 8, (32, 32), False, False, (2, 4)),
    ((64, 64), 4, (32, 32), False, False, (2, 2)),
    ((256, 32), 4, (32, 32), False, False, (4, 1)),   # N has one tile: all warps on M
    ((32, 256), 4, (32, 32), False, False, (1, 4)),
    ((16, 32), 4, (16, 16), False, False, (4, 1)),    # 4 warps on N overshoot 32: turned around
    ((128, 64), 4, (32, 32), True, False, (4, 1)),    # first dot of a chain: all on M
    ((32, 128), 8, (32, 32), False, True, (1, 8)),    # second dot: M has one tile
    ((2, 64, 64), 4, (32, 32), False, False, (4, 1, 1)),
])
def test_amd_warps_per_cta(shape, warps, tile, head, tail, expected):
    assert mc.amd_warps_per_cta(shape, warps, tile, head, tail) == expected
