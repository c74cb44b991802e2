"""Canonicalization of ``scf.for``, ``scf.if`` and ``scf.while`` as MLIR has it (``Dialect/SCF/IR/SCF.cpp``).

xDSL 0.74 already erases loops of constant bounds that run zero times, inlines those that
run once, hoists constants out of loop bodies and inlines ``scf.if`` of a constant
condition. What Triton IR needs beyond that is added here, matched by op name:

scf.for
  ForOpIterArgsFolder   an iteration value that is yielded unchanged, whose init is
                        yielded, or that is used neither inside nor outside is dropped (its
                        uses become the init); one with the init and yielded value of an
                        earlier one is merged into it
  SimplifyTrivialLoops  lb == ub or ub = lb + c (c <= 0) -> the inits; one trip (step >=
                        ub - lb) -> the body inlined; an empty body that yields values from
                        outside and runs at least once -> those values
scf.if
  fold                      if (xori c, true) then A else B -> if c then B else A
  CombineIfs                consecutive ifs on c, c (or c and not c) -> one if
  CombineNestedIfs          if a { if b { ... } } -> if (a and b) { ... }
  ConditionPropagation      uses of c inside the then (else) region -> true (false)
  ConvertTrivialIfToSelect  results both branches yield from outside -> arith.select
  RemoveEmptyElseBranch     an else that only yields, in an if without results -> removed
  RemoveStaticCondition     if true/false -> the then/else body
  RemoveUnusedResults       results without uses -> dropped
  ReplaceIfYieldWithConditionOrValue   a result yielded equal by both branches -> that
                            value; yielded true/false -> c; false/true -> not c
scf.while (values its scf.condition forwards to the after block and the results)
  RemoveLoopInvariantArgsFromBeforeBlock   a loop value that comes back unchanged -> its init
  RemoveLoopInvariantValueYielded   one defined outside the loop -> that value
  WhileUnusedResult         one used neither after the loop nor in the after block -> dropped
  WhileRemoveDuplicatedResults      one forwarded twice -> forwarded once
  WhileConditionTruth       the after block's argument that receives the condition -> true
  WhileCmpCond              the condition's cmpi of a forwarded value, repeated in the after
                            block -> true (inverted: false)
  WhileRemoveUnusedArgs     a before-block argument without uses -> dropped

Equal constants count as one value, as in MLIR, whose canonicalizer unifies constants.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith as xarith
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, i1
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.transforms.canonicalization_patterns.scf import replace_op_with_region

from tileopt.dialects.canonicalization import add_canonicalization_patterns
from tileopt.dialects import arith as tarith
from tileopt.transforms.canonicalization import constant_folding as cf
from tileopt.transforms.canonicalization.arith_patterns import (
    cmpi_predicate,
    int_scalar,
    is_constant,
    is_one,
    owner,
    same_value,
)
from tileopt.transforms.utils.scf_rewrites import locate_loop_arguments

Rewrite = Callable[[Operation, PatternRewriter], bool]


def _defined_inside(value: SSAValue, op: Operation) -> bool:
    """``value`` is defined in one of ``op``'s regions (block arguments included)."""
    block = value.owner if isinstance(value.owner, Block) else value.owner.parent_block()
    return block is not None and op.is_ancestor(block)


def _directly_in(value: SSAValue, region: Region) -> bool:
    """``value`` is defined in a block of ``region`` itself (MLIR's getParentRegion)."""
    block = value.owner if isinstance(value.owner, Block) else value.owner.parent_block()
    return block is not None and block.parent is region


def _terminator(region: Region) -> Operation:
    last = region.block.last_op
    assert last is not None
    return last


def _copy_attributes(source: Operation, target: Operation) -> None:
    target.attributes.update(source.attributes)


# ---------------------------------------------------------------------------------------
# scf.for
# ---------------------------------------------------------------------------------------


