"""wgmma: matrix descriptors against the constants in Triton's corpus ``.llir``, and the
accumulator fragment against the PTX ISA's wgmma D layout.

Descriptor constants (read from ``../shared/corpus/cuda-sm90/<kernel>.llir``: the i64
``or``/``add`` operands before each ``wgmma.mma_async``; the start address is or-ed in at
run time): the fixed bits and how far the start moves per k16 step.
"""

from __future__ import annotations

import pytest

from tileopt.conversion.nvidia.wgmma import (
    SharedOperand,
    accumulator_fragment,
    canonical_offset,
    register_a_fragment,
    swizzled,
)
from tileopt.conversion.triton_gpu_to_llvm.dot import tile_operand
from tileopt.layouts.encodings import OFFSET, DotOperand, NvidiaMma, NvmmaShared, to_linear_layout

CORPUS = [
    # (kernel, operand, shape, swizzle, transposed, n, descriptor bits, bytes per k16 step)
    ("matmul", 0, (128, 64), 128, False, 128, 4611686293305294848, 32),
    ("matmul", 1, (64, 128), 128, False, 128, 4611686293338849280, 2048),
    ("matmul_small", 0, (64, 32), 64, False, 64, -9223371899415822336, 32),
    ("matmul_small", 1, (32, 64), 128, False, 64, 4611686293305294848, 2048),
    ("block_ptr_matmul", 0, (64, 32), 128, True, 64, 4611686293305294848, 2048),
    ("block_ptr_matmul", 1, (32, 64), 64, True, 64, -9223371899415822336, 32),
]


def _operand(index, shape, swizzle, transposed, n):
    encoding = NvmmaShared(swizzle, transposed, 16)
    layout = to_linear_layout(encoding, list(shape), 16)
    return SharedOperand(layout, index, 2, swizzle, 64 if index == 0 else n, 16)


