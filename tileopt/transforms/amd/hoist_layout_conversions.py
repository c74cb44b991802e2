"""``tritonamdgpu-hoist-layout-conversions``: convert loop-invariant dot operands once,
before the loop (Triton 3.6's ``HoistLayoutConversions.cpp``).

A ``ttg.convert_layout`` to a ``#ttg.dot_op`` layout inside an ``scf.for`` whose source is
computed outside that loop is moved right after the source's producer. In fused attention
this keeps Q in registers in its dot-operand layout instead of re-converting (or
re-reading) it every iteration. Sources that are block arguments stay where they are, as
in Triton.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, OpResult
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.dialects.ttg import ConvertLayoutOp
from tileopt.dialects.ttg_attrs import DotOperandEncodingAttr
from tileopt.passes import Pass, register_pass


def _enclosing_loop(op: Operation) -> scf.ForOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, scf.ForOp):
        parent = parent.parent_op()
    return parent


def _inside(op: Operation, ancestor: Operation) -> bool:
    while op is not None:
        if op is ancestor:
            return True
        op = op.parent_op()
    return False


def hoist_dot_operand_conversion(convert: ConvertLayoutOp) -> bool:
    """Move ``convert`` after its source's producer when that is outside the innermost
    loop around ``convert``; whether it moved."""
    ty = convert.result.type
    if not (isinstance(ty, TensorType) and isinstance(ty.encoding, DotOperandEncodingAttr)):
        return False
    source = convert.src
    loop = _enclosing_loop(convert)
    if not isinstance(source, OpResult) or loop is None or _inside(source.owner, loop):
        return False
    convert.detach()
    Rewriter.insert_op(convert, InsertPoint.after(source.owner))
    return True


@register_pass
class AMDHoistLayoutConversions(Pass):
    """Hoist conversions of loop-invariant values to dot-operand layouts out of loops."""

    name = "tritonamdgpu-hoist-layout-conversions"
    # Triton nests it under tt.func (its reproducers say `tt.func(...)`); at module level,
    # as the YAML pipelines list it, it runs on every function.
    anchor = "tt.func"

    def apply(self, ctx: Context, op: Operation) -> None:
        for convert in [o for o in op.walk() if isinstance(o, ConvertLayoutOp)]:
            hoist_dot_operand_conversion(convert)
