"""Tests of the TritonGPU dialect: layouts, memdesc, ops, effects, module-level checks.

Printed forms are Triton 3.6's (``Dialect.cpp`` / ``Types.cpp`` printers, ``TritonGPUOps.td``
formats); the corpus tests at the end check every ttg/ttng/amdg/rocdl op line and every
``#ttg`` attribute Triton wrote at TritonGPU level re-prints character for character.
"""

from __future__ import annotations

import re

import pytest
from ttg_harness import (
    MY_DIALECTS,
    dialect_op_lines,
    expand_aliases,
    file_aliases,
    normalize_ssa,
    parse_attr,
    parse_op,
    roundtrip,
    show,
    ttg_attribute_spellings,
    ttgir_level_files,
)
from xdsl.dialects.builtin import ArrayAttr, IntAttr, ModuleOp, TensorType, f16, f32, i1
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser
from xdsl.traits import MemoryEffectKind, get_effects, is_side_effect_free
from xdsl.transforms.dead_code_elimination import is_trivially_dead
from xdsl.utils.exceptions import ParseError, VerifyException

from tileopt.dialects import effects, ttg
from tileopt.dialects.ttg import (
    TTG,
    AMDMfmaEncodingAttr,
    AMDRotatingSharedEncodingAttr,
    AMDWmmaEncodingAttr,
    BlockedEncodingAttr,
    DotOperandEncodingAttr,
    LinearEncodingAttr,
    MemDescType,
    NvidiaMmaEncodingAttr,
    NVMMASharedEncodingAttr,
    SharedMemorySpaceAttr,
    SliceEncodingAttr,
    SwizzledSharedEncodingAttr,
    verify_layouts_against_module,
)
from tileopt.dialects.ttg_attrs import TTG_ATTRIBUTES

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
BLOCKED1D = "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
MMA_V2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
SHARED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
ALIASES = {"#blocked": BLOCKED, "#blocked1": BLOCKED1D, "#mma": MMA_V2, "#shared": SHARED,
           "#smem": "#ttg.shared_memory"}


def reprint(text: str) -> str:
    return show(parse_attr(text))


# ---------------------------------------------------------------------------------------
# Layout attributes: exact forms
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        BLOCKED1D,
        BLOCKED,
        "#ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>",
        "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>",
        "#ttg.slice<{dim = 1, parent = " + BLOCKED + "}>",
        "#ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>}>}>",
        "#ttg.dot_op<{opIdx = 0, parent = " + MMA_V2 + ", kWidth = 2}>",
        "#ttg.dot_op<{opIdx = 1, parent = " + BLOCKED + "}>",
        MMA_V2,
        "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>",
        "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>",
        "#ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = false, tilesPerWarp = [2, 2, 1]}>",
        "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 4], isTransposed = true, elementBitWidth = 64}>",
        "#ttg.amd_wmma<{version = 1, isTranspose = true, warpsPerCTA = [2, 4]}>",
        "#ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2], instrShape = [16, 16, 32]}>",
        "#ttg.linear<{register = [[0, 1], [0, 2], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], warp = [[0, 4], [0, 8]], block = []}>",
        SHARED,
        "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>",
        "#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
        "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, fp4Padded = true}>",
        "#ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [64, 64]}>",
        "#ttg.shared_memory",
    ],
)
def test_layout_prints_as_triton(text):
    assert reprint(text) == text


@pytest.mark.parametrize(
    "written, printed",
    [
        # Triton drops the single-CTA layout and writes keys in its own order.
        (
            "#ttg.blocked<{order = [0], sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], CTAsPerCGA = [1], CTASplitNum = [1], CTAOrder = [0]}>",
            "#ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>",
        ),
        (
            "#ttg.slice<{parent = " + BLOCKED + ", dim = 0}>",
            "#ttg.slice<{dim = 0, parent = " + BLOCKED + "}>",
        ),
        # kWidth = 0 means "none" and is not printed; mfma/wmma defaults are left out.
        (
            "#ttg.dot_op<{opIdx = 0, parent = " + BLOCKED + ", kWidth = 0}>",
            "#ttg.dot_op<{opIdx = 0, parent = " + BLOCKED + "}>",
        ),
        (
            "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, tilesPerWarp = [1, 1, 1], elementBitWidth = 32}>",
            "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>",
        ),
        (
            "#ttg.amd_wmma<{version = 1, warpsPerCTA = [2, 2], instrShape = [16, 16, 16]}>",
            "#ttg.amd_wmma<{version = 1, isTranspose = false, warpsPerCTA = [2, 2]}>",
        ),
        (
            "#ttg.nvmma_shared<{swizzlingByteWidth = 32, elementBitWidth = 16, fp4Padded = false}>",
            "#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>",
        ),
    ],
)
def test_layout_canonical_form(written, printed):
    assert reprint(written) == printed


