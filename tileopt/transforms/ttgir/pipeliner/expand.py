"""ExpandLoops, the second phase of ``tritongpu-pipeline``: the modulo expansion of each
scheduled loop (MLIR's ``scf`` loop pipeliner as Triton 3.6 forks it, with no epilogue
peeling), then the predication of the ops that may run past the loop's end.

With ``S`` the schedule's last stage, an op of stage ``s`` works, in the expanded loop's
iteration ``i``, on the original iteration ``i + S - s``:

- the prologue runs iterations ``0 .. S-1`` of the ops of the stages that get there
  (stage ``s`` of iteration ``j`` for ``j + s <= S - 1``), each guarded by
  ``lb + j * step < ub``;
- the loop keeps its bounds; a value used some stages after its definition travels in new
  iter args, one per stage crossed; ops of stage ``s < S`` are guarded by
  ``iv < ub - (S - s) * step``; the induction variable seen by stage ``s`` is
  ``iv + (S - s) * step``.

Guarded ops are first wrapped in ``ttg.mask`` ops, which keep folding from seeing through
them; the arith canonicalization then runs (with folding, dead-code removal and constant
uniquing, as MLIR's greedy driver does), and finally every mask is dissolved: its op is
predicated (``predicate_op``: a mask operand gets ``& splat(pred)``; ops without memory
effects run unguarded).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType, i1, i32
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from tileopt.dialects import arith as tensor_arith
from tileopt.dialects.canonicalization import canonicalization_patterns
from tileopt.dialects.tt.shapes import SplatOp
from tileopt.dialects.tt_types import i1_same_shape
from tileopt.ir import make_context
from tileopt.ir.locations import value_location
from tileopt.passes import PassFailure
from tileopt.transforms.ttgir.pipeliner.schedule import (
    CoarseSchedule,
    body_ops,
    defined_inside,
)
from tileopt.transforms.canonicalization.arith_patterns import ArithFolding
from tileopt.transforms.utils.greedy_rewrite import apply_patterns_greedily
from tileopt.transforms.utils.builder import located
from tileopt.transforms.utils.loop_hoisting import is_memory_effect_free
from tileopt.transforms.utils.scf_rewrites import locate_loop_arguments


@irdl_op_definition
class MaskOp(IRDLOperation):
    """``ttg.mask %pred { ... }``: the op of its region runs only where ``pred`` holds.
    Lives only inside ExpandLoops (the phase dissolves every one it made)."""

    name = "ttg.mask"

    pred = operand_def(i1)
    res = var_result_def()
    body = region_def("single_block")


@irdl_op_definition
class MaskReturnOp(IRDLOperation):
    name = "ttg.mask.return"

    values = var_operand_def()
    traits = traits_def(IsTerminator())


def wrap_in_mask(op: Operation, pred: SSAValue) -> Operation:
    """Move ``op`` into a new ``ttg.mask`` on ``pred`` at its place; the mask's results
    replace ``op``'s."""
    block = Block()
    mask = located(MaskOp.build(operands=[pred], result_types=[list(op.result_types)],
                                regions=[Region(block)]), op.location)
    Rewriter.insert_op(mask, InsertPoint.before(op))
    for old, new in zip(op.results, mask.results, strict=True):
        old.replace_all_uses_with(new)
    op.detach()
    block.add_op(op)
    block.add_op(located(MaskReturnOp.build(operands=[list(op.results)]), op.location))
    return mask


# ---------------------------------------------------------------------------------------
# Predication
# ---------------------------------------------------------------------------------------

_UNGUARDED = ("ttg.async_commit_group", "ttg.async_wait", "ttg.local_load",
              "ttg.local_store", "llvm.intr.assume", "ttng.fence_async_shared")
# Ops whose optional mask operand (at this index) takes the predicate.
_MASKED = {"tt.load": (0, 1), "tt.store": (0, 2), "tt.atomic_rmw": (0, 2),
           "ttg.async_copy_global_to_local": (0, 2)}
# Ops whose i1 predicate is their last operand (optional for wait_barrier).
_LAST_PREDICATE = ("ttng.barrier_expect", "ttng.async_tma_copy_global_to_local",
                   "ttng.wait_barrier")


