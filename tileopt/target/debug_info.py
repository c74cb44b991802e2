"""MLIR locations -> LLVM line-table debug info (``!DISubprogram``, ``!DILocation``).

Triton compiles with line info on: every instruction carries the ``kernels.py:LINE:COL``
it came from, and PTX/AMDGCN show them as ``.loc`` lines (ptxas ``-lineinfo`` and profilers
read them). This builds the same metadata Triton's ``LLVMDIScope`` pass and MLIR's debug
translation produce: one compile unit, a subprogram per function defined at its location,
``DILocation(line, col, scope: subprogram)`` per op, and for ``callsite(callee at caller)``
locations (code inlined from ``triton/language/*.py``) a chain of ``inlinedAt`` locations
whose scopes are ``DILexicalBlockFile``s of the subprogram, one per source file.
"""

from __future__ import annotations

import posixpath

from llvmlite import ir
from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute

from tileopt.ir.locations import file_location

PRODUCER = "tileopt"


class DebugInfoBuilder:
    """Creates the debug metadata of one LLVM module, lazily: nothing unless a location exists."""

    def __init__(self, module: ir.Module):
        self.module = module
        self._files: dict[str, ir.DIValue] = {}
        self._lexical_blocks: dict[tuple[int, str], ir.DIValue] = {}
        self._compile_unit: ir.DIValue | None = None
        self._subroutine_type: ir.DIValue | None = None

    def _file(self, filename: str) -> ir.DIValue:
        if filename not in self._files:
            directory, base = posixpath.split(filename)
            self._files[filename] = self.module.add_debug_info(
                "DIFile", {"filename": base or filename, "directory": directory or "."})
        return self._files[filename]

    def _unit(self, filename: str) -> ir.DIValue:
        if self._compile_unit is None:
            self._compile_unit = self.module.add_debug_info("DICompileUnit", {
                "language": ir.DIToken("DW_LANG_C"),
                "file": self._file(filename),
                "producer": PRODUCER,
                "isOptimized": True,
                "runtimeVersion": 0,
                "emissionKind": ir.DIToken("LineTablesOnly"),
            }, is_distinct=True)
            self.module.add_named_metadata("llvm.dbg.cu", self._compile_unit)
            self.module.add_named_metadata(
                "llvm.module.flags", [ir.IntType(32)(2), "Debug Info Version", ir.IntType(32)(3)])
            self._subroutine_type = self.module.add_debug_info("DISubroutineType", {
                "cc": ir.DIToken("DW_CC_normal"), "types": self.module.add_metadata([])})
        return self._compile_unit

    def subprogram(self, name: str, loc: Attribute | None) -> ir.DIValue | None:
        """A ``distinct !DISubprogram`` for a function defined at ``loc`` (None if unknown)."""
        where = file_location(loc)
        if where is None:
            return None
        unit = self._unit(where.filename.data)
        file = self._file(where.filename.data)
        line = where.line.data
        return self.module.add_debug_info("DISubprogram", {
            "name": name,
            "linkageName": name,
            "scope": file,
            "file": file,
            "line": line,
            "type": self._subroutine_type,
            "scopeLine": line,
            "spFlags": ir.DIToken("DISPFlagDefinition | DISPFlagOptimized"),
            "unit": unit,
        }, is_distinct=True)

    def _lexical_block(self, subprogram: ir.DIValue, filename: str) -> ir.DIValue:
        key = (id(subprogram), filename)
        if key not in self._lexical_blocks:
            self._lexical_blocks[key] = self.module.add_debug_info("DILexicalBlockFile", {
                "scope": subprogram, "file": self._file(filename), "discriminator": 0,
            }, is_distinct=True)
        return self._lexical_blocks[key]

    def location(self, loc: Attribute | None, subprogram: ir.DIValue,
                 function_file: str) -> ir.DIValue | None:
        """The ``!DILocation`` of an op inside the function of ``subprogram``, or None."""
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
        where = file_location(loc)
        if where is None:
            return inlined_at
        scope = self._lexical_block(subprogram, where.filename.data)
        return self._di_location(where, scope, inlined_at)

    def _di_location(self, loc: FileLineColLoc, scope: ir.DIValue,
                     inlined_at: ir.DIValue | None) -> ir.DIValue:
        operands = {"line": loc.line.data, "column": loc.column.data, "scope": scope}
        if inlined_at is not None:
            operands["inlinedAt"] = inlined_at
        return self.module.add_debug_info("DILocation", operands)
