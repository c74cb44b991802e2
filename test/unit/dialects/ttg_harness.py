"""Helpers shared by the TritonGPU-level dialect tests (ttg, ttng, amdg, rocdl).

Single ops are parsed on their own: operands not defined in the snippet become forward
references typed by the op's own parser, so one corpus line is a complete test case. Alias
names (``#blocked``, ``#shared``, ...) are expanded textually from the file they came from,
and the plain xDSL printer (which inlines attributes) is compared with the expanded text;
SSA names are renumbered on both sides since names are not semantics.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.cf import Cf
from xdsl.dialects.func import Func
from xdsl.dialects.math import Math
from xdsl.dialects.scf import Scf
from xdsl.dialects.ub import UB
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.printer import Printer

from tileopt.dialects.amdgpu import AMDGPU
from tileopt.dialects.rocdl import ROCDL
from tileopt.dialects.tt import TT
from tileopt.dialects.ttg import TTG
from tileopt.dialects.ttng import TTNG

MY_DIALECTS = ("ttg", "ttng", "amdg", "rocdl")


def gpu_context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Arith, Math, Scf, Cf, Func, UB, TT, TTG, TTNG, AMDGPU, ROCDL):
        ctx.load_dialect(dialect)
    return ctx


_CTX = gpu_context()

ALIAS_DEF = re.compile(r"^(#[\w.$-]+) = (.*)$")


def file_aliases(text: str) -> dict[str, str]:
    """``#name -> definition`` for the attribute aliases of a file (locations left out)."""
    aliases = {}
    for line in text.splitlines():
        m = ALIAS_DEF.match(line)
        if m and not m.group(2).startswith("loc("):
            aliases[m.group(1)] = m.group(2)
    return aliases


def expand_aliases(text: str, aliases: dict[str, str]) -> str:
    if not aliases:
        return text
    pattern = re.compile("|".join(re.escape(a) for a in sorted(aliases, key=len, reverse=True)) + r"(?![\w.$-])")
    for _ in range(8):  # aliases may refer to aliases
        new = pattern.sub(lambda m: aliases[m.group(0)], text)
        if new == text:
            return text
        text = new
    return text


def strip_loc(line: str) -> str:
    """Remove a trailing ``loc(...)`` (balanced parentheses)."""
    idx = line.rfind(" loc(")
    while idx != -1:
        depth = 0
        for j in range(idx + 1, len(line)):
            if line[j] == "(":
                depth += 1
            elif line[j] == ")":
                depth -= 1
                if depth == 0:
                    if line[j + 1 :].strip() == "":
                        return line[:idx]
                    break
        idx = line.rfind(" loc(", 0, idx)
    return line


_SSA = re.compile(r"%[\w.$-]+(?:#\d+)?")


_RESULT_GROUP = re.compile(r"^(\s*)(%[\w.$-]+):(\d+) = ")


def normalize_ssa(text: str) -> str:
    """Renumber SSA names by first appearance; ``%x:3 = `` (MLIR's result group, which the
    plain xDSL printer writes ``%a, %b, %c = ``) counts as three names."""
    m = _RESULT_GROUP.match(text)
    if m:
        group = ", ".join(f"{m.group(2)}#{i}" for i in range(int(m.group(3))))
        text = f"{m.group(1)}{group} = " + text[m.end() :]
    names: dict[str, str] = {}

    def rename(m: re.Match) -> str:
        return names.setdefault(m.group(0), f"%v{len(names)}")

    return _SSA.sub(rename, text)


def parse_op(line: str, aliases: dict[str, str] | None = None, ctx: Context | None = None) -> Operation:
    text = expand_aliases(strip_loc(line).strip(), aliases or {})
    return Parser(ctx or _CTX, text).parse_op()


def parse_attr(text: str, aliases: dict[str, str] | None = None) -> Attribute:
    return Parser(_CTX, expand_aliases(text, aliases or {})).parse_attribute()


def show(op_or_attr) -> str:
    stream = io.StringIO()
    printer = Printer(stream=stream)
    if isinstance(op_or_attr, Operation):
        printer.print_op(op_or_attr)
    else:
        printer.print_attribute(op_or_attr)
    return stream.getvalue()


def roundtrip(line: str, aliases: dict[str, str] | None = None) -> tuple[str, str]:
    """(expected, printed) for one op line, both alias-expanded and SSA-renumbered."""
    op = parse_op(line, aliases)
    op.verify()
    expected = normalize_ssa(expand_aliases(strip_loc(line).strip(), aliases or {}))
    return expected, normalize_ssa(show(op))


# ---------------------------------------------------------------------------------------
# The corpus: TritonGPU-level files
# ---------------------------------------------------------------------------------------


def ttgir_level_files(corpus: Path, passes_root: Path) -> list[Path]:
    """Every ``.ttgir`` and every per-pass dump up to (and including the input of) the first
    pass that lowers to the LLVM dialect."""
    files = sorted(corpus.glob("*/*.ttgir"))
    for folder in sorted(passes_root.glob("*/passes/*")):
        for dump in sorted(folder.glob("[0-9]*.mlir")):
            files.append(dump)
            if "to-llvm" in dump.name:
                break
    return files


_OP_LINE = re.compile(r"^\s*(?:%[\w.$#:-]+(?:, %[\w.$#:-]+)* = )?(\"?)([a-z_]+)\.([\w.]+)")


def dialect_op_lines(text: str, dialects=MY_DIALECTS) -> Iterator[tuple[str, str]]:
    """(op name, line without location) for each op of ``dialects`` in a file."""
    for line in text.splitlines():
        m = _OP_LINE.match(line)
        if m and not m.group(1) and m.group(2) in dialects:
            yield f"{m.group(2)}.{m.group(3)}", strip_loc(line)


def ttg_attribute_spellings(text: str) -> Iterator[str]:
    """Every ``#ttg.name<...>`` written in the text (balanced angle brackets)."""
    for m in re.finditer(r"#ttg\.[a-z_]+", text):
        end = m.end()
        if end < len(text) and text[end] == "<":
            depth = 0
            for j in range(end, len(text)):
                if text[j] == "<":
                    depth += 1
                elif text[j] == ">" and text[j - 1] != "-":
                    depth -= 1
                    if depth == 0:
                        yield text[m.start() : j + 1]
                        break
        else:
            yield m.group(0)