def test_parameters_carry_triton_names_and_values():
    blocked = parse_attr(BLOCKED)
    assert isinstance(blocked, BlockedEncodingAttr)
    assert blocked.sizePerThread == ArrayAttr([IntAttr(1), IntAttr(8)])
    assert blocked.as_dict() == {
        "sizePerThread": (1, 8),
        "threadsPerWarp": (4, 8),
        "warpsPerCTA": (4, 1),
        "order": (1, 0),
        "CTAsPerCGA": (1, 1),
        "CTASplitNum": (1, 1),
        "CTAOrder": (1, 0),
    }
    mfma = parse_attr("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [32, 32, 8], isTransposed = true}>")
    assert isinstance(mfma, AMDMfmaEncodingAttr)
    assert mfma.as_dict()["isTransposed"] is True
    assert mfma.as_dict()["tilesPerWarp"] == (1, 1, 1)
    assert mfma.as_dict()["elementBitWidth"] == 32
    dot = parse_attr("#ttg.dot_op<{opIdx = 1, parent = " + MMA_V2 + ", kWidth = 4}>")
    assert isinstance(dot, DotOperandEncodingAttr)
    assert (dot.opIdx.data, dot.kWidth.data) == (1, 4)
    assert isinstance(dot.parent, NvidiaMmaEncodingAttr)
    assert dot.parent.instrShape == ArrayAttr([IntAttr(16), IntAttr(8)])
    linear = parse_attr("#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], block = []}>")
    assert isinstance(linear, LinearEncodingAttr)
    assert linear.as_dict()["register"] == ((0, 1),)
    assert linear.rank == 2


def test_builders_match_parsed_attributes():
    assert BlockedEncodingAttr.get([1, 8], [4, 8], [4, 1], [1, 0]) == parse_attr(BLOCKED)
    assert NvidiaMmaEncodingAttr.get(2, 0, [2, 2], [16, 8]) == parse_attr(MMA_V2)
    assert SliceEncodingAttr.get(1, parse_attr(BLOCKED)) == parse_attr(
        "#ttg.slice<{dim = 1, parent = " + BLOCKED + "}>"
    )
    assert SwizzledSharedEncodingAttr.get(8, 1, 8, [1, 0]) == parse_attr(SHARED)
    assert AMDWmmaEncodingAttr.get(1, True, [2, 4]) == parse_attr(
        "#ttg.amd_wmma<{version = 1, isTranspose = true, warpsPerCTA = [2, 4]}>"
    )
    assert NVMMASharedEncodingAttr.get(128, False, 16) == parse_attr(
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"
    )


def test_field_tables_follow_irdl_parameter_order():
    for cls in TTG_ATTRIBUTES:
        fields = getattr(cls, "FIELDS", None)
        if fields:
            assert [f.name for f in fields] == [p for p, _ in cls.get_irdl_definition().parameters]


def test_alias_names_are_tritons():
    expected = {
        BlockedEncodingAttr: "blocked",
        NvidiaMmaEncodingAttr: "mma",
        AMDMfmaEncodingAttr: "mma",
        AMDWmmaEncodingAttr: "mma",
        SwizzledSharedEncodingAttr: "shared",
        NVMMASharedEncodingAttr: "shared",
        AMDRotatingSharedEncodingAttr: "shared",
        SharedMemorySpaceAttr: "smem",
        LinearEncodingAttr: "linear",
    }
    for cls, alias in expected.items():
        assert cls.triton_alias == alias
    assert not hasattr(SliceEncodingAttr, "triton_alias")
    assert not hasattr(DotOperandEncodingAttr, "triton_alias")


