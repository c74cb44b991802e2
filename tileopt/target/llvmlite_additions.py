"""The pieces of LLVM IR that ``llvmlite.ir`` cannot express but GPU kernels need.

llvmlite's IR builder predates opaque-pointer GPU code: it has no ``bfloat`` or ``poison``,
accepts only a fixed list of function and parameter attributes (no ``"key"="value"``
attributes such as ``"nvvm.reqntid"="128"`` or ``"amdgpu-flat-work-group-size"``), prints
inline assembly without escaping it, and has no ``syncscope`` on atomics, loads or stores.
Each class here subclasses the llvmlite one it extends and changes only its printing.
"""

from __future__ import annotations

import math
import re
import struct

from llvmlite import ir
from llvmlite.ir import _utils, instructions, types, values

# --------------------------------------------------------------------------- module


class Module(ir.Module):
    """An ``ir.Module`` that also prints ``source_filename`` (MLIR sets it to the module name)."""

    def __init__(self, name: str = "", source_filename: str = ""):
        super().__init__(name=name)
        self.source_filename = source_filename or name

    def __repr__(self) -> str:
        lines = [f'; ModuleID = "{escape_llvm_string(self.name)}"',
                 f'source_filename = "{escape_llvm_string(self.source_filename)}"',
                 f'target triple = "{self.triple}"',
                 f'target datalayout = "{self.data_layout}"', ""]
        lines += self._get_body_lines()
        lines += self._get_metadata_lines()
        return "\n".join(lines)


# --------------------------------------------------------------------------- types and constants


class BFloatType(types._BaseFloatType):
    """``bfloat``: constants are written ``0xRXXXX`` (the 16 bits, rounded to nearest even)."""

    null = "0xR0000"
    intrinsic_name = "bf16"

    def __str__(self) -> str:
        return "bfloat"

    def format_constant(self, value: float) -> str:
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        if math.isnan(value):
            return f"0xR{(bits >> 16) | 0x40:04X}"
        rounded = bits + 0x7FFF + ((bits >> 16) & 1)
        return f"0xR{(rounded >> 16) & 0xFFFF:04X}"


BFloatType._create_instance()


class PoisonConstant(ir.Constant):
    """``poison`` of any type (``llvm.mlir.poison``)."""

    def __init__(self, typ: ir.Type):
        super().__init__(typ, None)

    def _get_reference(self) -> str:
        return "poison"


# A character that ``escape_llvm_string`` must escape: not printable ASCII, ``"`` or ``\``.
_NEEDS_ESCAPE = re.compile(r'[^\x20\x21\x23-\x5b\x5d-\x7e]')


def escape_llvm_string(text: str) -> str:
    """The body of an LLVM string literal: printable ASCII kept, others as ``\\XX``."""
    if _NEEDS_ESCAPE.search(text) is None:  # most strings (inline asm), in one C-level scan
        return text
    out = []
    for byte in text.encode("utf-8"):
        if 0x20 <= byte < 0x7F and byte not in (0x22, 0x5C):
            out.append(chr(byte))
        else:
            out.append(f"\\{byte:02X}")
    return "".join(out)


# --------------------------------------------------------------------------- names


class NameScope(_utils.NameScope):
    """llvmlite's scope of value names, with its most frequent request answered directly:
    a new unnamed value (name ``""``, deduplicated) gets ``.N``, the next free number,
    without the general loop's calls and ``str.format`` per value (same names, same
    state). ``test/unit/target/test_llvmlite_additions.py`` compares it with llvmlite's."""

    def register(self, name: str, deduplicate: bool = False) -> str:
        if name or not deduplicate:
            return super().register(name, deduplicate)
        used = self._useset
        ident = self._basenamemap[""] + 1
        name = f".{ident}"
        while name in used:
            ident += 1
            name = f".{ident}"
        self._basenamemap[""] = ident
        used.add(name)
        return name


def use_fast_names(function: ir.Function) -> None:
    """``function``'s value names from :class:`NameScope` from now on."""
    function.scope.__class__ = NameScope


# --------------------------------------------------------------------------- attributes


