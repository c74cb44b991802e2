"""Diagnostics shown to people: ``file:line:col: error: message``."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


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

    def format(self) -> str:
        where = ""
        if self.file is not None:
            where = f"{self.file}:"
            if self.line is not None:
                where += f"{self.line}:"
                if self.col is not None:
                    where += f"{self.col}:"
            where += " "
        text = f"{where}error: {self.message}"
        for note in self.notes:
            text += f"\n{note}"
        return text

    def __str__(self) -> str:
        return self.format()


def did_you_mean(name: str, known: Iterable[str], otherwise: str = "",
                 spelled: str = "'{}'") -> str:
    """``"; did you mean 'x'?"`` for the closest of ``known`` to a misspelt ``name``, else
    ``otherwise`` (e.g. a list of what is known). ``spelled`` shows the suggestion."""
    close = difflib.get_close_matches(name, list(known), n=1)
    return f"; did you mean {spelled.format(close[0])}?" if close else otherwise