# ---------------------------------------------------------------------------------------
# Layout attributes: verifier errors
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
            "sizePerThread, threadsPerWarp, warpsPerCTA and order must all have the same rank",
        ),
        (
            "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 0]}>",
            "order must be a permutation of 0..1, but was [0, 0]",
        ),
        (
            "#ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
            "every element of sizePerThread must be a power of two, got [3]",
        ),
        (
            "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CTAsPerCGA = [1]}>",
            "CTAsPerCGA, CTASplitNum, and CTAOrder must all be present or all be absent",
        ),
        (
            "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], colour = [1]}>",
            "unexpected key 'colour'",
        ),
        (
            "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4]}>",
            "missing 'order'",
        ),
        (
            "#ttg.slice<{dim = 2, parent = " + BLOCKED + "}>",
            "slice dim=2 must be less than the parent rank=2",
        ),
        ("#ttg.slice<{dim = 0, parent = " + BLOCKED1D + "}>", "parent layout must have rank >= 2"),
        ("#ttg.slice<{dim = 0, parent = " + SHARED + "}>", "parent must be a distributed layout"),
        ("#ttg.dot_op<{opIdx = 2, parent = " + BLOCKED + "}>", "opIdx can be 0 or 1, got 2"),
        ("#ttg.dot_op<{opIdx = 0, parent = " + MMA_V2 + "}>", "kWidth is mandatory for an Ampere or Hopper MMA parent"),
        (
            "#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, kWidth = 2}>",
            "opIdx must be 0 for a Hopper MMA parent",
        ),
        ("#ttg.dot_op<{opIdx = 0, parent = " + BLOCKED + ", kWidth = 2}>", "kWidth is not supported with a blocked parent"),
        (
            "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [3, 1], instrShape = [16, 8]}>",
            "every element of warpsPerCTA must be a power of two, got [3, 1]",
        ),
        (
            "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [8, 8, 8], isTransposed = true}>",
            "invalid instrShape [8, 8, 8]",
        ),
        (
            "#ttg.amd_wmma<{version = 7, isTranspose = true, warpsPerCTA = [2, 2]}>",
            "WMMA version must be in the [1, 3] range, got 7",
        ),
        (
            "#ttg.linear<{register = [[1, 1]], lane = [], warp = [], block = []}>",
            "each basis must move in at most one dimension",
        ),
        (
            "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 1]}>",
            "order must be a permutation of 0..1, but was [1, 1]",
        ),
        (
            "#ttg.nvmma_shared<{swizzlingByteWidth = 48, transposed = false, elementBitWidth = 16}>",
            "swizzlingByteWidth must be 0, 32, 64 or 128, got 48",
        ),
        (
            "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = 1, elementBitWidth = 16}>",
            "expected 'true' or 'false' for 'transposed'",
        ),
        (
            "#ttg.blocked<{sizePerThread = [-1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
            "expected an unsigned integer value in 'sizePerThread'",
        ),
    ],
)
def test_layout_errors_are_readable(text, message):
    with pytest.raises(ParseError, match=re.escape(message)):
        parse_attr(text)


def test_layout_error_points_at_the_attribute():
    text = "#ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
    with pytest.raises(ParseError) as info:
        parse_attr(text)
    assert info.value.span.start == 12  # the "<" after the mnemonic


def test_building_an_invalid_layout_raises():
    with pytest.raises(VerifyException, match="slice dim=5"):
        SliceEncodingAttr.get(5, parse_attr(BLOCKED))


# ---------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        f"!ttg.memdesc<3x128x64xf16, {SHARED}, #ttg.shared_memory, mutable>",
        f"!ttg.memdesc<32x64xf16, {SHARED}, #ttg.shared_memory>",
        f"!ttg.memdesc<32x32xf16, {SHARED}, #ttg.shared_memory, mutable, 32x64>",
        f"!ttg.memdesc<64x32xf16, {SHARED}, #ttg.shared_memory, 2x64x32>",
        f"!ttg.memdesc<1024xf32, {SHARED}, #ttg.shared_memory, mutable>",
        "!ttg.async.token",
    ],
)
def test_types_print_as_triton(text):
    assert show(Parser(ttg_context(), text).parse_type()) == text


def ttg_context():
    from ttg_harness import gpu_context

    return gpu_context()


def test_memdesc_accessors():
    ty = Parser(ttg_context(), f"!ttg.memdesc<2x32x64xf16, {SHARED}, #ttg.shared_memory, mutable>").parse_type()
    assert isinstance(ty, MemDescType)
    assert ty.get_shape() == (2, 32, 64)
    assert ty.get_element_type() == f16
    assert ty.is_mutable
    assert ty.allocShape == ty.shape
    built = MemDescType.get([2, 32, 64], f16, parse_attr(SHARED), SharedMemorySpaceAttr(), True)
    assert built == ty


