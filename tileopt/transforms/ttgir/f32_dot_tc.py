"""``tritongpu-F32DotTC``: run f32 dots on tensor cores by splitting their operands.

Tensor cores multiply tf32 or bf16, not full f32. A ``tt.dot`` of f32 operands asking for
more precision than one pass gives is rewritten into several lower-precision dots whose
sum recovers most of f32's mantissa (Triton's ``F32DotTC.cpp``):

- ``inputPrecision = bf16x3`` / ``bf16x6``: each operand is split into two / three bf16
  parts (``hi = bf16(x)``, ``mid = bf16(x - hi)``, ...) and the largest cross products are
  summed, smallest first (arxiv.org/abs/1904.06376); 3 or 6 dots, IEEE precision;
- ``inputPrecision = tf32x3`` (only with ``emu-tf32``, Triton sets it for NVIDIA sm80+):
  ``big = cvt.rna.tf32(x)`` (inline PTX), ``small = x - big``; the result is
  ``dot(big, big) + dot(small, big) + dot(big, small)`` in tf32 dots
  (github.com/NVIDIA/cutlass/discussions/385).

The correction terms are computed into a zero accumulator, and NaNs in them are replaced
by zero (an infinite operand times a zero ``small`` part would otherwise poison the sum);
the original accumulator is added at the end. Every other dot is left alone.

Like Triton's greedy pattern driver, the pass also erases dead side-effect-free ops and
moves constants (de-duplicated) to the top of their function.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    FloatAttr,
    Float32Type,
    IntegerAttr,
    StringAttr,
    TensorType,
    bf16,
    f32,
    i1,
    i32,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from tileopt.dialects.arith import CmpfOp, SelectOp
from tileopt.dialects.tt import DotOp, ElementwiseInlineAsmOp, SplatOp
from tileopt.dialects.tt_types import INPUT_PRECISION, InputPrecision
from tileopt.ir.locations import value_location
from tileopt.passes import Pass, option, register_pass
from tileopt.transforms.common.canonicalize import hoist_and_unique_constants


class _Builder:
    """Creates ops right before the dot being rewritten, with Triton's locations."""

    def __init__(self, dot: Operation):
        self.anchor = dot

    def insert(self, op: Operation, location) -> SSAValue:
        op.location = location
        Rewriter.insert_op(op, InsertPoint.before(self.anchor))
        return op.results[0]

    def with_element(self, value: SSAValue, element) -> TensorType:
        ty = value.type
        return TensorType(element, ty.get_shape(), ty.encoding)

    def truncf(self, value: SSAValue, element) -> SSAValue:
        return self.insert(arith.TruncFOp(value, self.with_element(value, element)),
                           value_location(value))

    def extf(self, value: SSAValue, element) -> SSAValue:
        return self.insert(arith.ExtFOp(value, self.with_element(value, element)),
                           value_location(value))

    def subf(self, a: SSAValue, b: SSAValue, location=None) -> SSAValue:
        return self.insert(arith.SubfOp(a, b), location or value_location(a))

    def addf(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.insert(arith.AddfOp(a, b), self.anchor.location)

    def zero_like(self, value: SSAValue) -> SSAValue:
        location = value_location(value)
        zero = self.insert(arith.ConstantOp(FloatAttr(0.0, f32)), location)
        return self.insert(SplatOp(zero, value.type), location)

    def dot(self, a: SSAValue, b: SSAValue, acc: SSAValue,
            precision: InputPrecision = InputPrecision.IEEE, max_imprecise: int = 0
            ) -> SSAValue:
        return self.insert(DotOp(a, b, acc, precision, max_imprecise), value_location(a))

    def nans_to_zero(self, value: SSAValue) -> SSAValue:
        location = value_location(value)
        nans = self.insert(CmpfOp(value, value, "uno"), location)
        zero = self.zero_like(value)
        return self.insert(SelectOp(nans, zero, value), location)

    def to_tf32(self, value: SSAValue) -> SSAValue:
        asm = ElementwiseInlineAsmOp.create(
            operands=[value], result_types=[value.type],
            properties={"asm_string": StringAttr("cvt.rna.tf32.f32 $0, $1;"),
                        "constraints": StringAttr("=r,r"), "pure": IntegerAttr(1, i1),
                        "packed_element": IntegerAttr(1, i32)})
        return self.insert(asm, self.anchor.location)


def _is_f32_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType) and isinstance(value.type.element_type,
                                                             Float32Type)