def _guard_mask(pred: SSAValue, like: SSAValue, current: SSAValue | None,
                before: Operation) -> SSAValue:
    """``pred`` splat to ``like``'s shape, and-ed with ``current`` (Triton's getPredMask,
    at the predicate's location)."""
    mask_type = i1_same_shape(like.type)
    mask = pred
    location = value_location(pred)
    if isinstance(mask_type, TensorType):
        splat = located(SplatOp.build(operands=[pred], result_types=[mask_type]), location)
        Rewriter.insert_op(splat, InsertPoint.before(before))
        mask = splat.results[0]
    if current is not None:
        both = located(arith.AndIOp(mask, current), location)
        Rewriter.insert_op(both, InsertPoint.before(before))
        mask = both.result
    return mask


def predicate_op(op: Operation, pred: SSAValue) -> Operation:
    """Make ``op`` act only where ``pred`` holds (Triton's ``predicateOp``)."""
    if is_memory_effect_free(op) or op.name in _UNGUARDED:
        return op
    if op.name == "scf.if":
        op.operands[0] = _guard_mask(pred, op.operands[0], op.operands[0], op)
        return op
    if op.name in _MASKED:
        like_index, mask_index = _MASKED[op.name]
        segments = _segment_values(op)
        present = segments[mask_index] if segments is not None else len(op.operands) > mask_index
        current = op.operands[mask_index] if present else None
        mask = _guard_mask(pred, op.operands[like_index], current, op)
        if current is not None:
            op.operands[mask_index] = mask
        else:
            _insert_operand(op, mask_index, mask)
        return op
    if op.name in _LAST_PREDICATE:
        has_pred = op.name != "ttng.wait_barrier" or len(op.operands) == 3
        current = op.operands[-1] if has_pred else None
        mask = _guard_mask(pred, pred, current, op)
        if current is not None:
            op.operands[len(op.operands) - 1] = mask
        else:
            _insert_operand(op, 2, mask)
        return op
    raise PassFailure(op, f"the pipeliner cannot predicate '{op.name}'")


def _segment_values(op: Operation) -> list[int] | None:
    sizes = op.properties.get("operandSegmentSizes")
    if sizes is None:
        return None
    return list(sizes.get_values())


def _insert_operand(op: Operation, segment: int, value: SSAValue) -> None:
    """Give an absent optional operand (segment ``segment``) the value ``value``."""
    sizes = _segment_values(op)
    operands = list(op.operands)
    if sizes is None:  # the op's only optional operand comes last
        op.operands = [*operands, value]
        return
    operands.insert(sum(sizes[:segment]), value)
    op.operands = operands
    sizes[segment] = 1
    op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, sizes)


# ---------------------------------------------------------------------------------------
# The expander
# ---------------------------------------------------------------------------------------


def _constant_int(value: SSAValue) -> int | None:
    if isinstance(value, OpResult) and value.op.name == "arith.constant":
        attr = value.op.properties.get("value") or value.op.attributes.get("value")
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


@dataclass
class LiveRange:
    def_stage: int
    last_use_stage: int


PredicateFn = Callable[[Operation, SSAValue], Operation]
"""Guards an op of the prologue or the peeled epilogue by a predicate; returns the op
that replaces it (MLIR's ``predicateFn``)."""
AnnotateFn = Callable[[Operation, str, int], None]
"""Called on each op the prologue (``"prologue"``) or epilogue (``"epilogue"``) emits,
after its predication, with the prologue/epilogue iteration (MLIR's ``annotateFn``)."""