@pytest.mark.parametrize(
    "text, message",
    [
        (f"!ttg.memdesc<2x48xf16, {SHARED}, #ttg.shared_memory>", r"shape must have power-of-2 dimensions; got \[2, 48\]"),
        (f"!ttg.memdesc<64x64xf16, {SHARED}, #ttg.shared_memory, 32x64>", "shape must be less than or equal to allocShape"),
        (f"!ttg.memdesc<64x64xf16, {BLOCKED}, #ttg.shared_memory>", "encoding must be a shared-memory layout"),
        (f"!ttg.memdesc<64x64xf16, {SHARED}, #ttg.shared_memory, immutable>", "expected 'mutable' or an allocation shape"),
    ],
)
def test_memdesc_errors(text, message):
    with pytest.raises(ParseError, match=message):
        Parser(ttg_context(), text).parse_type()


# ---------------------------------------------------------------------------------------
# Ops: exact forms
# ---------------------------------------------------------------------------------------

T_BLOCKED = "tensor<32x64xf16, #blocked>"
MD = "!ttg.memdesc<32x64xf16, #shared, #smem, mutable>"
MD3 = "!ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>"


@pytest.mark.parametrize(
    "line",
    [
        f"%1 = ttg.convert_layout %0 : {T_BLOCKED} -> tensor<32x64xf16, #ttg.dot_op<{{opIdx = 0, parent = #mma, kWidth = 2}}>>",
        f"%1 = ttg.convert_layout %0 : tensor<32xf32, #ttg.slice<{{dim = 1, parent = #blocked}}>> -> tensor<32xf32, #blocked1>",
        f"%a = ttg.local_alloc : () -> {MD3}",
        f"%b = ttg.local_alloc %x : ({T_BLOCKED}) -> !ttg.memdesc<32x64xf16, #shared, #smem>",
        f"%b = ttg.local_alloc %x {{allocation.offset = 4096 : i32}} : ({T_BLOCKED}) -> !ttg.memdesc<32x64xf16, #shared, #smem>",
        f"%b = ttg.local_alloc {{alignment = 16 : i32}} : () -> {MD}",
        f"%l = ttg.local_load %a : {MD} -> tensor<32x64xf16, #ttg.dot_op<{{opIdx = 1, parent = #mma, kWidth = 2}}>>",
        f"%l = ttg.local_load %a token %t : {MD} -> {T_BLOCKED}",
        f"ttg.local_store %x, %a : {T_BLOCKED} -> {MD}",
        f"ttg.local_dealloc %a : {MD3}",
        f"%s = ttg.memdesc_index %a[%c0_i32] : {MD3} -> {MD}",
        f"%s = ttg.memdesc_subslice %a[0, 32] : {MD} -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable, 32x64>",
        f"%s = ttg.memdesc_trans %a {{order = array<i32: 1, 0>}} : {MD} -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>",
        f"%s = ttg.memdesc_reshape %a : {MD3} -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>",
        "%c = ttg.async_copy_global_to_local %p, %a : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>",
        "%c = ttg.async_copy_global_to_local %p, %a mask %m other %o {contiguity = 8 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>",
        "%c = ttg.async_copy_global_to_local %p, %a mask %m cacheModifier = cg evictionPolicy = evict_last : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>",
        "%g = ttg.async_commit_group tokens %c",
        "%g = ttg.async_commit_group",
        "%w = ttg.async_wait %g, %h {num = 2 : i32}",
        "%w = ttg.async_wait {num = 0 : i32}",
    ],
)
def test_op_prints_as_triton(line):
    expected, printed = roundtrip(line, ALIASES)
    assert printed == expected


def test_cache_clauses_parse_in_any_order():
    line = "%c = ttg.async_copy_global_to_local %p, %a evictionPolicy = evict_first cacheModifier = ca : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>"
    printed = normalize_ssa(show(parse_op(line, ALIASES)))
    assert "cacheModifier = ca evictionPolicy = evict_first :" in printed


def test_async_copy_infers_mask_and_other_types():
    op = parse_op(
        "%c = ttg.async_copy_global_to_local %p, %a mask %m other %o : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>",
        ALIASES,
    )
    blocked = parse_attr(BLOCKED)
    assert op.mask.type == TensorType(i1, [32, 64], blocked)
    assert op.other.type == TensorType(f16, [32, 64], blocked)


