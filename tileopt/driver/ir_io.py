"""The driver's view of the IR layer: parse (and verify) one chunk of input, verify after
a pass, print."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from tileopt import ir


def parse(text: str, filename: str, ctx: Context, implicit_module: bool = True,
          arg_name_locs: bool = False) -> ModuleOp:
    """Parse and verify, as ``mlir-opt`` does before it runs a pipeline;
    ``arg_name_locs``: ``--input-uses-nameloc-as-prefix``."""
    return ir.parse_module(text, filename, ctx, implicit_module=implicit_module,
                           arg_name_locs=arg_name_locs)


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
    elide_elements: int | None = None  # --mlir-elide-elementsattrs-if-larger
    pretty_debuginfo: bool = False
    value_users: bool = False  # --mlir-print-value-users
    name_locs: bool = False  # --mlir-use-nameloc-as-prefix


def render(module: ModuleOp, options: PrintOptions | bool = False) -> str:
    if isinstance(options, bool):
        options = PrintOptions(debuginfo=options)
    return ir.print_module(module, debuginfo=options.debuginfo,
                           local_scope=options.local_scope, generic=options.generic,
                           elide_elements=options.elide_elements,
                           pretty_debuginfo=options.pretty_debuginfo,
                           value_users=options.value_users,
                           name_locs=options.name_locs)
