"""Compare tileopt's IR with Triton's own output (the reference corpus), ignoring what is
not semantics.

Two comparisons, for the tests and for ``python -m tileopt.testing.corpus_compare``:

- modules: two modules "match" when they hold the same multiset of ops, each op
  identified by its name, operand types, result types and attributes (properties
  included). Order, SSA names and locations are ignored, and layouts are compared fully
  expanded (``#blocked1`` in one file and ``#blocked3`` in the other are equal if their
  parameters are), because xDSL prints attributes inline when no alias printer is
  involved. ``corpus_pass_cases`` turns the per-pass dumps of ``passes.tar.xz`` into test
  cases for one pass: the dump taken before the pass is the input, the dump taken before
  the next pass is the expected output. A dump equal to the one before it is not stored,
  so a missing file stands for the latest stored dump before it. Debug dumps a pass
  printed while it ran (the pipeliner's ``SoftwarePipeliner internal IR Dump After:
  LowerLoops``) end up at the end of the dump taken before it: they are no part of the
  input, and the case offers them as ``phase_dumps``, oracles for the pass's phases.
- text (the command): how much of Triton's own text tileopt reads and prints back
  unchanged.

``python -m tileopt.testing.corpus_compare [--triton-version 3.6|3.9] [--corpus DIR]
[--no-passes] [-k TEXT]``

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
import itertools
import os
import re
import sys
import tarfile
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from xdsl.ir import Attribute, Operation

TARGETS = ("cuda-sm80", "cuda-sm90", "hip-gfx942", "hip-gfx1100")
# The first pass of each pipeline that leaves TritonGPU for the LLVM dialect.
LLVM_LOWERING_PASSES = ("convert-triton-gpu-to-llvm", "convert-triton-amdgpu-to-llvm")


# ---------------------------------------------------------------------------------------
# The corpus
# ---------------------------------------------------------------------------------------


# Each Triton version's corpus: the variable that moves it, its folder beside the repository.
CORPORA = {"3.6": ("TILEOPT_CORPUS", "corpus"), "3.9": ("TILEOPT_CORPUS_39", "corpus-3.9")}


def find_corpus(triton_version: str = "3.6") -> Path | None:
    """The reference corpus of that Triton version: ``TILEOPT_CORPUS`` (3.6) or
    ``TILEOPT_CORPUS_39`` (3.9), else ``../shared/corpus`` or ``../shared/corpus-3.9``
    beside the repository; None where it is absent."""
    variable, folder = CORPORA[triton_version]
    repo = Path(__file__).resolve().parents[2]
    path = Path(os.environ.get(variable, repo.parent / "shared" / folder))
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


def pass_order(passes_root: Path, target: str, kernel: str) -> list[tuple[str, Path | None]]:
    """The pipeline's passes in order (``ORDER.txt``), each with the dump taken before it
    (None where that dump equals the one before and so is not stored)."""
    folder = passes_root / target / "passes" / kernel
    entries = []
    for line in (folder / "ORDER.txt").read_text().splitlines()[1:]:
        if not line.strip():
            continue
        file_name = line.split()[0]
        path = folder / file_name
        pass_name = file_name.split("-", 1)[1].removesuffix(".mlir")
        entries.append((pass_name, path if path.exists() else None))
    return entries


def tt_level_dumps(passes: Path, target: str, kernel: str) -> list[Path]:
    """The stored dumps of a pipeline taken before its first LLVM-lowering pass."""
    dumps = []
    for pass_name, path in pass_order(passes, target, kernel):
        if pass_name in LLVM_LOWERING_PASSES:
            break
        if path is not None:
            dumps.append(path)
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


def code_part(ptx: str) -> list[str]:
    """PTX lines before the DWARF sections, without ``//`` comment lines (what comparing
    tileopt's PTX with Triton's looks at)."""
    lines = []
    for line in ptx.splitlines():
        if line.startswith("\t.file"):
            break
        if not line.startswith("//"):
            lines.append(line)
    return lines


# ---------------------------------------------------------------------------------------
# Modules: the multiset of ops
# ---------------------------------------------------------------------------------------

# Attributes that are bookkeeping rather than semantics.
_IGNORED_ATTRIBUTES = frozenset({"sym_visibility_hint", "name_hint"})

OpKey = tuple[str, tuple[str, ...], tuple[str, ...], tuple[tuple[str, str], ...]]


def _text(attr: Attribute) -> str:
    return str(attr)


def op_key(op: Operation, with_attributes: bool = True) -> OpKey:
    attrs: tuple[tuple[str, str], ...] = ()
    if with_attributes:
        merged = {**op.properties, **op.attributes}
        attrs = tuple(sorted((name, _text(value)) for name, value in merged.items()
                             if name not in _IGNORED_ATTRIBUTES))
    return (op.name,
            tuple(_text(v.type) for v in op.operands),
            tuple(_text(r.type) for r in op.results),
            attrs)


def op_multiset(module: Operation, with_attributes: bool = True) -> Counter[OpKey]:
    keys: Counter[OpKey] = Counter()
    for op in module.walk():
        if op is module:
            continue
        keys[op_key(op, with_attributes)] += 1
    return keys


def format_key(key: OpKey) -> str:
    name, operands, results, attrs = key
    text = name
    if attrs:
        text += " {" + ", ".join(f"{k} = {v}" for k, v in attrs) + "}"
    text += " : (" + ", ".join(operands) + ") -> (" + ", ".join(results) + ")"
    return text


@dataclass
class CompareResult:
    missing: Counter[OpKey] = field(default_factory=Counter)
    """Ops the expected module has and the actual one lacks."""
    extra: Counter[OpKey] = field(default_factory=Counter)
    """Ops the actual module has and the expected one lacks."""
    module_attributes_differ: str | None = None

    @property
    def equal(self) -> bool:
        return not self.missing and not self.extra and self.module_attributes_differ is None

    def summary(self, limit: int = 12) -> str:
        if self.equal:
            return "match"
        lines = [f"{sum(self.missing.values())} missing, {sum(self.extra.values())} extra"]
        if self.module_attributes_differ:
            lines.append(f"module attributes: {self.module_attributes_differ}")
        for label, keys in (("missing", self.missing), ("extra", self.extra)):
            for key, count in list(keys.items())[:limit]:
                lines.append(f"  {label} x{count}: {format_key(key)}")
        return "\n".join(lines)


def compare_modules(actual: Operation, expected: Operation,
                    with_attributes: bool = True) -> CompareResult:
    actual_ops = op_multiset(actual, with_attributes)
    expected_ops = op_multiset(expected, with_attributes)
    result = CompareResult(missing=expected_ops - actual_ops, extra=actual_ops - expected_ops)
    actual_attrs = {k: _text(v) for k, v in actual.attributes.items()}
    expected_attrs = {k: _text(v) for k, v in expected.attributes.items()}
    if actual_attrs != expected_attrs:
        result.module_attributes_differ = f"{actual_attrs} != {expected_attrs}"
    return result


def op_order_difference(actual: Operation, expected: Operation) -> str | None:
    """None if both modules hold the same ops (as ``op_key`` sees them) in the same walk
    order, else where they first differ. For passes that only move ops, which the
    multiset comparison of ``compare_modules`` cannot see."""
    actual_keys = [op_key(op) for op in actual.walk()]
    expected_keys = [op_key(op) for op in expected.walk()]
    for n, (a, e) in enumerate(zip(actual_keys, expected_keys)):
        if a != e:
            return f"op #{n} is\n  {format_key(a)}\nwhere Triton has\n  {format_key(e)}"
    if len(actual_keys) != len(expected_keys):
        return f"{len(actual_keys)} ops instead of {len(expected_keys)}"
    return None


@dataclass(frozen=True)
class PassCase:
    target: str
    kernel: str
    index: int
    """Position of the pass in the pipeline (ORDER.txt), counting from 0."""
    input_path: Path
    expected_path: Path
    changed: bool
    """Whether Triton's pass changed the IR (else input and expected are the same dump)."""

    @property
    def id(self) -> str:
        return f"{self.target}-{self.kernel}-{self.index:03d}"

    @property
    def input_text(self) -> str:
        return main_dump(self.input_path.read_text())

    @property
    def expected_text(self) -> str:
        return main_dump(self.expected_path.read_text())

    @property
    def phase_dumps(self) -> dict[str, str]:
        """The IR after each internal phase of the pass, by phase name (``LowerLoops``),
        as the pass printed it while it ran; empty for most passes."""
        return internal_dumps(self.input_path.read_text())


