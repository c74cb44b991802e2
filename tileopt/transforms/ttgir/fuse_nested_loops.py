"""``tritongpu-fuse-nested-loops``: flatten a loop nest into one loop (Triton 3.6's
``FuseNestedLoops.cpp``), so the software pipeliner sees a single loop with a dot.

Which nests: an outer ``scf.for`` holding exactly one inner ``scf.for`` that contains a dot
(the persistent-matmul shape), or any nest whose outer loop carries ``ttg.always-fuse``.
For the first kind, pure ops computed before the inner loop but only used after it are
first sunk below it, and the inner loop is marked ``ttg.must-execute`` (its body then runs
unconditionally in the fused loop).

How (one level, applied leaf to root)::

    for i in range(lbi, ubi, si):            T = -1; i = lbi - si
      prologue(i)                             for _ in range(len_i * inner_len):
      for j in range(lbj, ubj, sj):             T = 0 if T == inner_len - 1 else T + 1
        body(i, j)                      ==>     if T == 0: i += si; prologue(i); j = lbj
      epilogue(i)                               if 0 <= T < len_j: body(i, j); j += sj
                                                if T == inner_len - 1: epilogue(i)

with ``inner_len = max(1, len_j)`` (several inner loops overlap their first and last
iterations with the logues between them). Values crossing the new ``scf.if`` ops become
loop-carried, initialised with zero (numbers, tensors of numbers) or ``ub.poison``. Only
inner loops whose bounds are (or can be hoisted to be) invariant in the outer loop are
fused. Inner-loop initial values defined outside the nest are set once before the fused
loop and reset by the epilogue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith as xarith
from xdsl.dialects import scf, ub
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnitAttr,
    i1,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.utils.hints import isa

from tileopt.dialects import arith as tarith
from tileopt.passes import Pass, register_pass
from tileopt.analysis.structured_dominance import (
    ancestor_in_block,
    dominates,
    is_before_in_block,
    properly_dominates,
)

MUST_EXECUTE = "ttg.must-execute"
ALWAYS_FUSE = "ttg.always-fuse"
_DOT_LIKE = frozenset({"tt.dot", "tt.dot_scaled", "ttng.warp_group_dot", "ttng.tc_gen5_mma",
                       "ttng.tc_gen5_mma_scaled"})


# ---------------------------------------------------------------------------- loop nests


@dataclass(eq=False)
class LoopNestNode:
    loop: scf.ForOp
    children: list[LoopNestNode] = field(default_factory=list)


@dataclass(eq=False)
class LoopNest:
    root: LoopNestNode
    nodes: list[LoopNestNode] = field(default_factory=list)


def _construct_nest(parent: LoopNestNode, nest: LoopNest, nests: list[LoopNest]) -> None:
    for region in parent.loop.regions:
        for block in region.blocks:
            for op in list(block.ops):
                if isinstance(op, scf.ForOp):
                    child = LoopNestNode(op)
                    nest.nodes.append(child)
                    parent.children.append(child)
                    _construct_nest(child, nest, nests)
                elif op.regions:
                    # another region op (scf.if, scf.while...) starts nests of its own
                    find_loop_nests(op, nests)


def find_loop_nests(container: Operation, nests: list[LoopNest]) -> None:
    """Every loop nest under ``container``: trees of directly nested ``scf.for``."""
    for region in container.regions:
        for block in region.blocks:
            for op in list(block.ops):
                if isinstance(op, scf.ForOp):
                    root = LoopNestNode(op)
                    nest = LoopNest(root, [root])
                    _construct_nest(root, nest, nests)
                    nests.append(nest)
                else:
                    find_loop_nests(op, nests)


# ------------------------------------------------------------------------------- helpers


class _Builder:
    """Insert ops one after another at an insertion point."""

    def __init__(self, point: InsertPoint):
        self.point = point

    def add(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        self.point = InsertPoint.after(op)
        return op

    def value(self, op: Operation) -> SSAValue:
        return self.add(op).results[0]

    def const(self, value: int, ty: Attribute) -> SSAValue:
        return self.value(xarith.ConstantOp(IntegerAttr(value, ty)))


def _is_number(ty: Attribute) -> bool:
    """An integer, index or float type (MLIR's ``isIntOrIndexOrFloat``)."""
    return isinstance(ty, (IntegerType, IndexType)) or isa(ty, AnyFloat)


def _can_hoist_bound_computation(op: Operation) -> bool:
    return (is_side_effect_free(op) and not op.regions
            and all(_is_number(t) for t in op.operand_types)
            and all(_is_number(t) for t in op.result_types))


def is_outer_loop_invariant(outer: scf.ForOp, values: Sequence[SSAValue],
                            to_hoist: dict[Operation, None]) -> bool:
    """``values`` are defined before ``outer`` or computed by pure scalar ops that can be
    hoisted before it (added to ``to_hoist`` only if all of them can)."""
    visited: dict[Operation, None] = {}
    queue = list(values)
    while queue:
        value = queue.pop(0)
        if properly_dominates(value, outer):
            continue
        if isinstance(value, BlockArgument):
            return False
        op = value.op
        if op in visited:
            continue
        if not _can_hoist_bound_computation(op):
            return False
        visited[op] = None
        queue.extend(op.operands)
    to_hoist.update(visited)
    return True


def _int_width(ty: Attribute) -> int:
    return 64 if isinstance(ty, IndexType) else ty.width.data  # type: ignore[union-attr]


def _num_iters(b: _Builder, loop: scf.ForOp) -> SSAValue:
    """``ceildiv(ub - lb, step)``: the trip count (also right for negative steps)."""
    diff = b.value(xarith.SubiOp(loop.ub, loop.lb))
    return b.value(xarith.CeilDivSIOp(diff, loop.step))


def _cast_int(b: _Builder, value: SSAValue, ty: Attribute) -> SSAValue:
    if value.type == ty:
        return value
    if isinstance(value.type, IndexType) or isinstance(ty, IndexType):
        return b.value(tarith.IndexCastOp(value, ty))
    if _int_width(value.type) > _int_width(ty):
        return b.value(tarith.TruncIOp(value, ty))
    return b.value(tarith.ExtSIOp(value, ty))


def _poison_or_zero(b: _Builder, ty: Attribute) -> SSAValue:
    element = ty.element_type if isinstance(ty, TensorType) else ty
    if not _is_number(element):
        return b.value(ub.PoisonOp(ty))
    is_float = isa(element, AnyFloat)
    if isinstance(ty, TensorType):
        attr = DenseIntOrFPElementsAttr.from_list(ty, [0.0 if is_float else 0])
    elif is_float:
        attr = FloatAttr(0.0, element)
    else:
        attr = IntegerAttr(0, element)
    return b.value(xarith.ConstantOp(attr, ty))


@dataclass
class Logue:
    """A prologue or epilogue: consecutive ops of the outer body, and the results of them
    that later ops use."""

    ops: list[Operation]
    outputs: list[SSAValue]

    def move_to_end(self, block: Block) -> None:
        for op in self.ops:
            op.detach()
            block.add_op(op)

    def replace_uses_outside(self, values: Sequence[SSAValue], region: Region) -> None:
        for new, old in zip(values, self.outputs):
            old.replace_uses_with_if(new, lambda use: not region.is_ancestor(use.operation))


def make_logue(ops: list[Operation]) -> Logue:
    if not ops:
        return Logue([], [])
    last = ops[-1]
    outputs: list[SSAValue] = []
    for op in ops:
        for result in op.results:
            if any(_after_or_inside(last, use.operation) for use in result.uses):
                outputs.append(result)
    return Logue(ops, outputs)


def _after_or_inside(op: Operation, user: Operation) -> bool:
    """MLIR's ``properlyDominates(op, user)`` with enclosing ops allowed."""
    if user is op:
        return False
    if op.is_ancestor(user):
        return True
    ancestor = ancestor_in_block(user, op.parent_block())
    return ancestor is not None and is_before_in_block(op, ancestor)


def _replace_if_results(if_op: scf.IfOp, remove: list[bool],
                        replace_with: list[SSAValue]) -> scf.IfOp:
    """``if_op`` without the results flagged in ``remove``, whose uses take
    ``replace_with`` (in order)."""
    remove = remove + [False] * (len(if_op.results) - len(remove))
    for region in (if_op.true_region, if_op.false_region):
        terminator = region.block.last_op
        kept = [v for v, r in zip(terminator.operands, remove) if not r]
        Rewriter.replace_op(terminator, scf.YieldOp(*kept))
    then_region, else_region = if_op.detach_region(0), if_op.detach_region(0)
    types = [r.type for r, gone in zip(if_op.results, remove) if not gone]
    new_if = scf.IfOp(if_op.cond, types, then_region, else_region)
    Rewriter.insert_op(new_if, InsertPoint.before(if_op))
    replacements = iter(replace_with)
    kept_results = iter(new_if.results)
    for result, gone in zip(if_op.results, remove):
        result.replace_all_uses_with(next(replacements) if gone else next(kept_results))
    Rewriter.erase_op(if_op)
    return new_if


def _new_if(cond: SSAValue, types: Sequence[Attribute]) -> scf.IfOp:
    return scf.IfOp(cond, list(types), Region([Block()]), Region([Block()]))


def _defined_inside(value: SSAValue, op: Operation) -> bool:
    owner = value.op if isinstance(value, OpResult) else value.block.parent_op()
    return owner is not None and (owner is op or op.is_ancestor(owner))


# --------------------------------------------------------------------------------- fusion


def fuse_one_level(parent: LoopNestNode) -> None:
    """Fuse ``parent``'s (leaf) child loops into it; see the module docstring."""
    outer = parent.loop
    inner_loops: list[scf.ForOp] = []
    to_hoist: dict[Operation, None] = {}
    for child in parent.children:
        inner = child.loop
        if is_outer_loop_invariant(outer, [inner.lb, inner.ub, inner.step], to_hoist):
            inner_loops.append(inner)
    parent.children = []
    if not inner_loops:
        return

    order = {op: n for n, op in enumerate(outer.parent_op().walk())}
    for op in sorted(to_hoist, key=lambda o: order[o]):
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(outer))

    b = _Builder(InsertPoint.before(outer))
    width = _int_width(outer.body.block.args[0].type)
    len_outer = _num_iters(b, outer)
    len_inners = []
    for loop in inner_loops:
        length = _num_iters(b, loop)
        width = max(width, _int_width(length.type))
        len_inners.append(length)
    int_ty = IntegerType(width)

    n = len(inner_loops) - 1
    inner_len = b.const(0, int_ty)
    partial_sums = [inner_len]
    for length in len_inners:
        length = _cast_int(b, length, int_ty)
        length = b.value(xarith.MaxSIOp(b.const(1, int_ty), length))
        inner_len = b.value(xarith.AddiOp(inner_len, length))
        partial_sums.append(inner_len)
    inner_len = b.value(xarith.SubiOp(inner_len, b.const(n, int_ty)))
    total = b.value(xarith.MuliOp(_cast_int(b, len_outer, int_ty), inner_len))

    body_ops = list(outer.body.block.ops)
    position = {op: k for k, op in enumerate(body_ops)}
    logues = [make_logue(body_ops[: position[inner_loops[0]]])]
    for first, second in zip(inner_loops, inner_loops[1:]):
        logues.append(make_logue(body_ops[position[first] + 1: position[second]]))
    logues.append(make_logue(body_ops[position[inner_loops[-1]] + 1: -1]))

    inits: list[SSAValue] = [b.const(-1, int_ty),
                             b.value(xarith.SubiOp(outer.lb, outer.step))]
    outer_args_start = len(inits)
    inits.extend(outer.iter_args)
    ivar_start = len(inits)
    for loop in inner_loops:
        inits.append(_poison_or_zero(b, loop.body.block.args[0].type))
    inner_outs_start = len(inits)
    for loop in inner_loops:
        inits.extend(_poison_or_zero(b, r.type) for r in loop.results)
    logue_outs_start = len(inits)
    for logue in logues[:-1]:
        inits.extend(_poison_or_zero(b, v.type) for v in logue.outputs)

    zero, one = b.const(0, int_ty), b.const(1, int_ty)
    fused = scf.ForOp(zero, total, one, inits,
                      Block(arg_types=[int_ty, *(v.type for v in inits)]))
    b.add(fused)
    fused_args = fused.body.block.args[1:]
    for arg, fused_arg in zip(outer.body.block.args[1:], fused_args[outer_args_start:]):
        arg.replace_all_uses_with(fused_arg)

    b = _Builder(InsertPoint.at_start(fused.body.block))
    t_prev = fused_args[0]
    t_next = b.value(xarith.AddiOp(t_prev, b.const(1, int_ty)))
    rollover = b.value(tarith.CmpiOp(
        t_prev, b.value(xarith.SubiOp(inner_len, b.const(1, int_ty))), "eq"))
    t = b.value(tarith.SelectOp(rollover, b.const(0, int_ty), t_next))
    cur_i = fused_args[1]
    i_value: SSAValue = cur_i

    ivars = fused_args[ivar_start:]
    body_outs = inner_outs_start
    logue_outs = logue_outs_start
    prologue_ifs: list[scf.IfOp] = []
    body_ifs: list[scf.IfOp] = []
    for k, inner in enumerate(inner_loops):
        inner_start = b.value(xarith.SubiOp(partial_sums[k], b.const(k, int_ty)))
        prologue_cond = b.value(tarith.CmpiOp(t, inner_start, "eq"))
        prologue = logues[k]
        inner_iv = inner.body.block.args[0]
        n_outs, n_results = len(prologue.outputs), len(inner.results)
        types = [inner_iv.type, *(v.type for v in prologue.outputs),
                 *(v.type for v in inner.iter_args)]
        if k == 0:
            types.append(cur_i.type)
        prologue_if = _new_if(prologue_cond, types)
        b.add(prologue_if)
        prologue_ifs.append(prologue_if)
        then_block = prologue_if.true_region.block
        prologue.move_to_end(then_block)
        then_outs = [inner.lb, *prologue.outputs, *inner.iter_args]
        if k == 0:
            step = xarith.AddiOp(cur_i, outer.step)
            Rewriter.insert_op(step, InsertPoint.at_start(then_block))
            outer.body.block.args[0].replace_uses_with_if(
                step.result, lambda use: prologue_if.true_region.is_ancestor(use.operation))
            then_outs.append(step.result)
        then_block.add_op(scf.YieldOp(*then_outs))
        else_outs = [ivars[k], *fused_args[logue_outs: logue_outs + n_outs],
                     *fused_args[body_outs: body_outs + n_results]]
        if k == 0:
            else_outs.append(cur_i)
        logue_outs += n_outs
        prologue_if.false_region.block.add_op(scf.YieldOp(*else_outs))

        jk = prologue_if.results[0]
        inner_iv.replace_all_uses_with(jk)
        prologue.replace_uses_outside(prologue_if.results[1: 1 + n_outs],
                                      prologue_if.true_region)
        for init, iter_arg in zip(prologue_if.results[1 + n_outs: 1 + n_outs + n_results],
                                  inner.body.block.args[1:]):
            iter_arg.replace_all_uses_with(init)
        if k == 0:
            i_value = prologue_if.results[-1]
            outer.body.block.args[0].replace_all_uses_with(i_value)

        inner_end = b.value(xarith.AddiOp(inner_start, _cast_int(b, len_inners[k], int_ty)))
        ge = b.value(tarith.CmpiOp(t, inner_start, "sge"))
        lt = b.value(tarith.CmpiOp(t, inner_end, "slt"))
        body_cond = b.value(xarith.AndIOp(ge, lt))
        inner_block = inner.body.block
        for arg in reversed(inner_block.args):
            inner_block.erase_arg(arg)
        body_region = inner.detach_region(0)
        body_if = scf.IfOp(body_cond, [jk.type, *(r.type for r in inner.results)],
                           body_region, Region([Block()]))
        b.add(body_if)
        body_ifs.append(body_if)
        yield_op = body_region.block.last_op
        next_jk = xarith.AddiOp(jk, inner.step)
        Rewriter.insert_op(next_jk, InsertPoint.before(yield_op))
        Rewriter.replace_op(yield_op, scf.YieldOp(next_jk.result, *yield_op.operands))
        body_if.false_region.block.add_op(
            scf.YieldOp(jk, *fused_args[body_outs: body_outs + n_results]))
        body_outs += n_results
        for old, new in zip(inner.results, body_if.results[1:]):
            old.replace_all_uses_with(new)
        if MUST_EXECUTE in inner.attributes:
            true = xarith.ConstantOp(IntegerAttr(1, i1))
            Rewriter.insert_op(true, InsertPoint.before(body_if))
            body_if.operands[0] = true.result

    epilogue = logues[-1]
    outer_yield = outer.body.block.last_op
    epilogue_cond = b.value(tarith.CmpiOp(
        t, b.value(xarith.SubiOp(inner_len, b.const(1, int_ty))), "eq"))
    epilogue_if = _new_if(epilogue_cond, [v.type for v in outer_yield.operands])
    b.add(epilogue_if)
    epilogue.move_to_end(epilogue_if.true_region.block)
    epilogue_if.true_region.block.add_op(scf.YieldOp(*outer_yield.operands))
    epilogue_if.false_region.block.add_op(scf.YieldOp(
        *fused_args[outer_args_start: outer_args_start + len(outer.iter_args)]))

    outs: list[SSAValue] = [t, i_value, *epilogue_if.results]
    outs.extend(body_if.results[0] for body_if in body_ifs)
    for body_if, loop in zip(body_ifs, inner_loops):
        outs.extend(body_if.results[1: 1 + len(loop.results)])
    for prologue_if, logue in zip(prologue_ifs, logues[:-1]):
        outs.extend(prologue_if.results[1: 1 + len(logue.outputs)])
    fused_yield = scf.YieldOp(*outs)
    fused.body.block.add_op(fused_yield)
    for old, new in zip(outer.results, fused.results[outer_args_start:]):
        old.replace_all_uses_with(new)

    # Initial values of inner loop-carried values that come from outside the nest are set
    # once, before the fused loop, and reset by the epilogue for the next outer iteration.
    offset = inner_outs_start
    yield_slots: list[int] = []
    reset: list[SSAValue] = []
    forwarded: list[SSAValue] = []
    for k, (loop, prologue_if, body_if) in enumerate(zip(inner_loops, prologue_ifs, body_ifs)):
        skip = 1 + len(logues[k].outputs)
        remove = [False] * (skip + len(loop.results))
        replace_with: list[SSAValue] = []
        for i, init in enumerate(loop.iter_args):
            if _defined_inside(init, fused):
                continue
            fused.operands[3 + offset + i] = init
            replace_with.append(fused_args[offset + i])
            remove[skip + i] = True
            yield_slots.append(offset + i)
            forwarded.append(body_if.results[1 + i])
            reset.append(init)
        if replace_with:
            prologue_ifs[k] = _replace_if_results(prologue_if, remove, replace_with)
        offset += len(loop.results)
    if yield_slots:
        then_yield = epilogue_if.true_region.block.last_op
        else_yield = epilogue_if.false_region.block.last_op
        Rewriter.replace_op(then_yield, scf.YieldOp(*then_yield.operands, *reset))
        Rewriter.replace_op(else_yield, scf.YieldOp(*else_yield.operands, *forwarded))
        then_region, else_region = epilogue_if.detach_region(0), epilogue_if.detach_region(0)
        types = [r.type for r in epilogue_if.results] + [v.type for v in reset]
        new_epilogue = scf.IfOp(epilogue_if.cond, types, then_region, else_region)
        Rewriter.insert_op(new_epilogue, InsertPoint.before(epilogue_if))
        count = len(epilogue_if.results)
        for old, new in zip(epilogue_if.results, new_epilogue.results[:count]):
            old.replace_all_uses_with(new)
        for slot, result in zip(yield_slots, new_epilogue.results[count:]):
            fused_yield.operands[slot] = result
        Rewriter.erase_op(epilogue_if)

    for loop in inner_loops:
        Rewriter.erase_op(loop, safe_erase=False)
    Rewriter.erase_op(outer, safe_erase=False)
    parent.loop = fused


