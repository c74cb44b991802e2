"""``tritonamdgpu-fold-true-cmpi``: comparisons that integer ranges prove always true become
``true`` constants (Triton's ``FoldTrueCmpIOp.cpp``).

Masks such as ``offs < n`` are often provably all-true once the ranges of ``offs`` (from
``make_range``, program ids, ``tl.assume``) and ``n`` are known; replacing them by a
constant lets canonicalize drop the mask from loads and stores (and buffer ops skip the
bounds check). Only comparisons known to be *true* are folded, as in Triton. Unsigned
predicates are decided only when both sides are known to be non-negative (then signed and
unsigned order agree). Only scalar comparisons fold: Triton 3.6 checks that the result
type is an integer (not a tensor of them), which is what its pipeline output shows (the
prologue masks of a pipelined block-pointer loop stay comparisons there). Triton 3.9 folds
tensor comparisons too (the ``offs >= 0`` masks of a rewritten descriptor load).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from tileopt.dialects.triton_version import is_version_39
from tileopt.dialects.tt_canonicalize import dense_splat
from tileopt.passes import Pass, register_pass
from tileopt.analysis.integer_ranges import IntegerRanges, Range
from tileopt.transforms.utils.greedy_rewrite import apply_patterns_greedily

PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def always_true(predicate: str, a: Range, b: Range) -> bool:
    """Whether ``a <predicate> b`` holds for every pair of values in the two ranges."""
    if predicate.startswith("u"):
        if not (a.non_negative and b.non_negative):
            return False
        predicate = "s" + predicate[1:]
    if predicate == "eq":
        return a.lo == a.hi == b.lo == b.hi
    if predicate == "ne":
        return a.hi < b.lo or b.hi < a.lo
    if predicate == "slt":
        return a.hi < b.lo
    if predicate == "sle":
        return a.hi <= b.lo
    if predicate == "sgt":
        return a.lo > b.hi
    if predicate == "sge":
        return a.lo >= b.hi
    return False


class FoldTrueCmpI(RewritePattern):
    def __init__(self, ranges: IntegerRanges):
        self.ranges = ranges

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "arith.cmpi" or not op.results[0].uses:
            return
        if isinstance(op.results[0].type, TensorType) and not is_version_39(op):
            return
        a, b = (self.ranges.of(v) for v in op.operands)
        if a is None or b is None:
            return
        predicate = PREDICATES[op.properties["predicate"].value.data]  # type: ignore[union-attr]
        if not always_true(predicate, a, b):
            return
        ty = op.results[0].type
        value = dense_splat(ty, 1) if isinstance(ty, TensorType) else IntegerAttr(1, ty)
        rewriter.replace(op, arith.ConstantOp(value, ty))  # type: ignore[arg-type]


@register_pass
class FoldTrueCmpIPass(Pass):
    """Replace integer comparisons that ranges prove always true by true constants."""

    name = "tritonamdgpu-fold-true-cmpi"

    def apply(self, ctx: Context, op: Operation) -> None:
        apply_patterns_greedily(ctx, op, [FoldTrueCmpI(IntegerRanges(op))])
