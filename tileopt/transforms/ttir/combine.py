"""``triton-combine``: Triton's peephole rewrites of tile IR (``Combine.cpp``/``Combine.td``).

Run with MLIR's greedy driver semantics (folding, dead-op removal, constants uniqued and
hoisted), as Triton's pass is:

- ``add(dot(a, b, 0), d)`` / ``add(d, dot(a, b, 0))`` -> ``dot(a, b, d)`` for ``arith.addi``
  and ``arith.addf`` (for ``addf`` only when ``maxNumImpreciseAcc`` is 0) and
  ``dot_scaled`` with ``addf``; the dot must have no other user. The accumulator then
  lives in the dot, which is what lets the matmul lowering accumulate in registers.
- ``select(c, load(p, splat(c), _), other)`` -> ``load(p, splat(c), other)``: the select
  only repeats what the load's mask already does.
- ``addptr(addptr(p, x), y)`` -> ``addptr(p, x + y)`` when ``x + y`` cannot wrap where the
  two steps would not: 64-bit offsets (as wide as the pointer), or constant offsets whose
  sum does not overflow. The outer op's ``tt.divisibility``/``tt.contiguity``/
  ``tt.constancy``/``tt.pointee_type`` attributes carry over.
- ``reduce(mulf(broadcast(x: MxKx1), broadcast(y: 1xKxN)), axis=1, addf)`` ->
  ``dot(reshape(x), reshape(y), 0)`` when N and M are at least 16: ``sum(x[:, :, None] *
  y[None, :, :], 1)`` written by hand is a matrix product.
- ``reshape`` to 1-D whose users are all ``reduce``/``histogram`` gets ``allow_reorder``
  (the order of a reduction's inputs does not matter).
- ``reshape(descriptor_load)`` that only drops leading unit dimensions loads the reduced
  shape directly.

One deliberate difference: Triton builds the zero accumulator of the broadcast-multiply-sum
rewrite as an ``f32`` constant splatted to the operand element type, which is invalid IR
for ``f16`` inputs; here the constant has the element type.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from tileopt.dialects import arith as tensor_arith
from tileopt.dialects import tt
from tileopt.dialects.tt_types import InputPrecision, bit_width, element_type
from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.greedy_rewrite import apply_patterns_greedily

# Discardable attributes that follow a combined addptr (Combine.td's CopyDiscardableAttrs).
ADDPTR_HINTS = ("tt.divisibility", "tt.contiguity", "tt.constancy", "tt.pointee_type")


def constant_attr(value: SSAValue) -> Attribute | None:
    owner = value.owner
    return owner.value if isinstance(owner, arith.ConstantOp) else None


def splat_scalar(attr: Attribute | None) -> Attribute | None:
    """The scalar of a constant: an IntegerAttr/FloatAttr itself, or the single value of a
    splat dense attribute (as an attribute of the element type)."""
    if isinstance(attr, IntegerAttr | FloatAttr):
        return attr
    if isinstance(attr, DenseIntOrFPElementsAttr) and len(attr) > 0 and attr.is_splat():
        element = attr.get_element_type()
        value = attr.get_values()[0]
        if isinstance(element, IntegerType):
            return IntegerAttr(int(value), element)
        return FloatAttr(float(value), element)  # type: ignore[arg-type]
    return None


def is_zero(value: SSAValue) -> bool:
    """MLIR's ``m_Zero`` or ``m_AnyZeroFloat``: an integer 0 or a float +-0.0 constant,
    scalar or splat."""
    scalar = splat_scalar(constant_attr(value))
    if isinstance(scalar, IntegerAttr):
        return scalar.value.data == 0
    if isinstance(scalar, FloatAttr):
        return scalar.value.data == 0.0
    return False


def constant_int(value: SSAValue) -> int | None:
    """Triton's GetConstantIntValue of isAddPtrOffsetCombinable: the integer a scalar
    constant, a splat dense constant or a ``tt.splat`` of a scalar constant holds."""
    owner = value.owner
    if isinstance(owner, tt.SplatOp):
        value = owner.src
    else:
        scalar = splat_scalar(constant_attr(value))
        if isinstance(value.type, TensorType) and isinstance(scalar, IntegerAttr):
            return scalar.value.data
    attr = constant_attr(value)
    if isinstance(attr, IntegerAttr) and not isinstance(value.type, TensorType):
        return attr.value.data
    return None


def _signed(value: int, width: int) -> int:
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def addptr_offsets_combinable(first: SSAValue, second: SSAValue) -> bool:
    if first.type != second.type:
        return False
    width = bit_width(element_type(first.type))
    if width == 64:
        return True
    a, b = constant_int(first), constant_int(second)
    if a is None or b is None or width is None:
        return False
    total = _signed(a, width) + _signed(b, width)
    return -(1 << (width - 1)) <= total < (1 << (width - 1))


class CombineDotAdd(RewritePattern):
    """``add(dot(a, b, 0), d)`` -> ``dot(a, b, d)`` (either operand order)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, arith.AddiOp | arith.AddfOp):
            return
        for dot_side, other_side in ((1, 0), (0, 1)):
            dot = op.operands[dot_side].owner
            if isinstance(dot, tt.DotOp) or (isinstance(dot, tt.DotScaledOp)
                                             and isinstance(op, arith.AddfOp)):
                break
        else:
            return
        if not dot.results[0].has_one_use() or not is_zero(dot.c):
            return
        if (isinstance(dot, tt.DotOp) and isinstance(op, arith.AddfOp)
                and dot.maxNumImpreciseAcc.value.data != 0):
            return
        new_dot = dot.clone()
        operands = list(new_dot.operands)
        operands[2] = op.operands[other_side]
        new_dot.operands = operands
        rewriter.replace(op, new_dot, [new_dot.results[0]])
        rewriter.erase(dot)


