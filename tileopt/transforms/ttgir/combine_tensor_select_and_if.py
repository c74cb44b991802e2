"""``tritongpu-combine-tensor-select-and-if``: fold a tensor ``arith.select`` into an
``scf.if`` on the same condition (Triton 3.6's ``CombineTensorSelectAndIf.cpp``).

``%v = arith.select %c, %a, %b`` next to ``scf.if %c`` in the same block becomes one more
result of the ``scf.if``, yielding ``%a`` in the then branch and ``%b`` in the else branch
(an else branch is created if there was none). Both values are then only materialised on
the path that needs them. This applies when the select comes first and the ``scf.if``
comes before every user of the select.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation
from xdsl.rewriter import Rewriter

from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.scf_rewrites import replace_if_with_new_signature
from tileopt.analysis.structured_dominance import dominates


def combinable_pairs(root: Operation) -> dict[scf.IfOp, list[Operation]]:
    """Each ``scf.if`` -> the selects (in program order) folded into it: a select goes to
    the first ``scf.if`` on its condition that it dominates and whose position or regions
    hold every user of the select."""
    candidates: list[tuple[Operation, scf.IfOp]] = []
    for op in root.walk():
        if op.name != "arith.select" or not isinstance(op.results[0].type, TensorType):
            continue
        condition = op.operands[0]
        for use in condition.uses:
            user = use.operation
            if isinstance(user, scf.IfOp) and user.parent_block() is op.parent_block():
                candidates.append((op, user))
    chosen: dict[Operation, scf.IfOp] = {}
    for select, if_op in candidates:
        if select in chosen or not dominates(select, if_op):
            continue
        if all(use.operation is not if_op
               and (dominates(if_op, use.operation) or if_op.is_ancestor(use.operation))
               for use in select.results[0].uses):
            chosen[select] = if_op
    grouped: dict[scf.IfOp, list[Operation]] = {}
    for select, if_op in chosen.items():
        grouped.setdefault(if_op, []).append(select)
    return grouped


def fold_selects_into_if(if_op: scf.IfOp, selects: list[Operation]) -> None:
    """One more result of ``if_op`` per select; a user of a select inside a branch takes
    that branch's value directly."""
    if not if_op.false_region.blocks:
        if_op.false_region.add_block(Block([scf.YieldOp()]))
    for select in selects:
        for region, value in ((if_op.true_region, select.operands[1]),
                              (if_op.false_region, select.operands[2])):
            select.results[0].replace_uses_with_if(
                value, lambda use, region=region: region.is_ancestor(use.operation))
    new_if = replace_if_with_new_signature(if_op, [s.results[0].type for s in selects])
    for region, index in ((new_if.true_region, 1), (new_if.false_region, 2)):
        terminator = region.block.last_op
        Rewriter.replace_op(terminator, scf.YieldOp(
            *terminator.operands, *(s.operands[index] for s in selects)))
    first_new = len(new_if.results) - len(selects)
    for i, select in enumerate(selects):
        select.results[0].replace_all_uses_with(new_if.results[first_new + i])
        Rewriter.erase_op(select)
    Rewriter.erase_op(if_op)


@register_pass
class CombineTensorSelectAndIf(Pass):
    """Fold tensor selects into scf.if ops on the same condition."""

    name = "tritongpu-combine-tensor-select-and-if"

    def apply(self, ctx: Context, op: Operation) -> None:
        for if_op, selects in combinable_pairs(op).items():
            fold_selects_into_if(if_op, selects)