def flatten_loop_nest(node: LoopNestNode) -> None:
    for child in node.children:
        flatten_loop_nest(child)
    fuse_one_level(node)


def should_fuse(nest: LoopNest) -> bool:
    if ALWAYS_FUSE in nest.root.loop.attributes:
        return True
    if len(nest.nodes) != 2 or len(nest.root.children) != 1:
        return False
    inner = nest.root.children[0].loop
    return any(op.name in _DOT_LIKE for op in inner.body.block.ops)


def _is_pure(op: Operation) -> bool:
    return is_side_effect_free(op) and not op.regions


def sink_heavy_ops(outer: scf.ForOp, inner: scf.ForOp) -> None:
    """Move pure ops computed before ``inner`` but only used after it (directly or through
    other such ops) to just after ``inner``: they no longer live across the inner loop."""
    block = outer.body.block
    prologue = []
    for op in block.ops:
        if op is inner:
            break
        prologue.append(op)

    def in_epilogue(user: Operation) -> bool:
        return dominates(inner, user) and user is not inner and not inner.is_ancestor(user)

    sunk: dict[Operation, None] = {}
    for op in reversed(prologue):
        if not _is_pure(op) or op.name in _DOT_LIKE:
            continue
        ok = True
        for result in op.results:
            for use in result.uses:
                if in_epilogue(use.operation) or use.operation in sunk:
                    continue
                ok = False
        if ok:
            sunk[op] = None
    point_op = inner.next_op
    for op in [o for o in prologue if o in sunk]:
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(point_op))


@register_pass
class FuseNestedLoops(Pass):
    """Flatten loop nests (an outer loop around one inner loop with a dot, or loops marked
    ttg.always-fuse) into single loops."""

    name = "tritongpu-fuse-nested-loops"

    def apply(self, ctx: Context, op: Operation) -> None:
        for func in [f for f in op.walk() if f.name == "tt.func"]:
            nests: list[LoopNest] = []
            find_loop_nests(func, nests)
            for nest in nests:
                if not should_fuse(nest):
                    continue
                if ALWAYS_FUSE not in nest.root.loop.attributes:
                    inner = nest.root.children[0].loop
                    sink_heavy_ops(nest.root.loop, inner)
                    inner.attributes[MUST_EXECUTE] = UnitAttr()
                flatten_loop_nest(nest.root)
