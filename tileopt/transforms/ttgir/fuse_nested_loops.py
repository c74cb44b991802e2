"""``tritongpu-fuse-nested-loops``: flatten a loop nest into one loop (Triton 3.6's
``FuseNestedLoops.cpp``), so the software pipeliner sees a single loop.

Which nests: an outer ``scf.for`` around exactly one inner ``scf.for`` whose outer loop the
frontend marked ``tt.flatten`` (``tl.range(..., flatten=True)``), or any nest whose outer
loop carries ``ttg.always-fuse`` (for tests). A ``tt.flatten`` nest is first prepared: the
outer loop's invariant code is hoisted (MLIR's LICM), pure ops computed before the inner
loop but only used after it are sunk below it, and the inner loop is made to run at least
once (``ttg.must-execute``: its body then runs unconditionally in the fused loop), known
from an ``llvm.intr.assume`` of ``ub > lb``, else by testing its length before the nest
and running a copy of the nest without the inner loop when it is 0.

How (one level, applied leaf to root)::

    for i in range(lbi, ubi, si):            T = 0; i = lbi - si
      prologue(i)                             for _ in range(len_i * inner_len):
      for j in range(lbj, ubj, sj):             if T == 0: i += si; prologue(i); j = lbj
        body(i, j)                      ==>     if 0 <= T < len_j: body(i, j); j += sj
      epilogue(i)                               if T == inner_len - 1: epilogue(i)
                                                T = 0 if T == inner_len - 1 else T + 1

with ``inner_len = max(1, len_j)`` (several inner loops overlap their first and last
iterations with the logues between them). The inner lengths and ``inner_len`` are carried
by the fused loop too. Values crossing the new ``scf.if`` ops become loop-carried,
initialised with zero (numbers, tensors of numbers) or ``ub.poison``. Inner loops whose
bounds are (or can be hoisted to be) invariant in the outer loop are fused, and so are
those whose bounds are scalar functions of the outer induction variable (their lengths
are summed over the outer range by a loop before the nest, and computed again by the
prologue). Inner-loop initial values defined outside the nest are set once before the
fused loop and reset by the epilogue. Ops are built in Triton's order, at the outer loop's
location.
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
    i32,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.utils.hints import isa

from tileopt.dialects import arith as tarith
from tileopt.analysis.structured_dominance import (
    ancestor_in_block,
    dominates,
    is_before_in_block,
    properly_dominates,
)
from tileopt.passes import Pass, register_pass
from tileopt.dialects.tt_types import PointerType
from tileopt.transforms.utils.loop_hoisting import (
    hoist_from_loop,
    is_memory_effect_free,
    is_pure_and_speculatable,
    only_reads,
)

MUST_EXECUTE = "ttg.must-execute"
ALWAYS_FUSE = "ttg.always-fuse"
FLATTEN = "tt.flatten"
WARP_SPECIALIZE = "tt.warp_specialize"
DISALLOW_ACC_MULTI_BUFFER = "tt.disallow_acc_multi_buffer"
NUM_STAGES = "tt.num_stages"
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
    """Insert ops one after another at an insertion point, at one location (Triton's
    ImplicitLocOpBuilder)."""

    def __init__(self, point: InsertPoint, location: Attribute):
        self.point = point
        self.location = location

    def add(self, op: Operation) -> Operation:
        op.location = self.location
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


def _is_scalar(ty: Attribute) -> bool:
    return _is_number(ty) or isinstance(ty, PointerType)


def _can_hoist_bound_computation(op: Operation) -> bool:
    """Ops without memory effects (those inside included: the loops fusion builds) or
    that only read, on scalars (Triton's canHoistLoopBoundComputation)."""
    return ((is_memory_effect_free(op) or only_reads(op))
            and all(_is_scalar(t) for t in op.operand_types)
            and all(_is_scalar(t) for t in op.result_types))


def _bound_ops(outer: scf.ForOp, values: Sequence[SSAValue],
               leaf_arg: BlockArgument | None = None) -> dict[Operation, None] | None:
    """The ops of ``outer``'s body that compute ``values`` from values defined before
    ``outer`` (and ``leaf_arg``), if all of them are hoistable bound computations."""
    visited: dict[Operation, None] = {}
    queue = list(values)
    while queue:
        value = queue.pop(0)
        if value is leaf_arg or properly_dominates(value, outer):
            continue
        if isinstance(value, BlockArgument):
            return None
        op = value.op
        if op in visited:
            continue
        if not _can_hoist_bound_computation(op):
            return None
        visited[op] = None
        queue.extend(op.operands)
    return visited


def is_outer_loop_invariant(outer: scf.ForOp, values: Sequence[SSAValue],
                            to_hoist: dict[Operation, None]) -> bool:
    """``values`` are defined before ``outer`` or computed by pure scalar ops that can be
    hoisted before it (added to ``to_hoist`` only if all of them can)."""
    ops = _bound_ops(outer, values)
    if ops is None:
        return False
    to_hoist.update(ops)
    return True


def slice_bounds(outer: scf.ForOp, values: Sequence[SSAValue]) -> list[Operation] | None:
    """The ops computing ``values`` from the outer induction variable and values from
    before ``outer``, in program order (Triton's canSliceBounds), or None."""
    ops = _bound_ops(outer, values, outer.body.block.args[0])
    if ops is None:
        return None
    order = {op: n for n, op in enumerate(outer.walk())}
    return sorted(ops, key=lambda o: order[o])


def _clone_slices(b: _Builder, sliced: list[Operation],
                  mapping: dict[SSAValue, SSAValue]) -> None:
    """Clones of ``sliced`` at ``b`` (each op once per ``mapping``), operands mapped."""
    for op in sliced:
        if op.results and op.results[0] in mapping:
            continue
        clone = op.clone(value_mapper=mapping)
        b.add(clone)
        mapping.update(zip(op.results, clone.results))


def _int_width(ty: Attribute) -> int:
    return 64 if isinstance(ty, IndexType) else ty.width.data  # type: ignore[union-attr]


def _num_iters(b: _Builder, lb: SSAValue, ub: SSAValue, step: SSAValue) -> SSAValue:
    """``ceildiv(ub - lb, step)``: the trip count (also right for negative steps)."""
    diff = b.value(xarith.SubiOp(ub, lb))
    return b.value(xarith.CeilDivSIOp(diff, step))


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


def _yield_of(region: Region) -> Operation:
    return region.block.last_op


def fuse_one_level(parent: LoopNestNode) -> None:
    """Fuse ``parent``'s (leaf) child loops into it; see the module docstring. Ops are
    built in the order Triton 3.6's ``fuseOneLevel`` builds them, at the outer loop's
    location, so that the result reads as Triton's."""
    outer = parent.loop
    inner_loops: list[scf.ForOp] = []
    slices: list[list[Operation]] = []  # per inner loop: its outer-variant bound ops
    to_hoist: dict[Operation, None] = {}
    for child in parent.children:
        inner = child.loop
        bounds = [inner.lb, inner.ub, inner.step]
        if is_outer_loop_invariant(outer, bounds, to_hoist):
            inner_loops.append(inner)
            slices.append([])
        elif (sliced := slice_bounds(outer, bounds)) is not None:
            inner_loops.append(inner)
            slices.append(sliced)
    parent.children = []
    if not inner_loops:
        return
    all_invariant = not any(slices)

    order = {op: n for n, op in enumerate(outer.parent_op().walk())}
    for op in sorted(to_hoist, key=lambda o: order[o]):
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(outer))

    b = _Builder(InsertPoint.before(outer), outer.location)
    width = _int_width(outer.body.block.args[0].type)
    for loop in inner_loops:
        width = max(width, _int_width(loop.body.block.args[0].type))
    int_ty = IntegerType(width)

    len_outer = _num_iters(b, outer.lb, outer.ub, outer.step)
    len_inners = [_poison_or_zero(b, int_ty) if sliced else
                  _cast_int(b, _num_iters(b, loop.lb, loop.ub, loop.step), int_ty)
                  for loop, sliced in zip(inner_loops, slices)]
    n = len(inner_loops) - 1
    inner_len = b.const(0, int_ty)
    for length, sliced in zip(len_inners, slices):
        if not sliced:
            inner_len = b.value(xarith.AddiOp(
                inner_len, b.value(xarith.MaxSIOp(b.const(1, int_ty), length))))
    inner_len = b.value(xarith.SubiOp(inner_len, b.const(n, int_ty)))
    total = b.value(xarith.MuliOp(_cast_int(b, len_outer, int_ty), inner_len))
    # The lengths of outer-variant inner loops, summed over the outer range (with only
    # invariant ones the loop just carries the product: canonicalize folds it away).
    peeled = scf.ForOp(outer.lb, outer.ub, outer.step, [total],
                       Block(arg_types=[outer.body.block.args[0].type, int_ty]))
    b.add(peeled)
    pb = _Builder(InsertPoint.at_end(peeled.body.block), outer.location)
    mapping: dict[SSAValue, SSAValue] = {outer.body.block.args[0]: peeled.body.block.args[0]}
    peeled_total = peeled.body.block.args[1]
    for loop, sliced in zip(inner_loops, slices):
        if sliced:
            _clone_slices(pb, sliced, mapping)
            length = _cast_int(pb, _num_iters(pb, *(mapping.get(v, v) for v in
                                                    (loop.lb, loop.ub, loop.step))), int_ty)
            length = pb.value(xarith.MaxSIOp(pb.const(1, int_ty), length))
            peeled_total = pb.value(xarith.AddiOp(peeled_total, length))
    peeled.body.block.add_op(scf.YieldOp(peeled_total))
    total = peeled.results[0]

    body_ops = list(outer.body.block.ops)
    position = {op: k for k, op in enumerate(body_ops)}
    logues = [make_logue(body_ops[: position[inner_loops[0]]])]
    for first, second in zip(inner_loops, inner_loops[1:]):
        logues.append(make_logue(body_ops[position[first] + 1: position[second]]))
    logues.append(make_logue(body_ops[position[inner_loops[-1]] + 1: -1]))

    inits: list[SSAValue] = [b.const(0, int_ty),
                             b.value(xarith.SubiOp(outer.lb, outer.step))]
    outer_args_start = len(inits)
    inits.extend(outer.iter_args)
    len_inners_start = len(inits)
    inits.extend(len_inners)
    inner_len_start = len(inits)
    inits.append(inner_len)
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
    len_inners = list(fused_args[len_inners_start: len_inners_start + len(inner_loops)])

    b = _Builder(InsertPoint.at_start(fused.body.block), outer.location)
    t = fused_args[0]
    cur_i = fused_args[1]
    i_value: SSAValue = cur_i
    ivars = fused_args[ivar_start:]
    body_outs = inner_outs_start
    logue_outs = logue_outs_start
    prologue_ifs: list[scf.IfOp] = []
    body_ifs: list[scf.IfOp] = []
    for k, inner in enumerate(inner_loops):
        # T == max(1, len_j0) + ... + max(1, len_jk-1) - k starts loop k: its prologue
        inner_start = b.const(0, int_ty)
        for length in len_inners[:k]:
            inner_start = b.value(xarith.AddiOp(
                inner_start, b.value(xarith.MaxSIOp(b.const(1, int_ty), length))))
        inner_start = b.value(xarith.SubiOp(inner_start, b.const(k, int_ty)))
        prologue_cond = b.value(tarith.CmpiOp(t, inner_start, "eq"))
        prologue = logues[k]
        inner_iv = inner.body.block.args[0]
        n_outs, n_results = len(prologue.outputs), len(inner.results)
        types = [inner_iv.type, *(v.type for v in prologue.outputs),
                 *(v.type for v in inner.iter_args)]
        if k == 0:
            types += [cur_i.type, *([int_ty] * len(inner_loops)), inner_len.type]
        prologue_if = _new_if(prologue_cond, types)
        b.add(prologue_if)
        prologue_ifs.append(prologue_if)
        then_block = prologue_if.true_region.block
        prologue.move_to_end(then_block)
        then_outs = [inner.lb, *prologue.outputs, *inner.iter_args]
        if k == 0:
            step = xarith.AddiOp(cur_i, outer.step)
            step.location = outer.location
            Rewriter.insert_op(step, InsertPoint.at_start(then_block))
            outer.body.block.args[0].replace_uses_with_if(
                step.result, lambda use: prologue_if.true_region.is_ancestor(use.operation))
            # this outer iteration's lengths of the outer-variant inner loops
            pb = _Builder(InsertPoint.after(step), outer.location)
            mapping = {}
            new_lens, new_inner_len = list(len_inners), inner_len
            for j, (loop, sliced) in enumerate(zip(inner_loops, slices)):
                if sliced:
                    _clone_slices(pb, sliced, mapping)
                    length = _num_iters(pb, *(mapping.get(v, v) for v in
                                              (loop.lb, loop.ub, loop.step)))
                    new_lens[j] = _cast_int(pb, length, int_ty)
                    new_inner_len = pb.value(xarith.AddiOp(new_inner_len, pb.value(
                        xarith.MaxSIOp(pb.const(1, int_ty), new_lens[j]))))
            then_outs += [step.result, *new_lens, new_inner_len]
        then_block.add_op(scf.YieldOp(*then_outs))
        else_outs = [ivars[k], *fused_args[logue_outs: logue_outs + n_outs],
                     *fused_args[body_outs: body_outs + n_results]]
        if k == 0:
            # the pass-through of an invariant inner_len is the value itself (Triton's
            # peephole)
            else_outs += [cur_i, *len_inners,
                          inner_len if all_invariant else fused_args[inner_len_start]]
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
            results = prologue_if.results
            i_value = results[-2 - len(inner_loops)]
            len_inners = list(results[-1 - len(inner_loops): -1])
            inner_len = results[-1]
            outer.body.block.args[0].replace_all_uses_with(i_value)

        # inner_start <= T < inner_start + len_jk: body k, then jk += step
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
        yield_op = _yield_of(body_region)
        next_jk = xarith.AddiOp(jk, inner.step)
        next_jk.location = outer.location
        Rewriter.insert_op(next_jk, InsertPoint.before(yield_op))
        Rewriter.replace_op(yield_op, scf.YieldOp(next_jk.result, *yield_op.operands))
        body_if.false_region.block.add_op(
            scf.YieldOp(jk, *fused_args[body_outs: body_outs + n_results]))
        body_outs += n_results
        for old, new in zip(inner.results, body_if.results[1:]):
            old.replace_all_uses_with(new)
        if MUST_EXECUTE in inner.attributes:
            true = xarith.ConstantOp(IntegerAttr(1, i1))
            true.location = outer.location
            Rewriter.insert_op(true, InsertPoint.before(body_if))
            body_if.operands[0] = true.result

    # T == inner_len - 1: the epilogue. Its outputs are what the outer loop yields of it;
    # the else branch passes the outer loop's carried values through.
    epilogue = logues[-1]
    outer_yield = _yield_of(outer.body)
    used_iter_args: list[SSAValue] = []
    for output in epilogue.outputs:
        for use in output.uses:
            if use.operation is outer_yield:
                used_iter_args.append(fused_args[outer_args_start + use.index])
    epilogue_cond = b.value(tarith.CmpiOp(
        t, b.value(xarith.SubiOp(inner_len, b.const(1, int_ty))), "eq"))
    epilogue_if = _new_if(epilogue_cond, [v.type for v in epilogue.outputs])
    b.add(epilogue_if)
    epilogue.move_to_end(epilogue_if.true_region.block)
    epilogue_if.true_region.block.add_op(scf.YieldOp(*epilogue.outputs))
    epilogue_if.false_region.block.add_op(scf.YieldOp(*used_iter_args))
    epilogue.replace_uses_outside(epilogue_if.results, epilogue_if.true_region)

    # T = 0 if T == inner_len - 1 else T + 1
    t_next = b.value(xarith.AddiOp(t, b.const(1, int_ty)))
    rollover = b.value(tarith.CmpiOp(
        t, b.value(xarith.SubiOp(inner_len, b.const(1, int_ty))), "eq"))
    t = b.value(tarith.SelectOp(rollover, b.const(0, int_ty), t_next))

    outs: list[SSAValue] = [t, i_value, *outer_yield.operands, *len_inners, inner_len]
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
            if init.owner is not fused and _defined_inside(init, fused):
                continue
            fused.operands[3 + offset + i] = init
            replace_with.append(fused_args[offset + i])
            remove[skip + i] = True
            yield_slots.append(offset + i)
            forwarded.append(body_if.results[1 + i])
            reset.append(init)
        prologue_ifs[k] = _replace_if_results(prologue_if, remove, replace_with)
        offset += len(loop.results)
    if yield_slots:
        then_yield = _yield_of(epilogue_if.true_region)
        else_yield = _yield_of(epilogue_if.false_region)
        Rewriter.replace_op(then_yield, scf.YieldOp(*then_yield.operands, *reset))
        Rewriter.replace_op(else_yield, scf.YieldOp(*else_yield.operands, *forwarded))
        then_region, else_region = epilogue_if.detach_region(0), epilogue_if.detach_region(0)
        types = [r.type for r in epilogue_if.results] + [v.type for v in reset]
        new_epilogue = scf.IfOp(epilogue_if.cond, types, then_region, else_region)
        new_epilogue.location = outer.location
        Rewriter.insert_op(new_epilogue, InsertPoint.before(epilogue_if))
        count = len(epilogue_if.results)
        for old, new in zip(epilogue_if.results, new_epilogue.results[:count]):
            old.replace_all_uses_with(new)
        for slot, result in zip(yield_slots, new_epilogue.results[count:]):
            fused_yield.operands[slot] = result
        Rewriter.erase_op(epilogue_if)

    if WARP_SPECIALIZE in outer.attributes or any(
            WARP_SPECIALIZE in loop.attributes for loop in inner_loops):
        fused.attributes[WARP_SPECIALIZE] = UnitAttr()
    if any(_disallows_acc_multi_buffer(loop) for loop in [outer, *inner_loops]):
        fused.attributes[DISALLOW_ACC_MULTI_BUFFER] = UnitAttr()
    num_stages = max(_num_stages(loop) for loop in [outer, *inner_loops])
    for loop in inner_loops:
        Rewriter.erase_op(loop, safe_erase=False)
    Rewriter.erase_op(outer, safe_erase=False)
    parent.loop = fused
    if num_stages > 1:
        fused.attributes[NUM_STAGES] = IntegerAttr(num_stages, i32)


