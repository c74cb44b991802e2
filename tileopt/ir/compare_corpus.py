"""How much of Triton's own text tileopt reads and prints back unchanged.

``python -m tileopt.ir.compare_corpus [--corpus DIR] [--passes DIR] [-v]``

For every ``.ttir``/``.ttgir`` of the reference corpus and every per-pass dump of a
pipeline taken before its first LLVM-lowering pass, this parses the file, verifies it,
prints it, and compares the text with Triton's after normalising both
(``normalise``): locations removed (``loc(...)``, ``#loc`` lines) and SSA values renamed
in order of appearance, since names and locations are not semantics. It prints the
share of files that match and, for each file that does not, the first differing line.
It also counts the files whose print with locations (``debuginfo=True``) is
byte-identical to Triton's, names, ``#loc`` numbering and all.

Some dumps taken before ``tritongpu-pipeline`` end with the pipeliner's own debug dumps
(``// -----// SoftwarePipeliner internal IR Dump After: LowerLoops``), printed without
attribute aliases. The part before them is the dump; each internal dump is checked too,
with attribute aliases expanded on both sides (``expand_aliases``).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

TARGETS = ("cuda-sm80", "cuda-sm90", "hip-gfx942", "hip-gfx1100")
# The first pass of each pipeline that leaves TritonGPU for the LLVM dialect.
LLVM_LOWERING_PASSES = ("convert-triton-gpu-to-llvm", "convert-triton-amdgpu-to-llvm")

_LOC_ALIAS_LINE = re.compile(r"^#loc\d*\s*=.*\n?", re.MULTILINE)
_SSA_NAME = re.compile(r"%[A-Za-z0-9_$.\-]+")


def _strip_locations(text: str) -> str:
    """Remove every `` loc(...)`` (balanced, strings respected) and ``#loc`` line."""
    text = _LOC_ALIAS_LINE.sub("", text)
    out = []
    i = 0
    while True:
        j = text.find(" loc(", i)
        if j < 0:
            out.append(text[i:])
            break
        out.append(text[i:j])
        k = j + len(" loc(")
        depth = 1
        while k < len(text) and depth:
            ch = text[k]
            if ch == '"':
                k += 1
                while k < len(text) and text[k] != '"':
                    k += 2 if text[k] == "\\" else 1
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            k += 1
        i = k
    return "".join(out)


def normalise(text: str) -> str:
    """Text without locations, SSA names replaced by ``%v0, %v1, ...`` in order."""
    text = _strip_locations(text)
    names: dict[str, str] = {}

    def rename(match: re.Match[str]) -> str:
        name = match.group()
        if name not in names:
            names[name] = f"%v{len(names)}"
        return names[name]

    return _SSA_NAME.sub(rename, text)


_ALIAS_DEFINITION = re.compile(r"^(#[A-Za-z_][\w$.-]*) = (.*)$", re.MULTILINE)
_ALIAS_USE = re.compile(r"#[A-Za-z_][\w$.-]*")
_DEBUG_DUMP_SEPARATOR = re.compile(r"^// -----//.*$", re.MULTILINE)


def expand_aliases(text: str) -> str:
    """Attribute aliases replaced by their definitions (and the definitions removed)."""
    definitions = {m.group(1): m.group(2) for m in _ALIAS_DEFINITION.finditer(text)
                   if not m.group(1).startswith("#loc")}
    if not definitions:
        return text
    text = _ALIAS_DEFINITION.sub(
        lambda m: m.group() if m.group(1).startswith("#loc") else "", text)
    text = re.sub(r"^\n", "", text, flags=re.MULTILINE)

    def expand(match: re.Match[str]) -> str:
        name = match.group()
        if name not in definitions:
            return name
        return _ALIAS_USE.sub(expand, definitions[name])

    return _ALIAS_USE.sub(expand, text)


def split_debug_dumps(text: str) -> list[str]:
    """The dump and the pass-internal debug dumps some files carry after it."""
    return [part.strip("\n") + "\n" for part in _DEBUG_DUMP_SEPARATOR.split(text)]


def first_difference(expected: str, actual: str) -> tuple[int, str, str] | None:
    """(line number, expected line, actual line) of the first difference, or None."""
    a = expected.splitlines()
    b = actual.splitlines()
    for number, (x, y) in enumerate(zip(a, b), start=1):
        if x != y:
            return number, x, y
    if len(a) != len(b):
        n = min(len(a), len(b))
        return (n + 1, a[n] if n < len(a) else "<end of file>",
                b[n] if n < len(b) else "<end of file>")
    return None


def find_corpus() -> Path | None:
    repo = Path(__file__).resolve().parents[2]
    path = Path(os.environ.get("TILEOPT_CORPUS", repo.parent / "shared" / "corpus"))
    return path if (path / "README.md").exists() else None


def unpack_passes(corpus: Path) -> Path:
    """``passes.tar.xz`` unpacked once under the temp directory (shared with the tests)."""
    archive = corpus / "passes.tar.xz"
    stamp = f"{archive.stat().st_size}-{int(archive.stat().st_mtime)}"
    dest = Path(tempfile.gettempdir()) / f"tileopt-corpus-passes-{stamp}"
    done = dest / ".unpacked"
    if not done.exists():
        dest.mkdir(parents=True, exist_ok=True)
        with tarfile.open(archive) as tar:
            tar.extractall(dest, filter="data")
        done.touch()
    return dest


