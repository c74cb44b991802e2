"""Triton's own lit tests with ``triton-opt`` replaced by ``tileopt``: a conformance table.

    python benchmarks/triton_lit.py TRITON_TEST_DIR [-k TEXT] [--filecheck PATH]
        [--timeout 120] [--markdown FILE] [-j N]

TRITON_TEST_DIR is a checkout's ``test/`` directory (or any folder below it, or one
file). Every ``RUN:`` line of every ``.mlir`` file there is run as Triton's lit would run
it (bash with ``pipefail``, ``%s``/``%S``/``%t`` substituted, ``not`` inverting the exit
status, ``FILECHECK_OPTS=--enable-var-scope`` as Triton's ``lit.cfg.py`` sets), with the
word ``triton-opt`` replaced by the ``tileopt`` of this environment and nothing else
changed. Each RUN line ends up as one of:

- ``pass``: the line exits 0;
- ``fail``: it does not; the first ``error:`` line it printed (FileCheck's, or tileopt's
  own) is shown;
- ``unsupported``: a tool other than triton-opt / FileCheck / not / cat (e.g.
  ``triton-llvm-opt``, ``mlir-translate``, a pass plugin), a ``REQUIRES:`` line, or a
  pass or option tileopt does not have (its name is shown: found by running the line's
  tileopt invocations alone, after the line failed).

FileCheck is ``--filecheck``, else a ``FileCheck`` on the PATH, else the ``filecheck`` of
this Python environment (tileopt's test extra, a Python clone of LLVM's that lacks some
of its options). LLVM's ``split-file`` (some files start with it) is this script's own
``--split-file``. The RUN lines of one file run in order and share ``%t``, as in lit.
The test files are read where they are; none is copied.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

RUN = re.compile(r"^\s*//\s*RUN:(.*)$")
REQUIRES = re.compile(r"^\s*//\s*REQUIRES:(.*)$")
KNOWN_TOOLS = {"triton-opt", "FileCheck", "not", "cat", "count", "split-file"}
# How tileopt names what it lacks (tileopt/driver/argv.py, passes/options.py, pipelines).
UNSUPPORTED = (
    re.compile(r"unknown command line argument '(-*[^'=]+)"),
    re.compile(r"('[^']+' is not a valid value for boolean flag '[^']+')"),
    re.compile(r"(pass '[^']+' has no option '[^']+')"),
    re.compile(r"unknown pass '([^']+)'"),
    re.compile(r"(option '[^']+' of pass '[^']+'.*)"),
)
NOT_FUNCTION = 'not() { if "$@"; then return 1; else return 0; fi; }\n'


@dataclass
class RunLine:
    file: Path
    number: int  # 1-based position among the file's RUN lines
    line: int  # line number of its first RUN: comment
    command: str


@dataclass
class Outcome:
    run: RunLine
    status: str  # pass, fail, unsupported
    detail: str
    seconds: float


def run_lines(path: Path) -> tuple[list[RunLine], list[str]]:
    """The file's RUN lines (continuations joined) and its REQUIRES features."""
    commands: list[RunLine] = []
    requires: list[str] = []
    pending: tuple[int, str] | None = None
    for number, text in enumerate(path.read_text(errors="replace").splitlines(), start=1):
        if match := REQUIRES.match(text):
            requires += [f.strip() for f in match.group(1).split(",") if f.strip()]
        match = RUN.match(text)
        if not match:
            continue
        part = match.group(1).strip()
        start, so_far = pending if pending else (number, "")
        joined = f"{so_far} {part.removesuffix(chr(92)).strip()}".strip()
        if part.endswith("\\"):
            pending = (start, joined)
        else:
            pending = None
            commands.append(RunLine(path, len(commands) + 1, start, joined))
    return commands, requires


def tools_of(command: str) -> list[str]:
    """The programs a command runs (first word of each pipeline stage)."""
    tools = []
    for stage in re.split(r"\|\|?|&&|;", command):
        words = stage.split()
        while words and (re.fullmatch(r"\w+=\S*", words[0]) or words[0] in ("not", "env")):
            if words[0] == "not":
                tools.append("not")
            words = words[1:]
        if words:
            tools.append(words[0])
    return tools


def substitute(run: RunLine, tileopt: str, filecheck: str, temp: Path) -> str:
    command = run.command
    split_file = f"{shlex.quote(sys.executable)} {shlex.quote(__file__)} --split-file"
    for word, program in (("triton-opt", shlex.quote(tileopt)),
                          ("FileCheck", shlex.quote(filecheck)), ("split-file", split_file)):
        command = re.sub(rf"(?<![\w.\-/]){word}(?![\w.\-])", program, command)
    command = command.replace("%s", shlex.quote(str(run.file)))
    command = command.replace("%S", shlex.quote(str(run.file.parent)))
    return command.replace("%t", shlex.quote(str(temp / "t")))


def split_file(source: Path, directory: Path) -> None:
    """LLVM's ``split-file``: the parts after ``//--- NAME`` lines become files of the
    directory, each with the lines before it blanked so that line numbers stay."""
    directory.mkdir(parents=True, exist_ok=True)
    lines = source.read_text().splitlines(keepends=True)
    name, start = None, 0
    for number, text in enumerate(lines + ["//--- "]):
        match = re.match(r"^//--- (\S*)", text)
        if match:
            if name:
                (directory / name).write_text("\n" * start + "".join(lines[start:number]))
            name, start = match.group(1), number + 1


def first_error(text: str) -> str:
    """The first ``error:`` line; for FileCheck's "expected string not found", with the
    check line it quotes after it."""
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if "error:" in line:
            if "not found in input" in line and n + 1 < len(lines):
                line = f"{line.strip()}  [{lines[n + 1].strip()}]"
            return line.strip()[:300]
    lines = [line for line in text.splitlines() if line.strip()]
    return (lines[-1].strip()[:300] if lines else "exit status != 0, no message")


