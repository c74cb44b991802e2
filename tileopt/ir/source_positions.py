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
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        index = bisect.bisect_right(self._line_starts, offset) - 1
        return index + self.first_line, offset - self._line_starts[index] + 1


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