def tt_level_dumps(passes: Path, target: str, kernel: str) -> list[Path]:
    """The stored dumps of a pipeline taken before its first LLVM-lowering pass."""
    folder = passes / target / "passes" / kernel
    dumps = []
    for line in (folder / "ORDER.txt").read_text().splitlines()[1:]:
        name = line.split()[0]
        if name.split("-", 1)[1].removesuffix(".mlir") in LLVM_LOWERING_PASSES:
            break
        if (folder / name).exists():
            dumps.append(folder / name)
    return dumps


def corpus_files(corpus: Path, passes: Path | None) -> list[tuple[str, Path]]:
    """(id, path) of every file to compare; ids are relative and stable."""
    files = []
    for target in TARGETS:
        for path in sorted((corpus / target).glob("*.tt*ir")):
            files.append((f"{target}/{path.name}", path))
    if passes is not None:
        for target in TARGETS:
            for kernel in sorted(p.name for p in (passes / target / "passes").iterdir()):
                for path in tt_level_dumps(passes, target, kernel):
                    files.append((f"passes/{target}/{kernel}/{path.name}", path))
    return files


@dataclass
class Outcome:
    file_id: str
    ok: bool  # parsed, verified, printed
    matches: bool  # printed text equals Triton's after normalising
    fixpoint: bool  # print(parse(print(x))) == print(x)
    detail: str  # error or first difference
    ops: int = 0
    exact_with_locations: bool | None = None  # debuginfo print == Triton's text, byte
    # for byte (None where not compared: internal debug dumps)


def check_file(file_id: str, text: str, ctx=None) -> Outcome:
    """Parse, verify, print, parse again, print again; compare with Triton's text."""
    from tileopt.ir import make_context

    ctx = ctx or make_context()
    main, *internal = split_debug_dumps(text)
    outcome = _check_text(file_id, main, ctx, lambda t: t, exact=True)
    for number, dump in enumerate(internal, start=1):
        extra = _check_text(f"{file_id} (internal dump {number})", dump, ctx,
                            expand_aliases)
        if outcome.matches and outcome.fixpoint and not (extra.matches and extra.fixpoint):
            return Outcome(file_id, extra.ok, extra.matches, extra.fixpoint,
                           f"internal dump {number}: {extra.detail}", outcome.ops)
    return outcome


def _check_text(file_id: str, text: str, ctx, prepare, exact: bool = False) -> Outcome:
    from tileopt.ir import TileoptError, parse_module, print_module

    try:
        module = parse_module(text, file_id, ctx)
        printed = print_module(module)
    except TileoptError as err:
        return Outcome(file_id, False, False, False, err.format())
    ops = sum(1 for _ in module.walk())
    try:
        again = print_module(parse_module(printed, f"{file_id} (printed)", ctx,
                                          verify=False))
    except TileoptError as err:
        return Outcome(file_id, True, False, False, f"printed text does not parse: "
                       f"{err.format()}", ops)
    fixpoint = again == printed
    exact = print_module(module, debuginfo=True) == text if exact else None
    difference = first_difference(normalise(prepare(text)), normalise(prepare(printed)))
    if difference is None:
        detail = "" if fixpoint else "printing is not a fixpoint"
        return Outcome(file_id, True, True, fixpoint, detail, ops, exact)
    number, expected, actual = difference
    return Outcome(file_id, True, False, fixpoint,
                   f"line {number}:\n    triton:  {expected.strip()}\n"
                   f"    tileopt: {actual.strip()}", ops, exact)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--no-passes", action="store_true",
                        help="only the .ttir/.ttgir files, not the per-pass dumps")
    parser.add_argument("-k", default="", help="only files whose id contains this")
    args = parser.parse_args(argv)
    corpus = args.corpus or find_corpus()
    if corpus is None:
        print("reference corpus not found (set TILEOPT_CORPUS)", file=sys.stderr)
        return 2
    passes = None if args.no_passes else unpack_passes(corpus)
    from tileopt.ir import make_context

    ctx = make_context()
    outcomes = []
    start = time.perf_counter()
    for file_id, path in corpus_files(corpus, passes):
        if args.k in file_id:
            outcomes.append(check_file(file_id, path.read_text(), ctx))
    elapsed = time.perf_counter() - start
    total = len(outcomes)
    matched = sum(o.matches for o in outcomes)
    parsed = sum(o.ok for o in outcomes)
    fixpoints = sum(o.fixpoint for o in outcomes)
    exact = sum(bool(o.exact_with_locations) for o in outcomes)
    for outcome in outcomes:
        if not outcome.matches or not outcome.fixpoint:
            print(f"DIFF {outcome.file_id}: {outcome.detail}")
        elif outcome.exact_with_locations is False:
            print(f"LOCATIONS {outcome.file_id}: printed with --mlir-print-debuginfo, "
                  "the text differs from Triton's")
    print(f"\n{total} files in {elapsed:.1f} s: {parsed} parse+verify+print, "
          f"{fixpoints} print fixpoint, {matched} equal to Triton's text "
          f"({100.0 * matched / max(total, 1):.1f}%), {exact} byte-identical to it "
          "when printed with locations")
    return 0 if matched == total else 1


if __name__ == "__main__":
    sys.exit(main())
