"""Tests of the TritonAMDGPU (``amdg``) and ``rocdl`` ops Triton 3.6 writes at TritonGPU level:
exact forms, inferred operand types, verifiers, side effects."""

from __future__ import annotations

import re

import pytest
from ttg_harness import parse_attr, parse_op, roundtrip, show
from xdsl.dialects.builtin import TensorType, f32, i1, i32
from xdsl.traits import MemoryEffectKind, get_effects, is_side_effect_free
from xdsl.transforms.dead_code_elimination import is_trivially_dead
from xdsl.utils.exceptions import ParseError, VerifyException

from tileopt.dialects.amdgpu import AMDGPU
from tileopt.dialects.rocdl import ROCDL, SchedBarrierOp, SetPrioOp
from tileopt.dialects.tt_types import PointerType
from tileopt.dialects.effects import GlobalMemory, SharedMemory

BLOCKED = "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>"
ALIASES = {
    "#blocked": BLOCKED,
    "#blocked2": "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
    "#linear": "#ttg.linear<{register = [[1, 0], [0, 1], [0, 2], [0, 4]], lane = [[0, 8], [0, 16], [0, 32], [0, 64], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>",
    "#shared": "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
    "#smem": "#ttg.shared_memory",
}
T = "tensor<1024xf32, #blocked>"


@pytest.mark.parametrize(
    "line",
    [
        f"%x = amdg.buffer_load %p[%off] : {T}",
        f"%x = amdg.buffer_load %p[%off], %m : {T}",
        f"%x = amdg.buffer_load %p[%off], %m, %o : {T}",
        f"%x = amdg.buffer_load %p[%off], %m, %o {{contiguity = 4 : i32}} : {T}",
        f"%x = amdg.buffer_load %p[%off] cacheModifier = cg stride = %s : {T}",
        f"amdg.buffer_store %v, %p[%off] : {T}",
        f"amdg.buffer_store %v, %p[%off], %m : {T}",
        f"amdg.buffer_store %v, %p[%off], %m cacheModifier = wt stride = %s : {T}",
        f"%r = amdg.buffer_atomic_rmw fadd, acq_rel, gpu, %v, %p[%off] : {T}",
        f"%r = amdg.buffer_atomic_rmw fadd, acq_rel, gpu, %v, %p[%off], %m stride = %s : {T}",
        "%r = amdg.buffer_atomic_cas acq_rel, gpu, %c, %v, %p[%off] : tensor<1024xi64, #blocked>",
        "%r = amdg.buffer_atomic_cas relaxed, cta, %c, %v, %p[%off] stride = %s : tensor<1024xi32, #blocked>",
        "%t = amdg.buffer_load_to_local %p[%off] into %buf : <f16>[tensor<64x128xi32, #blocked2>]  -> <64x128xf16, #shared, #smem, mutable>",
        "%t = amdg.buffer_load_to_local %p[%off] mask = %m stride = %s into %buf {contiguity = 8 : i32} : <f16>[tensor<64x128xi32, #blocked2>]  -> <64x128xf16, #shared, #smem, mutable>",
        "%t = amdg.buffer_load_to_local %p[%off] mask = %m other = %o into %buf : <f16>[tensor<64x128xi32, #blocked2>] tensor<64x128xf16, #blocked2> -> <64x128xf16, #shared, #smem, mutable>",
        "%y = amdg.in_thread_transpose %x : tensor<64x128xf16, #blocked2> -> tensor<64x128xf16, #linear>",
        "%y = amdg.extract_slice %x [0, 32] : tensor<64x128xf16, #blocked2> to tensor<64x32xf16, #blocked2>",
        "%y = amdg.concat %a, %b : tensor<32x128xf16, #blocked2>, tensor<32x128xf16, #blocked2> -> tensor<64x128xf16, #blocked2>",
        "amdg.cond_barrier %pred",
        "rocdl.s.setprio 1",
        "rocdl.s.setprio 0",
        "rocdl.sched.barrier 0",
        "rocdl.sched.barrier 1",
    ],
)
def test_op_prints_as_triton(line):
    expected, printed = roundtrip(line, ALIASES)
    assert printed == expected


