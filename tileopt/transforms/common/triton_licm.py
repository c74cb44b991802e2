"""``triton-licm``: loop-invariant code motion that may also hoist ``tt.load``
(Triton's ``TritonLoopInvariantCodeMotion``).

Side-effect-free, speculatable ops move as in ``loop-invariant-code-motion``. A ``tt.load``
whose operands are all loop invariant moves out of an ``scf.for`` only when it and the
whole loop only read memory (every effect a read, none unknown; the loop is judged once,
before anything leaves it): it then reads the same values on every iteration. Because the
loop may run zero times, the hoisted load is guarded with the loop's entry condition, built
right before the loop as the load leaves it: ``lb < ub``, splatted to the pointer's shape,
and-ed with the load's own mask (``andi(guard, mask)``); a scalar load takes the condition
itself. Volatile loads (which count as writes), loads through block pointers and loads in
``scf.while`` loops stay where they are, as in Triton. Loops are visited innermost first,
and each loop's ops in MLIR's worklist order, so the guards and loads come out in
Triton's order (each load right after its own guard).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from tileopt.dialects.arith import CmpiOp
from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.builder import OpBuilder
from tileopt.transforms.utils.loop_hoisting import (is_pure_and_speculatable,
                                                     move_loop_invariant_code, only_reads)

_SEGMENTS = "operandSegmentSizes"


def _guarded_mask(load: Operation, loop: Operation) -> SSAValue:
    """The load's mask and-ed with ``lb < ub``, built before ``loop`` at its location
    (Triton's ``getPredMask``)."""
    from tileopt.dialects.tt import SplatOp

    build = OpBuilder(loop)
    mask = build.add(CmpiOp(loop.operands[0], loop.operands[1], "slt"))
    ptr_type = load.operands[0].type
    if isinstance(ptr_type, TensorType):
        mask = build.add(SplatOp(mask, TensorType(i1, ptr_type.get_shape(),
                                                  ptr_type.encoding)))
    if load.mask is not None:
        mask = build.add(arith.AndIOp(mask, load.mask))
    return mask


def _with_guard(load: Operation, loop: Operation) -> Operation:
    """``load`` (still in the loop) replaced by one whose mask carries the loop's guard."""
    from tileopt.dialects.tt import LoadOp

    new_load = LoadOp(load.ptr, _guarded_mask(load, loop), load.other)
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
        read_only: dict[Operation, bool] = {}

        def should_move(inner: Operation, loop: Operation) -> bool:
            if inner.name != "tt.load":
                return is_pure_and_speculatable(inner)
            if loop.name != "scf.for" or not only_reads(inner):
                return False
            if getattr(inner.operands[0].type, "is_block_pointer", False):
                return False
            if loop not in read_only:
                read_only[loop] = only_reads(loop)
            return read_only[loop]

        def before_move(inner: Operation, loop: Operation) -> Operation:
            return _with_guard(inner, loop) if inner.name == "tt.load" else inner

        move_loop_invariant_code(op, should_move, before_move)