class LoopExpander:
    """``peel_epilogue``: the loop stops ``max_stage`` iterations early and the stages of
    its last iterations run after it, each guarded by ``total_iterations >= i`` where the
    bounds are dynamic (no op of the loop is predicated then); else the loop runs every
    iteration with its late stages predicated."""

    def __init__(self, loop: scf.ForOp, schedule: CoarseSchedule,
                 peel_epilogue: bool = False, predicate: PredicateFn = wrap_in_mask,
                 annotate: AnnotateFn | None = None):
        self.loop = loop
        self.peel_epilogue = peel_epilogue
        self.predicate = predicate
        self.annotate = annotate
        ordered = schedule.ops_in_order(loop)
        self.order = [op for op, _, _ in ordered]
        self.stages = {op: stage for op, stage, _ in ordered}
        self.max_stage = max(self.stages.values(), default=0)
        self.block = loop.body.block
        self.terminator = self.block.last_op
        self.lb, self.ub, self.step = loop.lb, loop.ub, loop.step
        self.dynamic = any(_constant_int(v) is None for v in (self.lb, self.ub, self.step))
        self.versions: dict[SSAValue, list[SSAValue | None]] = {}

    def can_expand(self) -> bool:
        return all(op in self.stages for op in body_ops(self.loop))

    def set_version(self, key: SSAValue, value: SSAValue, index: int) -> None:
        # One slot past the last stage: the loop's results for values of stage 0.
        slots = self.versions.setdefault(key, [None] * (self.max_stage + 2))
        slots[index] = value

    def _add(self, op: Operation) -> SSAValue:
        op.location = self.loop.location  # Triton builds them all at forOp.getLoc()
        Rewriter.insert_op(op, self.point)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def _const(self, value: int, like: SSAValue) -> SSAValue:
        return self._add(arith.ConstantOp(IntegerAttr(value, like.type)))

    def _iv_at(self, base: SSAValue, count: int) -> SSAValue:
        """``base + step * count``."""
        scaled = self._add(arith.MuliOp(self.step, self._const(count, self.step)))
        return self._add(arith.AddiOp(base, scaled))

    # -- prologue ------------------------------------------------------------------------

    def emit_prologue(self) -> None:
        self.point = InsertPoint.before(self.loop)
        for arg, init in zip(self.block.args[1:], self.loop.iter_args, strict=True):
            self.set_version(arg, init, 0)
        yielded = list(self.terminator.operands)
        # an iter arg the loop yields a value from outside to holds that value from the
        # second iteration on (Triton's expander)
        for arg, value in zip(self.block.args[1:], yielded, strict=True):
            if not defined_inside(value, self.loop):
                for i in range(1, self.max_stage):
                    self.set_version(arg, value, i)
        predicates: list[SSAValue | None] = [None] * self.max_stage
        for i in range(self.max_stage):
            # one lb + i * step for the induction variable and the predicate (Triton's
            # expander; MLIR's upstream one builds it twice)
            iv = self._iv_at(self.lb, i)
            self.set_version(self.block.args[0], iv, i)
            if self.dynamic:
                predicates[i] = self._add(tensor_arith.CmpiOp(iv, self.ub, "slt"))
            for op in self.order:
                stage = self.stages[op]
                if stage > i:
                    continue
                version = i - stage
                clone = self._clone_for_prologue(op, version)
                pred = predicates[version]
                if pred is not None:
                    clone = self.predicate(clone, pred)
                if self.annotate is not None:
                    self.annotate(clone, "prologue", i)
                for index, result in enumerate(op.results):
                    source = clone.results[index]
                    for position, value in enumerate(yielded):
                        if value is not result:
                            continue
                        arg = self.block.args[position + 1]
                        if pred is not None and self.loop.results[position].uses:
                            previous = self.versions[arg][version]
                            source = self._add(tensor_arith.SelectOp(pred, source, previous))
                        self.set_version(arg, source, version + 1)
                    self.set_version(result, clone.results[index], version)

    def _clone_for_prologue(self, op: Operation, version: int) -> Operation:
        clone = op.clone()
        for inner in clone.walk():
            for n, operand in enumerate(inner.operands):
                if isinstance(operand, OpResult) and defined_inside(operand, clone):
                    continue
                slots = self.versions.get(operand)
                if slots is not None and slots[version] is not None:
                    inner.operands[n] = slots[version]
        Rewriter.insert_op(clone, self.point)
        return clone

    # -- values that cross stages -------------------------------------------------------

    def definition(self, value: SSAValue) -> tuple[Operation | None, int]:
        distance = 0
        if isinstance(value, BlockArgument):
            if value.block is not self.block or value.index == 0:
                return None, 0
            distance = 1
            value = self.terminator.operands[value.index - 1]
        if not isinstance(value, OpResult):
            return None, 0
        return value.op, distance

    def cross_stage_values(self) -> dict[SSAValue, LiveRange]:
        ranges: dict[SSAValue, LiveRange] = {}
        for op in self.order:
            stage = self.stages[op]
            for inner in op.walk():
                for operand in inner.operands:
                    if inner is not op and defined_inside(operand, op):
                        continue
                    definition, distance = self.definition(operand)
                    if definition is None or definition not in self.stages:
                        continue
                    def_stage = self.stages[definition]
                    if def_stage == stage or def_stage == stage + distance:
                        continue
                    entry = ranges.setdefault(operand, LiveRange(def_stage, 0))
                    entry.def_stage = def_stage
                    entry.last_use_stage = max(entry.last_use_stage, stage)
        return ranges

    # -- the kernel ----------------------------------------------------------------------

    def create_kernel_loop(self, ranges: dict[SSAValue, LiveRange]):
        inits: list[SSAValue] = []
        for position, value in enumerate(self.terminator.operands):
            definition = value.op if isinstance(value, OpResult) else None
            if definition is not None and definition in self.stages:
                arg = self.block.args[position + 1]
                inits.append(self.versions[arg][self.max_stage - self.stages[definition]])
            else:
                inits.append(self.loop.iter_args[position])
        arg_of: dict[tuple[SSAValue, int], int] = {}
        for value, live in ranges.items():
            span = live.last_use_stage - live.def_stage
            for k in range(span):
                inits.append(self.versions[value][self.max_stage - live.last_use_stage + k])
                arg_of[(value, span - k)] = len(inits) - 1
        block = Block(arg_types=[self.block.args[0].type, *(v.type for v in inits)])
        ub = self.ub
        if self.peel_epilogue:  # the epilogue runs the last max_stage iterations
            self.point = InsertPoint.before(self.loop)
            ub = self._add(arith.SubiOp(ub, self._add(arith.MuliOp(
                self.step, self._const(self.max_stage, self.step)))))
        kernel = scf.ForOp(self.lb, ub, self.step, inits, Region(block))
        kernel.attributes.update(self.loop.attributes)
        kernel.location = self.loop.location
        locate_loop_arguments(block, self.loop.location, dict(zip(block.args[1:], inits)))
        Rewriter.insert_op(kernel, InsertPoint.before(self.loop))
        return kernel, arg_of

    def create_kernel(self, kernel: scf.ForOp, ranges: dict[SSAValue, LiveRange],
                      arg_of: dict[tuple[SSAValue, int], int]) -> None:
        new_block = kernel.body.block
        new_iv = new_block.args[0]
        new_args = new_block.args[1:]
        mapping: dict[SSAValue, SSAValue] = {self.block.args[0]: new_iv}
        for old, new in zip(self.block.args[1:], new_args):
            mapping[old] = new
        self.point = InsertPoint.at_end(new_block)
        predicates: list[SSAValue | None] = [None] * (self.max_stage + 1)
        for i in range(0 if self.peel_epilogue else self.max_stage):
            scaled = self._add(arith.MuliOp(self.step, self._const(self.max_stage - i,
                                                                   self.step)))
            bound = self._add(arith.SubiOp(self.ub, scaled))
            predicates[i] = self._add(tensor_arith.CmpiOp(new_iv, bound, "slt"))
        for op in self.order:
            use_stage = self.stages[op]
            clone = op.clone(value_mapper=mapping)
            Rewriter.insert_op(clone, self.point)
            originals = [(inner, n, operand) for inner in op.walk()
                         for n, operand in enumerate(inner.operands)]
            clones = [(inner, n) for inner in clone.walk() for n in range(len(inner.operands))]
            for (orig_inner, n, operand), (new_inner, _) in zip(originals, clones, strict=True):
                if operand is self.block.args[0]:
                    self.point = InsertPoint.before(clone)
                    offset = self._add(arith.MuliOp(self.step, self._const(
                        self.max_stage - use_stage, self.step)))
                    new_inner.operands[n] = self._add(arith.AddiOp(new_iv, offset))
                    self.point = InsertPoint.at_end(new_block)
                    continue
                source = operand
                if isinstance(operand, BlockArgument) and operand.block is self.block:
                    ret = self.terminator.operands[operand.index - 1]
                    if not isinstance(ret, OpResult):
                        continue
                    dep_stage = self.stages.get(ret.op)
                    if dep_stage is None or dep_stage == use_stage:
                        continue
                    if dep_stage == use_stage + 1:
                        new_inner.operands[n] = mapping.get(ret, ret)
                        continue
                    source = ret
                if not isinstance(source, OpResult):
                    continue
                def_stage = self.stages.get(source.op)
                if def_stage is None or def_stage == use_stage:
                    continue
                index = arg_of[(operand, use_stage - def_stage)]
                new_inner.operands[n] = new_args[index]
            pred = predicates[use_stage]
            if pred is not None:
                mask = wrap_in_mask(clone, pred)
                for old, new in zip(op.results, mask.results):
                    mapping[old] = new
        yields: list[SSAValue] = []
        for position, value in enumerate(self.terminator.operands):
            source = mapping.get(value, value)
            if self.loop.results[position].uses and not self.peel_epilogue:
                definition, _ = self.definition(value)
                stage = self.stages.get(definition) if definition is not None else None
                if stage is not None and stage < self.max_stage:
                    pred = predicates[stage]
                    source = self._add(tensor_arith.SelectOp(pred, source,
                                                             new_block.args[position + 1]))
            yields.append(source)
        for value, live in ranges.items():
            span = live.last_use_stage - live.def_stage
            for _ in range(1, span):
                yields.append(new_block.args[len(yields) + 1 + 1])
            yields.append(mapping.get(value, value))
        self._add(scf.YieldOp(*yields))

    # -- the peeled epilogue -----------------------------------------------------------

    def map_kernel_results(self, kernel: scf.ForOp, ranges: dict[SSAValue, LiveRange],
                           arg_of: dict[tuple[SSAValue, int], int]) -> None:
        """The loop's results as the versions the epilogue reads."""
        for position, value in enumerate(self.terminator.operands):
            definition = value.op if isinstance(value, OpResult) else None
            if definition is not None and definition in self.stages:
                self.set_version(self.block.args[position + 1], kernel.results[position],
                                 self.max_stage - self.stages[definition] + 1)
            else:  # yields a value from outside the loop: every version is that value
                for version in range(1, self.max_stage + 1):
                    self.set_version(self.block.args[position + 1], value, version)
        for value, live in ranges.items():
            span = live.last_use_stage - live.def_stage
            first = self.max_stage - live.last_use_stage + 1
            for n in range(span):
                self.set_version(value, kernel.results[arg_of[(value, span - n)]], first + n)

    def emit_epilogue(self, kernel: scf.ForOp) -> list[SSAValue]:
        """Stages ``i..max_stage`` of the last iterations, for ``i = 1..max_stage``; the
        values that replace the loop's results."""
        self.point = InsertPoint.after(kernel)
        returns = list(kernel.results[:len(self.loop.results)])
        zero, one = self._const(0, self.lb), self._const(1, self.lb)
        minus_one = self._const(-1, self.lb)
        # total = (ub - lb + step + (step < 0 ? 1 : -1)) / step
        negative = self._add(tensor_arith.CmpiOp(self.step, zero, "slt"))
        decrement = self._add(tensor_arith.SelectOp(negative, one, minus_one))
        span = self._add(arith.SubiOp(self.ub, self.lb))
        span = self._add(arith.AddiOp(self._add(arith.AddiOp(span, self.step)), decrement))
        total = self._add(arith.DivSIOp(span, self.step))
        # Start at zero where the loop ran fewer than max_stage times (as the prologue).
        start = self._add(arith.SubiOp(total, self._const(self.max_stage, self.lb)))
        start = self._add(arith.MaxSIOp(zero, start))
        predicates: list[SSAValue | None] = [None] * (self.max_stage + 1)
        for i in range(1, self.max_stage + 1):
            iv = self._add(arith.AddiOp(self.lb, self._add(arith.MuliOp(self.step, start))))
            self.set_version(self.block.args[0], iv, i)
            start = self._add(arith.AddiOp(start, one))
            if self.dynamic:
                predicates[i] = self._add(tensor_arith.CmpiOp(
                    total, self._const(i, self.lb), "sge"))
        yielded = list(self.terminator.operands)
        for i in range(1, self.max_stage + 1):
            carried: dict[int, tuple[SSAValue, int]] = {}
            for op in self.order:
                if self.stages[op] < i:
                    continue
                version = self.max_stage - self.stages[op] + i
                clone = self._clone_for_prologue(op, version)
                if self.annotate is not None:
                    self.annotate(clone, "epilogue", i - 1)
                if predicates[version] is not None:
                    clone = self.predicate(clone, predicates[version])
                for index, result in enumerate(op.results):
                    self.set_version(result, clone.results[index], version)
                    for position, value in enumerate(yielded):
                        if value is not result:
                            continue
                        returns[position] = clone.results[index]
                        arg = self.block.args[position + 1]
                        carried[position] = (arg, version)
                        if version + 1 <= self.max_stage:
                            self.set_version(arg, clone.results[index], version + 1)
            if not self.dynamic:
                continue
            for position, (arg, version) in sorted(carried.items()):
                pred = predicates[version]
                chosen = self._add(tensor_arith.SelectOp(pred, returns[position],
                                                         self.versions[arg][version]))
                returns[position] = chosen
                if version + 1 <= self.max_stage:
                    self.set_version(arg, chosen, version + 1)
        return returns

    def run(self) -> scf.ForOp:
        self.emit_prologue()
        ranges = self.cross_stage_values()
        kernel, arg_of = self.create_kernel_loop(ranges)
        self.create_kernel(kernel, ranges, arg_of)
        count = len(self.loop.results)
        results = list(kernel.results[:count])
        if self.peel_epilogue:
            self.map_kernel_results(kernel, ranges, arg_of)
            results = self.emit_epilogue(kernel)
        for old, new in zip(self.loop.results, results):
            old.replace_all_uses_with(new)
        Rewriter.erase_op(self.loop)
        return kernel


