"""``tritonamdgpu-reorder-instructions``: move ops where the AMD backend schedules them best
(Triton's ``ReorderInstructions.cpp``). Only the order of ops changes.

Per function, in Triton's order:

1. A ``ttg.convert_layout`` to a dot-operand layout with a single user in another loop
   moves to just before that user (into the loop: the converted value is live for a
   shorter time, which lowers register pressure).
2. A ``ttg.convert_layout`` moves down past any ``ttg.local_dealloc`` that precedes its
   first user in the block (its scratch memory then need not coexist with the buffer).
3. Transpositions (``tt.trans``, ``ttg.memdesc_trans``) move to just after the op that
   defines their operand.
4. GEMM scheduling, for a function whose every loop holds exactly one ``tt.dot`` (or else
   for each innermost loop with one dot and at least two loads): every global load (in
   a whole function: those outside loops, which the pipeliner peeled into the prologue;
   in a loop: all of them) and every ``ttg.local_store`` is hoisted, with the ops of its
   block it depends on, to the earliest point of its block: just after the last op that
   defines its pointer, is or holds an atomic, a barrier or a loop, or else the
   top of the block. Stores fed by a load of the same iteration stay. In any other
   function, the loads the AMD pipeliner marked as its prologue's (``amd.pipeliner_part``)
   outside loops are hoisted the same way (Triton 3.6 does so for a function without any
   loop or dot too). Then in each such
   loop with exactly two 2-D loads of large tiles (A at least 128x64, B at least 128
   columns), the second load sinks to just before the dot when its first user comes
   after the dot, so that its global load interleaves with the MFMAs.

The GEMM scheduling follows Triton 3.6's output on the corpus matmuls op for op; where
its source (which changed often) and its output disagree, the output won: the op that
defines the pointer bounds the hoist, and loop-body loads of a whole-function schedule
stay in the pipeliner's order.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue

from tileopt.dialects import tt
from tileopt.dialects.ttg_attrs import DotOperandEncodingAttr
from tileopt.analysis.structured_dominance import ancestor_in_block
from tileopt.passes import Pass, register_pass
from tileopt.transforms.amd.pipeliner.pipeline import PIPELINER_PART
from tileopt.transforms.utils.op_motion import (
    enclosing_for,
    move_after,
    move_before,
    sink_converts_below_deallocs,
    sink_into_user_loops,
    users_of,
)

TRANSPOSES = ("tt.trans", "ttg.memdesc_trans")
SCHEDULE_BARRIERS = ("tt.atomic_rmw", "tt.atomic_cas", "gpu.barrier", "scf.for", "scf.while")


def _is_dot_operand(ty) -> bool:
    return isinstance(ty, TensorType) and isinstance(ty.encoding, DotOperandEncodingAttr)


def sink_dot_conversions(func: Operation) -> None:
    sink_into_user_loops(func, lambda op: op.name == "ttg.convert_layout"
                         and _is_dot_operand(op.results[0].type))


def move_up_transposes(func: Operation) -> None:
    for op in [o for o in func.walk() if o.name in TRANSPOSES]:
        source = op.operands[0].owner
        if isinstance(source, Operation):
            move_after(op, source)


def backward_slice(op: Operation, block: Block) -> tuple[list[Operation], bool]:
    """The ops of ``block`` ``op`` depends on, defs first (MLIR's getBackwardSlice with
    block arguments omitted and uses from above included), then ``op``; and whether a
    ``tt.load`` lies on the way."""
    found: list[Operation] = []
    seen: set[int] = {id(op)}
    leads_to_load = False

    def keep(defining: Operation) -> bool:
        nonlocal leads_to_load
        if ancestor_in_block(defining, block) is None:
            return False
        leads_to_load |= isinstance(defining, tt.LoadOp)
        return defining.parent_block() is block

    def visit(current: Operation) -> None:
        if not keep(current):
            return

        def process(value: SSAValue) -> None:
            defining = value.owner
            if isinstance(defining, Operation) and id(defining) not in seen:
                seen.add(id(defining))
                visit(defining)

        for region in current.regions:
            for inner in region.walk():
                for operand in inner.operands:
                    if not current.is_ancestor(operand.owner if isinstance(
                            operand.owner, Operation) else operand.owner.parent_op()):
                        process(operand)
        for operand in current.operands:
            process(operand)
        found.append(current)

    visit(op)
    found.remove(op)
    found.append(op)
    return found, leads_to_load


def earliest_insertion_point(block: Block, move: Operation) -> Operation | None:
    """The last op before ``move`` that defines its pointer, or is or holds an atomic, a
    barrier or a loop; None if there is none (then: the top of the block).

    Counting the op that defines the pointer is what Triton 3.6's output shows (the
    pointer computation of a pipelined load stays where it is and the load's mask
    computation gathers right after it, above unrelated ops); an op that only uses the
    pointer does not hold the load back (Triton's `keep_double_loads_order`)."""
    source = move.ptr if isinstance(move, tt.LoadOp) else None
    point = None
    for op in block.ops:
        if op is move:
            break
        for inner in op.walk():
            if source is not None and source in inner.results:
                point = op
            if inner.name in SCHEDULE_BARRIERS:
                point = op
    return point


def schedule_global_loads_and_local_stores(parent: Operation) -> None:
    moves: list[Operation] = []
    if isinstance(parent, scf.ForOp):
        values: list[SSAValue] = list(parent.iter_args)
        while values:
            following: list[SSAValue] = []
            for value in values:
                if isinstance(value.owner, tt.LoadOp):
                    moves.append(value.owner)
                    continue
                for use in value.uses:
                    if use.operation.name == "ttg.local_store":
                        following.append(use.operation.operands[0])
            values = following
    moves += [op for op in parent.walk() if op.name == "ttg.local_store"]
    # Loads in loop bodies keep the order the pipeliner gave them (Triton 3.6's output
    # moves only the loads peeled in front of the loop).
    moves += [op for op in parent.walk() if isinstance(op, tt.LoadOp)
              and (not isinstance(parent, tt.FuncOp) or enclosing_for(op) is None)]
    hoist_to_earliest_points(moves)


def hoist_to_earliest_points(moves: list[Operation]) -> None:
    """Move each op (last first), with the ops of its block it depends on, up to its
    earliest insertion point; a local_store fed by a load stays."""
    for op in reversed(moves):
        block = op.parent_block()
        assert block is not None
        dfg, leads_to_load = backward_slice(op, block)
        if op.name == "ttg.local_store" and leads_to_load:
            continue
        point = earliest_insertion_point(block, op)
        if point is not None:
            order = {id(o): i for i, o in enumerate(block.ops)}
            dfg = [o for o in dfg if order[id(o)] > order[id(point)]]
            for moving in reversed(dfg):
                move_after(moving, point)
        else:
            for moving in reversed(dfg):
                first = block.first_op
                assert first is not None
                if moving is not first:
                    move_before(moving, first)


def prologue_loads(func: Operation) -> list[Operation]:
    """The loads the AMD pipeliner peeled in front of a loop (marked by it), outside loops."""
    return [op for op in func.walk() if isinstance(op, tt.LoadOp)
            and PIPELINER_PART in op.attributes and enclosing_for(op) is None]


def sink_second_load(loop: scf.ForOp) -> None:
    loads = [op for op in loop.body.block.ops if isinstance(op, tt.LoadOp)]
    dots = [op for op in loop.body.block.ops if isinstance(op, tt.DotOp)]
    if len(loads) != 2 or not dots:
        return
    dot = dots[-1]
    a_type, b_type = loads[0].result.type, loads[1].result.type
    if not (isinstance(a_type, TensorType) and isinstance(b_type, TensorType)):
        return
    a_shape, b_shape = a_type.get_shape(), b_type.get_shape()
    if len(a_shape) != 2 or len(b_shape) != 2:
        return
    if not (a_shape[0] >= 128 and a_shape[1] >= 64 and b_shape[1] >= 128):
        return
    second = loads[1]
    users = users_of(second)
    if not users:
        return
    order = {id(o): i for i, o in enumerate(loop.body.block.ops)}
    first_user = ancestor_in_block(users[0], loop.body.block)
    if first_user is None:
        return
    if order[id(second)] < order[id(dot)] < order[id(first_user)]:
        move_before(second, dot)


def _loops(func: Operation) -> list[scf.ForOp]:
    return [op for op in func.walk() if isinstance(op, scf.ForOp)]


def _dots(op: Operation) -> int:
    return sum(1 for inner in op.walk() if isinstance(inner, tt.DotOp))


def is_pure_matmul_function(func: Operation) -> bool:
    loops = _loops(func)
    return bool(loops) and all(_dots(loop) == 1 for loop in loops)


def is_pure_matmul_loop(loop: scf.ForOp) -> bool:
    loads = sum(1 for inner in loop.walk() if isinstance(inner, tt.LoadOp))
    return _dots(loop) == 1 and loads >= 2


def leaf_loops(func: Operation) -> list[scf.ForOp]:
    return [loop for loop in _loops(func)
            if not any(isinstance(inner, scf.ForOp) for inner in loop.walk() if inner is not loop)]


@register_pass
class ReorderInstructions(Pass):
    """Reorder ops for AMD GPUs: conversions, transposes and matmul loads/stores."""

    name = "tritonamdgpu-reorder-instructions"

    def apply(self, ctx: Context, op: Operation) -> None:
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            sink_dot_conversions(func)
            sink_converts_below_deallocs(func)
            move_up_transposes(func)
            if is_pure_matmul_function(func):
                schedule_global_loads_and_local_stores(func)
                for loop in _loops(func):
                    sink_second_load(loop)
            else:
                for loop in leaf_loops(func):
                    if is_pure_matmul_loop(loop):
                        schedule_global_loads_and_local_stores(loop)
                        sink_second_load(loop)
                hoist_to_earliest_points(prologue_loads(func))
