"""Warnings, remarks and notes that a pass reports without failing.

A pass calls ``emit_warning(op, "...")`` or ``emit_remark(op, "...")``; the driver shows
them as ``file:line:col: warning: ...`` at the op's location, or, under
``--verify-diagnostics``, matches them against ``expected-warning``/``expected-remark``
comments. Errors are not emitted: a pass raises ``TileoptError`` or ``PassFailure``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

from xdsl.ir import Operation

from tileopt.ir.diagnostics import format_diagnostic
from tileopt.ir.locations import location_of


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" | "warning" | "remark" | "note"
    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None

    def format(self, excerpt: bool = False) -> str:
        return format_diagnostic(self.severity, self.message, self.file, self.line, self.col,
                                 excerpt=excerpt)


Handler = Callable[[Diagnostic], None]


def _print_handler(diagnostic: Diagnostic) -> None:
    print(diagnostic.format(excerpt=True), file=sys.stderr)


_handler: Handler = _print_handler
_default_file: str | None = None


@contextmanager
def diagnostic_handler(handler: Handler | None, default_file: str | None):
    """Route emitted diagnostics to ``handler`` (stderr if None) while the block runs."""
    global _handler, _default_file
    saved = _handler, _default_file
    _handler, _default_file = handler or _print_handler, default_file
    try:
        yield
    finally:
        _handler, _default_file = saved


def _emit(severity: str, op: Operation | None, message: str) -> None:
    found = location_of(op)
    if found is None:
        _handler(Diagnostic(severity, message, _default_file))
    else:
        _handler(Diagnostic(severity, message, *found))


def emit_warning(op: Operation | None, message: str) -> None:
    _emit("warning", op, message)


def emit_remark(op: Operation | None, message: str) -> None:
    _emit("remark", op, message)


def emit_note(op: Operation | None, message: str) -> None:
    _emit("note", op, message)