def _num_stages(loop: scf.ForOp) -> int:
    attr = loop.attributes.get(NUM_STAGES)
    return attr.value.data if isinstance(attr, IntegerAttr) else 1


def _disallows_acc_multi_buffer(loop: scf.ForOp) -> bool:
    return DISALLOW_ACC_MULTI_BUFFER in loop.attributes


def flatten_loop_nest(node: LoopNestNode) -> None:
    for child in node.children:
        flatten_loop_nest(child)
    fuse_one_level(node)


def should_fuse(nest: LoopNest) -> bool:
    """Nests marked ``ttg.always-fuse`` (for tests), and two-loop nests whose outer loop
    the frontend marked ``tt.flatten`` (``tl.range(..., flatten=True)``)."""
    if ALWAYS_FUSE in nest.root.loop.attributes:
        return True
    return (len(nest.nodes) == 2 and len(nest.root.children) == 1
            and FLATTEN in nest.root.loop.attributes)


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


def _positive_trip_count(loop: scf.ForOp) -> bool:
    """An ``llvm.intr.assume`` of ``ub > lb`` or ``lb < ub`` (Triton's crude match)."""
    for use in loop.ub.uses:
        cmp = use.operation
        if not isinstance(cmp, tarith.CmpiOp) or not any(
                u.operation.name == "llvm.intr.assume" for u in cmp.results[0].uses):
            continue
        predicate = cmp.PREDICATE_NAMES[cmp.predicate.value.data]
        if predicate == "sgt" and cmp.lhs is loop.ub and cmp.rhs is loop.lb:
            return True
        if predicate == "slt" and cmp.lhs is loop.lb and cmp.rhs is loop.ub:
            return True
    return False


