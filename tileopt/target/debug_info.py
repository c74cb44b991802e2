"""MLIR locations -> LLVM line-table debug info (``!DISubprogram``, ``!DILocation``).

Triton compiles with line info on: every instruction carries the ``kernels.py:LINE:COL``
it came from, and PTX/AMDGCN show them as ``.loc`` lines (ptxas ``-lineinfo`` and profilers
read them). This builds the same metadata Triton's ``LLVMDIScope`` pass and MLIR's debug
translation produce: one compile unit, a subprogram per function defined at its location,
``DILocation(line, col, scope: subprogram)`` per op, and for ``callsite(callee at caller)``
locations (code inlined from ``triton/language/*.py``) a chain of ``inlinedAt`` locations
whose scopes are ``DILexicalBlockFile``s of the subprogram, one per source file.

Where ``enable-line-info`` ran, a function's location carries its ``#llvm.di_subprogram``
(and inlined code's leaves their lexical block files) around the plain locations: the
subprogram and its compile unit are read from the attribute, everything else from the
plain locations inside, so each is emitted once and the same as without the pass.
"""

from __future__ import annotations

from llvmlite import ir
from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute

from tileopt.dialects.llvm_ext import DIFileAttr, DIRawValueAttr
from tileopt.ir.debug_scope import di_file, function_subprogram, subprogram_of
from tileopt.ir.locations import file_location


