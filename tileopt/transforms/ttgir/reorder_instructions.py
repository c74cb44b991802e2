"""``tritongpu-reorder-instructions``: move ops to where they cost fewer registers (Triton
3.6's ``ReorderInstructions.cpp``). Nothing is added or removed; only positions change:

- a ``ttg.convert_layout`` sinks below the ``ttg.local_dealloc`` ops that come before its
  first use, so the shared memory it may need is free again;
- a ``ttg.local_load``, or a conversion to a dot operand, whose single user is in another
  loop, moves right before that user (its result stays live for a shorter time);
- a ``ttg.local_alloc`` of a tensor moves right after the op computing the tensor
  (unless that is a constant or a splat: no reason to hold shared memory early);
- a ``tt.trans`` moves right after the op computing its operand;
- the ``local_load`` of a dot's B operand moves after the one of its A operand when no
  write lies in between, so the A conversion is issued first.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation, OpResult
from xdsl.traits import MemoryEffectKind, get_effects

from tileopt.dialects.ttg_attrs import DotOperandEncodingAttr
from tileopt.passes import Pass, register_pass
from tileopt.analysis.structured_dominance import (
    ancestor_in_block,
    properly_dominates,
)
from tileopt.transforms.utils.op_motion import (
    move_after,
    sink_converts_below_deallocs,
    sink_into_user_loops,
    users_of,
)
from tileopt.transforms.utils.tensor_layouts import encoding


def increases_register_pressure(op: Operation) -> bool:
    """Loading from shared memory, or converting to a dot operand, makes a value that holds
    many registers."""
    if op.name == "ttg.local_load":
        return True
    return op.name == "ttg.convert_layout" and isinstance(
        encoding(op.results[0]), DotOperandEncodingAttr)


def _writes(op: Operation) -> bool:
    """Has an effect other than reading, allocating or freeing (or unknown effects)."""
    effects = get_effects(op)
    if effects is None:
        return False
    return any(e.kind not in (MemoryEffectKind.READ, MemoryEffectKind.ALLOC,
                              MemoryEffectKind.FREE) for e in effects)


def crosses_write(start: Operation, end: Operation) -> bool:
    """Some op between ``start`` and ``end`` (which ``start`` dominates) may write."""
    ancestor = ancestor_in_block(end, start.parent_block())
    if ancestor is None:
        return True
    current = start.next_op
    while current is not None:
        if _writes(current):
            return True
        if current is ancestor:
            return False
        current = current.next_op
    return True


def sink_into_loops(root: Operation) -> None:
    sink_into_user_loops(root, increases_register_pressure)


def hoist_allocs_to_sources(root: Operation) -> None:
    for op in [o for o in root.walk() if o.name == "ttg.local_alloc"]:
        if not op.operands:
            continue
        source = op.operands[0]
        if not isinstance(source, OpResult):
            continue
        if source.op.name in ("arith.constant", "tt.splat"):
            continue
        move_after(op, source.op)


def hoist_transposes_to_sources(root: Operation) -> None:
    for op in [o for o in root.walk() if o.name in ("tt.trans", "ttg.memdesc_trans")]:
        source = op.operands[0]
        if isinstance(source, OpResult):
            move_after(op, source.op)


def order_dot_operand_loads(root: Operation) -> None:
    for op in [o for o in root.walk() if o.name == "ttg.local_load"]:
        layout = encoding(op.results[0])
        if not isinstance(layout, DotOperandEncodingAttr) or layout.opIdx.data != 1:
            continue
        users = users_of(op)
        if len(users) != 1 or users[0].name != "tt.dot":
            continue
        a = users[0].operands[0]
        if not isinstance(a, OpResult) or a.op.name != "ttg.local_load":
            continue
        a_load = a.op
        if not properly_dominates(op.results[0], a_load):
            continue
        if crosses_write(op, a_load):
            continue
        move_after(op, a_load)


@register_pass
class ReorderInstructions(Pass):
    """Move conversions, shared-memory loads/allocs and transposes to where they keep
    fewer values alive."""

    name = "tritongpu-reorder-instructions"

    def apply(self, ctx: Context, op: Operation) -> None:
        sink_converts_below_deallocs(op)
        sink_into_loops(op)
        hoist_allocs_to_sources(op)
        hoist_transposes_to_sources(op)
        order_dot_operand_loads(op)