def speculate_inner_loop_length(outer: scf.ForOp, inner: scf.ForOp) -> bool:
    """Make the inner loop run at least once (``ttg.must-execute``): known from an assume,
    else by testing its (outer-invariant) length before the nest, with a copy of the
    nest without the inner loop for a length of 0. False where neither applies."""
    if _positive_trip_count(inner):
        inner.attributes[MUST_EXECUTE] = UnitAttr()
        return True
    to_hoist: dict[Operation, None] = {}
    if not is_outer_loop_invariant(outer, [inner.lb, inner.ub, inner.step], to_hoist):
        return False
    order = {op: n for n, op in enumerate(outer.parent_op().walk())}
    for op in sorted(to_hoist, key=lambda o: order[o]):
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(outer))
    inner.attributes[MUST_EXECUTE] = UnitAttr()
    b = _Builder(InsertPoint.before(outer), inner.location)
    length = _num_iters(b, inner.lb, inner.ub, inner.step)
    empty = b.value(tarith.CmpiOp(length, b.const(0, length.type), "eq"))
    if_op = _new_if(empty, [r.type for r in outer.results])
    b.add(if_op)
    # then: the nest without its inner loop (its results are its initial values)
    copy = outer.clone()
    copy.attributes.pop(WARP_SPECIALIZE, None)
    inner_copy = next(op for op in copy.walk() if isinstance(op, scf.ForOp) and op is not copy
                      and op.parent_op() is copy)
    for result, init in zip(inner_copy.results, inner_copy.iter_args):
        result.replace_all_uses_with(init)
    Rewriter.erase_op(inner_copy, safe_erase=False)
    if_op.true_region.block.add_op(copy)
    if_op.true_region.block.add_op(scf.YieldOp(*copy.results))
    # else: the nest itself
    for old, new in zip(outer.results, if_op.results):
        old.replace_all_uses_with(new)
    outer.detach()
    if_op.false_region.block.add_op(outer)
    if_op.false_region.block.add_op(scf.YieldOp(*outer.results))
    return True


def preprocess_loop_nest(nest: LoopNest) -> bool:
    """Triton's preprocessLoopNest for a ``tt.flatten`` nest: hoist the outer loop's
    invariant code, sink prologue ops only the epilogue needs, speculate the inner length."""
    outer, inner = nest.root.loop, nest.root.children[0].loop
    hoist_from_loop(outer, lambda op, _loop: is_pure_and_speculatable(op))
    sink_heavy_ops(outer, inner)
    return speculate_inner_loop_length(outer, inner)


@register_pass
class FuseNestedLoops(Pass):
    """Flatten loop nests (an outer loop marked tt.flatten around one inner loop, or loops
    marked ttg.always-fuse) into single loops."""

    name = "tritongpu-fuse-nested-loops"

    def apply(self, ctx: Context, op: Operation) -> None:
        for func in [f for f in op.walk() if f.name == "tt.func"]:
            nests: list[LoopNest] = []
            find_loop_nests(func, nests)
            for nest in nests:
                if not should_fuse(nest):
                    continue
                if ALWAYS_FUSE not in nest.root.loop.attributes and not preprocess_loop_nest(
                        nest):
                    continue
                flatten_loop_nest(nest.root)
