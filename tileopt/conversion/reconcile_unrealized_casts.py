"""``reconcile-unrealized-casts``: remove the casts a partial lowering leaves behind.

MLIR's pass (``mlir/lib/Conversion/ReconcileUnrealizedCasts``): a chain of
``builtin.unrealized_conversion_cast`` ops that ends in the types it started from is
the identity, so its users take the chain's inputs; casts nobody uses go away; a cast that
is still needed is an error (something was left unlowered). tileopt's own lowering
creates no casts, so on its output this pass has nothing to do; it serves LLVM-dialect
input from elsewhere and keeps Triton's pipeline spelled as Triton spells it.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from tileopt.ir.walks import ops_in_walk_order
from tileopt.passes import PassFailure, register_op_pass

CAST = "builtin.unrealized_conversion_cast"


def _source_of_same_types(op: Operation) -> list[SSAValue] | None:
    """Values upstream of ``op`` (through casts) with the types of ``op``'s results."""
    want = [r.type for r in op.results]
    values = list(op.operands)
    while True:
        if [v.type for v in values] == want:
            return values
        owners = {getattr(v, "op", None) for v in values}
        if len(owners) != 1:
            return None
        owner = owners.pop()
        if owner is None or owner.name != CAST or list(owner.results) != values:
            return None
        values = list(owner.operands)


def reconcile(root: Operation) -> None:
    casts = [op for op in ops_in_walk_order(root) if op.name == CAST]
    for op in casts:
        if op.parent is None:
            continue
        source = _source_of_same_types(op)
        if source is not None:
            for result, value in zip(op.results, source):
                result.replace_all_uses_with(value)
    changed = True
    while changed:
        changed = False
        for op in [op for op in ops_in_walk_order(root) if op.name == CAST]:
            if all(not r.uses for r in op.results):
                op.detach()
                op.erase()
                changed = True
    for op in ops_in_walk_order(root):
        if op.name == CAST:
            raise PassFailure(op, "failed to legalize unresolved materialization: a value "
                                  f"of type {op.operands[0].type} is still needed as "
                                  f"{op.results[0].type}")


ReconcileUnrealizedCasts = register_op_pass(
    "ReconcileUnrealizedCasts", "reconcile-unrealized-casts",
    "Simplify and remove unrealized conversion casts.", reconcile)