def _split_bf16(b: _Builder, value: SSAValue, parts: int) -> list[SSAValue]:
    """``[hi, mid, lo][:parts]``: bf16 pieces whose sum approximates ``value``."""
    pieces = []
    for i in range(parts):
        piece = b.truncf(value, bf16)
        if i != parts - 1:
            value = b.subf(value, b.extf(piece, f32))
        pieces.append(piece)
    return pieces


def _rewrite_bf16(dot: Operation, precision: InputPrecision) -> SSAValue:
    b = _Builder(dot)
    a_op, b_op, c = dot.operands
    parts = 2 if precision == InputPrecision.BF16x3 else 3
    lhs = _split_bf16(b, a_op, parts)
    rhs = _split_bf16(b, b_op, parts)
    hi, mid, lo = 0, 1, 2
    result = b.zero_like(c)
    products: Sequence[tuple[int, int]] = ((mid, hi), (hi, mid))
    if precision == InputPrecision.BF16x6:
        products = ((mid, mid), (lo, hi), (hi, lo), *products)
    for i, j in products:  # smallest terms first
        result = b.dot(lhs[i], rhs[j], result)
    result = b.nans_to_zero(result)
    result = b.dot(lhs[hi], rhs[hi], result)
    return b.addf(result, c)


def _rewrite_tf32x3(dot: Operation) -> SSAValue:
    b = _Builder(dot)
    a_op, b_op, c = dot.operands
    max_imprecise = dot.properties["maxNumImpreciseAcc"].value.data
    a_big = b.to_tf32(a_op)
    a_small = b.subf(a_op, a_big, dot.location)
    b_big = b.to_tf32(b_op)
    b_small = b.subf(b_op, b_big, dot.location)
    zero = b.zero_like(c)
    small = b.dot(a_small, b_big, zero, InputPrecision.TF32, max_imprecise)
    small = b.dot(a_big, b_small, small, InputPrecision.TF32, max_imprecise)
    small = b.nans_to_zero(small)
    big = b.dot(a_big, b_big, small, InputPrecision.TF32, max_imprecise)
    return b.addf(big, c)


@register_pass
class F32DotTC(Pass):
    """Decompose f32 dots of precision tf32x3 / bf16x3 / bf16x6 into tensor-core dots."""

    name = "tritongpu-F32DotTC"

    emu_tf32: bool = option(False, "whether to handle InputPrecision TF32xN for Nvidia GPUs",
                            name="emu-tf32")

    def apply(self, ctx: Context, op: Operation) -> None:
        for dot in [o for o in op.walk() if o.name == "tt.dot"]:
            a_op, b_op = dot.operands[0], dot.operands[1]
            if not (_is_f32_tensor(a_op) and _is_f32_tensor(b_op)):
                continue
            precision = INPUT_PRECISION.value_of(dot.properties["inputPrecision"])
            if precision in (InputPrecision.BF16x3, InputPrecision.BF16x6):
                result = _rewrite_bf16(dot, precision)
            elif precision == InputPrecision.TF32x3 and self.emu_tf32:
                result = _rewrite_tf32x3(dot)
            else:
                continue
            dot.results[0].replace_all_uses_with(result)
            Rewriter.erase_op(dot)
        # What MLIR's greedy driver does besides the patterns.
        for region in op.regions:
            region_dce(region)
        hoist_and_unique_constants(op)
