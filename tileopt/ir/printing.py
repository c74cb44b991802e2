"""Printing xDSL IR as MLIR/triton-opt print it (first version: plain xDSL printer)."""

from __future__ import annotations

import io

from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer


def print_module(module: ModuleOp, debuginfo: bool = False) -> str:
    stream = io.StringIO()
    Printer(stream=stream, print_debuginfo=debuginfo).print_op(module)
    stream.write("\n")
    return stream.getvalue()