# ---------------------------------------------------------------------------------------
# Ops: verifier errors
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line, message",
    [
        (f"%1 = ttg.convert_layout %0 : {T_BLOCKED} -> tensor<64x32xf16, #blocked>", r"ttg.convert_layout: shapes differ \(32x64 vs 64x32\)"),
        (f"%1 = ttg.convert_layout %0 : {T_BLOCKED} -> tensor<32x64xf32, #blocked>", "ttg.convert_layout: element types differ"),
        (f"%l = ttg.local_load %a : {MD} -> tensor<64x64xf16, #blocked>", r"ttg.local_load: shapes differ \(32x64 vs 64x64\)"),
        (f"ttg.local_store %x, %a : {T_BLOCKED} -> !ttg.memdesc<32x64xf16, #shared, #smem>", "cannot store into immutable memory"),
        (f"ttg.local_store %x, %a : tensor<32x64xf32, #blocked> -> {MD}", "element types differ"),
        ("%a = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #shared, #smem>", "without an initial value must be mutable"),
        (f"%b = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> {MD}", "initial value shape 64x64 does not match the buffer shape 32x64"),
        (f"%s = ttg.memdesc_index %a[%c0_i32] : {MD3} -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>", "result shape must be the source shape without its leading dimension"),
        (f"%s = ttg.memdesc_subslice %a[0, 48] : {MD} -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable, 32x64>", r"slice \[48, 80\) is out of bounds of 64"),
        (f"%s = ttg.memdesc_trans %a {{order = array<i32: 0, 1>}} : {MD} -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>", "result shape must be 32x64"),
        ("%c = ttg.async_copy_global_to_local %p, %a : tensor<32x64x!tt.ptr<f32>, #blocked> -> <32x64xf16, #shared, #smem, mutable>", "pointers to f32 cannot fill a buffer of f16"),
        ("%c = ttg.async_copy_global_to_local %p, %a : tensor<32x32x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>", "pointer tensor shape 32x32 does not match the buffer shape 32x64"),
        ("%c = ttg.async_copy_global_to_local %p, %a : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem>", "cannot store into immutable memory"),
    ],
)
def test_op_verifier_errors(line, message):
    op = parse_op(line, ALIASES)
    with pytest.raises(VerifyException, match=message):
        op.verify()


# ---------------------------------------------------------------------------------------
# Effects: what generic CSE/DCE/LICM may do
# ---------------------------------------------------------------------------------------


def effect_kinds(op) -> set[MemoryEffectKind]:
    return {e.kind for e in get_effects(op)}


def test_effects_match_triton():
    convert = parse_op(f"%1 = ttg.convert_layout %0 : {T_BLOCKED} -> tensor<32x64xf16, #blocked1>", ALIASES)
    assert is_side_effect_free(convert) and is_trivially_dead(convert)
    index = parse_op(f"%s = ttg.memdesc_index %a[%c0_i32] : {MD3} -> {MD}", ALIASES)
    assert is_side_effect_free(index)

    load = parse_op(f"%l = ttg.local_load %a : {MD} -> {T_BLOCKED}", ALIASES)
    assert effect_kinds(load) == {MemoryEffectKind.READ}
    assert {e.resource for e in get_effects(load)} == {effects.SharedMemory()}
    assert is_trivially_dead(load)  # an unused read may go, as in MLIR

    store = parse_op(f"ttg.local_store %x, %a : {T_BLOCKED} -> {MD}", ALIASES)
    assert effect_kinds(store) == {MemoryEffectKind.WRITE} and not is_trivially_dead(store)

    dealloc = parse_op(f"ttg.local_dealloc %a : {MD3}", ALIASES)
    assert effect_kinds(dealloc) == {MemoryEffectKind.FREE} and not is_trivially_dead(dealloc)

    copy = parse_op("%c = ttg.async_copy_global_to_local %p, %a : tensor<32x64x!tt.ptr<f16>, #blocked> -> <32x64xf16, #shared, #smem, mutable>", ALIASES)
    assert {(e.kind, e.resource) for e in get_effects(copy)} == {
        (MemoryEffectKind.READ, effects.GlobalMemory()),
        (MemoryEffectKind.WRITE, effects.SharedMemory()),
    }
    assert not is_trivially_dead(copy)

    for line in ("%g = ttg.async_commit_group", "%w = ttg.async_wait {num = 0 : i32}"):
        op = parse_op(line)
        assert not is_side_effect_free(op) and not is_trivially_dead(op)


