"""``triton-reorder-broadcast``: compute before broadcasting (Triton's
``ReorderBroadcast.cpp``).

An elementwise op whose operands are all splats computes one value many times, and one
whose tensor operand is a broadcast computes each value of the smaller tensor many times.
Moving the splat/broadcast after the op does the arithmetic once:

- ``elementwise(splat(a), splat(b), ...)`` -> ``splat(elementwise(a, b, ...))`` (a splat
  constant counts as a splat of its scalar);
- ``elementwise(broadcast(a), splat(b), ...)`` -> ``broadcast(elementwise(a, splat'(b)))``
  when every non-splat operand is a broadcast from the same shape.

Only ops free of memory effects move. ``tt.broadcast``/``tt.expand_dims``
canonicalizations run alongside (broadcast of splat, expand_dims of broadcast, ...), all
with MLIR's greedy driver semantics as in Triton.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import get_effects

from tileopt.dialects import tt
from tileopt.dialects.canonicalization import canonicalization_patterns
from tileopt.dialects.traits import is_elementwise
from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.greedy_rewrite import apply_patterns_greedily
from tileopt.transforms.ttir.combine import splat_scalar, constant_attr


def is_memory_effect_free(op: Operation) -> bool:
    effects = get_effects(op)
    return effects is not None and not effects


def splat_constant(value: SSAValue) -> Attribute | None:
    """The scalar of a splat dense ``arith.constant``, else None."""
    attr = constant_attr(value)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return splat_scalar(attr)
    return None


def is_splat(value: SSAValue) -> bool:
    return isinstance(value.owner, tt.SplatOp) or splat_constant(value) is not None


def _rebuild(op: Operation, operands: list[SSAValue], result_types: list[Attribute]) -> Operation:
    return type(op).create(operands=operands, result_types=result_types,
                           properties=dict(op.properties), attributes=dict(op.attributes))


def _candidate(op: Operation) -> bool:
    return (is_elementwise(op) and not op.regions and is_memory_effect_free(op)
            and all(isinstance(r.type, TensorType) for r in op.results))


class MoveSplatAfterElementwise(RewritePattern):
    """``elementwise(splat(a), splat(b))`` -> ``splat(elementwise(a, b))``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not _candidate(op) or not op.operands:
            return
        if not all(is_splat(v) for v in op.operands):
            return
        new_ops: list[Operation] = []
        scalars: list[SSAValue] = []
        for value in op.operands:
            if isinstance(value.owner, tt.SplatOp):
                scalars.append(value.owner.src)
            else:
                constant = arith.ConstantOp(splat_constant(value))  # type: ignore[arg-type]
                new_ops.append(constant)
                scalars.append(constant.result)
        scalar_op = _rebuild(op, scalars, [r.type.element_type for r in op.results])
        new_ops.append(scalar_op)
        splats = [tt.SplatOp(s, r.type) for s, r in zip(scalar_op.results, op.results)]
        new_ops.extend(splats)
        rewriter.replace(op, new_ops, [s.result for s in splats])


class MoveBroadcastAfterElementwise(RewritePattern):
    """``elementwise(broadcast(a), splat(b))`` -> ``broadcast(elementwise(a, splat(b)))``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not _candidate(op):
            return
        source_shape = None
        source_type = None
        for value in op.operands:
            owner = value.owner
            if isinstance(owner, tt.BroadcastOp):
                shape = owner.src.type.get_shape()  # type: ignore[union-attr]
                if source_shape is None:
                    source_shape, source_type = shape, owner.src.type
                elif shape != source_shape:
                    return  # broadcasts from different shapes cannot move together
            elif not is_splat(value):
                return
        if source_type is None:
            return
        assert isinstance(source_type, TensorType)
        encoding = source_type.encoding
        new_ops: list[Operation] = []
        operands: list[SSAValue] = []
        for value in op.operands:
            owner = value.owner
            element = value.type.element_type  # type: ignore[union-attr]
            narrow = TensorType(element, list(source_shape), encoding)
            if isinstance(owner, tt.BroadcastOp):
                operands.append(owner.src)
            elif isinstance(owner, tt.SplatOp):
                splat = tt.SplatOp(owner.src, narrow)
                new_ops.append(splat)
                operands.append(splat.result)
            else:
                scalar = splat_constant(value)
                constant = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(
                    narrow, [scalar.value.data]))  # type: ignore[union-attr]
                new_ops.append(constant)
                operands.append(constant.result)
        narrow_op = _rebuild(op, operands, [
            TensorType(r.type.element_type, list(source_shape), encoding)  # type: ignore[union-attr]
            for r in op.results])
        new_ops.append(narrow_op)
        wides = [tt.BroadcastOp(n, r.type) for n, r in zip(narrow_op.results, op.results)]
        new_ops.extend(wides)
        rewriter.replace(op, new_ops, [w.result for w in wides])


# The same objects for every run (stateless), as the ops' patterns are: the greedy driver
# keeps its plans for them.
_MOVE_PATTERNS = (MoveBroadcastAfterElementwise(), MoveSplatAfterElementwise())


@register_pass
class ReorderBroadcast(Pass):
    """Move splats and broadcasts after elementwise ops so the arithmetic runs once."""

    name = "triton-reorder-broadcast"

    def apply(self, ctx: Context, op: Operation) -> None:
        patterns = [*canonicalization_patterns(tt.BroadcastOp),
                    *canonicalization_patterns(tt.ExpandDimsOp),
                    *_MOVE_PATTERNS]
        apply_patterns_greedily(ctx, op, patterns)
