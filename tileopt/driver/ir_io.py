"""The driver's view of the IR layer: parse, verify and print one chunk of input.

``tileopt.ir`` owns parsing and printing. Verification with positions
(``tileopt.ir.verify_module``) and input splitting land there later; until they do, the
small fallbacks below keep the driver working.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException

from tileopt import ir
from tileopt.ir import TileoptError


def parse(text: str, filename: str, ctx: Context) -> ModuleOp:
    return ir.parse_module(text, filename, ctx)


def verify(module: ModuleOp, filename: str) -> None:
    """Raise ``TileoptError`` if ``module`` does not verify."""
    verify_module = getattr(ir, "verify_module", None)
    if verify_module is None:
        try:
            from tileopt.ir.verify import verify_module
        except ImportError:
            verify_module = None
    if verify_module is not None:
        verify_module(module, filename)
        return
    try:
        module.verify()
    except DiagnosticException as err:
        # xDSL's message is the first line; the notes hold the whole module printed.
        message = str(err.args[0]) if err.args else str(err)
        raise TileoptError(message.splitlines()[0] if message else "verification failed",
                           filename) from err


def render(module: ModuleOp, debuginfo: bool) -> str:
    return ir.print_module(module, debuginfo=debuginfo)