class FunctionAttributes(values.FunctionAttributes):
    """Any flag attribute plus ``"key"="value"`` string attributes, printed after the flags."""

    def __init__(self, args=()):
        self.strings: dict[str, str] = {}
        super().__init__(args)

    def add(self, name: str) -> None:
        set.add(self, name)

    def add_string(self, key: str, value: str = "") -> None:
        self.strings[key] = value

    def __bool__(self) -> bool:
        return bool(len(self)) or bool(self.strings)

    def _to_list(self, ret_type):
        attrs = super()._to_list(ret_type)
        for key, value in self.strings.items():
            attrs.append(f'"{escape_llvm_string(key)}"' +
                         (f'="{escape_llvm_string(value)}"' if value else ""))
        return attrs


class ArgumentAttributes(values.ArgumentAttributes):
    """llvmlite's parameter attributes, plus any other flag (``readonly``, ``"key"``)."""

    def add(self, name: str) -> None:
        set.add(self, name)

    def __bool__(self) -> bool:
        return bool(len(self)) or bool(self.align or self.dereferenceable
                                       or self.dereferenceable_or_null)


def use_extended_attributes(function: ir.Function) -> None:
    """Give ``function`` (and its arguments) attribute sets that accept any attribute."""
    function.attributes = FunctionAttributes(function.attributes)
    for arg in function.args:
        arg.attributes = ArgumentAttributes(arg.attributes)


# --------------------------------------------------------------------------- instructions


class InlineAsm(ir.InlineAsm):
    """``asm [sideeffect] [alignstack] [inteldialect] "..."``, with the strings escaped."""

    def __init__(self, ftype: ir.FunctionType, asm: str, constraint: str,
                 side_effect: bool = False, align_stack: bool = False, intel: bool = False):
        super().__init__(ftype, asm, constraint, side_effect=side_effect)
        self.align_stack = align_stack
        self.intel = intel

    def descr(self, buf) -> None:
        words = ["asm"]
        if self.side_effect:
            words.append("sideeffect")
        if self.align_stack:
            words.append("alignstack")
        if self.intel:
            words.append("inteldialect")
        buf.append(" ".join(words) +
                   f' "{escape_llvm_string(self.asm)}", "{escape_llvm_string(self.constraint)}"')


def _syncscope(scope: str | None) -> str:
    return f' syncscope("{escape_llvm_string(scope)}")' if scope else ""


class _MemoryFlags:
    """What loads, stores and atomics print alike: ``volatile``, an atomic ordering in a
    sync scope, the alignment."""

    def _set_flags(self, volatile=False, ordering=None, syncscope=None, align=None) -> None:
        self.volatile = volatile
        self.ordering = ordering
        self.syncscope = syncscope
        self.align = align

    def _head(self, opname: str) -> str:
        """``load``/``store``, with ``atomic`` and ``volatile`` where they apply."""
        head = f"{opname} atomic" if self.ordering else opname
        return f"{head} volatile" if self.volatile else head

    def _tail(self) -> str:
        """The sync scope and ordering of an atomic access, then the alignment."""
        ordering = f"{_syncscope(self.syncscope)} {self.ordering}" if self.ordering else ""
        align = f", align {self.align}" if self.align is not None else ""
        return ordering + align + self._stringify_metadata(leading_comma=True) + "\n"


class Load(_MemoryFlags, instructions.LoadInstr):
    """``load [volatile] T, ptr %p[, align N]`` or ``load atomic ... [syncscope] ordering``."""

    def __init__(self, parent, ptr, typ, volatile=False, ordering=None, syncscope=None):
        super().__init__(parent, ptr, typ=typ)
        self._set_flags(volatile, ordering, syncscope)

    def descr(self, buf) -> None:
        [ptr] = self.operands
        buf.append(f"{self._head('load')} {self.type}, {ptr.type} {ptr.get_reference()}"
                   f"{self._tail()}")