def missing_feature(run: RunLine, tileopt: str, temp: Path) -> str | None:
    """What tileopt lacks for this line, found by running its tileopt invocations
    alone (output discarded); None if none of them names a missing pass or option."""
    command = substitute(run, tileopt, "cat", temp)
    for stage in command.split("|"):
        words = shlex.split(stage, posix=True) if stage.strip() else []
        while words and (words[0] == "not" or re.fullmatch(r"\w+=\S*", words[0])):
            words = words[1:]
        if not words or words[0] != tileopt:
            continue
        probe = subprocess.run(words, capture_output=True, text=True, timeout=120,
                               cwd=run.file.parent, stdin=subprocess.DEVNULL)
        for pattern in UNSUPPORTED:
            if match := pattern.search(probe.stderr):
                return match.group(1)
    return None


def run_file(path: Path, commands: list[RunLine], requires: list[str], tileopt: str,
             filecheck: str, timeout: float) -> list[Outcome]:
    """The file's RUN lines in order, sharing one ``%t``."""
    with tempfile.TemporaryDirectory(prefix="triton-lit-") as temp_name:
        return [run_one(run, requires, tileopt, filecheck, timeout, Path(temp_name))
                for run in commands]


def run_one(run: RunLine, requires: list[str], tileopt: str, filecheck: str,
            timeout: float, temp: Path) -> Outcome:
    start = time.perf_counter()
    unknown = [t for t in tools_of(run.command) if t not in KNOWN_TOOLS]
    if requires:
        return Outcome(run, "unsupported", f"REQUIRES: {', '.join(requires)}", 0.0)
    if unknown:
        return Outcome(run, "unsupported", f"tool {unknown[0]}", 0.0)
    command = substitute(run, tileopt, filecheck, temp)
    env = dict(os.environ, FILECHECK_OPTS="--enable-var-scope")
    try:
        result = subprocess.run(["bash", "-o", "pipefail", "-c", NOT_FUNCTION + command],
                                capture_output=True, text=True, timeout=timeout,
                                cwd=run.file.parent, env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return Outcome(run, "fail", f"timed out after {timeout:.0f} s",
                       time.perf_counter() - start)
    if result.returncode == 0:
        return Outcome(run, "pass", "", time.perf_counter() - start)
    missing = missing_feature(run, tileopt, temp)
    seconds = time.perf_counter() - start
    if missing:
        return Outcome(run, "unsupported", missing, seconds)
    # the file's %t is spelled %t, as in the RUN line (no machine's temp path)
    detail = first_error(result.stderr + result.stdout).replace(str(temp / "t"), "%t")
    return Outcome(run, "fail", detail, seconds)


def find_tileopt() -> str:
    beside = Path(sys.executable).parent / "tileopt"
    return str(beside) if beside.exists() else shutil.which("tileopt") or "tileopt"


def find_filecheck() -> str:
    if shutil.which("FileCheck"):
        return shutil.which("FileCheck")
    beside = Path(sys.executable).parent / "filecheck"
    return str(beside) if beside.exists() else shutil.which("filecheck") or "filecheck"


def markdown(outcomes: list[Outcome], root: Path) -> str:
    rows = ["| file | RUN | result | detail |", "|---|---|---|---|"]
    for o in outcomes:
        detail = o.detail.replace("|", "\\|").replace(str(root) + "/", "")
        rows.append(f"| {o.run.file.relative_to(root)} | {o.run.number} (line {o.run.line}) "
                    f"| {o.status} | {detail} |")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    if argv is None and sys.argv[1:2] == ["--split-file"]:
        split_file(Path(sys.argv[2]), Path(sys.argv[3]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("test_dir", type=Path, help="Triton's test/ directory (or a part)")
    parser.add_argument("-k", default="", help="only files whose path contains this")
    parser.add_argument("--filecheck", default=None, help="FileCheck program to use")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per RUN line")
    parser.add_argument("--markdown", type=Path, default=None, help="write the table here")
    parser.add_argument("-j", type=int, default=1, help="files at once")
    args = parser.parse_args(argv)
    root = args.test_dir.resolve()
    files = [root] if root.is_file() else sorted(root.rglob("*.mlir"))
    if root.is_file():
        root = root.parent
    tileopt, filecheck = find_tileopt(), args.filecheck or find_filecheck()
    jobs = []
    for path in files:
        if args.k not in str(path.relative_to(root)) or "Inputs" in path.parts:
            continue
        commands, requires = run_lines(path)
        if commands:
            jobs.append((path, commands, requires))
    with ThreadPoolExecutor(max_workers=max(args.j, 1)) as pool:
        outcomes = [o for per_file in pool.map(
            lambda job: run_file(*job, tileopt, filecheck, args.timeout), jobs)
            for o in per_file]
    for o in outcomes:
        where = f"{o.run.file.relative_to(root)}:{o.run.line} RUN {o.run.number}"
        print(f"{o.status.upper():12} {where}" + (f"  {o.detail}" if o.detail else ""))
    counts = Counter(o.status for o in outcomes)
    per_file: dict[Path, set[str]] = {}
    for o in outcomes:
        per_file.setdefault(o.run.file, set()).add(o.status)
    passing_files = sum(1 for s in per_file.values() if s == {"pass"})
    print(f"\n{len(outcomes)} RUN lines in {len(per_file)} files: {counts['pass']} pass, "
          f"{counts['fail']} fail, {counts['unsupported']} unsupported; "
          f"{passing_files} files pass every RUN line")
    if args.markdown:
        args.markdown.write_text(markdown(outcomes, root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
