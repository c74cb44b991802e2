"""Locations: from a ``loc(...)`` attribute to the file position it names, where to
report a diagnostic about an op, and the location of a value. The one walker over
``loc(...)`` attributes: the parser's verifier, the driver, pass diagnostics and debug
info all use it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute, Operation, SSAValue

from tileopt.ir.diagnostics import TileoptError
from tileopt.ir.source_positions import source_position

T = TypeVar("T")


def search_location(loc: Attribute | None, pick: Callable[[Attribute], T | None]) -> T | None:
    """What ``pick`` finds first in ``loc``, else in what it wraps: a name's location, each
    part of a fusion, a call site's callee."""
    if loc is None:
        return None
    if (found := pick(loc)) is not None:
        return found
    if isinstance(loc, NameLoc):
        return search_location(loc.location, pick)
    if isinstance(loc, FusedLoc):
        return next((f for inner in loc.locations.data
                     if (f := search_location(inner, pick)) is not None), None)
    if isinstance(loc, CallSiteLoc):
        return search_location(loc.callee, pick)
    return None


def file_location(loc: Attribute | None) -> FileLineColLoc | None:
    """The first ``file:line:col`` inside a location, looking through names, fusions and
    call sites (the callee's position, as MLIR reports it)."""
    return search_location(loc, lambda l: l if isinstance(l, FileLineColLoc) else None)


def value_location(value: SSAValue) -> Attribute | None:
    """Where a value is defined: its op's location, or a block argument's own."""
    owner = value.owner
    return owner.location if isinstance(owner, Operation) else getattr(value, "location", None)


def file_position(loc: Attribute | None) -> tuple[str, int, int] | None:
    """``file_location`` as a (file, line, col) tuple."""
    found = file_location(loc)
    return None if found is None else (found.filename.data, found.line.data, found.column.data)


def location_of(op: Operation | None) -> tuple[str, int, int] | None:
    """(file, line, col) for a diagnostic about ``op``, as MLIR reports it: the op's
    ``loc(...)`` (looking through name/callsite/fused locs), else where the parser read it."""
    if op is None:
        return None
    found = file_position(getattr(op, "location", None))
    return found if found is not None else source_position(op)


def nearby_location(op: Operation) -> tuple[str, int, int] | None:
    """For an op a pass created without a location (a ``ttg.convert_layout`` put in for a
    user, say): the position of the first user, else of an operand's definition, else of
    an enclosing op, that has one. MLIR would have given it the rewritten op's location."""
    for result in op.results:
        for use in result.uses:
            if (found := location_of(use.operation)) is not None:
                return found
    for operand in op.operands:
        if (found := file_position(value_location(operand))) is not None:
            return found
        if isinstance(operand.owner, Operation) and (found := source_position(operand.owner)):
            return found
    return from_ancestors(op, location_of)


def from_ancestors(op: Operation, position_of):
    """``position_of`` of the nearest op enclosing ``op`` that has one (None: none has)."""
    parent = op.parent_op()
    while parent is not None:
        if (found := position_of(parent)) is not None:
            return found
        parent = parent.parent_op()
    return None


def error_at_op(message: str, op: Operation | None, filename: str) -> TileoptError:
    """A TileoptError at ``op``'s location, or near it when a pass made it without one (see
    :func:`nearby_location`), or just the input file when nothing nearby has one."""
    found = location_of(op)
    if found is None and op is not None:
        found = nearby_location(op)
    if found is None:
        return TileoptError(message, filename)
    return TileoptError(message, *found)
