"""``loop-invariant-code-motion``: hoist invariant, side-effect-free ops out of loops
(MLIR's pass of that name, which Triton's RUN lines also use).

Only ops that have no memory effect at all (looking inside their regions; unknown effects
count as effects) and are speculatable move: a ``tt.load``, ``tt.store``, atomic or call
stays in its loop, and so does an ``arith.divsi`` that could trap.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation

from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.loop_hoisting import (is_pure_and_speculatable,
                                                     move_loop_invariant_code)


@register_pass
class LoopInvariantCodeMotion(Pass):
    """Hoist loop-invariant, side-effect-free ops out of scf.for / scf.while loops."""

    name = "loop-invariant-code-motion"
    anchor = None

    def apply(self, ctx: Context, op: Operation) -> None:
        move_loop_invariant_code(op, lambda inner, loop: is_pure_and_speculatable(inner))
