"""Which NVIDIA MMA version can run a ``tt.dot`` (Triton's ``supportMMA``): the
accelerate-matmul pass picks a version with it and ``tt.dot``'s verifier checks a dot
already given an ``#ttg.nvidia_mma`` layout against it."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2FNUZType, Float8E5M2Type, IntegerType,
    bf16, f16, f32,
)
from xdsl.ir import Attribute, Operation

from tileopt.dialects.layout_of import encoding_of
from tileopt.dialects.tt_types import INPUT_PRECISION, InputPrecision, element_type
from tileopt.dialects.ttg import num_warps
from tileopt.layouts.encodings import get_shape_per_cta

FP8 = (Float8E5M2Type, Float8E4M3FNType, Float8E5M2FNUZType, Float8E4M3FNUZType)
NATIVE_FP8 = (Float8E5M2Type, Float8E4M3FNType)  # what mma.sync from sm89 and wgmma take


def is_int8(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.bitwidth == 8


def precision(dot: Operation) -> InputPrecision:
    return INPUT_PRECISION.value_of(dot.properties["inputPrecision"])


def int_property(op: Operation, name: str) -> int:
    return op.properties[name].value.data


def _operand_supports_mma(element: Attribute, version: int) -> bool:
    """mma.sync / wgmma take these A/B types (fp8 everywhere: it can be promoted)."""
    return (isinstance(element, FP8) or element in (f16, bf16)
            or (version >= 2 and (element == f32 or is_int8(element))))


def supports_mma(dot: Operation, version: int) -> bool:
    """Triton's ``supportMMA``: can mma ``version`` run this ``tt.dot``?"""
    a, b = element_type(dot.a.type), element_type(dot.b.type)
    if version == 3:
        a_shape = dot.a.type.get_shape()
        if a_shape[-1] < 256 // a.bitwidth:
            return False  # K below one wgmma instruction
        shape = get_shape_per_cta(encoding_of(dot.d.type), dot.d.type.get_shape())
        if len(shape) == 3:
            return False
        if num_warps(dot) % 4 or shape[-2] % 64 or shape[-1] % 8:
            return False
        if not (isinstance(a, NATIVE_FP8) or is_int8(a) or a in (f16, bf16, f32)):
            return False
        # fp8 wgmma accumulates in reduced precision unless told otherwise.
        if (isinstance(a, NATIVE_FP8) and element_type(dot.d.type) == f32
                and int_property(dot, "maxNumImpreciseAcc") < 32):
            return False
    if a == f32 and b == f32:
        return precision(dot) == InputPrecision.TF32 and version >= 2
    return _operand_supports_mma(a, version) and _operand_supports_mma(b, version)
