"""``triton-loop-unroll``: unroll ``scf.for`` loops that carry ``tt.loop_unroll_factor``
(Triton's ``LoopUnroll.cpp``, on MLIR's ``loopUnrollByFactor``).

``tl.range(..., loop_unroll_factor=N)`` marks a loop; the body is repeated N times per
iteration of a loop whose step is N times larger. When the trip count is not known to be
a multiple of N, an epilogue loop (a copy of the original) runs the remaining iterations;
it gets ``tt.num_stages = 1`` so the pipeliner leaves it alone. A loop (main or epilogue)
left with exactly one iteration is replaced by its body. The attribute is removed.

With constant bounds the unrolled bound and step are constants; otherwise they are
computed in front of the loop exactly as MLIR does:
``trip = (ub - lb + step - 1) /u step``, ``ub' = lb + (trip - trip %s N) * step``,
``step' = step * N``. Copy ``i`` of the body sees the induction variable ``iv + step * i``.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.scf_rewrites import replace_with_block

UNROLL_FACTOR = "tt.loop_unroll_factor"
NUM_STAGES = "tt.num_stages"


def _constant_int(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def static_trip_count(loop: scf.ForOp) -> int | None:
    lb, ub, step = (_constant_int(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def _insert(op: Operation, point: InsertPoint) -> SSAValue:
    Rewriter.insert_op(op, point)
    return op.results[0]


def promote_if_single_iteration(loop: scf.ForOp) -> bool:
    """Replace a loop that runs exactly once by its body (MLIR's
    ``promoteIfSingleIteration``)."""
    if static_trip_count(loop) != 1:
        return False
    body = loop.body.block
    body.args[0].replace_all_uses_with(loop.lb)
    for arg, init in zip(body.args[1:], loop.iter_args, strict=True):
        arg.replace_all_uses_with(init)
    assert isinstance(body.last_op, scf.YieldOp)
    replace_with_block(loop, body)
    loop.detach()
    loop.erase()
    return True


def _unrolled_bounds(loop: scf.ForOp, factor: int) -> tuple[SSAValue, SSAValue, bool]:
    """The unrolled loop's upper bound and step, and whether an epilogue is needed."""
    before = InsertPoint.before(loop)
    ty = loop.step.type
    trip = static_trip_count(loop)
    if trip is not None:
        lb, ub, step = (_constant_int(v) for v in (loop.lb, loop.ub, loop.step))
        assert lb is not None and ub is not None and step is not None
        ub_unrolled = lb + (trip - trip % factor) * step
        needs_epilogue = ub_unrolled < ub
        upper = (_insert(arith.ConstantOp(IntegerAttr(ub_unrolled, ty)), before)
                 if needs_epilogue else loop.ub)
        new_step = (loop.step if step * factor == step
                    else _insert(arith.ConstantOp(IntegerAttr(step * factor, ty)), before))
        return upper, new_step, needs_epilogue
    diff = _insert(arith.SubiOp(loop.ub, loop.lb), before)
    one = _insert(arith.ConstantOp(IntegerAttr(1, ty)), before)
    step_minus_one = _insert(arith.SubiOp(loop.step, one), before)
    total = _insert(arith.AddiOp(diff, step_minus_one), before)
    trip_value = _insert(arith.DivUIOp(total, loop.step), before)
    factor_value = _insert(arith.ConstantOp(IntegerAttr(factor, ty)), before)
    remainder = _insert(arith.RemSIOp(trip_value, factor_value), before)
    even = _insert(arith.SubiOp(trip_value, remainder), before)
    span = _insert(arith.MuliOp(even, loop.step), before)
    upper = _insert(arith.AddiOp(loop.lb, span), before)
    new_step = _insert(arith.MuliOp(loop.step, factor_value), before)
    return upper, new_step, True


def unroll_by_factor(loop: scf.ForOp, factor: int) -> scf.ForOp | None:
    """Unroll ``loop`` in place; returns the epilogue loop if one remains."""
    body = loop.body.block
    if len(list(body.ops)) == 1:
        return None  # nothing but the yield
    if factor == 1:
        promote_if_single_iteration(loop)
        return None
    upper, new_step, needs_epilogue = _unrolled_bounds(loop, factor)
    old_step = loop.step
    epilogue: scf.ForOp | None = None
    if needs_epilogue:
        epilogue = loop.clone()
        Rewriter.insert_op(epilogue, InsertPoint.after(loop))
        for old, new in zip(loop.results, epilogue.results, strict=True):
            old.replace_all_uses_with(new)
        epilogue.operands = [upper, epilogue.ub, epilogue.step, *loop.results]
        if promote_if_single_iteration(epilogue):
            epilogue = None
    loop.operands = [loop.lb, upper, new_step, *loop.iter_args]

    terminator = body.last_op
    assert isinstance(terminator, scf.YieldOp)
    originals = [op for op in body.ops if op is not terminator]
    iv, iter_args = body.args[0], list(body.args[1:])
    last_yielded = list(terminator.operands)
    at_end = InsertPoint.before(terminator)
    for copy in range(1, factor):
        mapping: dict[SSAValue, SSAValue] = dict(zip(iter_args, last_yielded))
        if iv.uses:
            index = _insert(arith.ConstantOp(IntegerAttr(copy, iv.type)), at_end)
            stride = _insert(arith.MuliOp(old_step, index), at_end)
            mapping[iv] = _insert(arith.AddiOp(iv, stride), at_end)
        for op in originals:
            Rewriter.insert_op(op.clone(value_mapper=mapping), at_end)
        last_yielded = [mapping.get(v, v) for v in terminator.operands]
    terminator.operands = last_yielded
    promote_if_single_iteration(loop)
    return epilogue


@register_pass
class LoopUnroll(Pass):
    """Unroll scf.for loops by their tt.loop_unroll_factor attribute."""

    name = "triton-loop-unroll"

    def apply(self, ctx: Context, op: Operation) -> None:
        loops = [loop for loop in op.walk() if isinstance(loop, scf.ForOp)
                 and self._factor(loop) > 1]
        for loop in loops:
            factor = self._factor(loop)
            del loop.attributes[UNROLL_FACTOR]
            epilogue = unroll_by_factor(loop, factor)
            if epilogue is not None:
                epilogue.attributes[NUM_STAGES] = IntegerAttr(1, i32)

    @staticmethod
    def _factor(loop: Operation) -> int:
        attr = loop.attributes.get(UNROLL_FACTOR)
        if isinstance(attr, IntegerAttr) and isinstance(attr.type, IntegerType):
            return attr.value.data
        return 1
