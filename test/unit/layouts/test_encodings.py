"""Each layout's linear layout against a brute-force enumeration of its definition.

For every hardware index (register, lane, warp, block -- or offset, block for shared
memory) the tensor coordinate the linear layout gives must equal the one computed from
the layout's hardware definition in ``layout_definitions``, and the index spaces must
have the expected sizes. Parameters cover the values seen in Triton 3.6 output (the
corpus) and shapes smaller than, equal to and larger than the layout tile.
"""

from __future__ import annotations

import itertools
import math

import pytest

import layout_definitions as ref
from tileopt.layouts.encodings import (
    AmdMfma,
    AmdRotatingShared,
    AmdWmma,
    Blocked,
    DotOperand,
    Linear,
    NvidiaMma,
    NvmmaShared,
    Slice,
    SwizzledShared,
    to_linear_layout,
)
from tileopt.layouts.linear_layout import LayoutError, LinearLayout


def all_outputs(layout: LinearLayout, in_dims) -> list[tuple[int, ...]]:
    """The layout's output for every input, first input dim fastest (XOR of basis columns)."""
    columns = [b for d in in_dims for b in layout.get_bases(d)]
    outputs = [tuple(0 for _ in layout.out_dims)]
    for col in columns:
        outputs += [tuple(a ^ c for a, c in zip(o, col)) for o in outputs]
    return outputs


def assert_matches(layout: LinearLayout, reference: ref.Reference) -> None:
    """The layout maps every hardware index exactly as the reference definition does."""
    assert layout.in_dim_sizes() == reference.in_sizes
    out_names = layout.out_dims
    assert out_names == [f"dim{i}" for i in range(len(out_names))]
    names = list(reference.in_sizes)
    got = all_outputs(layout, names)
    for index, inputs in enumerate(reference.all_inputs(first_fastest=True)):
        want = reference.coord(**inputs)
        assert got[index] == want, f"{inputs}: layout gives {got[index]}, definition gives {want}"


# ---------------------------------------------------------------------- blocked

BLOCKED_PARAMS = [
    # (sizePerThread, threadsPerWarp, warpsPerCTA, order) -- the first ones from the corpus
    ([1, 4], [8, 4], [4, 1], [1, 0]),
    ([1, 8], [4, 8], [8, 1], [1, 0]),
    ([2, 8], [4, 16], [8, 1], [1, 0]),
    ([4, 1], [16, 4], [1, 4], [0, 1]),
    ([1, 4], [64, 1], [1, 4], [0, 1]),
    ([1, 1], [32, 2], [1, 4], [0, 1]),
    ([1, 4], [2, 32], [4, 1], [1, 0]),
    ([8], [32], [4], [0]),
    ([4], [64], [4], [0]),
    ([1, 1, 4], [1, 32, 1], [2, 2, 1], [2, 1, 0]),
    ([1, 1, 4], [1, 64, 1], [4, 1, 1], [2, 1, 0]),
    ([2, 2, 1], [2, 4, 4], [1, 2, 2], [0, 2, 1]),
]


