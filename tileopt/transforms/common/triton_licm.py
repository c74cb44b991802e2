"""``triton-licm``: loop-invariant code motion that may also hoist ``tt.load``
(Triton's ``TritonLoopInvariantCodeMotion``).

Side-effect-free, speculatable ops move as in ``loop-invariant-code-motion``. A ``tt.load``
whose operands are all loop invariant moves out of an ``scf.for`` only when nothing in the
loop writes memory (every effect in the loop is a read, none unknown): it then reads the
same values on every iteration. Because the loop may run zero times, the hoisted load is
guarded with the loop's entry condition: its mask becomes ``mask & (lb < ub)`` (splatted to
the pointer's shape). Volatile loads (which count as writes), loads through block pointers
and loads in ``scf.while`` loops stay where they are, as in Triton.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.dialects.arith import CmpiOp
from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.loop_hoisting import (is_pure_and_speculatable,
                                                     move_loop_invariant_code, only_reads)

_SEGMENTS = "operandSegmentSizes"


def _is_hoistable_load(op: Operation, loop: Operation, read_only: dict[int, bool]) -> bool:
    if op.name != "tt.load" or loop.name != "scf.for" or not only_reads(op):
        return False
    if not isinstance(op.operands[0].type, TensorType):
        return False  # scalar or block pointer: left alone
    if id(loop) not in read_only:
        read_only[id(loop)] = only_reads(loop)
    return read_only[id(loop)]


def _guard_load(load: Operation, loop: Operation) -> Operation:
    """Replace ``load`` (still in the loop) by one masked with the loop's entry condition."""
    from tileopt.dialects.tt import LoadOp, SplatOp

    lower, upper = loop.operands[0], loop.operands[1]
    at_loop = InsertPoint.before(loop)
    entered = CmpiOp(lower, upper, "slt")
    entered.location = loop.location
    Rewriter.insert_op(entered, at_loop)
    ptr_type = load.operands[0].type
    mask_type = TensorType(i1, ptr_type.get_shape(), ptr_type.encoding)
    guard = SplatOp(entered.result, mask_type)
    guard.location = loop.location
    Rewriter.insert_op(guard, at_loop)
    mask, other = load.mask, load.other
    if mask is not None:
        combined = arith.AndIOp(mask, guard.result)
        combined.location = loop.location
        Rewriter.insert_op(combined, at_loop)
        new_mask = combined.result
    else:
        new_mask = guard.result
    new_load = LoadOp(load.ptr, new_mask, other)
    for key, value in load.properties.items():
        if key != _SEGMENTS:
            new_load.properties[key] = value
    new_load.attributes.update(load.attributes)
    new_load.location = load.location
    Rewriter.replace_op(load, new_load)
    return new_load


@register_pass
class TritonLICM(Pass):
    """Hoist loop-invariant ops, and loads from loops that do not write memory."""

    name = "triton-licm"
    anchor = None

    def apply(self, ctx: Context, op: Operation) -> None:
        read_only: dict[int, bool] = {}
        pending: list[tuple[Operation, Operation]] = []
        guarded: set[Operation] = set()

        def should_move(inner: Operation, loop: Operation) -> bool:
            if inner.name == "tt.load":
                if inner in guarded:
                    guarded.discard(inner)
                    return True
                if _is_hoistable_load(inner, loop, read_only):
                    pending.append((inner, loop))
                return False  # moved on the next round, once rebuilt with its guard
            return is_pure_and_speculatable(inner)

        # Pure ops first (they may be what a load's operands need), then the loads, then
        # again for what depended on the loads.
        move_loop_invariant_code(op, should_move)
        while pending:
            for load, loop in pending:
                if load.parent is not None:
                    guarded.add(_guard_load(load, loop))
            pending.clear()
            read_only.clear()
            move_loop_invariant_code(op, should_move)