def for_iter_args_folder(op: Operation, rewriter: PatternRewriter) -> bool:
    """Drop the iteration values that are loop-invariant or dead (MLIR's
    ForOpIterArgsFolder): an argument yielded unchanged, one whose init is yielded, one
    unused inside and outside, and one with the same init and yielded value as an
    earlier kept one (its uses move to that one)."""
    assert isinstance(op, scf.ForOp)
    block = op.body.block
    yield_op = _terminator(op.body)
    dropped: list[bool] = []
    kept_pairs: list[tuple[SSAValue, SSAValue, SSAValue, SSAValue]] = []
    for init, arg, result, yielded in zip(op.iter_args, block.args[1:], op.results,
                                          yield_op.operands, strict=True):
        if arg is yielded or same_value(init, yielded) or (not arg.uses and not result.uses):
            dropped.append(True)
            continue
        twin = next(((a, r) for i, y, a, r in kept_pairs
                     if same_value(i, init) and same_value(y, yielded)), None)
        if twin is not None:
            rewriter.replace_all_uses_with(arg, twin[0])
            rewriter.replace_all_uses_with(result, twin[1])
            dropped.append(True)
            continue
        kept_pairs.append((init, yielded, arg, result))
        dropped.append(False)
    if not any(dropped):
        return False
    # The body moves to the new loop: dropped arguments become their init values.
    for index in reversed(range(len(dropped))):
        if dropped[index]:
            arg = block.args[index + 1]
            rewriter.replace_all_uses_with(arg, op.iter_args[index])
            rewriter.erase_block_argument(arg)
    yield_op = _terminator(op.body)
    kept_inits = [init for init, drop in zip(op.iter_args, dropped) if not drop]
    kept_yields = [value for value, drop in zip(yield_op.operands, dropped) if not drop]
    rewriter.replace(yield_op, scf.YieldOp(*kept_yields))
    new_for = scf.ForOp(op.lb, op.ub, op.step, kept_inits,
                        rewriter.move_region_contents_to_new_regions(op.body))
    _copy_attributes(op, new_for)
    locate_loop_arguments(new_for.body.block, op.location,
                          dict(zip(new_for.body.block.args[1:], kept_inits)))
    new_results = iter(new_for.results)
    values = [init if drop else next(new_results)
              for init, drop in zip(op.iter_args, dropped)]
    rewriter.replace(op, new_for, values)
    return True


def _constant_difference(lb: SSAValue, ub: SSAValue) -> int | None:
    """ub - lb when known (MLIR's computeConstDiff): two constants (their difference
    wrapped to the type, read signed), or ub = addi(lb, c) / addi(c, lb)."""
    width = cf.int_width(lb.type)
    if width is None:
        return None
    low, high = int_scalar(lb), int_scalar(ub)
    if low is not None and high is not None:
        return cf.to_signed(high - low, width)
    if (add := owner(ub, "arith.addi")) is not None:
        for base, offset in ((add.operands[0], add.operands[1]),
                             (add.operands[1], add.operands[0])):
            if base is lb and (bits := _int_splat(offset)) is not None:
                return cf.to_signed(bits, width)
    return None


def _int_splat(value: SSAValue) -> int | None:
    const = cf.constant_of(value)
    if const is None or cf.int_width(value.type) is None:
        return None
    return const.splat  # type: ignore[return-value]


def simplify_trivial_loops(op: Operation, rewriter: PatternRewriter) -> bool:
    assert isinstance(op, scf.ForOp)
    if same_value(op.lb, op.ub):
        rewriter.replace(op, [], list(op.iter_args))
        return True
    difference = _constant_difference(op.lb, op.ub)
    if difference is None:
        return False
    if difference <= 0:
        rewriter.replace(op, [], list(op.iter_args))
        return True
    step = int_scalar(op.step)
    if step is None:
        return False
    if cf.to_signed(step, cf.int_width(op.step.type)) >= difference:  # type: ignore[arg-type]
        replace_op_with_region(rewriter, op, op.body, (op.lb, *op.iter_args))
        return True
    # More than one trip: an empty body yielding values from outside is those values.
    yield_op = _terminator(op.body)
    if op.body.block.first_op is not yield_op:
        return False
    if any(_defined_inside(value, op) for value in yield_op.operands):
        return False
    rewriter.replace(op, [], list(yield_op.operands))
    return True


# ---------------------------------------------------------------------------------------
# scf.if
# ---------------------------------------------------------------------------------------


