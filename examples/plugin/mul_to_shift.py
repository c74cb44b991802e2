"""An example tileopt pass plugin: strength-reduce integer multiplies by powers of two.

``x * 2**k`` (``arith.muli`` with a constant power-of-two operand, scalar or splat tensor)
becomes ``x << k`` (``arith.shli``). Load it with ``--load-pass-plugin=`` this file, or name
it under ``plugins:`` in a pipeline YAML (see ../pipelines/custom.yaml); then
``--example-mul-to-shift`` is a flag and ``example-mul-to-shift`` a pipeline pass.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr
from xdsl.ir import Operation, SSAValue

from tileopt.passes import Pass, option, register_pass
from tileopt.passes.diagnostics import emit_remark


def _power_of_two(value: SSAValue) -> int | None:
    """k if ``value`` is an arith.constant equal to 2**k (k >= 1), else None."""
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp):
        return None
    attr = owner.value
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = set(attr.get_values())
        if len(values) != 1:
            return None
        number = values.pop()
    elif isinstance(attr, IntegerAttr):
        number = attr.value.data
    else:
        return None
    if not isinstance(number, int) or number < 2 or number & (number - 1):
        return None
    return number.bit_length() - 1


def _shift_amount(like: SSAValue, k: int) -> arith.ConstantOp:
    kind = like.type
    if isinstance(like.owner, arith.ConstantOp) and isinstance(like.owner.value,
                                                               DenseIntOrFPElementsAttr):
        return arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(kind, [k]), kind)
    return arith.ConstantOp(IntegerAttr(k, kind), kind)


@register_pass
class MulToShift(Pass):
    """Rewrite integer multiplies by a power of two into left shifts."""

    name = "example-mul-to-shift"
    anchor = None
    emit_remarks: bool = option(False, "emit a remark for every multiply rewritten")

    def apply(self, ctx: Context, op: Operation) -> None:
        for mul in [o for o in op.walk() if isinstance(o, arith.MuliOp)]:
            for value, other in ((mul.rhs, mul.lhs), (mul.lhs, mul.rhs)):
                k = _power_of_two(value)
                if k is None:
                    continue
                amount = _shift_amount(value, k)
                shift = arith.ShLIOp(other, amount.result)
                shift.location = amount.location = mul.location
                block = mul.parent_block()
                block.insert_ops_before([amount, shift], mul)
                shift.result.name_hint = mul.result.name_hint
                if self.emit_remarks:
                    emit_remark(mul, f"multiply by {2 ** k} rewritten as a shift by {k}")
                mul.result.replace_all_uses_with(shift.result)
                block.erase_op(mul)
                break
