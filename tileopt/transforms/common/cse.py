"""``cse``: common subexpression elimination (MLIR's ``-cse``), xDSL's driver.

xDSL's CSE merges only identical ops that are side-effect free, or that only read memory
and sit in the same block with no op that may write between them. So two ``tt.load`` of
the same pointer are merged only without a ``tt.store``/atomic in between, and ops of
unknown effect are never merged.

As MLIR's ``OperationEquivalence`` does, a commutative op (``arith.andi %a, %b``) is the
same expression as the one with its operands swapped (``arith.andi %b, %a``): the first
one stays. xDSL compares operands in order; its key class is replaced here (the driver
looks it up by name).
"""

from __future__ import annotations

from collections import Counter

import xdsl.transforms.common_subexpression_elimination as _xdsl_cse
from xdsl.ir import Operation
from xdsl.traits import Commutative

from tileopt.passes import register_op_pass
from tileopt.passes.statistics import add_statistic, collecting


class _OperationInfo(_xdsl_cse.OperationInfo):
    """xDSL's CSE key, with a commutative op's operands compared as a multiset."""

    def _commutative(self) -> bool:
        return self.op.has_trait(Commutative, value_if_unregistered=False)

    def __hash__(self):
        operands = self.op.operands
        operand_hash = (sum(hash(v) for v in operands) if self._commutative()
                        else hash(operands))
        return hash((self.name,
                     sum(hash(i) for i in self.op.attributes.items()),
                     sum(hash(i) for i in self.op.properties.items()),
                     hash(self.op.result_types), operand_hash))

    def __eq__(self, other: object):
        if not isinstance(other, _OperationInfo) or not self._commutative():
            return super().__eq__(other)
        return (hash(self) == hash(other) and self.name == other.name
                and self.op.attributes == other.op.attributes
                and self.op.properties == other.op.properties
                and Counter(self.op.operands) == Counter(other.op.operands)
                and self.op.result_types == other.op.result_types
                and all(s.is_structurally_equivalent(o)
                        for s, o in zip(self.op.regions, other.op.regions, strict=True)))


_xdsl_cse.OperationInfo = _OperationInfo  # type: ignore[misc]
cse = _xdsl_cse.cse


def _cse(op: Operation) -> None:
    if not collecting():
        cse(op)
        return
    before = sum(1 for _ in op.walk())
    cse(op)
    add_statistic("num-cse'd", before - sum(1 for _ in op.walk()),
                  "Number of operations CSE'd (or erased as dead)")


CSE = register_op_pass(
    "CSE", "cse",
    "Eliminate common subexpressions.", _cse)
CSE.idempotent = True  # what one run leaves has no two equivalent ops in scope
