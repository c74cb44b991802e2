"""The driver's view of the IR layer: parse (and verify) one chunk of input, verify after
a pass, print."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from tileopt import ir


def parse(text: str, filename: str, ctx: Context) -> ModuleOp:
    """Parse and verify, as ``mlir-opt`` does before it runs a pipeline."""
    return ir.parse_module(text, filename, ctx)


def verify(module: ModuleOp, filename: str) -> None:
    """Raise ``TileoptError`` at the first op of ``module`` that does not verify."""
    ir.verify_module(module, filename)


def incremental_verifier():
    """A verifier for after each pass that re-checks only the ops a pass changed (and
    those whose checks read them): ``tileopt.ir.verify.IncrementalVerifier``."""
    from tileopt.ir.verify import IncrementalVerifier

    return IncrementalVerifier()


@dataclass(frozen=True)
class PrintOptions:
    """How the IR is printed: ``--mlir-print-debuginfo``, ``--mlir-print-local-scope``,
    ``--mlir-print-op-generic``, ``--mlir-use-nameloc-as-prefix``."""

    debuginfo: bool = False
    local_scope: bool = False
    generic: bool = False
    name_locs: bool = False


def render(module: ModuleOp, options: PrintOptions | bool = False) -> str:
    if isinstance(options, bool):
        options = PrintOptions(debuginfo=options)
    return ir.print_module(module, debuginfo=options.debuginfo,
                           local_scope=options.local_scope, generic=options.generic,
                           name_locs=options.name_locs)