class CombineSelectMaskedLoad(RewritePattern):
    """``select(c, load(p, splat(c), _), other)`` -> ``load(p, splat(c), other)``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor_arith.SelectOp, rewriter: PatternRewriter) -> None:
        load = op.lhs.owner
        if not isinstance(load, tt.LoadOp) or load.mask is None:
            return
        splat = load.mask.owner
        if not isinstance(splat, tt.SplatOp) or splat.src != op.cond:
            return
        rewriter.replace(op, tt.LoadOp(
            load.ptr, load.mask, op.rhs, cache=load.cache_modifier,
            evict=load.eviction_policy, is_volatile=load.is_volatile))


class CombineAddPtr(RewritePattern):
    """``addptr(addptr(p, x), y)`` -> ``addptr(p, x + y)`` when that cannot overflow."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.AddPtrOp, rewriter: PatternRewriter) -> None:
        inner = op.ptr.owner
        if not isinstance(inner, tt.AddPtrOp):
            return
        if not addptr_offsets_combinable(inner.offset, op.offset):
            return
        total = arith.AddiOp(inner.offset, op.offset)
        combined = tt.AddPtrOp(inner.ptr, total)
        for name in ADDPTR_HINTS:
            if name in op.attributes:
                combined.attributes[name] = op.attributes[name]
        rewriter.replace(op, [total, combined])


def _broadcasts_only_along(op: tt.BroadcastOp, axis: int) -> bool:
    src = op.src.type.get_shape()  # type: ignore[union-attr]
    dst = op.result.type.get_shape()  # type: ignore[union-attr]
    return all((s != d) == (i == axis) for i, (s, d) in enumerate(zip(src, dst)))


