"""``triton-algebraic-simplify``: algebraic identities and strength reduction on ``arith``
(a pass Triton does not have; in the spirit of FlagTree's algebraic transformations).

Works on scalars and on tensors (a constant operand may be a splat ``dense<c>``), with
MLIR's greedy-driver semantics (folding, dead ops removed, constants uniqued and hoisted).

Integer rewrites, exact in two's-complement (wrapping) arithmetic, hence always valid:

- ``x + 0``, ``x - 0``, ``x * 1``, ``x / 1`` -> ``x``; ``x - x``, ``x * 0``, ``x % 1`` -> ``0``;
- common factors: ``a*b + a*c`` -> ``a*(b + c)`` and ``a*b - a*c`` -> ``a*(b - c)`` (any
  operand order), when both products have no other use (so an op is saved);
- strength reduction (option ``strength-reduction``, on by default):
  ``x * 2^k`` -> ``x << k``; unsigned ``x / 2^k`` -> ``x >> k`` and ``x % 2^k`` ->
  ``x & (2^k - 1)``; the signed ``divsi``/``remsi`` forms only when integer range analysis
  proves ``x >= 0`` (for negative ``x`` a shift rounds down where division truncates).

Float rewrites are limited to those that are exact for every input, NaN, infinities and
signed zeros included:

- ``x * 1.0`` -> ``x`` and ``x / 1.0`` -> ``x`` (multiplying by one is the identity);
- ``x - 0.0`` -> ``x`` and ``x + (-0.0)`` -> ``x`` (``-0.0 - 0.0`` and ``-0.0 + -0.0`` are
  ``-0.0``, ``+0.0 - 0.0`` is ``+0.0``);
- ``x + 0.0`` -> ``x`` only with the ``nsz`` (or ``fast``) fastmath flag: ``-0.0 + 0.0``
  is ``+0.0``;
- strength reduction: ``x / 2^k`` -> ``x * 2^-k`` when ``2^-k`` is exactly representable:
  both compute the same real number, so they round the same.

Never rewritten for floats: ``x * 0.0`` (NaN, infinities, sign of zero), ``x - x`` (NaN
for infinities) and common factors (rounding differs).
"""

from __future__ import annotations

import math

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from tileopt.passes import Pass, option, register_pass
from tileopt.analysis.integer_ranges import IntegerRanges, signed
from tileopt.transforms.canonicalization.constant_folding import float_format
from tileopt.transforms.utils.greedy_rewrite import apply_patterns_greedily

def _element(ty: Attribute) -> Attribute:
    return ty.element_type if isinstance(ty, TensorType) else ty


def constant_of(value: SSAValue) -> int | float | None:
    """The value of a scalar constant or of a splat dense constant (ints as signed)."""
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp):
        return None
    attr = owner.value
    element = _element(value.type)
    if isinstance(attr, IntegerAttr):
        number = attr.value.data
    elif isinstance(attr, FloatAttr):
        number = attr.value.data
    elif isinstance(attr, DenseIntOrFPElementsAttr) and len(attr) and attr.is_splat():
        number = attr.get_values()[0]
    else:
        return None
    if isinstance(element, IntegerType):
        return signed(int(number), element.width.data)
    return float(number)


def make_constant(ty: Attribute, number: int | float) -> arith.ConstantOp:
    element = _element(ty)
    if isinstance(ty, TensorType):
        return arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(ty, [number]))
    if isinstance(element, IntegerType):
        return arith.ConstantOp(IntegerAttr(number, element))
    return arith.ConstantOp(FloatAttr(float(number), element))  # type: ignore[arg-type]


def power_of_two(number: int | float | None) -> int | None:
    """``k`` if ``number == 2**k`` for an integer ``k >= 1``."""
    if isinstance(number, int) and number > 1 and number & (number - 1) == 0:
        return number.bit_length() - 1
    return None


def _is_negative_zero(number: float) -> bool:
    return number == 0.0 and math.copysign(1.0, number) < 0


def _fastmath(op: Operation) -> set[str]:
    """The op's fastmath flags by name (``fast`` expands to all of them)."""
    flags = op.properties.get("fastmath")
    return {str(flag.value) for flag in getattr(flags, "data", ())}