def _shapes_for(spt, tpw, wpc):
    """Shapes below, at and above the CTA tile in each dim (capped to stay fast)."""
    tile = [s * t * w for s, t, w in zip(spt, tpw, wpc)]
    options = [sorted({max(1, t // 4), t, min(t * 2, 256)}) for t in tile]
    shapes = list(itertools.product(*options))
    return [s for s in shapes if math.prod(s) <= 1 << 14][:8]


@pytest.mark.parametrize("params", BLOCKED_PARAMS, ids=str)
def test_blocked_matches_definition(params):
    spt, tpw, wpc, order = params
    encoding = Blocked(spt, tpw, wpc, order)
    for shape in _shapes_for(spt, tpw, wpc):
        layout = to_linear_layout(encoding, shape)
        assert_matches(layout, ref.blocked(spt, tpw, wpc, order, shape))


@pytest.mark.parametrize(
    "cta",
    [
        ([2, 1], [2, 1], [1, 0]),  # two CTAs, each owning half the rows
        ([2, 2], [1, 2], [0, 1]),  # split along columns, broadcast along rows
        ([4, 1], [2, 1], [1, 0]),
    ],
    ids=str,
)
def test_blocked_with_ctas_matches_definition(cta):
    ctas, split, cta_order = cta
    encoding = Blocked([1, 4], [8, 4], [2, 2], [1, 0], ctas_per_cga=ctas, cta_split_num=split, cta_order=cta_order)
    for shape in [(64, 64), (32, 128)]:
        layout = to_linear_layout(encoding, shape)
        assert_matches(layout, ref.blocked([1, 4], [8, 4], [2, 2], [1, 0], shape, ctas, split, cta_order))


def test_blocked_small_tensor_broadcasts_threads():
    # 16x16 under a 32x16 tile: warps 2 and 3 hold the same elements as warps 0 and 1.
    layout = to_linear_layout(Blocked([1, 4], [8, 4], [4, 1], [1, 0]), [16, 16])
    assert layout.get_bases("warp") == ((8, 0), (0, 0))
    assert layout.get_free_variable_masks() == {"register": 0, "lane": 0, "warp": 2, "block": 0}


# ---------------------------------------------------------------------- slice


@pytest.mark.parametrize(
    "params,dim,shape",
    [
        (([1, 4], [8, 4], [4, 1], [1, 0]), 0, (64,)),
        (([1, 4], [8, 4], [4, 1], [1, 0]), 1, (64,)),
        (([1, 8], [4, 8], [8, 1], [1, 0]), 0, (128,)),
        (([4, 1], [16, 4], [1, 4], [0, 1]), 1, (8,)),
        (([1, 1, 4], [1, 32, 1], [2, 2, 1], [2, 1, 0]), 2, (16, 64)),
        (([1, 1, 4], [1, 32, 1], [2, 2, 1], [2, 1, 0]), 0, (64, 4)),
    ],
    ids=str,
)
def test_slice_of_blocked_matches_definition(params, dim, shape):
    spt, tpw, wpc, order = params
    layout = to_linear_layout(Slice(dim, Blocked(spt, tpw, wpc, order)), shape)
    parent_shape = list(shape)
    parent_shape.insert(dim, 1)
    parent = ref.blocked(spt, tpw, wpc, order, parent_shape)
    assert_matches(layout, ref.slice_of(parent, dim))


def test_nested_slice_matches_definition():
    # sum over dim 2 then dim 1 of a 16x64x4 tensor (the corpus's sum_rows reduction)
    blocked = Blocked([1, 1, 4], [1, 32, 1], [2, 2, 1], [2, 1, 0])
    layout = to_linear_layout(Slice(1, Slice(2, blocked)), [16])
    grand = ref.blocked([1, 1, 4], [1, 32, 1], [2, 2, 1], [2, 1, 0], [16, 1, 1])
    assert_matches(layout, ref.slice_of(ref.slice_of(grand, 2), 1))


def test_slice_of_mma_matches_definition():
    mma = NvidiaMma(2, 0, [2, 2], [16, 8])
    for dim, shape in [(0, (64,)), (1, (64,))]:
        parent_shape = [64, 64]
        parent_shape[dim] = 1
        expected = ref.slice_of(ref.ampere_mma([2, 2], parent_shape), dim)
        assert_matches(to_linear_layout(Slice(dim, mma), shape), expected)


# ---------------------------------------------------------------------- NVIDIA mma


@pytest.mark.parametrize("warps", [[2, 2], [2, 4], [4, 1], [1, 4]], ids=str)
@pytest.mark.parametrize("shape", [(16, 8), (32, 32), (64, 64), (128, 128), (16, 64)], ids=str)
def test_ampere_mma_matches_ptx_fragment(warps, shape):
    layout = to_linear_layout(NvidiaMma(2, 0, warps, [16, 8]), shape)
    assert_matches(layout, ref.ampere_mma(warps, shape))


@pytest.mark.parametrize(
    "warps,instr_n,shape",
    [([4, 1], 64, (64, 64)), ([8, 1], 128, (128, 128)), ([4, 1], 64, (128, 128)), ([4, 2], 32, (64, 128)),
     ([4, 1], 64, (32, 64))],
    ids=str,
)
def test_hopper_mma_matches_wgmma_fragment(warps, instr_n, shape):
    layout = to_linear_layout(NvidiaMma(3, 0, warps, [16, instr_n, 16]), shape)
    assert_matches(layout, ref.hopper_mma(warps, instr_n, shape))


@pytest.mark.parametrize("op_idx", [0, 1])
@pytest.mark.parametrize("k_width", [1, 2, 4, 8])
@pytest.mark.parametrize("warps,shape", [([2, 2], (64, 64)), ([2, 4], (128, 64)), ([1, 1], (16, 16))], ids=str)
def test_ampere_dot_operand_matches_ptx_fragment(op_idx, k_width, warps, shape):
    encoding = DotOperand(op_idx, NvidiaMma(2, 0, warps, [16, 8]), k_width)
    layout = to_linear_layout(encoding, shape)
    assert_matches(layout, ref.ampere_dot_operand(op_idx, k_width, warps, shape))


@pytest.mark.parametrize("k_width", [2, 4])
@pytest.mark.parametrize("warps,shape", [([4, 1], (64, 32)), ([4, 2], (128, 64)), ([8, 1], (64, 64))], ids=str)
def test_hopper_register_operand_a_matches_fragment(k_width, warps, shape):
    encoding = DotOperand(0, NvidiaMma(3, 0, warps, [16, 64, 16]), k_width)
    layout = to_linear_layout(encoding, shape)
    assert_matches(layout, ref.ampere_dot_operand(0, k_width, warps, shape, warps_m_first=True))


def test_hopper_dot_operand_b_is_rejected():
    with pytest.raises(LayoutError, match="shared memory"):
        to_linear_layout(DotOperand(1, NvidiaMma(3, 0, [4, 1], [16, 64, 16]), 2), [64, 64])


@pytest.mark.parametrize("op_idx", [0, 1])
@pytest.mark.parametrize(
    "params,shape",
    [(([1, 4], [8, 4], [4, 1], [1, 0]), (32, 16)), (([2, 2], [4, 8], [2, 2], [0, 1]), (64, 32))],
    ids=str,
)
def test_fma_dot_operand_matches_definition(op_idx, params, shape):
    spt, tpw, wpc, order = params
    operand_shape = shape if op_idx == 0 else (shape[1], shape[0])
    encoding = DotOperand(op_idx, Blocked(spt, tpw, wpc, order))
    layout = to_linear_layout(encoding, operand_shape)
    assert_matches(layout, ref.fma_dot_operand(op_idx, spt, tpw, wpc, order, operand_shape))


# ---------------------------------------------------------------------- AMD


@pytest.mark.parametrize("instr", [(32, 32), (16, 16)], ids=str)
@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize(
    "warps,shape,tiles",
    [([2, 2], (64, 64), (1, 1)), ([2, 4], (128, 128), (1, 1)), ([1, 1], (16, 16), (1, 1)),
     ([2, 2], (128, 256), (2, 2)), ([4, 1], (32, 64), (1, 1))],
    ids=str,
)
def test_mfma_matches_instruction_table(instr, transposed, warps, shape, tiles):
    encoding = AmdMfma(3, warps, [*instr, 8], transposed, tiles_per_warp=tiles)
    layout = to_linear_layout(encoding, shape)
    assert_matches(layout, ref.amd_mfma(instr, transposed, warps, shape, tiles))


def test_mfma_f64_matches_instruction_table():
    encoding = AmdMfma(3, [2, 2], [16, 16, 4], True, element_bit_width=64)
    layout = to_linear_layout(encoding, (64, 64))
    assert_matches(layout, ref.amd_mfma((16, 16), True, [2, 2], (64, 64), element_bits=64))


@pytest.mark.parametrize("op_idx", [0, 1])
@pytest.mark.parametrize("instr,k_width", [((32, 32), 4), ((32, 32), 8), ((16, 16), 4), ((16, 16), 8)], ids=str)
@pytest.mark.parametrize("warps,shape", [([2, 2], (64, 64)), ([2, 4], (128, 64)), ([1, 1], (32, 16))], ids=str)
def test_mfma_operand_matches_instruction_table(op_idx, instr, k_width, warps, shape):
    encoding = DotOperand(op_idx, AmdMfma(3, warps, [*instr, 8], True), k_width)
    layout = to_linear_layout(encoding, shape)
    assert_matches(layout, ref.amd_mfma_operand(op_idx, k_width, instr, warps, shape))


@pytest.mark.parametrize("op_idx", [0, 1])
def test_mfma_operand_with_tiles_per_warp(op_idx):
    encoding = DotOperand(op_idx, AmdMfma(4, [2, 2], [16, 16, 32], True, tiles_per_warp=[2, 2]), 8)
    layout = to_linear_layout(encoding, (128, 128))
    assert_matches(layout, ref.amd_mfma_operand(op_idx, 8, (16, 16), [2, 2], (128, 128), (2, 2)))


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("warps,shape", [([2, 2], (64, 64)), ([2, 4], (128, 128)), ([4, 1], (16, 32))], ids=str)
def test_wmma_matches_isa_table(version, transposed, warps, shape):
    layout = to_linear_layout(AmdWmma(version, transposed, warps), shape)
    assert_matches(layout, ref.amd_wmma(version, transposed, warps, shape))


@pytest.mark.parametrize("op_idx", [0, 1])
@pytest.mark.parametrize("version,k_width", [(1, 16), (2, 8), (2, 4)], ids=str)
@pytest.mark.parametrize("warps,shape", [([2, 2], (64, 64)), ([2, 4], (128, 32))], ids=str)
def test_wmma_operand_matches_isa_table(op_idx, version, k_width, warps, shape):
    encoding = DotOperand(op_idx, AmdWmma(version, True, warps), k_width)
    layout = to_linear_layout(encoding, shape)
    assert_matches(layout, ref.amd_wmma_operand(version, op_idx, k_width, warps, shape))


# ---------------------------------------------------------------------- shared


@pytest.mark.parametrize(
    "params",
    [(8, 1, 8, [1, 0]), (4, 2, 8, [1, 0]), (8, 2, 4, [0, 1]), (1, 1, 1, [1, 0]), (4, 1, 16, [1, 0]),
     (8, 1, 8, [0, 1]), (4, 2, 8, [0, 1])],
    ids=str,
)
@pytest.mark.parametrize("shape", [(64, 32), (32, 64), (128, 64), (16, 16)], ids=str)
@pytest.mark.parametrize("rotating", [False, True])
def test_swizzled_shared_matches_formula(params, shape, rotating):
    vec, per_phase, max_phase, order = params
    cls = AmdRotatingShared if rotating else SwizzledShared
    layout = to_linear_layout(cls(vec, per_phase, max_phase, order), shape)
    assert_matches(layout, ref.swizzled_shared(vec, per_phase, max_phase, order, shape, rotating))
    assert layout.is_invertible()


def test_swizzled_shared_3d_and_1d():
    layout = to_linear_layout(SwizzledShared(4, 1, 4, [2, 1, 0]), (2, 8, 16))
    assert_matches(layout, ref.swizzled_shared(4, 1, 4, [2, 1, 0], (2, 8, 16)))
    layout = to_linear_layout(SwizzledShared(1, 1, 1, [0]), (32,))
    assert_matches(layout, ref.swizzled_shared(1, 1, 1, [0], (32,)))


@pytest.mark.parametrize("swizzle", [32, 64, 128])
@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("bits", [8, 16, 32])
@pytest.mark.parametrize("shape", [(64, 128), (128, 64), (256, 256)], ids=str)
def test_nvmma_shared_matches_swizzle(swizzle, transposed, bits, shape):
    encoding = NvmmaShared(swizzle, transposed, bits)
    if shape[0 if transposed else 1] < swizzle * 8 // bits:
        with pytest.raises(LayoutError, match="too small"):
            to_linear_layout(encoding, shape)
        return
    layout = to_linear_layout(encoding, shape)
    assert_matches(layout, ref.nvmma_shared(swizzle, transposed, bits, shape))


def test_nvmma_shared_too_small_is_an_error():
    with pytest.raises(LayoutError, match="too small"):
        to_linear_layout(NvmmaShared(128, False, 16), (64, 32))


# ---------------------------------------------------------------------- linear


def test_linear_round_trips_and_fits_shapes():
    base = to_linear_layout(Blocked([1, 4], [8, 4], [4, 1], [1, 0]), [32, 16])
    linear = Linear(
        base.get_bases("register"), base.get_bases("lane"), base.get_bases("warp"), base.get_bases("block")
    )
    assert to_linear_layout(linear, [32, 16]) == base
    # A larger tensor repeats the tile in registers along the register order (dim1 first).
    assert to_linear_layout(linear, [64, 32]) == to_linear_layout(Blocked([1, 4], [8, 4], [4, 1], [1, 0]), [64, 32])
    # A smaller one drops the registers that would leave the tensor and broadcasts lanes.
    small = to_linear_layout(linear, [32, 2])
    assert small.get_bases("register") == ((0, 1),)
    assert small.get_bases("lane")[:2] == ((0, 0), (0, 0))


def test_rank_mismatch_is_an_error():
    with pytest.raises(LayoutError, match="rank"):
        to_linear_layout(Blocked([1, 4], [8, 4], [4, 1], [1, 0]), [16, 16, 2])
    with pytest.raises(LayoutError, match="power of two"):
        to_linear_layout(Blocked([1, 4], [8, 4], [4, 1], [1, 0]), [12, 16])
