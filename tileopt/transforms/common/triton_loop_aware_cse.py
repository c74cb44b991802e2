"""``triton-loop-aware-cse``: CSE that also merges equivalent ``scf.for`` iter args
(Triton's ``TritonLoopAwareCSE``).

Plain CSE cannot see that two loop-carried values are always equal: their block arguments
are different values. Two iter args ``i`` and ``j`` are equal when they start from the same
init value and the values yielded for them are equal *assuming* ``i == j`` (that assumption
is what breaks the recursion through the loop back edge). Yielded values are equal when
they are the same value, or results (same index) of two memory-effect-free, region-free ops
with the same name, attributes, properties and result types whose operands are pairwise
equal in the same sense. Equal args are merged into the first; the loop then no longer
needs the others: each drops out (its arg and result replaced by the kept ones and its init).
CSE runs before (so equal values from outside the loop are the same value) and after.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from tileopt.passes import Pass, register_pass
from tileopt.transforms.common.cse import cse
from tileopt.transforms.utils.loop_hoisting import is_memory_effect_free


class _LoopEquivalence:
    def __init__(self, loop: scf.ForOp):
        self.loop = loop
        self.body: Block = loop.body.block
        self.yielded = list(self.body.last_op.operands)
        self.assumed: list[tuple[int, int]] = []

    def args_equal(self, i: int, j: int) -> bool:
        if i == j:
            return True
        if self.loop.iter_args[i] is not self.loop.iter_args[j]:
            return False
        if (i, j) in self.assumed:
            return True
        self.assumed.append((i, j))
        try:
            return self.values_equal(self.yielded[i], self.yielded[j])
        finally:
            self.assumed.pop()

    def values_equal(self, a: SSAValue, b: SSAValue) -> bool:
        if a is b:
            return True
        if a.type != b.type:
            return False
        a_block = a.block if isinstance(a, BlockArgument) else a.owner.parent
        b_block = b.block if isinstance(b, BlockArgument) else b.owner.parent
        if a_block is not self.body or b_block is not self.body:
            return False  # distinct values from outside the loop body
        if isinstance(a, BlockArgument) != isinstance(b, BlockArgument):
            return False
        if isinstance(a, BlockArgument):
            assert isinstance(b, BlockArgument)
            if a.index == 0 or b.index == 0:
                return False  # the induction variable
            return self.args_equal(a.index - 1, b.index - 1)
        assert isinstance(a, OpResult) and isinstance(b, OpResult)
        if a.index != b.index:
            return False
        return self._ops_equal(a.op, b.op)

    def _ops_equal(self, x: Operation, y: Operation) -> bool:
        if x.regions or y.regions:
            return False
        if not is_memory_effect_free(x) or not is_memory_effect_free(y):
            return False
        if (x.name != y.name or x.attributes != y.attributes or x.properties != y.properties
                or x.result_types != y.result_types or len(x.operands) != len(y.operands)):
            return False
        return all(self.values_equal(p, q) for p, q in zip(x.operands, y.operands))


def merge_equivalent_iter_args(loop: scf.ForOp) -> bool:
    count = len(loop.iter_args)
    if count < 2:
        return False
    equivalence = _LoopEquivalence(loop)
    leader = list(range(count))
    for i in range(count):
        if leader[i] != i:
            continue
        for j in range(i + 1, count):
            if leader[j] == j and equivalence.args_equal(i, j):
                leader[j] = i
    changed = False
    body = loop.body.block
    yield_op = body.last_op
    for j in range(count):
        i = leader[j]
        if i == j:
            continue
        body.args[j + 1].replace_all_uses_with(body.args[i + 1])
        # Short-circuit j: it now yields itself, so the loop no longer computes it.
        yield_op.operands[j] = body.args[j + 1]
        loop.results[j].replace_all_uses_with(loop.results[i])
        changed = True
    return changed


def drop_self_yielded_iter_args(loop: scf.ForOp) -> None:
    """Remove iter args yielded unchanged: they are their init on every iteration."""
    body = loop.body.block
    yield_op = body.last_op
    keep = [k for k, value in enumerate(yield_op.operands) if value is not body.args[k + 1]]
    if len(keep) == len(yield_op.operands):
        return
    for k, value in enumerate(yield_op.operands):
        if k not in keep:
            body.args[k + 1].replace_all_uses_with(loop.iter_args[k])
            loop.results[k].replace_all_uses_with(loop.iter_args[k])
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, [loop.iter_args[k] for k in keep],
                         loop.detach_region(loop.body))
    for name, value in loop.attributes.items():
        new_loop.attributes[name] = value
    new_loop.location = loop.location
    new_body = new_loop.body.block
    for k in reversed([k for k in range(len(yield_op.operands)) if k not in keep]):
        new_yield = new_body.last_op
        new_yield.operands = [v for n, v in enumerate(new_yield.operands) if n != k]
        new_body.erase_arg(new_body.args[k + 1])
    for new_index, k in enumerate(keep):
        loop.results[k].replace_all_uses_with(new_loop.results[new_index])
    parent = loop.parent_block()
    parent.insert_op_before(new_loop, loop)
    parent.erase_op(loop)


@register_pass
class TritonLoopAwareCSE(Pass):
    """CSE that also merges scf.for iter args that always hold equal values."""

    name = "triton-loop-aware-cse"
    anchor = None

    def apply(self, ctx: Context, op: Operation) -> None:
        cse(op)
        touched = [loop for loop in op.walk() if isinstance(loop, scf.ForOp)
                   and merge_equivalent_iter_args(loop)]
        if not touched:
            return
        cse(op)
        for loop in touched:
            drop_self_yielded_iter_args(loop)
