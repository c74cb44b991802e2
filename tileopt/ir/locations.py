"""Locations: from a ``loc(...)`` attribute to the file position it names, and the
location of a value."""

from __future__ import annotations

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute, Operation, SSAValue


def file_location(loc: Attribute | None) -> FileLineColLoc | None:
    """The first ``file:line:col`` inside a location, looking through names, fusions and
    call sites (the callee's position, as MLIR reports it)."""
    if isinstance(loc, FileLineColLoc):
        return loc
    if isinstance(loc, NameLoc):
        return file_location(loc.location)
    if isinstance(loc, FusedLoc):
        for inner in loc.locations.data:
            if (found := file_location(inner)) is not None:
                return found
    if isinstance(loc, CallSiteLoc):
        return file_location(loc.callee)
    return None


def value_location(value: SSAValue) -> Attribute | None:
    """Where a value is defined: its op's location, or a block argument's own."""
    owner = value.owner
    return owner.location if isinstance(owner, Operation) else getattr(value, "location", None)
