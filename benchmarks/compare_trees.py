"""Before/after on a shared machine: this tree's tileopt against another source tree's,
alternated run by run, in CPU time.

``compile_time.py`` run twice minutes apart gives figures that differ by 15% or more on a
busy 2-core machine even in stages neither tree changed; here each case runs from the
other tree, then from this one, ``--rounds`` times, so both see the same load, and the
ratio of the medians is what to quote. The other tree is any copy of tileopt's sources
(``git archive REV | tar -x -C DIR``); it runs with ``PYTHONPATH=DIR`` under this
interpreter, with the same installed dependencies. Cases:

- commands (CPU of the process and its children): ``tileopt --help``, a run without
  passes over ``examples/kernels/softmax.ttir``, the one command from ``.ttir`` to PTX for
  a few corpus kernels, and the 200-kernel file of ``compile_time.py``'s scaling table
  without passes and with ``--canonicalize --cse``;
- in-process (a child interpreter per tree and round): parse+verify, print, and
  ``canonicalize, cse`` of the 200-kernel file, best of two in each child;
- in-process, the corpus (a child interpreter per tree and round, after a warm-up kernel
  per target, as ``compile_time.py`` times them): the stages of the 11 non-dot kernels on
  the four targets, each stage summed over the 44, and cuda-sm90 matmul's total, in CPU
  time with the LLVM back end's (forked children, or the LLVM worker's own report).

``--only commands|200|corpus`` (repeatable) runs only those groups.

    python benchmarks/compare_trees.py OTHER_TREE [--rounds 5] [--corpus DIR] [--only corpus]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from compile_time import (COMMAND_ENV, NON_DOT, STAGES, TARGETS, _options,  # noqa: E402
                          many_kernels, tileopt_command)

KERNELS = (("cuda-sm90", "softmax", "nvidia-sm90", "ptx"),
           ("cuda-sm80", "layernorm_fwd", "nvidia-sm80", "ptx"),
           ("cuda-sm90", "matmul", "nvidia-sm90", "ptx"),
           ("hip-gfx942", "softmax", "amd-cdna3", "amdgcn"),
           ("hip-gfx1100", "matmul", "amd-rdna3", "amdgcn"))  # the largest lowered function

IN_PROCESS = """
import json, sys, time
from tileopt.driver.pass_manager import PassManager
from tileopt.ir import make_context, parse_module, print_module
from tileopt.pipelines import resolve_pass_pipeline
path = sys.argv[1]
text = open(path).read()
def best(fn):
    times = []
    for _ in range(2):
        start = time.process_time(); result = fn(); times.append(time.process_time() - start)
    return min(times), result
parse, module = best(lambda: parse_module(text, path))
printed, _ = best(lambda: print_module(module))
pipeline = resolve_pass_pipeline("builtin.module(canonicalize, cse)")
def passes():
    ctx = make_context()
    fresh = parse_module(text, path, ctx)
    start = time.process_time()
    PassManager(pipeline, path, True, []).run(ctx, fresh)
    return time.process_time() - start, None
canon = min(passes()[0] for _ in range(2))
print(json.dumps({"parse": parse, "print": printed, "canonicalize+cse": canon}))
"""

CORPUS_IN_PROCESS = """
import json, resource, sys, time
from collections import Counter
from pathlib import Path
from tileopt.driver.pass_manager import PassManager
from tileopt.ir import make_context, parse_module
from tileopt.pipelines import resolve_pass_pipeline, slice_stages
from tileopt.target import translate
try:
    from tileopt.target.llvm_backend import worker_cpu_seconds
except ImportError:  # a tree without the LLVM worker: its children are waited for
    def worker_cpu_seconds():
        return 0.0
corpus, stages, cases = Path(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3])
def clock():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + usage.ru_utime + usage.ru_stime + worker_cpu_seconds()
def run(target, kernel, pipeline, arch, emit):
    times, path = {}, corpus / target / f"{kernel}.ttir"
    start = clock()
    ctx = make_context()
    module = parse_module(path.read_text(), str(path), ctx)
    times["parse"] = clock() - start
    whole = resolve_pass_pipeline(pipeline)
    for stage in stages:
        start = clock()
        PassManager(slice_stages(whole, stage, stage), str(path), True, []).run(ctx, module)
        times[stage] = clock() - start
    start = clock()
    translate(module, emit, arch, str(path))
    times["code"] = clock() - start
    return times
warm = {}
for case in cases:
    warm.setdefault(case[1], case[1:])
for case in warm.values():
    run(*case)
sums, result = Counter(), {}
for group, *case in cases:
    times = run(*case)
    if group == "non-dot":
        sums.update(times)
    else:
        result[group] = sum(times.values())