def corpus_pass_cases(passes_root: Path, pass_name: str,
                      targets: tuple[str, ...] | None = None,
                      kernels: tuple[str, ...] | None = None) -> Iterator[PassCase]:
    """Every run of ``pass_name`` in the corpus pipelines, as (input, expected) dumps."""
    for target_dir in sorted(p for p in passes_root.iterdir() if p.is_dir()):
        if targets is not None and target_dir.name not in targets:
            continue
        for kernel_dir in sorted((target_dir / "passes").iterdir()):
            if kernels is not None and kernel_dir.name not in kernels:
                continue
            entries = pass_order(passes_root, target_dir.name, kernel_dir.name)
            latest: Path | None = None
            stored_at: list[Path | None] = []
            for _, path in entries:
                latest = path or latest
                stored_at.append(latest)
            for index, (name, _) in enumerate(entries):
                if name != pass_name or index + 1 >= len(entries):
                    continue
                before, after = stored_at[index], stored_at[index + 1]
                if before is None or after is None:
                    continue
                yield PassCase(target_dir.name, kernel_dir.name, index, before, after,
                               changed=before != after)


# ---------------------------------------------------------------------------------------
# Text: parse, print and compare with Triton's
# ---------------------------------------------------------------------------------------

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
    return renamed(_strip_locations(text))