# ---------------------------------------------------------------------------------------
# The phase
# ---------------------------------------------------------------------------------------


class ArithCanonicalization(RewritePattern):
    """The ``arith`` dialect's canonicalization patterns (and folders), as the pipeliner
    applies them."""

    def restricted_to(self, op_type: type[Operation]) -> RewritePattern | None:
        """For the greedy driver (``greedy_driver``): an arith op class's patterns."""
        if not op_type.name.startswith("arith."):
            return None
        patterns = canonicalization_patterns(op_type)
        return _FirstApplying(patterns) if patterns else None

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not op.name.startswith("arith."):
            return
        _FirstApplying(canonicalization_patterns(type(op))).match_and_rewrite(op, rewriter)


class _FirstApplying(RewritePattern):
    """``patterns`` tried in order until one applies."""

    def __init__(self, patterns: tuple[RewritePattern, ...]):
        self.patterns = patterns

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        for pattern in self.patterns:
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return


# Shared by every run (stateless): the greedy driver keeps its plans for them.
ARITH_CANONICALIZATION_PATTERNS = [ArithCanonicalization()]
_ARITH_FOLDING = [ArithFolding()]


def resolve_masks(ctx: Context, module: Operation, arith_patterns: bool = True) -> None:
    """Simplify the arithmetic, then predicate every masked op in its mask's place.
    Without ``arith_patterns`` the simplification only folds and removes dead ops (the
    arith dialect's own canonicalization patterns, which Triton's AMD pipeliner asks
    for, are empty: no op's patterns run)."""
    apply_patterns_greedily(ctx, module, ARITH_CANONICALIZATION_PATTERNS if arith_patterns
                            else _ARITH_FOLDING)
    for mask in [op for op in module.walk() if isinstance(op, MaskOp)]:
        body = mask.body.block
        terminator = body.last_op
        assert terminator is not None
        for inner in list(body.ops):
            if inner is terminator:
                break
            inner.detach()
            Rewriter.insert_op(inner, InsertPoint.before(mask))
            predicate_op(inner, mask.pred)
        for old, new in zip(mask.results, terminator.operands, strict=True):
            old.replace_all_uses_with(new)
        Rewriter.erase_op(mask)


def expand_loops(module: Operation, ctx: Context | None = None) -> None:
    ctx = ctx or make_context()
    for loop in [op for op in module.walk() if isinstance(op, scf.ForOp)]:
        schedule = CoarseSchedule.deserialize(loop)
        if schedule is None:
            continue
        expander = LoopExpander(loop, schedule)
        if expander.can_expand():
            expander.run()
    resolve_masks(ctx, module)
