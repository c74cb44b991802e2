"""Where an operation came from, for diagnostics: its ``loc(...)`` as file:line:col."""

from __future__ import annotations

from xdsl.ir import Attribute, Operation

from tileopt.ir import TileoptError, source_position
from tileopt.ir.locations import file_location


def location_of(op: Operation | None) -> tuple[str, int, int] | None:
    """(file, line, col) for a diagnostic about ``op``, as MLIR reports it: the op's
    ``loc(...)`` (looking through name/callsite/fused locs), else where the parser read it."""
    if op is None:
        return None
    found = _from_attr(getattr(op, "location", None))
    if found is None:
        found = source_position(op)
    return found


def _from_attr(loc: Attribute | None) -> tuple[str, int, int] | None:
    found = file_location(loc)
    return None if found is None else (found.filename.data, found.line.data, found.column.data)


def error_at_op(message: str, op: Operation | None, filename: str) -> TileoptError:
    """A TileoptError at ``op``'s location (or just the input file when it has none)."""
    found = location_of(op)
    if found is None:
        return TileoptError(message, filename)
    return TileoptError(message, *found)
