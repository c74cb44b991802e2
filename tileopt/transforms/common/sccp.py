"""``sccp``: sparse conditional constant propagation over structured control flow (MLIR's
``-sccp``, run by Triton before lowering).

Each value gets a lattice value: a constant attribute, or "overdefined". Constants flow
through ops with folders (evaluated on constant operands, without touching the IR), through
``scf.if`` (only the branch a constant condition takes counts), and through ``scf.for`` /
``scf.while`` loop-carried values (a value that every iteration keeps equal to its constant
init stays constant; iterated to a fixpoint). Then, as MLIR's ``OperationFolder`` does,
every value found constant, those of existing constants too, is replaced by one
``arith.constant`` per value and type at the top of its function, made in MLIR's visit
order (so the constants come out in MLIR's order, without locations); ops all of whose
results were so replaced are erased if effect-free (other dead ops stay for later passes),
and ``scf.if`` with a constant condition is replaced by the branch it takes (MLIR leaves
that to canonicalize).

Sound by construction: ops with memory effects, unknown ops, function arguments and
induction variables are overdefined; only ops with folders produce constants (an op's
``HasFolder``, else arith's folders, which tileopt runs as canonicalization patterns).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike, HasFolder, IsolatedFromAbove

from tileopt.passes import register_op_pass
from tileopt.transforms.canonicalization.arith_patterns import FOLDERS as ARITH_FOLDERS
from tileopt.transforms.utils.loop_hoisting import is_memory_effect_free
from tileopt.transforms.utils.scf_rewrites import replace_with_block

OVERDEFINED = object()
_CONSTANT_KINDS = (IntegerAttr, FloatAttr, DenseIntOrFPElementsAttr)


def _meet(a: object, b: object) -> object:
    if a is None:
        return b
    if b is None:
        return a
    return a if a is not OVERDEFINED and a == b else OVERDEFINED


def _constant_value(op: Operation) -> Attribute | None:
    """The value of a constant op (attributes can be falsy: ``0 : i32`` is)."""
    value = op.properties.get("value")
    return op.attributes.get("value") if value is None else value


def _folder_of(op: Operation) -> Callable[[Operation], object] | None:
    """The op's folder: its ``HasFolder`` trait, else MLIR's arith folder (tileopt runs
    those as canonicalization patterns, since some rewrite in place)."""
    trait = op.get_trait(HasFolder)
    if trait is not None:
        return trait.fold
    return ARITH_FOLDERS.get(op.name)


class _Solver:
    def __init__(self) -> None:
        self.state: dict[SSAValue, object] = {}

    def get(self, value: SSAValue) -> object:
        return self.state.get(value, OVERDEFINED)

    def set_all(self, values, lattice) -> None:
        for value, item in zip(values, lattice, strict=True):
            self.state[value] = item

    # -- visiting --------------------------------------------------------------------

    def visit_block(self, block: Block) -> None:
        for op in block.ops:
            self.visit_op(op)

    def visit_region_overdefined(self, op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                self.set_all(block.args, [OVERDEFINED] * len(block.args))
                self.visit_block(block)

    def visit_op(self, op: Operation) -> None:
        if isinstance(op, scf.IfOp):
            self.visit_if(op)
        elif isinstance(op, scf.ForOp):
            self.visit_for(op)
        elif isinstance(op, scf.WhileOp):
            self.visit_while(op)
        elif op.regions:
            self.visit_region_overdefined(op)
            self.set_all(op.results, [OVERDEFINED] * len(op.results))
        else:
            self.set_all(op.results, self.evaluate(op))

    def _yielded(self, block: Block | None) -> list[object] | None:
        if block is None or block.last_op is None:
            return None
        return [self.get(v) for v in block.last_op.operands]

    def visit_if(self, op: scf.IfOp) -> None:
        cond = self.get(op.cond)
        then_block = op.true_region.blocks.first
        else_block = op.false_region.blocks.first
        for block in (then_block, else_block):
            if block is not None:
                self.visit_block(block)
        if isinstance(cond, IntegerAttr):
            taken = then_block if cond.value.data != 0 else else_block
            results = self._yielded(taken) or [OVERDEFINED] * len(op.results)
        else:
            then_y, else_y = self._yielded(then_block), self._yielded(else_block)
            results = [_meet(a, b) for a, b in zip(then_y or [OVERDEFINED] * len(op.results),
                                                   else_y or [OVERDEFINED] * len(op.results))]
        self.set_all(op.results, results)

    @staticmethod
    def _settle(init: list[object], rounds: int,
                run: Callable[[list[object]], list[object]]) -> list[object] | None:
        """Loop-carried values from ``init`` until they settle: each round runs the body on
        them (``run`` returns what it yields) and meets ``init`` with the result. None if
        they have not settled after ``rounds`` rounds."""
        args = list(init)
        for _ in range(rounds):
            new = [_meet(a, b) for a, b in zip(init, run(args))]
            if new == args:
                return args
            args = new
        return None

    def visit_for(self, op: scf.ForOp) -> None:
        body = op.body.block
        init = [self.get(v) for v in op.iter_args]
        self.state[body.args[0]] = OVERDEFINED

        def run(args: list[object]) -> list[object]:
            self.set_all(body.args[1:], args)
            self.visit_block(body)
            return self._yielded(body)

        settled = self._settle(init, len(init) + 2, run)
        if settled is None:
            settled = [OVERDEFINED] * len(init)
            run(settled)
        self.set_all(op.results, settled)

    def visit_while(self, op: scf.WhileOp) -> None:
        before = op.before_region.block
        after = op.after_region.block
        init = [self.get(v) for v in op.arguments]
        forwarded: list[object] = []

        def run(args: list[object]) -> list[object]:
            nonlocal forwarded
            self.set_all(before.args, args)
            self.visit_block(before)
            forwarded = self._yielded(before)[1:]  # scf.condition(%c) args...
            self.set_all(after.args, forwarded)
            self.visit_block(after)
            return self._yielded(after)

        if self._settle(init, len(init) + len(op.results) + 2, run) is None:
            self.set_all(before.args, [OVERDEFINED] * len(before.args))
            self.visit_block(before)
            forwarded = [OVERDEFINED] * len(after.args)
            self.set_all(after.args, forwarded)
            self.visit_block(after)
        self.set_all(op.results, forwarded)

    # -- folding ---------------------------------------------------------------------

    def evaluate(self, op: Operation) -> list[object]:
        overdefined = [OVERDEFINED] * len(op.results)
        if op.has_trait(ConstantLike):
            value = _constant_value(op)
            return [value] if isinstance(value, _CONSTANT_KINDS) and len(op.results) == 1 \
                else overdefined
        folder = _folder_of(op)
        if folder is None or not is_memory_effect_free(op):
            return overdefined
        operands = [self.get(v) for v in op.operands]
        if all(v is OVERDEFINED for v in operands):
            return overdefined
        scratch: dict[SSAValue, SSAValue] = {}
        constants: dict[SSAValue, Attribute] = {}
        for value, lattice in zip(op.operands, operands):
            if lattice is not OVERDEFINED and value not in scratch:
                const = arith.ConstantOp(lattice, value.type)
                scratch[value] = const.result
                constants[const.result] = lattice
        clone = op.clone(value_mapper=dict(scratch), clone_name_hints=False)
        try:
            folded = folder(clone)
        except Exception:
            folded = None
        finally:
            clone.drop_all_references()
        if not isinstance(folded, (list, tuple)):
            return overdefined  # no fold, or an in-place rewrite
        result: list[object] = []
        for item in folded:
            if isinstance(item, SSAValue):
                result.append(constants.get(item, self.get(item)))
            elif isinstance(item, _CONSTANT_KINDS):
                result.append(item)
            else:
                result.append(OVERDEFINED)
        return result


class _Constants:
    """The ``OperationFolder`` MLIR's sccp makes for its rewrite: it starts empty (the
    constants already there are not reused: they are replaced too), and makes one
    ``arith.constant`` per value and type in each function, each new one at the very top
    of the entry block, with no location."""

    def __init__(self) -> None:
        self.known: dict[Block, dict[tuple, SSAValue]] = {}

    def _entry(self, value: SSAValue) -> Block | None:
        block = value.owner.parent_block() if isinstance(value.owner, Operation) else value.owner
        scope = block.parent_op() if block is not None else None
        while scope is not None and not scope.has_trait(IsolatedFromAbove):
            scope = scope.parent_op()
        if scope is None or not scope.regions or not scope.regions[0].blocks:
            return None
        return scope.regions[0].blocks.first

    def get(self, value: SSAValue, attr: Attribute) -> SSAValue | None:
        if not isinstance(attr, _CONSTANT_KINDS) or getattr(attr, "type", None) != value.type:
            return None
        entry = self._entry(value)
        if entry is None:
            return None
        known = self.known.setdefault(entry, {})
        key = (attr, value.type)
        if key not in known:
            const = arith.ConstantOp(attr, value.type)
            Rewriter.insert_op(const, InsertPoint.at_start(entry))
            known[key] = const.result
        return known[key]


def _inline_taken_branch(op: scf.IfOp, take_then: bool) -> None:
    block = (op.true_region if take_then else op.false_region).blocks.first
    if block is None:
        if not op.results:
            op.parent_block().erase_op(op)
        return
    replace_with_block(op, block)
    op.parent_block().erase_op(op, safe_erase=False)


def sccp(root: Operation) -> None:
    solver = _Solver()
    for region in root.regions:
        for block in region.blocks:
            solver.set_all(block.args, [OVERDEFINED] * len(block.args))
            solver.visit_block(block)
    # As MLIR's rewrite: blocks from a stack (a region's blocks pushed in reverse, so the
    # regions of a block's last op come next), each op's results replaced by the folder's
    # constants, the op erased once all are and it is effect-free, then the block's
    # arguments. The order decides the order of the constants at the top.
    taken = [(op, solver.get(op.cond)) for op in root.walk() if isinstance(op, scf.IfOp)]
    constants = _Constants()
    blocks = [block for region in root.regions for block in reversed(region.blocks)]
    while blocks:
        block = blocks.pop()
        for op in list(block.ops):
            replaced = bool(op.results)
            for result in op.results:
                replaced &= _replace_with_constant(solver, constants, result)
            if replaced and not op.regions and is_memory_effect_free(op):
                op.parent_block().erase_op(op)
                continue
            blocks.extend(b for region in op.regions for b in reversed(region.blocks))
        for arg in block.args:
            _replace_with_constant(solver, constants, arg)
    # scf.if with a constant condition: keep only the branch taken.
    for op, cond in taken:
        if isinstance(cond, IntegerAttr) and op.parent is not None:
            _inline_taken_branch(op, cond.value.data != 0)


def _replace_with_constant(solver: _Solver, constants: _Constants, value: SSAValue) -> bool:
    lattice = solver.get(value)
    if lattice is OVERDEFINED:
        return False
    replacement = constants.get(value, lattice)
    if replacement is None:
        return False
    if replacement is not value:
        value.replace_all_uses_with(replacement)
    return True


SCCP = register_op_pass(
    "SCCP", "sccp",
    "Sparse conditional constant propagation (through folders, scf.if and loops).", sccp)