_DEFINES = re.compile(r"(?::\d+)? = |: ")


def renamed(text: str) -> str:
    """``text`` with SSA values renamed ``%v0, %v1, ...`` in order of definition: each
    definition (``%x = ``, ``%x:2 = ``, ``%x: type`` of an argument) is a new value, a use
    is the latest definition of its name. So a name reused by sibling regions, as MLIR's
    printer does, still names different values."""
    current: dict[str, str] = {}
    count = itertools.count()

    def rename(match: re.Match[str]) -> str:
        name = match.group()
        if _DEFINES.match(text, match.end()) or name not in current:
            current[name] = f"%v{next(count)}"
        return current[name]

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


def main_dump(text: str) -> str:
    """A dump without the pass-internal debug dumps printed after it."""
    return split_debug_dumps(text)[0]


_INTERNAL_DUMP_HEADER = re.compile(r"^// -----// .* IR Dump After: (\S+)\s*$", re.MULTILINE)


def internal_dumps(text: str) -> dict[str, str]:
    """The pass-internal debug dumps of a dump file, keyed by the phase their header
    names (``// -----// SoftwarePipeliner internal IR Dump After: LowerLoops``)."""
    phases = [m.group() for m in _DEBUG_DUMP_SEPARATOR.finditer(text)]
    names = []
    for header in phases:
        match = _INTERNAL_DUMP_HEADER.match(header)
        names.append(match.group(1) if match else header)
    return dict(zip(names, split_debug_dumps(text)[1:]))


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


def check_file(file_id: str, text: str, ctx=None, triton_version: str | None = None) -> Outcome:
    """Parse, verify, print, parse again, print again; compare with Triton's text.

    With ``triton_version`` (the version that wrote the file), the text is printed as that
    version prints, and it must also be what printing by the version the parser read off
    the text gives (a file that shows no version-specific spelling prints the same in
    every version)."""
    from tileopt.ir import make_context

    ctx = ctx or make_context()
    main, *internal = split_debug_dumps(text)
    outcome = _check_text(file_id, main, ctx, lambda t: t, exact=True, version=triton_version)
    for number, dump in enumerate(internal, start=1):
        extra = _check_text(f"{file_id} (internal dump {number})", dump, ctx,
                            expand_aliases, version=triton_version)
        if outcome.matches and outcome.fixpoint and not (extra.matches and extra.fixpoint):
            return Outcome(file_id, extra.ok, extra.matches, extra.fixpoint,
                           f"internal dump {number}: {extra.detail}", outcome.ops)
    return outcome


def _check_text(file_id: str, text: str, ctx, prepare, exact: bool = False,
                version: str | None = None) -> Outcome:
    from tileopt.ir import TileoptError, parse_module, print_module

    try:
        # read as printed (names from name locations): loop arguments get theirs back
        module = parse_module(text, file_id, ctx, arg_name_locs=exact)
        printed = print_module(module, triton_version=version)
    except TileoptError as err:
        return Outcome(file_id, False, False, False, err.format())
    ops = sum(1 for _ in module.walk())
    if version is not None and print_module(module) != printed:
        return Outcome(file_id, True, False, False, "printed as the version read off the "
                       f"text, it differs from Triton {version}'s", ops)
    try:
        again = print_module(parse_module(printed, f"{file_id} (printed)", ctx,
                                          verify=False), triton_version=version)
    except TileoptError as err:
        return Outcome(file_id, True, False, False, f"printed text does not parse: "
                       f"{err.format()}", ops)
    fixpoint = again == printed
    exact = (print_module(module, debuginfo=True, name_locs=True,
                          triton_version=version) == text if exact else None)
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
    parser.add_argument("--triton-version", default="3.6", choices=sorted(CORPORA),
                        help="which Triton's corpus (and text) to compare with")
    parser.add_argument("--no-passes", action="store_true",
                        help="only the .ttir/.ttgir files, not the per-pass dumps")
    parser.add_argument("-k", default="", help="only files whose id contains this")
    args = parser.parse_args(argv)
    corpus = args.corpus or find_corpus(args.triton_version)
    if corpus is None:
        print(f"reference corpus not found (set {CORPORA[args.triton_version][0]})",
              file=sys.stderr)
        return 2
    passes = None if args.no_passes else unpack_passes(corpus)
    from tileopt.ir import make_context

    ctx = make_context()
    outcomes = []
    start = time.perf_counter()
    for file_id, path in corpus_files(corpus, passes):
        if args.k in file_id:
            outcomes.append(check_file(file_id, path.read_text(), ctx, args.triton_version))
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