@pytest.mark.parametrize("case", CORPUS, ids=lambda c: f"{c[0]}-{'AB'[c[1]]}")
def test_descriptors_match_the_corpus(case):
    kernel, index, shape, swizzle, transposed, n, bits, step = case
    operand = _operand(index, shape, swizzle, transposed, n)
    assert operand.descriptor.bits() == bits % (1 << 64)
    k = shape[1] if index == 0 else shape[0]
    mn = shape[0] if index == 0 else shape[1]
    starts = [operand.check_tile(0, k0) for k0 in range(0, k, 16)]
    assert starts == [i * step for i in range(k // 16)]
    # Every tile of the operand (other M/N tiles: other warp groups) reads right too.
    for mn0 in range(0, mn, operand.tile_mn):
        for k0 in range(0, k, 16):
            operand.check_tile(mn0, k0)


def test_matmul_warp_group_1_starts_64_rows_down():
    operand = _operand(0, (128, 64), 128, False, 128)
    assert operand.check_tile(64, 0) == 8192


def test_a_layout_wgmma_cannot_read_is_an_error():
    operand = _operand(0, (128, 64), 128, False, 128)
    # Pretend the atoms are 2 KiB apart: the descriptor no longer describes the layout.
    operand.descriptor = type(operand.descriptor)(128, False, 0, 2048)
    with pytest.raises(ValueError, match="reads byte"):
        operand.check_tile(0, 0)


def test_a_failed_tile_fails_again():
    # Only tiles that passed are remembered: asking again must not return a start.
    operand = _operand(0, (128, 64), 128, False, 128)
    operand.descriptor = type(operand.descriptor)(128, False, 0, 2048)
    for _ in range(2):
        with pytest.raises(ValueError, match="reads byte"):
            operand.check_tile(0, 0)


@pytest.mark.parametrize("case", CORPUS, ids=lambda c: f"{c[0]}-{'AB'[c[1]]}")
def test_offsets_by_parts_are_the_layouts(case):
    # offset() adds up one part per coordinate: each point must be the inverse layout's.
    _, index, shape, swizzle, transposed, n, _, _ = case
    operand = _operand(index, shape, swizzle, transposed, n)
    mn_size, k_size = (shape[0], shape[1]) if index == 0 else (shape[1], shape[0])
    dims = operand.inverse.in_dims
    for mn in range(mn_size):
        for k in range(k_size):
            point = dict(zip(dims, operand.coords(mn, k)))
            assert operand.offset(mn, k) == operand.inverse.apply(point)[OFFSET]
    with pytest.raises(ValueError, match="outside input dimension"):
        operand.offset(mn_size, 0)


def test_canonical_layouts_of_the_isa():
    # K-major 128 B: row 1 of an atom is the next 128 bytes, 16-byte chunks xor row.
    d = _operand(0, (128, 64), 128, False, 128).descriptor
    assert swizzled(canonical_offset(d, 1, 0, 2), 128) == 128 + 16
    assert swizzled(canonical_offset(d, 8, 0, 2), 128) == 1024
    assert swizzled(canonical_offset(d, 3, 8, 2), 128) == 3 * 128 + (16 ^ 48)


def _wgmma_d(i, lane, warp):
    """The PTX ISA's wgmma D fragment: row and column of element i of a lane of a warp."""
    g, t = lane >> 2, lane % 4
    row = 16 * warp + g + (8 if i % 4 >= 2 else 0)
    col = (i // 4) * 8 + t * 2 + (i & 1)
    return row, col


@pytest.mark.parametrize("n", [8, 16, 64, 128, 256])
def test_accumulator_fragment_is_the_isa_layout(n):
    fragment = accumulator_fragment(n)
    assert fragment.in_dim_size("register") == n // 2
    for warp in range(4):
        for lane in range(32):
            for i in range(n // 2):
                at = fragment.apply({"register": i, "lane": lane, "warp": warp})
                assert (at["dim0"], at["dim1"]) == _wgmma_d(i, lane, warp)


@pytest.mark.parametrize("warps,instr,shape", [
    ((8, 1), (16, 128, 16), (128, 128)),
    ((4, 1), (16, 64, 16), (64, 64)),
    ((4, 2), (16, 64, 16), (128, 128)),
    ((4, 1), (16, 32, 16), (128, 64)),
])
def test_mma_v3_accumulators_tile_into_wgmma_fragments(warps, instr, shape):
    layout = to_linear_layout(NvidiaMma(3, 0, warps, instr), list(shape))
    tiles = tile_operand(layout, accumulator_fragment(instr[1]), (64, instr[1]), "acc")
    per_thread = (shape[0] // (16 * warps[0])) * (shape[1] // (instr[1] * warps[1]))
    assert len(tiles.tiles) == max(per_thread, 1)
    assert tiles.outer["lane"] == ()


def _wgmma_a(i, lane, warp):
    """The PTX ISA's wgmma A fragment in registers (.m64nNk16, 16-bit types)."""
    g, t = lane >> 2, lane % 4
    row = 16 * warp + g + (8 if i in (2, 3, 6, 7) else 0)
    col = t * 2 + (i & 1) + (8 if i >= 4 else 0)
    return row, col


def test_register_a_fragment_is_the_isa_layout():
    fragment = register_a_fragment()
    for warp in range(4):
        for lane in range(32):
            for i in range(8):
                at = fragment.apply({"register": i, "lane": lane, "warp": warp})
                assert (at["dim0"], at["dim1"]) == _wgmma_a(i, lane, warp)


def test_dot_operand_of_a_v3_accumulator_tiles_into_register_a():
    mma = NvidiaMma(3, 0, (8, 1), (16, 64, 16))
    layout = to_linear_layout(DotOperand(0, mma, 2), [128, 64])
    tiles = tile_operand(layout, register_a_fragment(), (64, 16), "A")
    assert sorted(tiles.tiles) == [(0, 0), (0, 16), (0, 32), (0, 48)]
    assert tiles.outer["warp"] == ((64, 0),)


@pytest.mark.parametrize("case", CORPUS, ids=lambda c: f"{c[0]}-{'AB'[c[1]]}")
@pytest.mark.parametrize("lbo, sbo", [(None, None), (0, 2048), (16, 1024), (1024, 512)])
def test_the_tile_test_agrees_with_the_element_loop(case, lbo, sbo):
    # check_tile's C-level test passes a tile exactly when the element loop does
    _, index, shape, swizzle, transposed, n, _, _ = case
    operand = _operand(index, shape, swizzle, transposed, n)
    if lbo is not None:
        d = operand.descriptor
        operand.descriptor = type(d)(d.swizzle, d.mn_major, lbo, sbo)
    k = shape[1] if index == 0 else shape[0]
    for k0 in range(0, k, 16):
        start = operand.offset(0, k0) * operand.bytes
        try:
            operand._check_elements(start, 0, k0)
            passed = True
        except ValueError:
            passed = False
        assert operand._tile_matches(start, 0, k0) is passed


def test_a_tile_past_the_operand_fails_as_the_element_loop_does():
    operand = _operand(0, (128, 64), 128, False, 128)
    with pytest.raises(ValueError, match="outside input dimension"):
        operand.check_tile(0, 56)  # K 56..71 of 64