def _else_block(op: scf.IfOp) -> Block | None:
    return op.false_region.blocks.first


def _is_negation_of(value: SSAValue, condition: SSAValue) -> bool:
    """``value`` is ``xori(condition, 1)``."""
    xor = owner(value, "arith.xori")
    return xor is not None and xor.operands[0] is condition and is_one(xor.operands[1])


def fold_if_of_negation(op: Operation, rewriter: PatternRewriter) -> bool:
    """if (xori c, true) then A else B -> if c then B else A (IfOp::fold, in place)."""
    assert isinstance(op, scf.IfOp)
    if _else_block(op) is None:
        return False
    xor = owner(op.cond, "arith.xori")
    if xor is None or not is_one(xor.operands[1]):
        return False
    then_block = op.true_region.detach_block(0)
    else_block = op.false_region.detach_block(0)
    op.true_region.add_block(else_block)
    op.false_region.add_block(then_block)
    op.operands = [xor.operands[0]]
    rewriter.notify_op_modified(op)
    return True


def remove_unused_results(op: Operation, rewriter: PatternRewriter) -> bool:
    assert isinstance(op, scf.IfOp)
    used = [index for index, result in enumerate(op.results) if result.uses]
    if len(used) == len(op.results):
        return False
    for region in (op.true_region, op.false_region):
        yield_op = _terminator(region)
        rewriter.replace(yield_op, scf.YieldOp(*(yield_op.operands[i] for i in used)))
    new_if = scf.IfOp(op.cond, [op.results[i].type for i in used],
                      rewriter.move_region_contents_to_new_regions(op.true_region),
                      rewriter.move_region_contents_to_new_regions(op.false_region))
    _copy_attributes(op, new_if)
    values: list[SSAValue | None] = [None] * len(op.results)
    for new_index, index in enumerate(used):
        values[index] = new_if.results[new_index]
    rewriter.replace(op, new_if, values)
    return True


def convert_trivial_if_to_select(op: Operation, rewriter: PatternRewriter) -> bool:
    """Results whose values come from outside both branches become ``arith.select``."""
    assert isinstance(op, scf.IfOp)
    if not op.results:
        return False
    then_yield, else_yield = _terminator(op.true_region), _terminator(op.false_region)
    pairs = list(zip(then_yield.operands, else_yield.operands, strict=True))
    kept = [_directly_in(t, op.true_region) or _directly_in(f, op.false_region)
            for t, f in pairs]
    if all(kept):
        return False
    new_ops: list[Operation] = []
    values: list[SSAValue] = []
    kept_indices = [i for i, keep in enumerate(kept) if keep]
    for region, yield_op in ((op.true_region, then_yield), (op.false_region, else_yield)):
        rewriter.replace(yield_op, scf.YieldOp(*(yield_op.operands[i] for i in kept_indices)))
    new_if = scf.IfOp(op.cond, [op.results[i].type for i in kept_indices],
                      rewriter.move_region_contents_to_new_regions(op.true_region),
                      rewriter.move_region_contents_to_new_regions(op.false_region))
    _copy_attributes(op, new_if)
    new_results = iter(new_if.results)
    for (true_value, false_value), keep in zip(pairs, kept):
        if keep:
            values.append(next(new_results))
        elif same_value(true_value, false_value):
            values.append(true_value)
        else:
            select = tarith.SelectOp(op.cond, true_value, false_value)
            new_ops.append(select)
            values.append(select.result)
    rewriter.replace(op, [*new_ops, new_if], values)
    return True


def condition_propagation(op: Operation, rewriter: PatternRewriter) -> bool:
    """Uses of the condition inside the then (else) region read true (false)."""
    assert isinstance(op, scf.IfOp)
    condition = op.cond
    if is_constant(condition):
        return False
    constants: dict[bool, SSAValue] = {}
    changed = False
    for use in list(condition.uses):
        user = use.operation
        if op.true_region.is_ancestor(user):
            value = True
        elif op.false_region.is_ancestor(user):
            value = False
        else:
            continue
        if value not in constants:
            constant = xarith.ConstantOp(IntegerAttr(-1 if value else 0, i1), i1)
            rewriter.insert(constant, InsertPoint.before(op))
            constants[value] = constant.result
        user.operands[use.index] = constants[value]
        rewriter.notify_op_modified(user)
        changed = True
    return changed


