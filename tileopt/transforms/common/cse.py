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

from tileopt.dialects.xdsl_fast_paths import operation_info_hash
from tileopt.passes import register_op_pass
from tileopt.passes.statistics import add_statistic, collecting


class _OperationInfo(_xdsl_cse.OperationInfo):
    """xDSL's CSE key, with a commutative op's operands compared as a multiset."""

    def _commutative(self) -> bool:
        return self.op.has_trait(Commutative, value_if_unregistered=False)

    def __hash__(self):
        # each attribute's and type's hash once per object (xdsl_fast_paths): a tensor
        # type's hash goes through its layout; and once per key (``_KnownOps``)
        found = self.__dict__.get("_hash")
        if found is None:
            found = self.__dict__["_hash"] = operation_info_hash(
                self, sum(map(hash, self.op._operands))  # noqa: SLF001
                if self._commutative() else None)
        return found

    def __eq__(self, other: object):
        # xDSL's comparison without its first step, ``hash(self) == hash(other)``: equal
        # fields hash alike, and a dict compares the hashes before calling this
        if not isinstance(other, _OperationInfo):
            return super().__eq__(other)
        op, other_op = self.op, other.op
        return (self.name == other.name
                and op.attributes == other_op.attributes
                and op.properties == other_op.properties
                and (Counter(op._operands) == Counter(other_op._operands)  # noqa: SLF001
                     if self._commutative() else
                     op._operands == other_op._operands)  # noqa: SLF001
                and op.result_types == other_op.result_types
                and all(s.is_structurally_equivalent(o)
                        for s, o in zip(op.regions, other_op.regions, strict=True)))


class _KnownOps(_xdsl_cse.KnownOps):
    """xDSL's scope of known ops, where ``get(op)`` then ``known[op] = op`` (the driver's
    steps for an op not seen before; nothing changes the op in between) build and hash
    one key, not two."""

    _last: _OperationInfo | None = None

    def get(self, k: Operation, default=None):
        self._last = info = _OperationInfo(k)
        return self._known_ops.get(info, default)

    def __setitem__(self, k: Operation, v: Operation) -> None:
        info, self._last = self._last, None
        if info is None or info.op is not k:
            info = _OperationInfo(k)
        self._known_ops[info] = v


_xdsl_cse.OperationInfo = _OperationInfo  # type: ignore[misc]
_xdsl_cse.KnownOps = _KnownOps  # type: ignore[misc] (the scopes the driver opens)
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