for stage, seconds in sums.items():
    result[f"non-dot {stage}"] = seconds
result["non-dot total"] = sum(sums.values())
print(json.dumps(result))
"""
# The dot kernel of the corpus case (one is enough to show the dot kernels' stages move).
CORPUS_DOT = ("cuda-sm90", "matmul")


def _corpus_cases(corpus: Path) -> list[list[str]]:
    """[group, target, kernel, pipeline with options, arch, emit] per timed kernel."""
    cases = []
    for target, spec in TARGETS.items():
        for kernel in NON_DOT:
            cases.append(["non-dot", target, kernel,
                          spec.pipeline + _options(corpus, target, kernel), spec.arch, spec.code])
    target, kernel = CORPUS_DOT
    spec = TARGETS[target]
    cases.append([f"{target} {kernel} total", target, kernel,
                  spec.pipeline + _options(corpus, target, kernel), spec.arch, spec.code])
    return cases


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(command: list[str], tree: Path) -> tuple[float, str]:
    env = dict(COMMAND_ENV, PYTHONPATH=str(tree))
    before = _children_cpu()
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"failed in {tree}: {' '.join(command)}\n{done.stderr[-2000:]}")
    return _children_cpu() - before, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("other", type=Path, help="the other source tree (the 'before')")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--corpus", default=os.environ.get(
        "TILEOPT_CORPUS", REPO.parent / "shared" / "corpus"))
    parser.add_argument("--only", action="append", choices=("commands", "200", "corpus"),
                        help="run only these groups of cases (default: all)")
    args = parser.parse_args()
    groups = set(args.only or ("commands", "200", "corpus"))
    corpus, trees = Path(args.corpus), {"before": args.other.resolve(), "after": REPO}
    out = Path(tempfile.mkdtemp())
    many = out / "kernels200.ttgir"
    many.write_text(many_kernels(corpus, 200))
    example = "examples/kernels/softmax.ttir"
    commands = {"tileopt --help": ["--help"],
                f"tileopt {example}": [example, "-o", os.devnull]}
    for target, kernel, pipeline, emit in KERNELS:
        commands[f"{target} {kernel} --emit={emit}"] = [
            str(corpus / target / f"{kernel}.ttir"),
            f"--pass-pipeline={pipeline}{_options(corpus, target, kernel)}",
            f"--emit={emit}", "-o", str(out / f"{kernel}.{emit}")]
    commands["200 kernels, no pass"] = [str(many), "-o", os.devnull]
    commands["200 kernels, --canonicalize --cse"] = [str(many), "--canonicalize", "--cse",
                                                     "-o", os.devnull]
    if "commands" not in groups:
        commands = {name: command for name, command in commands.items() if "200" in name}
    if "200" not in groups:
        commands = {name: command for name, command in commands.items() if "200" not in name}
    times: dict[str, dict[str, list[float]]] = {}
    first_emit = next(command for name, command in commands.items() if "--emit" in name) \
        if "commands" in groups else None
    for tree in trees.values():  # warm each tree's byte-code caches once
        if first_emit is not None:
            _run(tileopt_command() + first_emit, tree)
    corpus_args = [str(corpus), json.dumps(STAGES), json.dumps(_corpus_cases(corpus))]
    for _ in range(args.rounds):
        for name, command in commands.items():
            for side, tree in trees.items():
                seconds, _ = _run(tileopt_command() + command, tree)
                times.setdefault(name, {}).setdefault(side, []).append(seconds)
        for side, tree in trees.items():
            if "200" in groups:
                _, text = _run([sys.executable, "-c", IN_PROCESS, str(many)], tree)
                for name, seconds in json.loads(text).items():
                    times.setdefault(f"200 kernels in-process: {name}", {}).setdefault(
                        side, []).append(seconds)
            if "corpus" in groups:
                _, text = _run([sys.executable, "-c", CORPUS_IN_PROCESS, *corpus_args], tree)
                for name, seconds in json.loads(text).items():
                    times.setdefault(f"corpus in-process: {name}", {}).setdefault(
                        side, []).append(seconds)
    print(f"CPU ms, median of {args.rounds} alternated rounds (min in brackets)\n")
    print(f"{'case':48} {'before':>14} {'after':>14} {'after/before':>12}")
    for name, sides in times.items():
        before, after = statistics.median(sides["before"]), statistics.median(sides["after"])
        print(f"{name:48} {before * 1000:6.0f} ({min(sides['before']) * 1000:5.0f}) "
              f"{after * 1000:6.0f} ({min(sides['after']) * 1000:5.0f}) {after / before:12.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
