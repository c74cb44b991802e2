"""Diagnostics shown to people: ``file:line:col: error: message``."""

from __future__ import annotations

from collections.abc import Iterable

from tileopt.ir.source_positions import source_line


class TileoptError(Exception):
    """An error in the user's input or pipeline, reported without a traceback."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 col: int | None = None, notes: list[str] | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.notes = notes or []

    def format(self, excerpt: bool = False) -> str:
        """``file:line:col: error: message``, then (with ``excerpt``) the source line and a
        caret when the file's text was read, then the notes."""
        return format_diagnostic("error", self.message, self.file, self.line, self.col,
                                 self.notes, excerpt=excerpt)

    def __str__(self) -> str:
        return self.format()


def format_diagnostic(severity: str, message: str, file: str | None = None,
                      line: int | None = None, col: int | None = None,
                      notes: Iterable[str] = (), excerpt: bool = False) -> str:
    """One diagnostic as mlir-opt prints it: ``file:line:col: severity: message``, the
    source line and a caret under the column (when the text of ``file`` was read and no
    note already shows it), then ``notes``."""
    where = ""
    if file is not None:
        where = f"{file}:"
        if line is not None:
            where += f"{line}:"
            if col is not None:
                where += f"{col}:"
        where += " "
    lines = [f"{where}{severity}: {message}"]
    notes = list(notes)
    if excerpt and not notes and (text := source_line(file, line)) is not None:
        lines += caret_excerpt(text, col)
    return "\n".join(lines + notes)


def caret_excerpt(text: str, col: int | None) -> list[str]:
    """A source line and a ``^`` under column ``col`` (1-based; none or 0: the line's first
    character that is not blank), tabs expanded as LLVM's SourceMgr does. Every tool's
    caret comes from here: IR, pipeline text and YAML errors."""
    if not col or col < 1:
        col = len(text) - len(text.lstrip()) + 1
    shown = text.expandtabs(8)
    return [shown, " " * len(text[:col - 1].expandtabs(8)) + "^"]


def did_you_mean(name: str, known: Iterable[str], otherwise: str = "",
                 spelled: str = "'{}'") -> str:
    """``"; did you mean 'x'?"`` for the closest of ``known`` to a misspelt ``name``, else
    ``otherwise`` (e.g. a list of what is known). ``spelled`` shows the suggestion."""
    import difflib  # only for a message: not at every command's start

    close = difflib.get_close_matches(name, list(known), n=1)
    return f"; did you mean {spelled.format(close[0])}?" if close else otherwise
