"""Canonicalization patterns and folders of the Triton ``tt`` dialect.

Exactly the rewrites Triton 3.6 registers for its ops (``lib/Dialect/Triton/IR/Ops.cpp``
``getCanonicalizationPatterns``/``canonicalize``/``fold`` and ``Canonicalize.td``), so that
``canonicalize`` gives Triton's IR. Importing this module attaches them to the ``tt`` ops
(``tileopt.dialects.canonicalization``); ``make_context`` does, as MLIR registers a
dialect's patterns when the dialect is loaded.

patterns
  load(ptr, splat(true), ...)        -> load(ptr, ...)
  load(ptr, splat(false), other)     -> other
  store(ptr, v, splat(true))         -> store(ptr, v)
  store(ptr, v, splat(false))        -> (erased)
  broadcast(splat(x))                -> splat(x)
  broadcast(broadcast(x))            -> broadcast(x)
  expand_dims(splat(x))              -> splat(x)
  expand_dims(broadcast(x))          -> broadcast(expand_dims(x))   (with a layout, the new
                                        expand_dims's is the one the layout's dialect infers,
                                        ``infer_expand_dims_encoding``; none: no rewrite)
  reshape(reshape(x))                -> reshape(x)   (unless efficient_layout)
  reshape(splat(x))                  -> splat(x)     (unless efficient_layout)
  trans(trans(x))                    -> trans(x) with the composed order (a fold in Triton that
                                        rewrites the op in place; xDSL folds may not, so a pattern)
folders (``HasFolder``; constants are materialized as ``arith.constant``)
  splat(constant c)                  -> dense<c>
  make_range(s, s + 1)               -> dense<s>
  broadcast(x) of its own type       -> x;  broadcast(dense splat) -> dense splat
  expand_dims(dense)                 -> dense (reshaped)
  reshape(x) of its own type         -> x (unless allow_reorder);  reshape(dense) -> dense
  trans(x, identity order)           -> x (same type);  trans(dense splat) -> dense splat
  addptr(p, 0)                       -> p
  advance(p, [0, ...])               -> p
  fp_to_fp(x) of its own type        -> x;  fp_to_fp(+-0.0) -> +-0.0
(tt.bitcast has no folder in Triton 3.6: even one to its own type stays)
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from tileopt.dialects import tt
from tileopt.dialects.canonicalization import (
    FoldResult,
    add_canonicalization_patterns,
    add_folder,
)
from tileopt.dialects.tt_types import encoding_of


# ---------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------


def constant_value(value: SSAValue) -> Attribute | None:
    """The attribute of an ``arith.constant`` defining ``value``, else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp):
        return owner.value
    return None


def splat_value(attr: Attribute | None) -> int | float | None:
    """The single value of a splat dense constant (Triton's SplatElementsAttr), else None."""
    if isinstance(attr, DenseIntOrFPElementsAttr) and len(attr) > 0 and attr.is_splat():
        return first_element(attr)
    return None


