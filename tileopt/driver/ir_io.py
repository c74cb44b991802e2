"""The driver's view of the IR layer: parse (and verify) one chunk of input, verify after
a pass, print."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from tileopt import ir


def parse(text: str, filename: str, ctx: Context) -> ModuleOp:
    """Parse and verify, as ``mlir-opt`` does before it runs a pipeline."""
    return ir.parse_module(text, filename, ctx)


def verify(module: ModuleOp, filename: str) -> None:
    """Raise ``TileoptError`` at the first op of ``module`` that does not verify."""
    ir.verify_module(module, filename)


def render(module: ModuleOp, debuginfo: bool) -> str:
    return ir.print_module(module, debuginfo=debuginfo)