def test_buffer_operand_types_are_inferred_as_triton_does():
    op = parse_op(f"%x = amdg.buffer_load %p[%off], %m, %o : {T}", ALIASES)
    blocked = parse_attr(BLOCKED)
    assert op.ptr.type == PointerType(f32)
    assert op.offsets.type == TensorType(i32, [1024], blocked)
    assert op.mask.type == TensorType(i1, [1024], blocked)
    assert op.other.type == op.result.type


@pytest.mark.parametrize(
    "line, message",
    [
        (
            "%y = amdg.extract_slice %x [0, 112] : tensor<64x128xf16, #blocked2> to tensor<64x32xf16, #blocked2>",
            "slice [112, 144) is out of 128",
        ),
        (
            "%y = amdg.concat %a, %b : tensor<32x128xf16, #blocked2>, tensor<32x128xf16, #blocked2> -> tensor<32x128xf16, #blocked2>",
            "the sources hold 8192 elements",
        ),
        (
            "%y = amdg.in_thread_transpose %x : tensor<64x128xf16, #blocked2> -> tensor<64x128xf32, #blocked2>",
            "element types differ",
        ),
        (
            "%t = amdg.buffer_load_to_local %p[%off] into %buf : <f16>[tensor<64x128xi32, #blocked2>] -> <64x128xf16, #shared, #smem>",
            "cannot store into immutable memory",
        ),
    ],
)
def test_verifier_errors(line, message):
    op = parse_op(line, ALIASES)
    with pytest.raises(VerifyException, match=re.escape(message)):
        op.verify()


def test_unknown_enum_keyword_is_a_parse_error():
    with pytest.raises(ParseError, match="expected atomic rmw op"):
        parse_op(f"%r = amdg.buffer_atomic_rmw fmul, acq_rel, gpu, %v, %p[%off] : {T}", ALIASES)


def test_effects():
    def resources(line):
        return {(e.kind, e.resource) for e in get_effects(parse_op(line, ALIASES))}

    assert resources(f"%x = amdg.buffer_load %p[%off] : {T}") == {(MemoryEffectKind.READ, GlobalMemory())}
    assert resources(f"amdg.buffer_store %v, %p[%off] : {T}") == {(MemoryEffectKind.WRITE, GlobalMemory())}
    assert resources(f"%r = amdg.buffer_atomic_rmw fadd, acq_rel, gpu, %v, %p[%off] : {T}") == {
        (MemoryEffectKind.READ, GlobalMemory()),
        (MemoryEffectKind.WRITE, GlobalMemory()),
    }
    assert resources("%r = amdg.buffer_atomic_cas acq_rel, gpu, %c, %v, %p[%off] : "
                     "tensor<1024xi32, #blocked>") == {
        (MemoryEffectKind.READ, GlobalMemory()),
        (MemoryEffectKind.WRITE, GlobalMemory()),
    }
    assert resources(
        "%t = amdg.buffer_load_to_local %p[%off] into %buf : <f16>[tensor<64x128xi32, #blocked2>]  -> <64x128xf16, #shared, #smem, mutable>"
    ) == {(MemoryEffectKind.READ, GlobalMemory()), (MemoryEffectKind.WRITE, SharedMemory())}
    transpose = parse_op("%y = amdg.in_thread_transpose %x : tensor<64x128xf16, #blocked2> -> tensor<64x128xf16, #linear>", ALIASES)
    assert is_side_effect_free(transpose)
    for line in ("amdg.cond_barrier %pred", "rocdl.s.setprio 1", "rocdl.sched.barrier 0"):
        op = parse_op(line)
        assert not is_side_effect_free(op) and not is_trivially_dead(op), line


def test_rocdl_builders_and_immediates():
    assert show(SetPrioOp(3)) == "rocdl.s.setprio 3"
    assert show(SchedBarrierOp(0)) == "rocdl.sched.barrier 0"
    assert parse_op("rocdl.s.setprio 2").properties["priority"].type.width.data == 16


def test_dialect_names():
    assert AMDGPU.name == "amdg"
    assert ROCDL.name == "rocdl"