def _bool_constant(value: SSAValue) -> bool | None:
    attr = cf.constant_attr(value)
    if isinstance(attr, IntegerAttr) and attr.type == i1:
        return attr.value.data != 0
    return None


def replace_if_yield_with_condition_or_value(op: Operation, rewriter: PatternRewriter
                                             ) -> bool:
    assert isinstance(op, scf.IfOp)
    if not op.results:
        return False
    then_yield, else_yield = _terminator(op.true_region), _terminator(op.false_region)
    changed = False
    for true_value, false_value, result in zip(then_yield.operands, else_yield.operands,
                                               op.results, strict=True):
        if same_value(true_value, false_value):
            if result.uses:
                rewriter.replace_all_uses_with(result, true_value)
                changed = True
            continue
        true_bool, false_bool = _bool_constant(true_value), _bool_constant(false_value)
        if true_bool is None or false_bool is None or not result.uses:
            continue
        if not true_bool and false_bool:
            true = xarith.ConstantOp(IntegerAttr(-1, i1), i1)
            negated = xarith.XOrIOp(op.cond, true.result)
            rewriter.insert([true, negated], InsertPoint.before(op))
            rewriter.replace_all_uses_with(result, negated.result)
            changed = True
        elif true_bool and not false_bool:
            rewriter.replace_all_uses_with(result, op.cond)
            changed = True
    return changed


def combine_ifs(next_if: Operation, rewriter: PatternRewriter) -> bool:
    """Two consecutive ifs on the same (or the negated) condition become one."""
    assert isinstance(next_if, scf.IfOp)
    prev_if = next_if.prev_op
    if not isinstance(prev_if, scf.IfOp):
        return False
    next_then: Block | None = None
    next_else: Block | None = None
    if next_if.cond is prev_if.cond:
        next_then = next_if.true_region.block
        next_else = _else_block(next_if)
    if _is_negation_of(next_if.cond, prev_if.cond) or _is_negation_of(prev_if.cond,
                                                                        next_if.cond):
        next_else = next_if.true_region.block
        next_then = _else_block(next_if)
    if next_then is None and next_else is None:
        return False

    # Uses of the first if's results inside the second one read the yielded values.
    prev_then_yield = _terminator(prev_if.true_region)
    prev_else_yield = (_terminator(prev_if.false_region)
                       if _else_block(prev_if) is not None else None)
    for index, result in enumerate(prev_if.results):
        for use in list(result.uses):
            user = use.operation
            if next_then is not None and next_then.parent is not None and \
                    next_then.parent.is_ancestor(user):
                replacement = prev_then_yield.operands[index]
            elif (next_else is not None and next_else.parent is not None
                  and prev_else_yield is not None and next_else.parent.is_ancestor(user)):
                replacement = prev_else_yield.operands[index]
            else:
                continue
            user.operands[use.index] = replacement
            rewriter.notify_op_modified(user)

    prev_count = len(prev_if.results)
    then_region = rewriter.move_region_contents_to_new_regions(prev_if.true_region)
    else_region = rewriter.move_region_contents_to_new_regions(prev_if.false_region)

    def merge(into: Block, block: Block) -> None:
        first_yield, second_yield = into.last_op, block.last_op
        assert first_yield is not None and second_yield is not None
        operands = [*first_yield.operands, *second_yield.operands]
        rewriter.erase(first_yield)
        rewriter.inline_block(block, InsertPoint.at_end(into))
        rewriter.replace(second_yield, scf.YieldOp(*operands))

    if next_then is not None:
        merge(then_region.block, next_then)
    if next_else is not None:
        if not else_region.blocks:
            source_region = next_else.parent
            assert source_region is not None
            else_region = rewriter.move_region_contents_to_new_regions(source_region)
        else:
            merge(else_region.block, next_else)

    combined = scf.IfOp(prev_if.cond, [*prev_if.result_types, *next_if.result_types],
                        then_region, else_region)
    rewriter.insert(combined, InsertPoint.before(next_if))
    rewriter.replace(prev_if, [], list(combined.results[:prev_count]))
    rewriter.replace(next_if, [], list(combined.results[prev_count:]))
    return True


