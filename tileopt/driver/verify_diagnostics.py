"""``--verify-diagnostics``: compare diagnostics with ``expected-*`` comments, as mlir-opt.

A comment ``// expected-error {{text}}`` expects an error on its own line whose message
contains ``text``; ``expected-warning``, ``expected-remark`` and ``expected-note`` likewise.
``@+N`` / ``@-N`` move the line, ``@above`` means the last line that is not itself an
expectation, ``@below`` the next such line, ``@unknown`` a diagnostic without a location.
``expected-error-re {{a {{[0-9]+}} b}}`` matches ``{{...}}`` parts as regular expressions.
Every expectation must be met and every diagnostic expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TextIO

from tileopt.ir import TileoptError
from tileopt.passes.diagnostics import Diagnostic

_EXPECTED = re.compile(
    r"expected-(error|warning|remark|note)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}\s*$")
_NOTE_LINE = re.compile(r"^(.*?):(\d+):(?:(\d+):)? note: (.*)$")


@dataclass
class Expectation:
    severity: str
    line: int | None  # None: @unknown
    text: str
    regex: re.Pattern[str] | None
    comment_line: int
    comment_col: int
    matched: bool = False

    def matches(self, message: str) -> bool:
        if self.regex is not None:
            return self.regex.search(message) is not None
        return self.text in message


def _compile_re(text: str) -> re.Pattern[str]:
    parts, pos = [], 0
    for match in re.finditer(r"\{\{(.*?)\}\}", text):
        parts.append(re.escape(text[pos:match.start()]))
        parts.append(f"(?:{match.group(1)})")
        pos = match.end()
    parts.append(re.escape(text[pos:]))
    return re.compile("".join(parts))


def parse_expectations(text: str) -> list[Expectation]:
    lines = text.split("\n")
    result: list[Expectation] = []
    last_plain_line = 0
    pending_below: list[Expectation] = []
    for index, raw in enumerate(lines):
        line_no = index + 1
        match = _EXPECTED.search(raw.rstrip())
        if match is None:
            for expectation in pending_below:
                expectation.line = line_no
            pending_below.clear()
            last_plain_line = line_no
            continue
        severity, is_re, _, offset, body = match.groups()
        expectation = Expectation(severity, line_no, body, _compile_re(body) if is_re else None,
                                  line_no, match.start() + 1)
        if offset is None:
            pass
        elif offset == "above":
            expectation.line = last_plain_line
        elif offset == "below":
            expectation.line = len(lines)
            pending_below.append(expectation)
        elif offset == "unknown":
            expectation.line = None
        else:
            expectation.line = line_no + int(offset)
        result.append(expectation)
    return result


@dataclass
class DiagnosticChecker:
    """Collects diagnostics of a run and checks them against the input's expectations."""

    filename: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def __call__(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    def add_error(self, err: TileoptError) -> None:
        self.diagnostics.append(Diagnostic("error", err.message, err.file, err.line, err.col))
        for note in err.notes:
            match = _NOTE_LINE.match(note)
            if match:
                file, line, col, message = match.groups()
                self.diagnostics.append(Diagnostic("note", message, file, int(line),
                                                   int(col) if col else None))

    def check_expectations(self, text: str, split: bool) -> bool:
        expectations = parse_expectations(text)
        for diagnostic in self.diagnostics:
            in_file = diagnostic.file == self.filename
            line = diagnostic.line if in_file else None
            found = None
            for expectation in expectations:
                if (not expectation.matched and expectation.severity == diagnostic.severity
                        and expectation.line == line
                        and (in_file or diagnostic.line is None or expectation.line is None)
                        and expectation.matches(diagnostic.message)):
                    found = expectation
                    break
            if found is not None:
                found.matched = True
            else:
                self.problems.append(
                    Diagnostic("error", f"unexpected {diagnostic.severity}: {diagnostic.message}",
                               diagnostic.file, diagnostic.line, diagnostic.col).format())
        for expectation in expectations:
            if not expectation.matched:
                self.problems.append(
                    f"{self.filename}:{expectation.comment_line}:{expectation.comment_col}: "
                    f"error: expected {expectation.severity} \"{expectation.text}\" "
                    "was not produced")
        return not self.problems

    def report(self, stream: TextIO) -> None:
        for problem in self.problems:
            stream.write(problem + "\n")
