"""A seeded mutation fuzzer for the command-line tools: never hang, never crash.

Each case takes a seed input (a corpus ``.ttir``/``.ttgir``, a part of a lit input, a
YAML pipeline, an LLVM-dialect module), applies one or two small mutations of the kind a
typo or a bad edit makes (a line deleted, duplicated or swapped, a type or a number changed,
a closer dropped, the file truncated, two SSA names swapped, a stray character), and runs
one mode of the tools on it *in-process, in a forked child*: the imports are paid once, and
the child gets a time limit and a memory limit of its own. The outcome is classified:

- ``ok``: exit status 0, and the output reads back (MLIR through tileopt's parser, LLVM IR
  through llvmlite);
- ``error``: exit status 1, and every line on stderr is a diagnostic (``[file:line:col: ]
  error: ...``, ``note:``, ``warning:`` or a source/caret line), none an internal error;
- anything else is a failure: ``internal-error``, ``traceback``, ``crash`` (a signal),
  ``hang`` (past the time limit), ``memory`` (past the memory limit), ``bad-output``.

Everything follows from the seed: ``python -m tileopt.testing.fuzz --seed S --cases N``
gives the same cases in the same order; a failure prints its seed, case number, mutation
and the command that reproduces it. The pytest module ``test/unit/fuzz/test_fuzz.py`` runs a
few hundred cases in CI (``--fuzz-cases=N`` for more).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import select
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

OUTCOMES_OK = ("ok", "error")
FAILURES = ("internal-error", "traceback", "crash", "hang", "memory", "bad-output")
DIAGNOSTIC = re.compile(r"^(\S.*:\d+:\d+: |\S.*: |)(error|warning|note|remark): ")


# ---------------------------------------------------------------------------------------
# Seeds and mutations
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Seed:
    """An input to mutate and how to run it: ``mode`` names an entry of :data:`MODES`."""

    name: str  # shown in reports, relative to the repo or ../shared
    text: str
    mode: str
    suffix: str = ".mlir"


_TYPES = ["f32", "f16", "bf16", "i1", "i8", "i32", "i64", "f64", "index", "f8E4M3FN", "i99",
          "!tt.ptr<f32>", "tensor<4xf32>"]
_NUMBERS = ["0", "1", "-1", "3", "7", "16", "128", "1024", "65536", "2147483648",
            "4294967296", "99999999999", "1.5", "-0.0", "1e39", "0x10"]
_STRAYS = list("\"'{}()[]<>%#@!^$:,=\\") + ["\u00a0", "\ufeff", "\u200b", "\t", "\x00"]
_SSA = re.compile(r"%[A-Za-z0-9_]+")
_TYPE_WORD = re.compile(r"\b(f16|f32|f64|bf16|i1|i8|i16|i32|i64)\b")
_NUMBER = re.compile(r"(?<![\w%#.])-?\d+(\.\d+)?(e[+-]?\d+)?\b")


def _lines(text: str) -> list[str]:
    return text.split("\n")


def delete_line(rng: random.Random, text: str) -> tuple[str, str]:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    del lines[i]
    return "\n".join(lines), f"delete line {i + 1}"


def duplicate_line(rng: random.Random, text: str) -> tuple[str, str]:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return "\n".join(lines), f"duplicate line {i + 1}"


def swap_lines(rng: random.Random, text: str) -> tuple[str, str]:
    lines = _lines(text)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines), f"swap lines {i + 1} and {j + 1}"


def _replace_match(rng: random.Random, text: str, pattern: re.Pattern,
                   choices: list[str], what: str) -> tuple[str, str]:
    matches = list(pattern.finditer(text))
    if not matches:
        return insert_stray(rng, text)
    m = rng.choice(matches)
    new = rng.choice(choices)
    line = text.count("\n", 0, m.start()) + 1
    return text[:m.start()] + new + text[m.end():], f"{what} '{m.group()}' -> '{new}' on line {line}"


def change_type(rng: random.Random, text: str) -> tuple[str, str]:
    return _replace_match(rng, text, _TYPE_WORD, _TYPES, "type")


def change_number(rng: random.Random, text: str) -> tuple[str, str]:
    return _replace_match(rng, text, _NUMBER, _NUMBERS, "number")


def drop_closer(rng: random.Random, text: str) -> tuple[str, str]:
    spots = [i for i, ch in enumerate(text) if ch in "})]>"]
    if not spots:
        return truncate(rng, text)
    i = rng.choice(spots)
    line = text.count("\n", 0, i) + 1
    return text[:i] + text[i + 1:], f"drop '{text[i]}' on line {line}"


def truncate(rng: random.Random, text: str) -> tuple[str, str]:
    cut = rng.randrange(len(text) + 1)
    return text[:cut], f"truncate at byte {cut}"


def swap_ssa_names(rng: random.Random, text: str) -> tuple[str, str]:
    names = sorted(set(_SSA.findall(text)))
    if len(names) < 2:
        return insert_stray(rng, text)
    a, b = rng.sample(names, 2)
    swapped = _SSA.sub(lambda m: b if m.group() == a else a if m.group() == b else m.group(),
                       text)
    return swapped, f"swap SSA names {a} and {b}"


def insert_stray(rng: random.Random, text: str) -> tuple[str, str]:
    i = rng.randrange(len(text) + 1)
    ch = rng.choice(_STRAYS)
    line = text.count("\n", 0, i) + 1
    return text[:i] + ch + text[i:], f"insert {ch!r} on line {line}"


MUTATIONS: list[Callable[[random.Random, str], tuple[str, str]]] = [
    delete_line, duplicate_line, swap_lines, change_type, change_number, drop_closer,
    truncate, swap_ssa_names, insert_stray]


def mutate(rng: random.Random, text: str) -> tuple[str, list[str]]:
    steps = []
    for _ in range(rng.choice((1, 1, 1, 2))):
        if not text:
            break
        text, what = rng.choice(MUTATIONS)(rng, text)
        steps.append(what)
    return text, steps


# ---------------------------------------------------------------------------------------
# Modes: what runs on a mutated input
# ---------------------------------------------------------------------------------------

def _ttir_pipeline(seed_name: str) -> str:
    target = seed_name.split("/")[-2] if "/" in seed_name else "cuda-sm90"
    return {"cuda-sm80": "nvidia-sm80", "hip-gfx942": "amd-cdna3",
            "hip-gfx1100": "amd-rdna3"}.get(target, "nvidia-sm90")


def command_for(mode: str, seed_name: str, path: str) -> list[str]:
    """The tool and arguments a mode runs on the mutated file at ``path``."""
    if mode == "parse":
        return ["tileopt", path, "--split-input-file"]
    if mode == "canonicalize":
        return ["tileopt", path, "--split-input-file", "--canonicalize", "--cse"]
    if mode == "ttir-stage":
        return ["tileopt", path, f"--pass-pipeline={_ttir_pipeline(seed_name)}",
                "--stop-after=ttir"]
    if mode == "ttgir-stage":
        return ["tileopt", path, f"--pass-pipeline={_ttir_pipeline(seed_name)}",
                "--stop-after=ttgir"]
    if mode == "pipeline":
        return ["tileopt", path, f"--pass-pipeline={_ttir_pipeline(seed_name)}"]
    if mode == "llir-stage":
        return ["tileopt", path, f"--pass-pipeline={_ttir_pipeline(seed_name)}",
                "--start-at=llir"]
    if mode == "yaml":
        return ["tileopt", "ADD_TTIR", f"--pass-pipeline={path}"]
    if mode == "translate":
        return ["tileopt-translate", path, "--emit=llvm-ir"]
    raise ValueError(mode)


MODES = ("parse", "canonicalize", "ttir-stage", "ttgir-stage", "pipeline", "llir-stage",
         "yaml", "translate")


def _read(path: Path) -> str:
    # Lit inputs include deliberately broken bytes; keep them as they are.
    return path.read_bytes().decode("utf-8", "surrogateescape")


def collect_seeds(repo: Path, corpus: Path | None) -> list[Seed]:
    """Corpus kernels (each in the modes that fit it), lit inputs, the shipped YAML
    pipelines, and LLVM-dialect modules made from corpus kernels."""
    seeds: list[Seed] = []
    if corpus is not None:
        for path in sorted(corpus.glob("*/*.ttir")):
            name = f"{path.parent.name}/{path.name}"
            text = _read(path)
            for mode in ("parse", "ttir-stage", "ttgir-stage", "pipeline"):
                seeds.append(Seed(name, text, mode))
        for path in sorted(corpus.glob("*/*.ttgir")):
            name = f"{path.parent.name}/{path.name}"
            seeds.append(Seed(name, _read(path), "parse"))
            if path.parent.name.startswith("cuda"):
                seeds.append(Seed(name, _read(path), "llir-stage"))
    for path in sorted((repo / "test" / "lit").rglob("*.mlir")):
        if "Output" in path.parts:
            continue
        seeds.append(Seed(str(path.relative_to(repo)), _read(path), "canonicalize"))
    for path in sorted((repo / "pipelines").glob("*.yaml")):
        seeds.append(Seed(str(path.relative_to(repo)), _read(path), "yaml", ".yaml"))
    return seeds


def llvm_seeds(seeds: list[Seed], limit: int = 4) -> list[Seed]:
    """A few LLVM-dialect modules for the translate mode, made by running the NVIDIA
    pipeline over corpus kernels (in this process: the fuzzer needs them once)."""
    from tileopt.driver.pass_manager import PassManager
    from tileopt.driver.ir_io import render
    from tileopt.ir import make_context, parse_module
    from tileopt.pipelines import resolve_pass_pipeline

    made = []
    for seed in seeds:
        if seed.mode != "pipeline" or not seed.name.startswith("cuda-sm90/"):
            continue
        try:
            ctx = make_context()
            module = parse_module(seed.text, seed.name, ctx)
            PassManager(resolve_pass_pipeline("nvidia-sm90"), seed.name).run(ctx, module)
        except Exception:  # noqa: BLE001 - kernels tileopt cannot lower yet are no seeds
            continue
        made.append(Seed(seed.name + ".llvm.mlir", render(module, False), "translate"))
        if len(made) == limit:
            break
    return made


# ---------------------------------------------------------------------------------------
# Running one case in a forked child
# ---------------------------------------------------------------------------------------

@dataclass
class CaseResult:
    outcome: str
    detail: str = ""
    seconds: float = 0.0


def _virtual_memory_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def _child(argv: list[str], out_path: str, err_path: str, memory_limit: int,
           add_ttir: str) -> None:
    """Runs in the forked child; never returns."""
    import resource

    code = 70
    try:
        vm = _virtual_memory_bytes()
        if vm:
            resource.setrlimit(resource.RLIMIT_AS, (vm + memory_limit, vm + memory_limit))
        out_fd = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        err_fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        sys.stdout = os.fdopen(1, "w", closefd=False)
        sys.stderr = os.fdopen(2, "w", closefd=False)
        tool, args = argv[0], [add_ttir if a == "ADD_TTIR" else a for a in argv[1:]]
        if tool == "tileopt":
            from tileopt.driver.opt import run_opt
            code = run_opt(args)
        else:
            from tileopt.driver.translate import run_translate
            code = run_translate(args)
        sys.stdout.flush()
        sys.stderr.flush()
    except MemoryError:
        code = 71
    except BaseException:  # noqa: BLE001 - a traceback escaping the tool is the finding
        import traceback
        traceback.print_exc()
        try:
            sys.stderr.flush()
        except Exception:  # noqa: BLE001
            pass
        code = 72
    os._exit(code)


def _classify_stderr(stderr: str) -> CaseResult | None:
    if "Traceback (most recent call last)" in stderr:
        return CaseResult("traceback", stderr.strip().splitlines()[-1][:200])
    if "internal error" in stderr:
        line = next(l for l in stderr.splitlines() if "internal error" in l)
        return CaseResult("internal-error", line[:200])
    if "MemoryError" in stderr:
        return CaseResult("memory", "MemoryError")
    return None


def _output_reads_back(mode: str, output: str) -> str | None:
    """None if ``output`` parses (as what the mode produces), else why not."""
    if mode == "translate":
        import llvmlite.binding as llvm
        try:
            llvm.parse_assembly(output)
        except RuntimeError as err:
            return str(err).splitlines()[0][:200]
        return None
    from tileopt.ir import TileoptError, make_context, parse_module
    from tileopt.ir.parse import split_input_file
    for text, line in split_input_file(output):
        try:
            parse_module(text, "<output>", make_context(allow_unregistered=True),
                         first_line=line)
        except TileoptError as err:
            return err.format().splitlines()[0][:200]
    return None


def run_case(argv: list[str], mode: str, *, time_limit: float, memory_limit: int,
             add_ttir: str) -> CaseResult:
    with tempfile.TemporaryDirectory(prefix="tileopt-fuzz-") as tmp:
        out_path, err_path = os.path.join(tmp, "out"), os.path.join(tmp, "err")
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(argv, out_path, err_path, memory_limit, add_ttir)
        status = None
        while time.monotonic() - start < time_limit:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            status = None
            select.select([], [], [], 0.01)
        seconds = time.monotonic() - start
        if status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return CaseResult("hang", f"still running after {time_limit:g} s", seconds)
        stderr = Path(err_path).read_text(errors="replace")
        if os.WIFSIGNALED(status):
            return CaseResult("crash", f"signal {os.WTERMSIG(status)}", seconds)
        code = os.WEXITSTATUS(status)
        if code == 71:
            return CaseResult("memory", "MemoryError", seconds)
        found = _classify_stderr(stderr)
        if found is not None:
            found.seconds = seconds
            return found
        if code == 0:
            output = Path(out_path).read_text(errors="replace")
            why = _output_reads_back(mode, output) if output.strip() else None
            if why is not None:
                return CaseResult("bad-output", why, seconds)
            return CaseResult("ok", "", seconds)
        if code == 1:
            stray = [l for l in stderr.splitlines() if l.strip() and not DIAGNOSTIC.match(l)
                     and not l.startswith((" ", "\t"))]
            if not stderr.strip():
                return CaseResult("internal-error", "exit status 1 with nothing on stderr",
                                  seconds)
            return CaseResult("error", stray[0][:120] if stray else "", seconds)
        return CaseResult("internal-error", f"exit status {code}", seconds)


# ---------------------------------------------------------------------------------------
# A campaign
# ---------------------------------------------------------------------------------------

@dataclass
class Campaign:
    seed: int
    cases: int
    time_limit: float = 30.0
    memory_limit: int = 1 << 30
    modes: tuple[str, ...] = MODES
    table: dict[str, Counter] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def run_campaign(campaign: Campaign, seeds: list[Seed], add_ttir: str,
                 keep_dir: Path | None = None,
                 progress: Callable[[str], None] | None = None,
                 only: set[int] | None = None) -> Campaign:
    """Run the campaign's cases; ``only``: just these case numbers (the others are drawn,
    so the same numbers are the same cases, but not run)."""
    rng = random.Random(campaign.seed)
    by_mode: dict[str, list[Seed]] = {}
    for s in seeds:
        if s.mode in campaign.modes:
            by_mode.setdefault(s.mode, []).append(s)
    modes = sorted(by_mode)  # every mode gets its share, however many seeds it has
    for number in range(campaign.cases):
        seed = rng.choice(by_mode[rng.choice(modes)])
        text, steps = mutate(rng, seed.text)
        if only is not None and number not in only:
            continue
        with tempfile.NamedTemporaryFile("w", suffix=seed.suffix, delete=False,
                                         encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
            path = f.name
        try:
            argv = command_for(seed.mode, seed.name, path)
            result = run_case(argv, seed.mode, time_limit=campaign.time_limit,
                              memory_limit=campaign.memory_limit, add_ttir=add_ttir)
        finally:
            kept = None
            if keep_dir is not None:
                kept = keep_dir / f"case-{campaign.seed}-{number}{seed.suffix}"
                kept.write_text(text, encoding="utf-8", errors="surrogateescape")
            os.unlink(path)
        campaign.table.setdefault(seed.mode, Counter())[result.outcome] += 1
        campaign.seconds[seed.mode] = campaign.seconds.get(seed.mode, 0.0) + result.seconds
        if result.outcome not in OUTCOMES_OK:
            shown = " ".join("FILE" if a == path else a for a in argv)
            campaign.failures.append(
                f"case {number} (seed {campaign.seed}): {result.outcome}: {result.detail}\n"
                f"  input: {seed.name}, mutated: {'; '.join(steps)}\n"
                f"  run:   {shown}"
                + (f"\n  kept:  {kept}" if kept else "")
                + f"\n  again: python -m tileopt.testing.fuzz --seed {campaign.seed} "
                  f"--cases {number + 1} --only {number} --keep DIR")
        if progress is not None:
            progress(f"{number + 1}/{campaign.cases} {seed.mode} {result.outcome}")
    return campaign


def format_table(campaign: Campaign) -> str:
    columns = OUTCOMES_OK + FAILURES
    lines = [f"{'mode':14s} {'cases':>6s} " + " ".join(f"{c:>14s}" for c in columns)
             + f" {'seconds':>8s}"]
    total: Counter = Counter()
    for mode in MODES:
        row = campaign.table.get(mode)
        if not row:
            continue
        total.update(row)
        lines.append(f"{mode:14s} {sum(row.values()):6d} " +
                     " ".join(f"{row[c]:14d}" for c in columns) +
                     f" {campaign.seconds.get(mode, 0.0):8.1f}")
    lines.append(f"{'all':14s} {sum(total.values()):6d} " +
                 " ".join(f"{total[c]:14d}" for c in columns) +
                 f" {sum(campaign.seconds.values()):8.1f}")
    return "\n".join(lines)


def default_seeds() -> tuple[list[Seed], str]:
    """Seeds from the repository and the corpus beside it, and the corpus add kernel the
    YAML mode compiles (a file of the repository's own when the corpus is absent)."""
    from tileopt.testing.corpus_compare import find_corpus

    repo = Path(__file__).resolve().parents[2]
    corpus = find_corpus()
    seeds = collect_seeds(repo, corpus)
    seeds += llvm_seeds(seeds)
    add = corpus / "cuda-sm90" / "add.ttir" if corpus else None
    if add is None or not add.exists():
        add = next((repo / "test" / "lit").rglob("*.mlir"))
    return seeds, str(add)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per case")
    parser.add_argument("--memory-limit-mb", type=int, default=1024,
                        help="memory a case may add to the fuzzer's own")
    parser.add_argument("--mode", action="append", choices=MODES,
                        help="only these modes (repeatable; default: all)")
    parser.add_argument("--keep", type=Path, help="write every mutated input to this folder")
    parser.add_argument("--only", type=int, action="append",
                        help="run only this case number (repeatable); the others are drawn "
                             "but not run, so a reported case comes back at once")
    args = parser.parse_args(argv)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    seeds, add = default_seeds()
    campaign = Campaign(args.seed, args.cases, args.time_limit, args.memory_limit_mb << 20,
                        tuple(args.mode or MODES))
    start = time.monotonic()
    run_campaign(campaign, seeds, add, args.keep,
                 progress=lambda line: print(line, file=sys.stderr, flush=True)
                 if sys.stderr.isatty() else None,
                 only=set(args.only) if args.only else None)
    for failure in campaign.failures:
        print(failure)
    print(format_table(campaign))
    print(f"{args.cases} cases in {time.monotonic() - start:.1f} s, seed {args.seed}, "
          f"{len(seeds)} seed inputs")
    return 1 if campaign.failures else 0


if __name__ == "__main__":
    sys.exit(main())
