"""The IR layer every other part of tileopt goes through.

Public API (stable: the driver, passes and tests import only these names):

- ``TileoptError``: a diagnostic for people, ``file:line:col: error: message``.
- ``make_context(allow_unregistered=False)``: an xDSL ``Context`` with every dialect
  tileopt knows (builtin, arith, math, scf, cf, ub, llvm, tt, ttg, ttng, amdg, ...).
- ``parse_module(text, filename, ctx=None)``: Triton/MLIR text -> ``ModuleOp``; raises
  ``TileoptError`` with the position of the problem.
- ``print_module(module, debuginfo=False)``: ``ModuleOp`` -> text printed the way
  MLIR/triton-opt print it.

Also here: ``verify_module(module, filename)`` (``TileoptError`` at the failing op),
``split_input_file(text)`` (``--split-input-file`` chunks with their first line), and
``source_position(op)`` (where a parsed op was in its file).
"""

from tileopt import lazy_names
from tileopt.ir.diagnostics import TileoptError

# The rest is imported on first use (PEP 562): ``TileoptError`` alone, which every tool's
# argument checking needs, must not cost the import of xDSL and the dialects.
_LAZY = {
    "make_context": "tileopt.ir.context",
    "parse_module": "tileopt.ir.parse",
    "source_position": "tileopt.ir.parse",
    "split_input_file": "tileopt.ir.parse",
    "print_module": "tileopt.ir.printing",
    "verify_module": "tileopt.ir.verify",
}

__getattr__ = lazy_names(__name__, _LAZY)

__all__ = ["TileoptError", "make_context", "parse_module", "print_module",
           "source_position", "split_input_file", "verify_module"]