class Store(_MemoryFlags, instructions.StoreInstr):
    """``store [volatile] T %v, ptr %p[, align N]``, or its atomic form."""

    def __init__(self, parent, value, ptr, volatile=False, ordering=None, syncscope=None):
        super().__init__(parent, value, ptr)
        self._set_flags(volatile, ordering, syncscope)

    def descr(self, buf) -> None:
        value, ptr = self.operands
        buf.append(f"{self._head('store')} {value.type} {value.get_reference()}, {ptr.type} "
                   f"{ptr.get_reference()}{self._tail()}")


class AtomicRMW(_MemoryFlags, instructions.Instruction):
    """``atomicrmw [volatile] op ptr %p, T %v [syncscope("s")] ordering[, align N]``."""

    def __init__(self, parent, operation, ptr, value, ordering, syncscope=None,
                 volatile=False, align=None):
        super().__init__(parent, value.type, "atomicrmw", (ptr, value))
        self.operation = operation
        self._set_flags(volatile, ordering, syncscope, align)

    def descr(self, buf) -> None:
        ptr, value = self.operands
        volatile = " volatile" if self.volatile else ""
        buf.append(f"atomicrmw{volatile} {self.operation} {ptr.type} {ptr.get_reference()}, "
                   f"{value.type} {value.get_reference()}{self._tail()}")


class CmpXchg(_MemoryFlags, instructions.Instruction):
    """``cmpxchg [weak] [volatile] ptr %p, T %cmp, T %new [syncscope] success failure``."""

    def __init__(self, parent, ptr, cmp, new, success, failure, syncscope=None,
                 weak=False, volatile=False, align=None):
        result_type = ir.LiteralStructType([new.type, ir.IntType(1)])
        super().__init__(parent, result_type, "cmpxchg", (ptr, cmp, new))
        self.success, self.failure, self.weak = success, failure, weak
        # Printed where other atomics print their one ordering: success, then failure.
        self._set_flags(volatile, f"{success} {failure}", syncscope, align)

    def descr(self, buf) -> None:
        ptr, cmp, new = self.operands
        flags = ("weak " if self.weak else "") + ("volatile " if self.volatile else "")
        buf.append(f"cmpxchg {flags}{ptr.type} {ptr.get_reference()}, {cmp.type} "
                   f"{cmp.get_reference()}, {new.type} {new.get_reference()}{self._tail()}")


class Fence(_MemoryFlags, instructions.Instruction):
    """``fence [syncscope("s")] ordering``."""

    def __init__(self, parent, ordering, syncscope=None):
        super().__init__(parent, ir.VoidType(), "fence", ())
        self._set_flags(ordering=ordering, syncscope=syncscope)

    def descr(self, buf) -> None:
        buf.append(f"fence{self._tail()}")


class Cast(instructions.CastInstr):
    """A cast with flags (``zext nneg``, ``trunc nuw nsw``), which llvmlite cannot print."""

    def __init__(self, parent, op, value, typ, flags=()):
        instructions.Instruction.__init__(self, parent, typ, op, [value], flags=list(flags))

    def descr(self, buf) -> None:
        [value] = self.operands
        opname = " ".join([self.opname, *self.flags])
        buf.append(f"{opname} {value.type} {value.get_reference()} to {self.type}"
                   f"{self._stringify_metadata(leading_comma=True)}\n")


class Freeze(instructions.Instruction):
    def __init__(self, parent, value):
        super().__init__(parent, value.type, "freeze", [value])

    def descr(self, buf) -> None:
        [value] = self.operands
        buf.append(f"freeze {value.type} {value.get_reference()}"
                   f"{self._stringify_metadata(leading_comma=True)}\n")


class Alloca(instructions.AllocaInstr):
    """``alloca T, i32 %n, addrspace(N)``: AMD's private memory lives in address space 5."""

    def __init__(self, parent, allocated_type, count, pointer_type):
        super().__init__(parent, allocated_type, count, "")
        self.type = pointer_type

    def descr(self, buf) -> None:
        [count] = self.operands
        text = f"alloca {self.allocated_type}, {count.type} {count.get_reference()}"
        if self.align is not None:
            text += f", align {self.align}"
        if self.type.addrspace:
            text += f", addrspace({self.type.addrspace})"
        buf.append(text + self._stringify_metadata(leading_comma=True) + "\n")
