"""Reproducers as MLIR writes them, so Triton's and tileopt's run on either tool.

A reproducer is the IR a failing pass started from, with the pipeline to run on it kept in
the file's metadata block at the end::

    {-#
      external_resources: {
        mlir_reproducer: {
          pipeline: "builtin.module(tritongpu-coalesce)",
          disable_threading: false,
          verify_each: true
        }
      }
    #-}

Reading: :func:`split_reproducer` takes the ``mlir_reproducer`` entry out of the text (so
any input with one parses, as in mlir-opt) and returns its settings; ``--run-reproducer``
runs that pipeline. Writing: :func:`reproducer_text`, used by ``CrashReproducer``
(``--mlir-pass-pipeline-crash-reproducer=FILE``, in ``tileopt/driver/crash_reproducer.py``
so that reading one imports no pass machinery), which snapshots the IR before each pass
and, when a pass fails, writes the snapshot with that one pass as the pipeline (MLIR's
*local* reproducer, the kind Triton asks for with ``TRITON_REPRODUCER_PATH``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tileopt.ir import TileoptError


@dataclass(frozen=True)
class Reproducer:
    pipeline: str
    verify_each: bool = True
    disable_threading: bool = False


_STRING = r'"(?:[^"\\]|\\.)*"'
_STRING_LITERAL = re.compile(_STRING)


def _matching_brace(text: str, open_at: int) -> int:
    """Index of the ``}`` closing the ``{`` at ``open_at`` (strings skipped), or -1."""
    depth = 0
    i = open_at
    while i < len(text):
        ch = text[i]
        if ch == '"':
            match = _STRING_LITERAL.match(text, i)
            i = match.end() if match else len(text)
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _unquote(literal: str) -> str:
    return re.sub(r"\\(.)", r"\1", literal[1:-1])


def split_reproducer(text: str, filename: str) -> tuple[str, Reproducer | None]:
    """``text`` without its ``mlir_reproducer`` entry (line numbers unchanged), and the
    entry's settings (None if the file has none)."""
    start = text.rfind("{-#")
    if start < 0 or "#-}" not in text[start:]:
        return text, None
    end = text.index("#-}", start) + 3
    block = text[start:end]
    key = re.search(r"\bexternal_resources\s*:\s*\{", block)
    if key is None:
        return text, None
    close = _matching_brace(block, key.end() - 1)
    if close < 0:
        return text, None
    external = block[key.end():close]
    entry = re.search(r"\bmlir_reproducer\s*:\s*\{", external)
    if entry is None:
        return text, None
    line = text.count("\n", 0, start + key.start()) + 1
    body_end = _matching_brace(external, entry.end() - 1)
    body = external[entry.end():body_end]
    pipeline = re.search(r"\bpipeline\s*:\s*(" + _STRING + ")", body)
    if pipeline is None:
        raise TileoptError("the mlir_reproducer entry has no 'pipeline'", filename, line, 1)

    def flag(name: str, default: bool) -> bool:
        found = re.search(rf"\b{name}\s*:\s*(true|false)\b", body)
        return default if found is None else found.group(1) == "true"

    reproducer = Reproducer(_unquote(pipeline.group(1)), flag("verify_each", True),
                            flag("disable_threading", False))
    # Drop the external_resources entry (and a comma that joined it to another entry),
    # keep what else the block holds (dialect resources), keep the line count.
    cut_from, cut_to = key.start(), close + 1
    rest = block[cut_to:]
    comma = re.match(r"\s*,", rest)
    if comma:
        cut_to += comma.end()
    kept = block[:cut_from] + "\n" * block.count("\n", cut_from, cut_to) + block[cut_to:]
    if not re.search(r"[A-Za-z_]", kept[3:-3]):
        kept = "\n" * kept.count("\n")  # nothing else in the block: drop it
    return text[:start] + kept + text[end:], reproducer


def reproducer_text(module_text: str, pipeline: str, verify_each: bool) -> str:
    quoted = pipeline.replace("\\", "\\\\").replace('"', '\\"')
    return (f"{module_text.rstrip()}\n\n{{-#\n  external_resources: {{\n    mlir_reproducer: {{\n"
            f"      pipeline: \"{quoted}\",\n      disable_threading: true,\n"
            f"      verify_each: {'true' if verify_each else 'false'}\n    }}\n  }}\n#-}}\n")
