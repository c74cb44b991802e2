"""Debug-info scopes of LLVM-dialect functions, as ``#llvm.di_*`` attributes.

A function's line info hangs off a ``DISubprogram``: its name, the file and line where it
is defined, whether it is a definition (then in a ``DICompileUnit``) or a declaration. The
``enable-line-info`` pass attaches it to the function as Triton does (the function's
location becomes ``fused<#llvm.di_subprogram<...>>[loc]``, and the leaves of call-site
locations ``fused<#llvm.di_lexical_block_file<...>>[leaf]``); the LLVM IR translation
(``tileopt.target.debug_info``) reads it back, or builds the same one from the plain
location where the pass did not run. Both go through this module, so that a file name
splits the same way and a function gets the same subprogram either way.
"""

from __future__ import annotations

import posixpath

from xdsl.dialects.builtin import (ArrayAttr, CallSiteLoc, FileLineColLoc, FusedLoc, IntAttr, NameLoc,
                                   StringAttr)
from xdsl.ir import Attribute

from tileopt.dialects.llvm_ext import DI_ATTRS, DIFileAttr, DIRawValueAttr
from tileopt.ir.locations import search_location

PRODUCER = "tileopt"
UNKNOWN_FILE = "<unknown>"

_KINDS = {cls.name: cls for cls in DI_ATTRS}


def di_attr(kind: str, **fields: Attribute | str | int | None) -> Attribute:
    """``#llvm.di_<kind><field = value, ...>`` in the order given; strings are quoted
    unless passed as ``DIRawValueAttr``, integers are bare, None leaves a field out."""
    keys, values = [], []
    for key, value in fields.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = DIRawValueAttr("true" if value else "false")
        elif isinstance(value, int):
            value = DIRawValueAttr(str(value))
        elif isinstance(value, str):
            value = StringAttr(value)
        keys.append(StringAttr(key))
        values.append(value)
    return _KINDS[f"llvm.di_{kind}"](ArrayAttr(keys), ArrayAttr(values))


def di_file(path: str) -> DIFileAttr:
    """The ``DIFile`` of a location's file name: its last component in its directory,
    ``.`` when it names none (``<unknown>``, no file at all, has no directory)."""
    directory, base = posixpath.split(path)
    if not directory and path != UNKNOWN_FILE:
        directory = "."
    return DIFileAttr(StringAttr(base or path), StringAttr(directory))


def leaf_file_location(loc: Attribute | None) -> FileLineColLoc:
    """The ``file:line:col`` a location stands for: a call site's callee, a fusion's first
    part only (unlike ``locations.file_location``, which searches them all), else
    ``<unknown>:0:0`` (Triton's ``extractFileLoc``)."""
    while not isinstance(loc, FileLineColLoc):
        if isinstance(loc, NameLoc):
            loc = loc.location
        elif isinstance(loc, CallSiteLoc):
            loc = loc.callee
        elif isinstance(loc, FusedLoc) and loc.locations.data:
            loc = loc.locations.data[0]
        else:
            return FileLineColLoc(StringAttr(UNKNOWN_FILE), IntAttr(0), IntAttr(0))
    return loc


def subprogram_of(loc: Attribute | None) -> Attribute | None:
    """The ``#llvm.di_subprogram`` a function's location is fused with, if any."""
    return search_location(loc, lambda l: l.metadata if isinstance(l, FusedLoc) and getattr(
        l.metadata, "name", None) == "llvm.di_subprogram" else None)


def distinct(number: int) -> DIRawValueAttr:
    return DIRawValueAttr(f"distinct[{number}]<>")


def function_subprogram(name: str, loc: Attribute | None, definition: bool,
                        distinct_id: int = 0) -> Attribute:
    """The subprogram of the function ``name`` located at ``loc``: a definition belongs to
    a compile unit of its file (``distinct_id`` names the pair, as MLIR's ``distinct``);
    a declaration is defined elsewhere and has neither."""
    where = leaf_file_location(loc)
    file = di_file(where.filename.data)
    line = where.line.data
    unit = None
    if definition:
        unit = di_attr("compile_unit", id=distinct(distinct_id),
                       sourceLanguage=DIRawValueAttr("DW_LANG_C"), file=file,
                       producer=PRODUCER, isOptimized=True,
                       emissionKind=DIRawValueAttr("LineTablesOnly"))
    flags = StringAttr("Definition|Optimized") if definition else DIRawValueAttr("Optimized")
    return di_attr("subprogram", id=distinct(distinct_id) if definition else None,
                   compileUnit=unit, scope=file, name=name, linkageName=name, file=file,
                   line=line, scopeLine=line, subprogramFlags=flags,
                   type=di_attr("subroutine_type",
                                callingConvention=DIRawValueAttr("DW_CC_normal")))


def lexical_block_file(subprogram: Attribute, path: str) -> Attribute:
    """The scope of code from ``path`` inlined into ``subprogram``'s function."""
    return di_attr("lexical_block_file", scope=subprogram, file=di_file(path), discriminator=0)


__all__ = ["PRODUCER", "di_attr", "di_file", "distinct", "function_subprogram",
           "leaf_file_location", "lexical_block_file", "subprogram_of"]
