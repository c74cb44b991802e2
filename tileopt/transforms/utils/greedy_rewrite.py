"""MLIR's ``applyPatternsGreedily`` for the TritonGPU passes, on xDSL's pattern walker.

Triton's layout passes clean up after themselves with a handful of patterns (the
``ttg.convert_layout`` canonicalizations, the ``scf.for``/``scf.if`` ones) run by MLIR's
greedy driver. That driver does more than apply the patterns: it folds every op it visits,
erases ops whose results are unused and that have no side effects, and (with its default
``cseConstants``) merges equal constants and moves them to the top of their function. Those
side effects are visible in Triton's output, so they are reproduced here: xDSL's walker
with folding and region DCE, and constant uniquing and hoisting at the start of each
iteration, as ``canonicalize`` does (``apply_greedily``).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.pattern_rewriter import RewritePattern

from tileopt.transforms.common.canonicalize import apply_greedily


def apply_patterns_greedily(ctx: Context, root: Operation,
                            patterns: Sequence[RewritePattern]) -> None:
    """Apply ``patterns`` to every op under ``root`` until nothing changes, folding ops and
    removing dead ones as MLIR's greedy driver does."""
    apply_greedily(ctx, root, list(patterns))
