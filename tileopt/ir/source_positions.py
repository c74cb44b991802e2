"""Where each parsed operation was in its file (for diagnostics).

``parse_module`` records every op it reads; the verifier and the driver's diagnostics
look positions up here. Kept apart from the parser so that the verifier, which the
parser calls, does not import the parser back.
"""

from __future__ import annotations

import bisect
import re
import weakref
from dataclasses import dataclass

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: reading input needs no xDSL
    from xdsl.ir import Operation


@dataclass
class SourceText:
    """A parsed file's name and text, to turn offsets into line:col on demand."""

    filename: str
    text: str
    first_line: int
    _line_starts: list[int] | None = None

    def line_col(self, offset: int) -> tuple[int, int]:
        starts = self._starts()
        index = bisect.bisect_right(starts, offset) - 1
        return index + self.first_line, offset - starts[index] + 1

    def line_text(self, line: int) -> str | None:
        """The text of file line ``line`` (without its newline), None if not in this text."""
        starts = self._starts()
        index = line - self.first_line
        if not 0 <= index < len(starts):
            return None
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(self.text)
        return self.text[starts[index]:end].rstrip("\r")

    def _starts(self) -> list[int]:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        return self._line_starts


# File name -> the text last read under that name: diagnostics at a position in it show
# the line and a caret, as mlir-opt's do (``tileopt.ir.diagnostics.format_diagnostic``).
SOURCES: dict[str, SourceText] = {}


def remember_source(source: SourceText) -> None:
    SOURCES[source.filename] = source


def source_line(filename: str | None, line: int | None) -> str | None:
    """Line ``line`` of the text last read as ``filename``, if any."""
    source = SOURCES.get(filename) if filename is not None and line is not None else None
    return source.line_text(line) if source is not None else None


def byte_line_col(data: bytes, offset: int, first_line: int = 1) -> tuple[int, int]:
    """line:col of byte ``offset`` in ``data`` (text that could not be decoded, so it has no
    ``SourceText``): where an input that is not UTF-8 goes wrong."""
    line = data.count(b"\n", 0, offset) + first_line
    return line, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


# Operation -> (source, offset of its first token). Weak: IR rewritten by passes drops
# its entries with the ops.
OP_SOURCES: weakref.WeakKeyDictionary[Operation, tuple[SourceText, int]] = (
    weakref.WeakKeyDictionary())


def source_position(op: Operation) -> tuple[str, int, int] | None:
    """(file, line, col) where ``op`` was read, for ops that came from ``parse_module``."""
    found = OP_SOURCES.get(op)
    if found is None:
        return None
    source, offset = found
    return (source.filename, *source.line_col(offset))