def test_local_alloc_effects_follow_triton():
    immutable = parse_op(f"%b = ttg.local_alloc %x : ({T_BLOCKED}) -> !ttg.memdesc<32x64xf16, #shared, #smem>", ALIASES)
    assert is_side_effect_free(immutable)  # CSE/DCE may merge or drop it early
    placed = parse_op(f"%b = ttg.local_alloc %x {{allocation.offset = 0 : i32}} : ({T_BLOCKED}) -> !ttg.memdesc<32x64xf16, #shared, #smem>", ALIASES)
    assert effect_kinds(placed) == {MemoryEffectKind.ALLOC, MemoryEffectKind.WRITE}
    assert not is_trivially_dead(placed)
    mutable = parse_op(f"%a = ttg.local_alloc : () -> {MD3}", ALIASES)
    assert effect_kinds(mutable) == {MemoryEffectKind.ALLOC}
    assert is_trivially_dead(mutable)  # allocating an unused buffer is no observable effect


# ---------------------------------------------------------------------------------------
# Module-level checks
# ---------------------------------------------------------------------------------------


def module_with(attrs: str, types: list[str]) -> ModuleOp:
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    text = f"module attributes {{{attrs}}} {{\n  func.func @f({args}) {{\n    func.return\n  }}\n}}"
    return Parser(ttg_context(), expand_aliases(text, ALIASES)).parse_module()


CUDA_ATTRS = '"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32'


def test_module_check_accepts_consistent_layouts():
    module = module_with(CUDA_ATTRS, [T_BLOCKED, "tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>", MD3,
                                      "tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>"])
    verify_layouts_against_module(module)


@pytest.mark.parametrize(
    "attrs, ty, message",
    [
        (
            CUDA_ATTRS,
            "tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>",
            "blocked layout threadsPerWarp [8, 8] has 64 threads but the module has ttg.threads-per-warp = 32",
        ),
        (
            CUDA_ATTRS,
            "tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>>",
            "blocked layout warpsPerCTA [8, 1] has 8 warps but the module has ttg.num-warps = 4",
        ),
        (
            CUDA_ATTRS.replace('"ttg.num-warps" = 4', '"ttg.num-warps" = 8'),
            "tensor<32xf32, #ttg.slice<{dim = 0, parent = #mma}>>",
            "nvidia_mma layout warpsPerCTA [2, 2] has 4 warps but the module has ttg.num-warps = 8",
        ),
        (CUDA_ATTRS.replace("4 : i32", "4 : i64"), T_BLOCKED, 'module attribute "ttg.num-warps" must be an i32 integer'),
        (CUDA_ATTRS.replace('"cuda:80"', '"sm80"'), T_BLOCKED, "ttg.target must be a string like"),
        (CUDA_ATTRS.replace('"ttg.num-ctas" = 1', '"ttg.num-ctas" = 0'), T_BLOCKED, '"ttg.num-ctas" must be positive'),
    ],
)
def test_module_check_errors(attrs, ty, message):
    module = module_with(attrs, [ty])
    with pytest.raises(VerifyException, match=re.escape(message)):
        verify_layouts_against_module(module)


def test_module_check_names_the_op():
    module = module_with(CUDA_ATTRS, [])
    func = module.body.block.first_op
    assert isinstance(func, FuncOp)
    bad = parse_attr("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>")
    func.body.block.insert_arg(TensorType(f32, [256], bad), 0)
    with pytest.raises(VerifyException, match="'func.func' op: blocked layout threadsPerWarp \\[64\\]"):
        verify_layouts_against_module(module)


def test_dialect_registers_everything():
    assert TTG.name == "ttg"
    names = {op.name for op in TTG.operations}
    assert {"ttg.convert_layout", "ttg.local_alloc", "ttg.local_load", "ttg.async_copy_global_to_local"} <= names
    assert {a.name for a in TTG.attributes} >= {"ttg.blocked", "ttg.memdesc", "ttg.async.token", "ttg.shared_memory"}


# ---------------------------------------------------------------------------------------
# The corpus: everything Triton wrote at TritonGPU level
# ---------------------------------------------------------------------------------------