def remove_static_condition(op: Operation, rewriter: PatternRewriter) -> bool:
    """if true/false -> the then/else body (xDSL has it too; kept for completeness)."""
    assert isinstance(op, scf.IfOp)
    condition = _bool_constant(op.cond)
    if condition is None:
        return False
    if condition:
        replace_op_with_region(rewriter, op, op.true_region)
    elif _else_block(op) is not None:
        replace_op_with_region(rewriter, op, op.false_region)
    else:
        rewriter.erase(op)
    return True


def remove_empty_else_branch(op: Operation, rewriter: PatternRewriter) -> bool:
    assert isinstance(op, scf.IfOp)
    if op.results:
        return False
    else_block = _else_block(op)
    if else_block is None or else_block.first_op is not else_block.last_op:
        return False
    new_if = scf.IfOp(op.cond, [], rewriter.move_region_contents_to_new_regions(
        op.true_region))
    _copy_attributes(op, new_if)
    rewriter.replace(op, new_if)
    return True


def combine_nested_ifs(op: Operation, rewriter: PatternRewriter) -> bool:
    """if a { if b { X } } -> if (a and b) { X }, selects for values yielded from outside."""
    assert isinstance(op, scf.IfOp)
    then_block = op.true_region.block
    then_yield = then_block.last_op
    nested = then_block.first_op
    if not isinstance(nested, scf.IfOp) or nested.next_op is not then_yield:
        return False
    else_block = _else_block(op)
    if else_block is not None and else_block.first_op is not else_block.last_op:
        return False
    nested_else = _else_block(nested)
    if nested_else is not None and nested_else.first_op is not nested_else.last_op:
        return False
    assert then_yield is not None
    then_values = list(then_yield.operands)
    else_values = list(else_block.last_op.operands) if else_block is not None else []
    nested_then_yield = _terminator(nested.true_region)
    to_select: list[int] = []
    for index, value in enumerate(then_values):
        if value.owner is nested:
            result_index = value.index  # type: ignore[union-attr]
            assert nested_else is not None
            if nested_else.last_op.operands[result_index] is not else_values[index]:
                return False
            then_values[index] = nested_then_yield.operands[result_index]
            continue
        if _directly_in(value, op.true_region):
            return False
        to_select.append(index)

    condition = xarith.AndIOp(op.cond, nested.cond)
    selects: dict[int, Operation] = {
        index: tarith.SelectOp(op.cond, then_values[index], else_values[index])
        for index in to_select}
    inner = rewriter.move_region_contents_to_new_regions(nested.true_region)
    rewriter.replace(_terminator(inner), scf.YieldOp(*then_values))
    else_region = Region(Block([scf.YieldOp(*else_values)])) if else_values else Region()
    new_if = scf.IfOp(condition.result, list(op.result_types), inner, else_region)
    results: list[SSAValue] = list(new_if.results)
    for index, select in selects.items():
        results[index] = select.results[0]
    rewriter.replace(op, [condition, *selects.values(), new_if], results)
    return True


# ---------------------------------------------------------------------------------------
# scf.while
# ---------------------------------------------------------------------------------------


def _forward_condition_values(op: Operation, rewriter: PatternRewriter,
                              targets: list[int | SSAValue]) -> None:
    """``op`` without some of the values its ``scf.condition`` forwards: ``targets[i]`` is
    ``i`` for a value kept, the index of another kept one that stands for it, or a value
    from outside that replaces it (as the ``after`` block's argument and as the result)."""
    assert isinstance(op, scf.WhileOp)
    kept = [i for i, target in enumerate(targets) if target == i]
    condition = _terminator(op.before_region)
    rewriter.replace(condition, scf.ConditionOp(
        condition.operands[0], *(condition.operands[1 + i] for i in kept)))
    after = op.after_region.block
    old_args = list(after.args)
    for i, target in enumerate(targets):
        if target != i:
            replacement = old_args[target] if isinstance(target, int) else target
            rewriter.replace_all_uses_with(old_args[i], replacement)
    for i in reversed(range(len(targets))):
        if targets[i] != i:
            rewriter.erase_block_argument(old_args[i])
    new_while = scf.WhileOp(op.arguments, [op.results[i].type for i in kept],
                            rewriter.move_region_contents_to_new_regions(op.before_region),
                            rewriter.move_region_contents_to_new_regions(op.after_region))
    _copy_attributes(op, new_while)
    results: list[SSAValue] = []
    for target in targets:
        if isinstance(target, int):
            results.append(new_while.results[kept.index(target)])
        else:
            results.append(target)
    rewriter.replace(op, new_while, results)


