"""``enable-line-info``: give every LLVM function its debug-info scope (Triton's
``LLVMDIScope`` pass, which Triton 3.6 runs near the end of the ``llir`` stage).

- An ``llvm.func`` whose location has no ``#llvm.di_subprogram`` gets one, fused with that
  location: a definition with its compile unit (``DW_LANG_C``, optimised, line tables
  only) at the file and line of its location, a declaration without (see
  :mod:`tileopt.ir.debug_scope`).
- An op inside a function whose location is a call site (code inlined from
  ``triton/language/*.py``) gets each leaf of it fused with a
  ``#llvm.di_lexical_block_file`` of the function's subprogram for the leaf's file.

The LLVM IR translation reads these back instead of building its own from the plain
locations, which the fused locations keep inside: the line tables come out the same with
or without this pass.
"""

from __future__ import annotations

import re

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ArrayAttr, CallSiteLoc, FusedLoc
from xdsl.ir import Attribute, Operation

from tileopt.dialects.llvm_ext import DIRawValueAttr
from tileopt.ir.debug_scope import (function_subprogram, leaf_file_location,
                                    lexical_block_file, subprogram_of)
from tileopt.ir.walks import ops_in_walk_order
from tileopt.passes import Pass, register_pass

_DISTINCT = re.compile(r"distinct\[(\d+)\]")


@register_pass
class EnableLineInfo(Pass):
    """Attach debug-info scopes (subprograms, lexical block files) to LLVM functions."""

    name = "enable-line-info"

    def apply(self, ctx: Context, root: Operation) -> None:
        ops = ops_in_walk_order(root)   # locations change, not the ops
        next_id = _first_free_distinct(ops)
        # The lowering gives every op made from one TritonGPU op that op's location
        # object: each (location, subprogram) is scoped once (ids -> both, held so that
        # their ids stay theirs, and the result).
        scoped: dict[tuple[int, int], tuple[Attribute, Attribute, Attribute]] = {}
        for op in ops:
            if isinstance(op, llvm.FuncOp):
                if subprogram_of(op.location) is None:
                    definition = bool(op.body.blocks)
                    subprogram = function_subprogram(op.sym_name.data, op.location, definition,
                                                     next_id)
                    next_id += definition
                    op.location = FusedLoc(ArrayAttr([op.location]), subprogram)
            elif isinstance(op.location, CallSiteLoc):
                func = op.parent_op()
                while func is not None and not isinstance(func, llvm.FuncOp):
                    func = func.parent_op()
                if func is not None and (scope := subprogram_of(func.location)) is not None:
                    key = (id(op.location), id(scope))
                    known = scoped.get(key)
                    if known is None:
                        known = scoped[key] = (op.location, scope, _scoped(op.location, scope))
                    op.location = known[2]


def _scoped(loc: Attribute, subprogram: Attribute) -> Attribute:
    """``loc`` with every leaf of its call-site chain in its file's lexical block."""
    if isinstance(loc, CallSiteLoc):
        return CallSiteLoc(_scoped(loc.callee, subprogram), _scoped(loc.caller, subprogram))
    if isinstance(loc, FusedLoc) and getattr(loc.metadata, "name", "") == "llvm.di_lexical_block_file":
        return loc  # scoped already (the pass ran before)
    path = leaf_file_location(loc).filename.data
    return FusedLoc(ArrayAttr([loc]), lexical_block_file(subprogram, path))


def _first_free_distinct(ops: list[Operation]) -> int:
    """A ``distinct[N]`` number no subprogram of ``ops`` uses yet (MLIR numbers them
    when it prints; here a new one must not collide with one already written)."""
    used = [-1]
    for op in ops:
        if isinstance(op, llvm.FuncOp) and (sp := subprogram_of(op.location)) is not None:
            for value in _raw_values(sp):
                used += [int(n) for n in _DISTINCT.findall(value)]
    return max(used) + 1


def _raw_values(attr: Attribute):
    """Every bare value inside a debug-info attribute, nested ones included."""
    values = getattr(attr, "values", None)
    for value in values.data if values is not None else ():
        if isinstance(value, DIRawValueAttr):
            yield value.data
        else:
            yield from _raw_values(value)