def _corpus_cases(corpus, passes_root):
    files = ttgir_level_files(corpus, passes_root)
    assert files, "no TritonGPU-level files found in the corpus"
    cases: dict[str, tuple[str, str, dict]] = {}
    for path in files:
        text = path.read_text()
        aliases = file_aliases(text)
        for name, line in dialect_op_lines(text, (*MY_DIALECTS, "ub")):
            key = normalize_ssa(expand_aliases(line.strip(), aliases))
            cases.setdefault(key, (name, line, aliases))
    return cases


def test_every_corpus_op_reprints_identically(corpus, passes_root):
    cases = _corpus_cases(corpus, passes_root)
    names = {name for name, _, _ in cases.values()}
    # The kinds of op Triton 3.6 writes at this level for the four targets.
    assert {
        "ttg.convert_layout", "ttg.local_alloc", "ttg.local_load", "ttg.local_store",
        "ttg.local_dealloc", "ttg.memdesc_index", "ttg.async_copy_global_to_local",
        "ttg.async_commit_group", "ttg.async_wait", "ttng.warp_group_dot",
        "ttng.warp_group_dot_wait", "ttng.fence_async_shared", "amdg.buffer_load",
        "amdg.buffer_store", "amdg.in_thread_transpose", "rocdl.s.setprio",
        "rocdl.sched.barrier", "ub.poison",
    } <= names
    failures = []
    for name, line, aliases in cases.values():
        try:
            expected, printed = roundtrip(line, aliases)
        except Exception as err:  # noqa: BLE001 - collect every failure
            failures.append(f"{name}: {line.strip()}\n    {type(err).__name__}: {err}")
            continue
        if printed != expected:
            failures.append(f"{name}:\n    expected {expected}\n    printed  {printed}")
    assert not failures, f"{len(failures)} of {len(cases)} lines:\n" + "\n".join(failures[:10])


def test_every_corpus_layout_reprints_identically(corpus, passes_root):
    spellings: dict[str, str] = {}
    for path in ttgir_level_files(corpus, passes_root):
        text = path.read_text()
        aliases = file_aliases(text)
        for spelling in ttg_attribute_spellings(text):
            spellings.setdefault(expand_aliases(spelling, aliases), spelling)
    kinds = {s.split("<")[0] for s in spellings}
    assert {"#ttg.blocked", "#ttg.slice", "#ttg.dot_op", "#ttg.nvidia_mma", "#ttg.amd_mfma",
            "#ttg.amd_wmma", "#ttg.linear", "#ttg.swizzled_shared", "#ttg.nvmma_shared",
            "#ttg.amd_rotating_shared", "#ttg.shared_memory"} <= kinds
    failures = [s for s in spellings if reprint(s) != s]
    assert not failures, failures[:5]


def test_corpus_modules_pass_the_layout_check(corpus, passes_root):
    """Each file's module attributes agree with every layout alias it defines."""
    checked = 0
    for path in ttgir_level_files(corpus, passes_root):
        text = path.read_text()
        header = next((l for l in text.splitlines() if l.startswith("module attributes")), None)
        if header is None or "ttg.num-warps" not in header:
            continue
        aliases = {k: v for k, v in file_aliases(text).items() if v.startswith("#ttg.")}
        attrs = header[len("module attributes {") : header.rindex("}")]
        types = []
        for alias in aliases:
            layout = parse_attr(alias, aliases)
            rank = ttg.layout_rank(layout)
            if ttg.is_distributed_layout(layout):
                types.append(f"tensor<{'x'.join(['2'] * rank)}xf32, {alias}>")
        module = Parser(ttg_context(), expand_aliases(
            f"module attributes {{{attrs}}} {{\n func.func @f({', '.join(f'%a{i}: {t}' for i, t in enumerate(types))}) {{\n func.return\n }}\n}}",
            aliases)).parse_module()
        verify_layouts_against_module(module)
        checked += 1
    assert checked > 100


def test_find_layout_problem_returns_the_op_and_a_bare_message():
    module = module_with(CUDA_ATTRS, [])
    assert ttg.find_layout_problem(module) is None
    module.attributes["ttg.num-warps"] = parse_attr("8 : i64")
    op, message = ttg.find_layout_problem(module)
    assert op is module
    assert message.startswith('module attribute "ttg.num-warps" must be an i32 integer')