def _drop_before_args(op: scf.WhileOp, rewriter: PatternRewriter, dropped: list[int]) -> None:
    """``op`` without the ``before`` arguments ``dropped`` (their uses take the init value)
    and the init and yielded values that fed them."""
    before = op.before_region.block
    yield_op = _terminator(op.after_region)
    kept = [i for i in range(len(op.arguments)) if i not in dropped]
    rewriter.replace(yield_op, scf.YieldOp(*(yield_op.operands[i] for i in kept)))
    for i in reversed(dropped):
        rewriter.replace_all_uses_with(before.args[i], op.arguments[i])
        rewriter.erase_block_argument(before.args[i])
    new_while = scf.WhileOp([op.arguments[i] for i in kept], list(op.result_types),
                            rewriter.move_region_contents_to_new_regions(op.before_region),
                            rewriter.move_region_contents_to_new_regions(op.after_region))
    _copy_attributes(op, new_while)
    rewriter.replace(op, new_while, new_while.results)


def remove_loop_invariant_args_from_before_block(op: Operation, rewriter: PatternRewriter
                                                 ) -> bool:
    """A ``before`` argument that gets its init value back each iteration (yielded as is,
    or forwarded unchanged through the ``after`` block) is that init value."""
    assert isinstance(op, scf.WhileOp)
    before, after = op.before_region.block, op.after_region.block
    forwarded = _terminator(op.before_region).operands[1:]
    invariant = []
    for i, (arg, init, yielded) in enumerate(
            zip(before.args, op.arguments, _terminator(op.after_region).operands, strict=True)):
        passed_through = (isinstance(yielded, BlockArgument) and yielded.block is after
                          and forwarded[yielded.index] is arg)
        if yielded is init or passed_through:
            invariant.append(i)
    if invariant:
        _drop_before_args(op, rewriter, invariant)
    return bool(invariant)


def while_remove_unused_args(op: Operation, rewriter: PatternRewriter) -> bool:
    """A ``before`` argument without uses is dropped, with its init and yielded values."""
    assert isinstance(op, scf.WhileOp)
    unused = [i for i, arg in enumerate(op.before_region.block.args) if not arg.uses]
    if unused:
        _drop_before_args(op, rewriter, unused)
    return bool(unused)


def while_condition_truth(op: Operation, rewriter: PatternRewriter) -> bool:
    """The ``after`` block runs only when the condition holds: its argument that receives
    the condition is ``true`` (one constant, before the loop)."""
    assert isinstance(op, scf.WhileOp)
    condition = _terminator(op.before_region)
    args = [arg for arg, value in zip(op.after_region.block.args, condition.operands[1:],
                                      strict=True)
            if value is condition.operands[0] and arg.uses]
    if not args:
        return False
    true = xarith.ConstantOp(IntegerAttr(1, i1), i1)
    rewriter.insert_op(true, InsertPoint.before(op))
    for arg in args:
        rewriter.replace_all_uses_with(arg, true.result)
    return True


_INVERTED_CMPI = {"eq": "ne", "ne": "eq", "slt": "sge", "sge": "slt", "sle": "sgt",
                  "sgt": "sle", "ult": "uge", "uge": "ult", "ule": "ugt", "ugt": "ule"}