class AlgebraicSimplification(RewritePattern):
    def __init__(self, ranges: IntegerRanges, strength_reduction: bool):
        self.ranges = ranges
        self.strength_reduction = strength_reduction

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        handler = getattr(self, "_" + op.name.replace(".", "_"), None)
        if handler is not None and len(op.operands) == 2:
            handler(op, rewriter)

    # -- helpers -------------------------------------------------------------------

    @staticmethod
    def _forward(op: Operation, rewriter: PatternRewriter, value: SSAValue) -> None:
        rewriter.replace(op, [], [value])

    @staticmethod
    def _constant(op: Operation, rewriter: PatternRewriter, number: int | float) -> None:
        rewriter.replace(op, make_constant(op.results[0].type, number))

    # -- integers ------------------------------------------------------------------

    def _arith_addi(self, op: Operation, rewriter: PatternRewriter) -> None:
        x, y = op.operands
        if constant_of(y) == 0:
            return self._forward(op, rewriter, x)
        if constant_of(x) == 0:
            return self._forward(op, rewriter, y)
        self._factor(op, rewriter, arith.AddiOp)

    def _arith_subi(self, op: Operation, rewriter: PatternRewriter) -> None:
        x, y = op.operands
        if constant_of(y) == 0:
            return self._forward(op, rewriter, x)
        if x is y:
            return self._constant(op, rewriter, 0)
        self._factor(op, rewriter, arith.SubiOp)

    def _factor(self, op: Operation, rewriter: PatternRewriter, combine) -> None:
        """``a*b (+|-) a*c`` -> ``a*(b (+|-) c)`` when both products die."""
        left, right = (v.owner for v in op.operands)
        if not (isinstance(left, arith.MuliOp) and isinstance(right, arith.MuliOp)):
            return
        if left is right or not (left.result.has_one_use() and right.result.has_one_use()):
            return
        for a, b in ((left.lhs, left.rhs), (left.rhs, left.lhs)):
            for c_index in (0, 1):
                if right.operands[c_index] is a:
                    c = right.operands[1 - c_index]
                    inner = combine(b, c)
                    rewriter.replace(op, [inner, arith.MuliOp(a, inner.result)])
                    return

    def _arith_muli(self, op: Operation, rewriter: PatternRewriter) -> None:
        x, y = op.operands
        for value, other in ((y, x), (x, y)):
            number = constant_of(value)
            if number == 1:
                return self._forward(op, rewriter, other)
            if number == 0:
                return self._constant(op, rewriter, 0)
        if not self.strength_reduction:
            return
        for value, other in ((y, x), (x, y)):
            k = power_of_two(constant_of(value))
            if k is not None:
                shift = make_constant(op.results[0].type, k)
                rewriter.replace(op, [shift, arith.ShLIOp(other, shift.result)])
                return

    def _division(self, op: Operation, rewriter: PatternRewriter, is_signed: bool,
                  is_remainder: bool) -> None:
        x, y = op.operands
        number = constant_of(y)
        if number == 1:
            if is_remainder:
                return self._constant(op, rewriter, 0)
            return self._forward(op, rewriter, x)
        if not self.strength_reduction:
            return
        width = _element(y.type).width.data  # type: ignore[union-attr]
        if not is_signed and isinstance(number, int):
            number &= (1 << width) - 1  # the divisor as an unsigned number
        k = power_of_two(number)
        if k is None:
            return
        if is_signed and not self.ranges.non_negative(x):
            return  # shifts round towards -inf, signed division towards 0
        if is_remainder:
            mask = make_constant(op.results[0].type, signed((1 << k) - 1, width))
            rewriter.replace(op, [mask, arith.AndIOp(x, mask.result)])
            return
        shift = make_constant(op.results[0].type, k)
        shifted = (arith.ShRSIOp if is_signed else arith.ShRUIOp)(x, shift.result)
        rewriter.replace(op, [shift, shifted])

    def _arith_divsi(self, op: Operation, rewriter: PatternRewriter) -> None:
        self._division(op, rewriter, is_signed=True, is_remainder=False)

    def _arith_divui(self, op: Operation, rewriter: PatternRewriter) -> None:
        self._division(op, rewriter, is_signed=False, is_remainder=False)

    def _arith_remsi(self, op: Operation, rewriter: PatternRewriter) -> None:
        self._division(op, rewriter, is_signed=True, is_remainder=True)

    def _arith_remui(self, op: Operation, rewriter: PatternRewriter) -> None:
        self._division(op, rewriter, is_signed=False, is_remainder=True)

    # -- floats (exact rewrites only) -------------------------------------------------

    def _arith_mulf(self, op: Operation, rewriter: PatternRewriter) -> None:
        x, y = op.operands
        if constant_of(y) == 1.0:
            return self._forward(op, rewriter, x)
        if constant_of(x) == 1.0:
            return self._forward(op, rewriter, y)

    def _arith_divf(self, op: Operation, rewriter: PatternRewriter) -> None:
        x, y = op.operands
        number = constant_of(y)
        if number == 1.0:
            return self._forward(op, rewriter, x)
        if not self.strength_reduction or not isinstance(number, float) or number <= 0:
            return
        mantissa, exponent = math.frexp(number)
        if mantissa != 0.5:
            return  # not a power of two
        reciprocal_exponent = -(exponent - 1)
        fmt = float_format(y.type)
        if fmt is None or reciprocal_exponent < fmt.min_exponent:
            return  # 2^-k would not be a normal number of this type
        reciprocal = make_constant(y.type, math.ldexp(1.0, reciprocal_exponent))
        product = arith.MulfOp(x, reciprocal.result)
        product.properties["fastmath"] = op.properties["fastmath"]
        rewriter.replace(op, [reciprocal, product])

    def _arith_subf(self, op: Operation, rewriter: PatternRewriter) -> None:
        x, y = op.operands
        number = constant_of(y)
        if number == 0.0 and not _is_negative_zero(number):  # type: ignore[arg-type]
            self._forward(op, rewriter, x)

    def _arith_addf(self, op: Operation, rewriter: PatternRewriter) -> None:
        no_signed_zeros = "nsz" in _fastmath(op)
        for value, other in ((op.operands[1], op.operands[0]), (op.operands[0], op.operands[1])):
            number = constant_of(value)
            if number == 0.0 and (_is_negative_zero(number) or no_signed_zeros):  # type: ignore[arg-type]
                return self._forward(op, rewriter, other)


@register_pass
class AlgebraicSimplify(Pass):
    """Simplify integer and exact float identities; strength-reduce by powers of two."""

    name = "triton-algebraic-simplify"

    strength_reduction: bool = option(
        True, "replace multiplication/division/remainder by powers of two with shifts, "
        "masks and exact reciprocal multiplications")

    def apply(self, ctx: Context, op: Operation) -> None:
        pattern = AlgebraicSimplification(IntegerRanges(op), self.strength_reduction)
        apply_patterns_greedily(ctx, op, [pattern])
