"""``cse``: common subexpression elimination (MLIR's ``-cse``), xDSL's driver.

xDSL's CSE merges only identical ops that are side-effect free, or that only read memory
and sit in the same block with no op that may write between them. So two ``tt.load`` of
the same pointer are merged only without a ``tt.store``/atomic in between, and ops of
unknown effect are never merged.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.transforms.common_subexpression_elimination import cse

from tileopt.passes import register_op_pass
from tileopt.passes.statistics import add_statistic, collecting


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
