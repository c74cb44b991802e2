"""Parsing Triton/MLIR text into xDSL IR (first version: plain xDSL parser)."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from tileopt.ir.context import make_context
from tileopt.ir.diagnostics import TileoptError


def parse_module(text: str, filename: str = "<stdin>", ctx: Context | None = None) -> ModuleOp:
    ctx = ctx or make_context()
    try:
        return Parser(ctx, text, filename).parse_module()
    except ParseError as err:
        loc = err.span.get_location()
        raise TileoptError(err.msg, filename, loc.line, loc.col) from err