class CombineBroadcastMulReduce(RewritePattern):
    """``sum(x[:, :, None] * y[None, :, :], 1)`` -> ``dot(x, y)``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.ReduceOp, rewriter: PatternRewriter) -> None:
        if len(op.srcs) != 1 or op.axis.value.data != 1:
            return
        src_type = op.srcs[0].type
        if not isinstance(src_type, TensorType) or len(src_type.get_shape()) != 3:
            return
        body = op.combineOp.blocks.first
        ops = list(body.ops) if body is not None else []
        if len(op.combineOp.blocks) != 1 or len(ops) != 2:
            return
        if not isinstance(ops[0], arith.AddfOp) or (bit_width(ops[0].result.type) or 64) > 32:
            return
        mul = op.srcs[0].owner
        if not isinstance(mul, arith.MulfOp):
            return
        lhs, rhs = mul.lhs.owner, mul.rhs.owner
        if not isinstance(lhs, tt.BroadcastOp) or not isinstance(rhs, tt.BroadcastOp):
            return
        if not _broadcasts_only_along(lhs, 2) or not _broadcasts_only_along(rhs, 0):
            return
        lhs_shape = lhs.result.type.get_shape()  # type: ignore[union-attr]
        rhs_shape = rhs.result.type.get_shape()  # type: ignore[union-attr]
        if lhs_shape[2] < 16 or rhs_shape[0] < 16:
            return
        lhs_src, rhs_src = lhs.src.type, rhs.src.type
        assert isinstance(lhs_src, TensorType) and isinstance(rhs_src, TensorType)
        element = lhs_src.element_type
        a = tt.ReshapeOp(lhs.src, TensorType(element, list(lhs_src.get_shape())[:-1]))
        b = tt.ReshapeOp(rhs.src, TensorType(rhs_src.element_type,
                                             list(rhs_src.get_shape())[1:]))
        zero = arith.ConstantOp(FloatAttr(0.0, element))  # type: ignore[arg-type]
        acc = tt.SplatOp(zero, TensorType(element, [lhs_shape[0], rhs_shape[2]]))
        dot = tt.DotOp(a, b, acc, InputPrecision.IEEE, 0)
        rewriter.replace(op, [a, b, zero, acc, dot])


class CombineReshapeReduce(RewritePattern):
    """A 1-D ``reshape`` feeding only reductions/histograms may reorder elements."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.ReshapeOp, rewriter: PatternRewriter) -> None:
        if op.allow_reorder is not None:
            return
        if len(op.result.type.get_shape()) != 1:  # type: ignore[union-attr]
            return
        if any(not isinstance(use.operation, tt.ReduceOp | tt.HistogramOp)
               for use in op.result.uses):
            return
        op.properties["allow_reorder"] = UnitAttr()
        rewriter.handle_operation_modification(op)


class RankReduceDescriptorLoad(RewritePattern):
    """``reshape(descriptor_load)`` dropping leading unit dims -> a rank-reduced load."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.ReshapeOp, rewriter: PatternRewriter) -> None:
        load = op.src.owner
        if not isinstance(load, tt.DescriptorLoadOp) or not load.result.has_one_use():
            return
        load_shape = load.result.type.get_shape()  # type: ignore[union-attr]
        new_shape = op.result.type.get_shape()  # type: ignore[union-attr]
        dropped = len(load_shape) - len(new_shape)
        if dropped <= 0 or any(d != 1 for d in load_shape[:dropped]):
            return
        if tuple(load_shape[dropped:]) != tuple(new_shape):
            return
        new_load = type(load).create(
            operands=list(load.operands), result_types=[op.result.type],
            properties=dict(load.properties), attributes=dict(load.attributes))
        rewriter.replace(load, new_load)
        rewriter.replace(op, [], [new_load.results[0]])


COMBINE_PATTERNS = (CombineDotAdd, CombineSelectMaskedLoad, CombineAddPtr,
                    CombineBroadcastMulReduce, CombineReshapeReduce, RankReduceDescriptorLoad)
# One list for every run (the patterns are stateless): the greedy driver keeps its plans.
_PATTERNS = [p() for p in COMBINE_PATTERNS]


@register_pass
class Combine(Pass):
    """Combine tile ops: dot+add, select of masked load, nested addptr, broadcast-mul-sum."""

    name = "triton-combine"

    def apply(self, ctx: Context, op: Operation) -> None:
        apply_patterns_greedily(ctx, op, _PATTERNS)