class DebugInfoBuilder:
    """Creates the debug metadata of one LLVM module, lazily: nothing unless a location exists."""

    def __init__(self, module: ir.Module):
        self.module = module
        self._files: dict[DIFileAttr, ir.DIValue] = {}
        self._lexical_blocks: dict[tuple[int, DIFileAttr], ir.DIValue] = {}
        # (id(subprogram), file name) -> its lexical block, without building the file's
        # DIFileAttr again (most ops of a kernel are inlined from a few files).
        self._lexical_blocks_by_name: dict[tuple[int, str], ir.DIValue] = {}
        # (line, column, id(scope), id(inlined_at)) -> the !DILocation: llvmlite would find
        # the same node by hashing its operands, the whole inlinedAt chain each time.
        self._di_locations: dict[tuple[int, int, int, int], ir.DIValue] = {}
        self._compile_unit: ir.DIValue | None = None
        self._subroutine_type: ir.DIValue | None = None
        # (id(loc), id(subprogram), function file) -> (loc, location): the ops of a kernel
        # share a few hundred location objects; llvmlite gives equal metadata once, so the
        # answer for a location object already seen is the node made for it then (the
        # entry holds the location, so that its id is not reused).
        self._locations: dict[tuple[int, int, str], tuple[Attribute, ir.DIValue | None]] = {}

    def _file(self, file: DIFileAttr) -> ir.DIValue:
        if file not in self._files:
            self._files[file] = self.module.add_debug_info(
                "DIFile", {"filename": file.file_name.data, "directory": file.directory.data})
        return self._files[file]

    def _unit(self, unit: Attribute) -> ir.DIValue:
        """The module's one compile unit (the first function's: Triton's have one kernel)."""
        if self._compile_unit is None:
            self._compile_unit = self.module.add_debug_info("DICompileUnit", {
                "language": ir.DIToken(_raw(unit, "sourceLanguage")),
                "file": self._file(unit.get("file")),
                "producer": unit.get("producer").data,
                "isOptimized": _raw(unit, "isOptimized") == "true",
                "runtimeVersion": 0,
                "emissionKind": ir.DIToken(_raw(unit, "emissionKind")),
            }, is_distinct=True)
            self.module.add_named_metadata("llvm.dbg.cu", self._compile_unit)
            self.module.add_named_metadata(
                "llvm.module.flags", [ir.IntType(32)(2), "Debug Info Version", ir.IntType(32)(3)])
            self._subroutine_type = self.module.add_debug_info("DISubroutineType", {
                "cc": ir.DIToken("DW_CC_normal"), "types": self.module.add_metadata([])})
        return self._compile_unit

    def subprogram(self, name: str, loc: Attribute | None) -> ir.DIValue | None:
        """A ``distinct !DISubprogram`` for a function defined at ``loc`` (None if unknown):
        the one ``enable-line-info`` fused with ``loc``, else the same built here."""
        where = file_location(loc)
        if where is None:
            return None  # nothing to point at, whatever enable-line-info said ("<unknown>")
        subprogram = subprogram_of(loc) or function_subprogram(name, where, definition=True)
        unit = self._unit(subprogram.get("compileUnit"))
        file = self._file(subprogram.get("file"))
        flags = str(subprogram.get("subprogramFlags").data).split("|")
        return self.module.add_debug_info("DISubprogram", {
            "name": subprogram.get("name").data,
            "linkageName": subprogram.get("linkageName").data,
            "scope": file,
            "file": file,
            "line": int(_raw(subprogram, "line")),
            "type": self._subroutine_type,
            "scopeLine": int(_raw(subprogram, "scopeLine")),
            "spFlags": ir.DIToken(" | ".join(f"DISPFlag{flag}" for flag in flags)),
            "unit": unit,
        }, is_distinct=True)

    def _lexical_block(self, subprogram: ir.DIValue, filename: str) -> ir.DIValue:
        found = self._lexical_blocks_by_name.get((id(subprogram), filename))
        if found is None:
            key = (id(subprogram), di_file(filename))
            if key not in self._lexical_blocks:
                self._lexical_blocks[key] = self.module.add_debug_info("DILexicalBlockFile", {
                    "scope": subprogram, "file": self._file(key[1]), "discriminator": 0,
                }, is_distinct=True)
            found = self._lexical_blocks_by_name[(id(subprogram), filename)] = \
                self._lexical_blocks[key]
        return found

    def location(self, loc: Attribute | None, subprogram: ir.DIValue,
                 function_file: str) -> ir.DIValue | None:
        """The ``!DILocation`` of an op inside the function of ``subprogram``, or None."""
        key = (id(loc), id(subprogram), function_file)
        known = self._locations.get(key)
        if known is None or known[0] is not loc:
            known = self._locations[key] = (loc, self._location(loc, subprogram, function_file))
        return known[1]

    def _location(self, loc: Attribute | None, subprogram: ir.DIValue,
                  function_file: str) -> ir.DIValue | None:
        if isinstance(loc, FileLineColLoc):
            filename = loc.filename.data
            scope = subprogram if filename == function_file else \
                self._lexical_block(subprogram, filename)
            return self._di_location(loc, scope, None)
        if isinstance(loc, NameLoc):
            return self.location(loc.location, subprogram, function_file)
        if isinstance(loc, FusedLoc):
            for inner in loc.locations.data:
                if (found := self.location(inner, subprogram, function_file)) is not None:
                    return found
            return None
        if isinstance(loc, CallSiteLoc):
            return self._inlined(loc, subprogram)
        return None

    def _inlined(self, loc: Attribute, subprogram: ir.DIValue,
                 inlined_at: ir.DIValue | None = None) -> ir.DIValue | None:
        """A location inside inlined code: scoped by its file's lexical block, chained."""
        if isinstance(loc, CallSiteLoc):
            caller = self._inlined(loc.caller, subprogram, inlined_at)
            return self._inlined(loc.callee, subprogram, caller)
        where = loc if isinstance(loc, FileLineColLoc) else file_location(loc)
        if where is None:
            return inlined_at
        scope = self._lexical_block(subprogram, where.filename.data)
        return self._di_location(where, scope, inlined_at)

    def _di_location(self, loc: FileLineColLoc, scope: ir.DIValue,
                     inlined_at: ir.DIValue | None) -> ir.DIValue:
        key = (loc.line.data, loc.column.data, id(scope), id(inlined_at))
        found = self._di_locations.get(key)
        if found is None:
            operands = {"line": key[0], "column": key[1], "scope": scope}
            if inlined_at is not None:
                operands["inlinedAt"] = inlined_at
            found = self._di_locations[key] = self.module.add_debug_info("DILocation", operands)
        return found


def _raw(attr: Attribute, key: str) -> str:
    value = attr.get(key)
    return value.data if isinstance(value, DIRawValueAttr) else str(value)
