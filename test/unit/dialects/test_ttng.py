"""Tests of the TritonNvidiaGPU dialect (ttng): wgmma, its wait, the async-proxy fence and the
mbarrier ops print as Triton 3.6 does, verify, and keep their side effects."""

from __future__ import annotations

import re

import pytest
from ttg_harness import parse_op, roundtrip, show
from xdsl.dialects.builtin import IntegerAttr, i1, i32
from xdsl.traits import MemoryEffectKind, get_effects, is_side_effect_free
from xdsl.transforms.dead_code_elimination import is_trivially_dead
from xdsl.utils.exceptions import VerifyException

from tileopt.dialects.tt_types import INPUT_PRECISION, InputPrecision
from tileopt.dialects.ttng import TTNG, FenceAsyncSharedOp, WarpGroupDotOp

MMA3 = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>"
ALIASES = {
    "#mma": MMA3,
    "#shared": "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
    "#shared1": "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>",
    "#smem": "#ttg.shared_memory",
}
A = "!ttg.memdesc<64x32xf16, #shared, #smem>"
B = "!ttg.memdesc<32x64xf16, #shared1, #smem>"
ACC = "tensor<64x64xf32, #mma>"
BAR = "!ttg.memdesc<1xi64, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #smem, mutable>"


@pytest.mark.parametrize(
    "line",
    [
        f"%d = ttng.warp_group_dot %a, %b, %c {{inputPrecision = 0 : i32, isAsync = true}} : {A} * {B} -> {ACC}",
        f"%d = ttng.warp_group_dot %a, %b, %c {{inputPrecision = 0 : i32}} : {A} * {B} -> {ACC}",
        f"%d = ttng.warp_group_dot %a, %b, %c, %use : {A} * {B} -> {ACC}",
        f"%d = ttng.warp_group_dot %a, %b, %c {{maxNumImpreciseAcc = 32 : i32}} : tensor<64x32xf16, #ttg.dot_op<{{opIdx = 0, parent = #mma, kWidth = 2}}>> * {B} -> {ACC}",
        f"%r:3 = ttng.warp_group_dot_wait %d, %a, %b {{pendings = 1 : i32}} : {ACC}, {A}, {B}",
        f"%r = ttng.warp_group_dot_wait %d {{pendings = 0 : i32}} : {ACC}",
        "ttng.fence_async_shared {bCluster = false}",
        "ttng.fence_async_shared {bCluster = true}",
        f"ttng.init_barrier %bar, 1 : {BAR}",
        f"ttng.inval_barrier %bar : {BAR}",
        f"ttng.barrier_expect %bar, 16384, %pred : {BAR}",
        f"ttng.wait_barrier %bar, %phase : {BAR}",
        f"ttng.wait_barrier %bar, %phase, %pred : {BAR}",
    ],
)
def test_op_prints_as_triton(line):
    expected, printed = roundtrip(line, ALIASES)
    assert printed == expected


def test_default_valued_attributes_are_left_out_as_mlir_does():
    op = parse_op(f"%d = ttng.warp_group_dot %a, %b, %c : {A} * {B} -> {ACC}", ALIASES)
    op.properties["inputPrecision"] = INPUT_PRECISION.attr(InputPrecision.IEEE)
    op.properties["isAsync"] = IntegerAttr(0, i1)
    op.properties["maxNumImpreciseAcc"] = IntegerAttr(0, i32)
    assert "{" not in show(op).split(":")[0]
    op.properties["isAsync"] = IntegerAttr(1, i1)
    assert "{isAsync = true}" in show(op)


def test_builder():
    assert show(FenceAsyncSharedOp(False)) == "ttng.fence_async_shared {bCluster = false}"


@pytest.mark.parametrize(
    "line, message",
    [
        (f"%d = ttng.warp_group_dot %a, %b, %c : {A} * !ttg.memdesc<64x64xf16, #shared1, #smem> -> {ACC}",
         "shapes 64x32 * 64x64 do not give 64x64"),
        (f"%d = ttng.warp_group_dot %a, %b, %c : {A} * tensor<32x64xf16, #ttg.dot_op<{{opIdx = 0, parent = #mma, kWidth = 2}}>> -> {ACC}",
         "B must be in shared memory"),
        (f"%d = ttng.warp_group_dot %a, %b, %c {{inputPrecision = 9 : i32}} : {A} * {B} -> {ACC}",
         "'inputPrecision' = 9 is not a valid input precision"),
    ],
)
def test_verifier_errors(line, message):
    op = parse_op(line, ALIASES)
    with pytest.raises(VerifyException, match=re.escape(message)):
        op.verify()


def test_wait_results_take_the_input_types():
    op = parse_op(f"%r:2 = ttng.warp_group_dot_wait %d, %a {{pendings = 0 : i32}} : {ACC}, {A}", ALIASES)
    assert [r.type for r in op.results] == [v.type for v in op.operands]


def test_effects():
    dot = parse_op(f"%d = ttng.warp_group_dot %a, %b, %c : {A} * {B} -> {ACC}", ALIASES)
    assert {e.kind for e in get_effects(dot)} == {MemoryEffectKind.READ}
    for line in (
        f"%r = ttng.warp_group_dot_wait %d {{pendings = 0 : i32}} : {ACC}",
        "ttng.fence_async_shared {bCluster = false}",
        f"ttng.init_barrier %bar, 1 : {BAR}",
        f"ttng.wait_barrier %bar, %phase : {BAR}",
    ):
        op = parse_op(line, ALIASES)
        assert not is_side_effect_free(op) and not is_trivially_dead(op), line


def test_dialect():
    assert TTNG.name == "ttng"
    assert WarpGroupDotOp in TTNG.operations