def while_cmp_cond(op: Operation, rewriter: PatternRewriter) -> bool:
    """The condition is ``cmpi p, x, y`` and ``x`` (or ``y``) is forwarded: in the after
    block, the same compare of that argument with the other side is true, the inverted
    one false."""
    assert isinstance(op, scf.WhileOp)
    condition = _terminator(op.before_region)
    cmp = owner(condition.operands[0], "arith.cmpi")
    if cmp is None:
        return False
    predicate = cmpi_predicate(cmp)
    changed = False
    for value, arg in zip(condition.operands[1:], op.after_region.block.args, strict=True):
        for side in (0, 1):
            if value is not cmp.operands[side]:
                continue
            for use in list(arg.uses):
                user = use.operation
                if user.name != "arith.cmpi" or user.operands[1 - side] is not cmp.operands[1 - side]:
                    continue
                if cmpi_predicate(user) == predicate:
                    holds = True
                elif cmpi_predicate(user) == _INVERTED_CMPI[predicate]:
                    holds = False
                else:
                    continue
                rewriter.replace(user, xarith.ConstantOp(IntegerAttr(int(holds), i1), i1))
                changed = True
    return changed


def while_unused_result(op: Operation, rewriter: PatternRewriter) -> bool:
    """A forwarded value used neither by the ``after`` block nor after the loop is dropped."""
    assert isinstance(op, scf.WhileOp)
    args = op.after_region.block.args
    targets: list[int | SSAValue] = list(range(len(op.results)))
    dropped = False
    for i, (result, arg) in enumerate(zip(op.results, args, strict=True)):
        if not result.uses and not arg.uses:
            targets[i] = _terminator(op.before_region).operands[1 + i]
            dropped = True
    if dropped:
        _forward_condition_values(op, rewriter, targets)
    return dropped


def while_remove_duplicated_results(op: Operation, rewriter: PatternRewriter) -> bool:
    """A value forwarded twice is forwarded once."""
    forwarded = _terminator(op.before_region).operands[1:]
    first: dict[SSAValue, int] = {}
    targets: list[int | SSAValue] = [first.setdefault(v, i) for i, v in enumerate(forwarded)]
    if len(first) == len(targets):
        return False
    _forward_condition_values(op, rewriter, targets)
    return True


def remove_loop_invariant_value_yielded(op: Operation, rewriter: PatternRewriter) -> bool:
    """A forwarded value defined outside the loop is used directly."""
    forwarded = _terminator(op.before_region).operands[1:]
    targets: list[int | SSAValue] = [
        i if _defined_inside(v, op) else v for i, v in enumerate(forwarded)]
    if all(isinstance(t, int) for t in targets):
        return False
    _forward_condition_values(op, rewriter, targets)
    return True


# ---------------------------------------------------------------------------------------
# The pattern
# ---------------------------------------------------------------------------------------

PATTERNS: dict[str, tuple[Rewrite, ...]] = {
    "scf.for": (for_iter_args_folder, simplify_trivial_loops),
    "scf.if": (fold_if_of_negation, combine_ifs, combine_nested_ifs, condition_propagation,
               convert_trivial_if_to_select, remove_empty_else_branch, remove_static_condition,
               remove_unused_results, replace_if_yield_with_condition_or_value),
    "scf.while": (remove_loop_invariant_args_from_before_block,
                  remove_loop_invariant_value_yielded, while_condition_truth,
                  while_cmp_cond, while_unused_result, while_remove_duplicated_results,
                  while_remove_unused_args),
}


@dataclass(frozen=True)
class ScfCanonicalization(RewritePattern):
    """The canonicalization patterns of one op (``op_name``), tried in order until one
    applies; other ops are left alone, so passes may apply it among other patterns."""

    op_name: str

    def restricted_to(self, op_type: type[Operation]) -> RewritePattern | None:
        """For the greedy driver (``greedy_driver``): ``op_name``'s ops only."""
        return self if op_type.name == self.op_name else None

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != self.op_name:
            return
        for pattern in PATTERNS[self.op_name]:
            if pattern(op, rewriter):
                return


for _op in (scf.ForOp, scf.IfOp, scf.WhileOp):
    add_canonicalization_patterns(_op, ScfCanonicalization(_op.name))

__all__: Sequence[str] = ["PATTERNS", "ScfCanonicalization"]