def first_element(attr: DenseIntOrFPElementsAttr) -> int | float:
    """``attr.get_values()[0]`` without unpacking the other elements (a splat constant
    holds every element: 16,384 of them for a 128x128 accumulator)."""
    element = attr.get_element_type()
    return element.unpack(attr.data.data[:len(attr.data.data) // len(attr)], 1)[0]  # type: ignore[union-attr]


def dense_splat(ty: Attribute, value: int | float) -> DenseIntOrFPElementsAttr:
    assert isinstance(ty, TensorType)
    return DenseIntOrFPElementsAttr.from_list(ty, [value])  # type: ignore[arg-type]


def reshaped_dense(attr: Attribute | None, ty: Attribute) -> Attribute | None:
    """A dense constant given a new shape (Triton's foldViewLikeOp)."""
    if not isinstance(attr, DenseIntOrFPElementsAttr) or not isinstance(ty, TensorType):
        return None
    if (v := splat_value(attr)) is not None:
        return dense_splat(ty, v)
    return DenseIntOrFPElementsAttr.from_list(ty, list(attr.get_values()))  # type: ignore[arg-type]


def is_zero_constant(value: SSAValue) -> bool:
    """``0`` or ``dense<0>`` (Triton's m_Zero)."""
    attr = constant_value(value)
    if isinstance(attr, IntegerAttr):
        return attr.value.data == 0
    return splat_value(attr) == 0 and isinstance(attr, DenseIntOrFPElementsAttr)


# ---------------------------------------------------------------------------------------
# Folders
# ---------------------------------------------------------------------------------------


def fold_splat(op: tt.SplatOp) -> FoldResult:
    attr = constant_value(op.src)
    if isinstance(attr, (IntegerAttr, FloatAttr)):
        return [dense_splat(op.result.type, attr.value.data)]
    return None


def fold_make_range(op: tt.MakeRangeOp) -> FoldResult:
    start, end = op.start.value.data, op.end.value.data
    if start + 1 == end:
        return [dense_splat(op.result.type, start)]
    return None


def _splat_source(op: tt.BroadcastOp | tt.TransOp) -> FoldResult:
    """A splat constant source, as the same splat of the result type."""
    value = splat_value(constant_value(op.src))
    return None if value is None else [dense_splat(op.result.type, value)]


def fold_broadcast(op: tt.BroadcastOp) -> FoldResult:
    if op.result.type == op.src.type:
        return [op.src]
    return _splat_source(op)


def fold_expand_dims(op: tt.ExpandDimsOp) -> FoldResult:
    folded = reshaped_dense(constant_value(op.src), op.result.type)
    return [folded] if folded is not None else None


def fold_reshape(op: tt.ReshapeOp) -> FoldResult:
    if op.result.type == op.src.type and op.allow_reorder is None:
        return [op.src]
    folded = reshaped_dense(constant_value(op.src), op.result.type)
    return [folded] if folded is not None else None


def fold_trans(op: tt.TransOp) -> FoldResult:
    order = op.permutation
    if order == tuple(range(len(order))) and op.src.type == op.result.type:
        return [op.src]
    return _splat_source(op)


def fold_addptr(op: tt.AddPtrOp) -> FoldResult:
    if is_zero_constant(op.offset):
        return [op.ptr]
    return None


def fold_advance(op: tt.AdvanceOp) -> FoldResult:
    if all(is_zero_constant(offset) for offset in op.offsets):
        return [op.ptr]
    return None


def fold_fp_to_fp(op: tt.FpToFpOp) -> FoldResult:
    if op.src.type == op.result.type:
        return [op.src]
    attr = constant_value(op.src)
    zero = None
    if isinstance(attr, FloatAttr):
        zero = attr.value.data
    elif isinstance(attr, DenseIntOrFPElementsAttr):
        zero = splat_value(attr)
    if zero is None or zero != 0.0:
        return None
    # +0.0 and -0.0 convert exactly to every float type (copysign keeps the sign).
    ty = op.result.type
    if isinstance(ty, TensorType):
        return [dense_splat(ty, zero)]
    return [FloatAttr(zero, ty)]  # type: ignore[arg-type]




# ---------------------------------------------------------------------------------------
# Patterns
# ---------------------------------------------------------------------------------------


def _constant_mask(mask: SSAValue | None) -> bool | None:
    """True/False for a splat-constant tensor mask, None otherwise (scalars are left alone,
    as in Triton, which only matches SplatElementsAttr)."""
    if mask is None:
        return None
    value = splat_value(constant_value(mask))
    return None if value is None else bool(value)


class CanonicalizeMaskedLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.LoadOp, rewriter: PatternRewriter) -> None:
        mask = _constant_mask(op.mask)
        if mask is True:
            rewriter.replace(op, tt.LoadOp(op.ptr, cache=op.cache_modifier,
                                           evict=op.eviction_policy, is_volatile=op.is_volatile))
        elif mask is False and op.other is not None:
            # Without `other` the loaded value is undefined: Triton leaves it alone.
            rewriter.replace(op, [], [op.other])


class CanonicalizeMaskedStore(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.StoreOp, rewriter: PatternRewriter) -> None:
        mask = _constant_mask(op.mask)
        if mask is True:
            rewriter.replace(
                op, tt.StoreOp(op.ptr, op.value, cache=op.cache_modifier, evict=op.eviction_policy)
            )
        elif mask is False:
            rewriter.erase(op)


class BroadcastOfSplat(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.BroadcastOp, rewriter: PatternRewriter) -> None:
        if isinstance(splat := op.src.owner, tt.SplatOp):
            rewriter.replace(op, tt.SplatOp(splat.src, op.result.type))


class BroadcastOfBroadcast(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.BroadcastOp, rewriter: PatternRewriter) -> None:
        if isinstance(inner := op.src.owner, tt.BroadcastOp):
            rewriter.replace(op, tt.BroadcastOp(inner.src, op.result.type))


class ExpandDimsOfSplatOrBroadcast(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.ExpandDimsOp, rewriter: PatternRewriter) -> None:
        source = op.src.owner
        if isinstance(source, tt.SplatOp):
            rewriter.replace(op, tt.SplatOp(source.src, op.result.type))
            return
        if isinstance(source, tt.BroadcastOp):
            # expand_dims(broadcast(x)) -> broadcast(expand_dims(x)), so that
            # broadcast(expand_dims(broadcast)) collapses to broadcast(expand_dims).
            inner = source.src.type
            if not isinstance(inner, TensorType):
                return
            axis = op.axis.value.data
            shape = list(inner.get_shape())
            shape.insert(axis, 1)
            encoding = encoding_of(inner)
            new_type = TensorType(inner.element_type, shape)
            if encoding is not None:
                # the layout's dialect infers the new layout (MLIR's
                # DialectInferLayoutInterface); none inferred: no rewrite
                infer = getattr(encoding, "infer_expand_dims_encoding", None)
                layout = infer(axis) if infer is not None else None
                if layout is None:
                    return
                new_type = TensorType(inner.element_type, shape, layout)
            expand = tt.ExpandDimsOp(source.src, axis, new_type)
            broadcast = tt.BroadcastOp(expand.result, op.result.type)
            broadcast.location = source.location
            rewriter.replace(op, [expand, broadcast])


class ReshapeOfReshapeOrSplat(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.ReshapeOp, rewriter: PatternRewriter) -> None:
        if op.efficient_layout is not None:
            return
        source = op.src.owner
        if isinstance(source, tt.ReshapeOp):
            allow_reorder = op.allow_reorder is not None or source.allow_reorder is not None
            rewriter.replace(
                op, tt.ReshapeOp(source.src, op.result.type, allow_reorder=allow_reorder)
            )
        elif isinstance(source, tt.SplatOp):
            rewriter.replace(op, tt.SplatOp(source.src, op.result.type))


class TransOfTrans(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.TransOp, rewriter: PatternRewriter) -> None:
        if not isinstance(inner := op.src.owner, tt.TransOp):
            return
        # result[i] = src[outer[i]] = x[inner[outer[i]]]
        inner_order, outer_order = inner.permutation, op.permutation
        composed = [inner_order[i] for i in outer_order]
        new = tt.TransOp(inner.src, composed, op.result.type)
        new.attributes.update(op.attributes)
        rewriter.replace(op, new)


# These read their operand through ``constant_value`` and give up without an
# ``arith.constant`` there: the greedy driver (``transforms/utils/greedy_driver.py``) does
# not call them on ops none of whose operands a constant-like op defines.
for _folder in (fold_splat, fold_expand_dims, fold_addptr):
    _folder.needs_constant_operand = True  # type: ignore[attr-defined]

for _op, _folder in (
    (tt.SplatOp, fold_splat),
    (tt.MakeRangeOp, fold_make_range),
    (tt.BroadcastOp, fold_broadcast),
    (tt.ExpandDimsOp, fold_expand_dims),
    (tt.ReshapeOp, fold_reshape),
    (tt.TransOp, fold_trans),
    (tt.AddPtrOp, fold_addptr),
    (tt.AdvanceOp, fold_advance),
    (tt.FpToFpOp, fold_fp_to_fp),
):
    add_folder(_op, _folder)

add_canonicalization_patterns(tt.LoadOp, CanonicalizeMaskedLoad())
add_canonicalization_patterns(tt.StoreOp, CanonicalizeMaskedStore())
add_canonicalization_patterns(tt.BroadcastOp, BroadcastOfSplat(), BroadcastOfBroadcast())
add_canonicalization_patterns(tt.ExpandDimsOp, ExpandDimsOfSplatOrBroadcast())
add_canonicalization_patterns(tt.ReshapeOp, ReshapeOfReshapeOrSplat())
add_canonicalization_patterns(tt.TransOp, TransOfTrans())

__all__ = ["constant_value", "dense_splat", "first_element", "splat_value"]
