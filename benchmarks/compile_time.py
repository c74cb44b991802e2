"""Compile time: tileopt from ``.ttir`` to PTX (NVIDIA) or AMDGCN (AMD) per kernel, beside
Triton 3.6's own; start-up; and how the cost grows with the size of a file.

tileopt runs in this process, stage by stage as the target's YAML pipeline splits them
(``nvidia-sm80``, ``nvidia-sm90``, ``amd-cdna3``, ``amd-rdna3``, with the kernel's options
from its ``.json``: parse the ``.ttir``, then its ``ttir``, ``ttgir`` and ``llir`` stages,
then the LLVM dialect -> LLVM IR -> PTX or AMDGCN, the ``code`` column). A stage that fails, or a pipeline that
does not reach the LLVM dialect yet, shows ``n/a`` from there on. While that is so, the
``from .ttgir`` column times the lowering alone from Triton's ``.ttgir`` (the pipeline's
``llir`` stage, else the passes in ``LOWERING``) to PTX. The ``CLI`` column is the wall time
of the one command a user runs, start-up included:
``tileopt K.ttir --pass-pipeline=nvidia-sm90 --emit=ptx -o K.ptx`` (best of ``--cli-repeat``).

Triton is timed in a separate interpreter that has ``triton==3.6.0`` (``--triton-python``;
Triton is never imported by tileopt): ``IRSource`` of the same ``.ttir``, then its
``make_ttgir``, ``make_llir`` and ``make_ptx``/``make_amdgcn`` stages on the CPU, as ``triton.compile``
runs them (an IR source skips its own stage), median of ``--repeat`` runs after a warm-up.

With ``--cpu`` every time is CPU time (user + system, child processes included: tileopt's
LLVM worker reports its own), for both compilers: on a machine shared with other work,
wall times measured at different moments are not comparable.

Then two more tables (``--no-startup``, ``--no-scaling`` leave them out):

- start-up: the wall time of ``tileopt --help`` and of a run without passes over
  ``examples/kernels/softmax.ttir`` (parse, verify, print);
- scaling: one TTGIR file of 1, 10, 100 and 200 kernels (the corpus's sm90 kernels with
  ``ttg.num-warps = 4``, printed without aliases and renamed, one after another in one
  module): parse+verify, print, and ``--canonicalize --cse`` in this process (CPU time),
  and the ``tileopt`` command on the file without passes and with ``--canonicalize --cse``
  (wall time), each also per kernel, so that growth faster than linear shows.

With ``--server`` the commands also run through a compile server (``TILEOPT_SERVER=1``,
docs/server.md) that the benchmark starts in a temporary folder and stops at the end: the
``srv`` columns are the client command's wall time (its own CPU time is only Python's
start-up and the client, the work is the server's) and ``srv cpu`` the client's CPU time
plus that of the server child that ran the command (the server reports its children's).

    python benchmarks/compile_time.py [--triton-python VENV/bin/python] [--kernel add] \\
        [--target cuda-sm90] [--repeat 5] [--all] [--no-startup] [--no-scaling] [--server]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tileopt.driver import client  # noqa: E402
from tileopt.driver.pass_manager import PassManager  # noqa: E402
from tileopt.ir import TileoptError, make_context, parse_module, print_module  # noqa: E402
from tileopt.pipelines import resolve_pass_pipeline, slice_stages  # noqa: E402
from tileopt.target import translate  # noqa: E402
from tileopt.target.llvm_backend import worker_cpu_seconds  # noqa: E402

NON_DOT = ["add", "add_nodiv", "axpy_f16", "gelu", "softmax", "layernorm_fwd", "sum_rows",
           "sum_cols", "cumsum", "transpose", "atomic_hist"]
DOT = ["matmul", "matmul_small", "block_ptr_matmul"]
@dataclass(frozen=True)
class Target:
    """A corpus target as both compilers see it: tileopt's YAML pipeline and ``--arch``,
    Triton's ``GPUTarget(backend, arch, warp_size)``, and the code both end with."""

    pipeline: str
    arch: str
    backend: str
    triton_arch: int | str
    warp_size: int
    code: str  # ptx | amdgcn


TARGETS = {
    "cuda-sm80": Target("nvidia-sm80", "sm_80", "cuda", 80, 32, "ptx"),
    "cuda-sm90": Target("nvidia-sm90", "sm_90a", "cuda", 90, 32, "ptx"),
    "hip-gfx942": Target("amd-cdna3", "gfx942", "hip", "gfx942", 64, "amdgcn"),
    "hip-gfx1100": Target("amd-rdna3", "gfx1100", "hip", "gfx1100", 32, "amdgcn"),
}
STAGES = ("ttir", "ttgir", "llir")
LOWERING = ("builtin.module(convert-scf-to-cf, allocate-shared-memory-nv{{compute-capability={cc}}}, "
            "convert-triton-gpu-to-llvm, canonicalize, cse)")


def _run_pipeline(pipeline, module, ctx, filename: str) -> None:
    PassManager(pipeline, filename, True, []).run(ctx, module)


def _has_llvm_function(module) -> bool:
    return any(op.name == "llvm.func" for op in module.walk())


def time_tileopt(corpus: Path, target: str, kernel: str) -> dict[str, object]:
    """Seconds per stage (None after the first failure) and the reason it stopped."""
    spec = TARGETS[target]
    path = corpus / target / f"{kernel}.ttir"
    times: dict[str, object] = {}
    start = clock()
    ctx = make_context()
    module = parse_module(path.read_text(), str(path), ctx)
    times["parse"] = clock() - start
    pipeline = resolve_pass_pipeline(spec.pipeline + _options(corpus, target, kernel))
    for stage in STAGES:
        part = slice_stages(pipeline, stage, stage)
        start = clock()
        try:
            _run_pipeline(part, module, ctx, str(path))
        except Exception as err:  # noqa: BLE001 - any failure ends the timing, reported
            times["stopped"] = f"{stage}: {_short(err)}"
            return times
        times[stage] = clock() - start
    if not _has_llvm_function(module):
        times["stopped"] = "no LLVM dialect after the llir stage"
        return times
    start = clock()
    try:
        translate(module, spec.code, spec.arch, str(path))
    except Exception as err:  # noqa: BLE001
        times["stopped"] = f"{spec.code}: {_short(err)}"
        return times
    times["code"] = clock() - start
    return times


def _options(corpus: Path, target: str, kernel: str) -> str:
    """``{num-warps=.. num-ctas=.. num-stages=..}``: what Triton compiled the kernel with."""
    meta = json.loads((corpus / target / f"{kernel}.json").read_text())
    return (f"{{num-warps={meta['num_warps']} num-ctas={meta['num_ctas']} "
            f"num-stages={meta['num_stages']}}}")


def time_lowering(corpus: Path, target: str, kernel: str) -> tuple[float | None, str]:
    """Seconds from Triton's ``.ttgir`` to PTX/AMDGCN (parse, lowering, translation)."""
    spec = TARGETS[target]
    path = corpus / target / f"{kernel}.ttgir"
    pipeline = resolve_pass_pipeline(spec.pipeline + _options(corpus, target, kernel))
    candidates = [("llir stage", slice_stages(pipeline, "llir", "llir"))]
    if spec.backend == "cuda":
        candidates.append(("passes",
                           resolve_pass_pipeline(LOWERING.format(cc=spec.triton_arch))))
    last = "no route"
    for route, pipeline in candidates:
        start = clock()
        try:
            ctx = make_context()
            module = parse_module(path.read_text(), str(path), ctx)
            _run_pipeline(pipeline, module, ctx, str(path))
            if not _has_llvm_function(module):
                last = f"{route}: no LLVM dialect"
                continue
            translate(module, spec.code, spec.arch, str(path))
        except Exception as err:  # noqa: BLE001
            last = f"{route}: {_short(err)}"
            continue
        return clock() - start, route
    return None, last


def tileopt_command() -> list[str]:
    """How to run the ``tileopt`` command of this interpreter's installation."""
    script = shutil.which("tileopt", path=str(Path(sys.executable).parent))
    if script:
        return [script]
    return [sys.executable, "-c", "from tileopt.cli import tileopt_main; tileopt_main()"]


def time_command(args: list[str], repeat: int) -> float | None:
    """Best time of ``tileopt ARGS`` over ``repeat`` runs (None if it fails): wall time, or
    with ``--cpu`` the command's CPU time (user + system), which a busy shared machine does
    not inflate."""
    best = _run_timed(args, repeat, COMMAND_ENV)
    return None if best is None else best[1] if COMMAND_CPU_TIME else best[0]


def _run_timed(args: list[str], repeat: int, env: dict[str, str],
               server: Server | None = None) -> tuple[float, float] | None:
    """The best wall time and the best CPU time (user + system: the command's, plus the
    server child's with ``server``) of ``repeat`` runs of ``tileopt ARGS``."""
    best = None
    for _ in range(repeat):
        served_before = server.child_cpu() if server else 0.0
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(tileopt_command() + args, capture_output=True, cwd=REPO, env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            return None
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if server is not None:
            cpu += server.child_cpu() - served_before
        best = (wall, cpu) if best is None else (min(best[0], wall), min(best[1], cpu))
    return best


class Server:
    """``--server``: a compile server of its own, in a temporary socket folder."""

    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="tileopt-bench-")
        self.env = dict(COMMAND_ENV, TILEOPT_SERVER="1", TILEOPT_SERVER_DIR=self.dir,
                        TILEOPT_SERVER_IDLE="900")
        self.socket = ""

    def start(self) -> None:
        """A first command (cold) starts the server; wait until it answers."""
        subprocess.run(tileopt_command() + ["--version"], capture_output=True, env=self.env)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            sockets = sorted(Path(self.dir).glob("server-*.sock"))
            if sockets and client.ask(str(sockets[0]), "T"):
                self.socket = str(sockets[0])
                return
            time.sleep(0.1)
        raise RuntimeError(f"no compile server started in {self.dir}")

    def child_cpu(self) -> float:
        """CPU seconds of the server's finished children so far."""
        answer = client.ask(self.socket, "T")
        if answer is None:
            log = "".join(p.read_text() for p in Path(self.dir).glob("*.log"))
            raise RuntimeError(f"the compile server stopped answering; its log:\n{log}")
        fields = dict(f.split("=", 1) for f in answer.split())
        return float(fields["child_user"]) + float(fields["child_sys"])

    def time(self, args: list[str], repeat: int) -> tuple[float, float] | None:
        return _run_timed(args, repeat, self.env, self)

    def stop(self) -> None:
        client.ask(self.socket, "Q")
        deadline = time.monotonic() + 30
        while Path(self.socket).exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        shutil.rmtree(self.dir, ignore_errors=True)


# --cpu: commands, and the in-process stages of both compilers, are timed in CPU seconds
# (user + system, with child processes: tileopt's LLVM worker) instead of wall seconds.
COMMAND_CPU_TIME = False


def clock() -> float:
    if not COMMAND_CPU_TIME:
        return time.perf_counter()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    # The LLVM worker is a child not yet waited for: it reports its own time.
    return time.process_time() + children.ru_utime + children.ru_stime + \
        worker_cpu_seconds()

# The commands run as an installed tileopt does, from cached bytecode: without
# PYTHONDONTWRITEBYTECODE (set in some shells and CI images), which would make every
# command compile tileopt's sources again.
COMMAND_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def time_cli(corpus: Path, target: str, kernel: str, repeat: int, server: Server | None = None
             ) -> tuple[float, float] | None:
    """The one command from ``.ttir`` to PTX/AMDGCN, start-up included: its best wall and
    CPU times (with ``server``: through it, the CPU time with the server child's)."""
    spec = TARGETS[target]
    with tempfile.TemporaryDirectory() as tmp:
        args = [str(corpus / target / f"{kernel}.ttir"),
                f"--pass-pipeline={spec.pipeline}{_options(corpus, target, kernel)}",
                f"--emit={spec.code}", "-o", str(Path(tmp) / f"{kernel}.{spec.code}")]
        return server.time(args, repeat) if server else _run_timed(args, repeat, COMMAND_ENV)


def many_kernels(corpus: Path, count: int) -> str:
    """One TTGIR module of ``count`` kernels: the sm90 corpus kernels that share
    ``ttg.num-warps = 4`` in turn, printed without aliases, each function renamed."""
    bodies, header = [], None
    for path in sorted((corpus / "cuda-sm90").glob("*.ttgir")):
        module = parse_module(path.read_text(), str(path))
        if module.attributes["ttg.num-warps"].value.data != 4:
            continue
        head, _, body = print_module(module, local_scope=True).partition("{\n")
        header = header or head
        bodies.append(body.rstrip().removesuffix("}").rstrip("\n"))
    parts = [re.sub(r"@([\w$.]+)", lambda m, i=i: f"@{m.group(1)}_{i}",
                    bodies[i % len(bodies)], count=1) for i in range(count)]
    return header + "{\n" + "\n".join(parts) + "\n}\n"


def _cpu(fn) -> tuple[float, object]:
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


SCALING_SIZES = (1, 10, 100, 200)


def scaling_table(corpus: Path, repeat: int) -> list[dict]:
    """Per file size: in-process CPU seconds and command wall seconds (see the docstring)."""
    rows = []
    canonicalize_cse = resolve_pass_pipeline("builtin.module(canonicalize, cse)")
    with tempfile.TemporaryDirectory() as tmp:
        for count in SCALING_SIZES:
            text = many_kernels(corpus, count)
            path = Path(tmp) / f"kernels{count}.ttgir"
            path.write_text(text)
            parse_s, module = _cpu(lambda: parse_module(text, str(path)))
            print_s, _ = _cpu(lambda: print_module(module))
            ctx = make_context()
            module = parse_module(text, str(path), ctx)
            passes_s, _ = _cpu(lambda: _run_pipeline(canonicalize_cse, module, ctx, str(path)))
            rows.append({
                "kernels": count, "bytes": len(text), "lines": text.count("\n"),
                "parse": parse_s, "print": print_s, "canonicalize_cse": passes_s,
                "cli": time_command([str(path), "-o", os.devnull], repeat),
                "cli_canonicalize_cse": time_command(
                    [str(path), "--canonicalize", "--cse", "-o", os.devnull], repeat),
            })
    return rows


def print_scaling(rows: list[dict]) -> None:
    head = (f"{'kernels':>7} {'KiB':>6} {'lines':>6} | in-process CPU ms: {'parse':>7} "
            f"{'print':>6} {'canon+cse':>9} {'per kernel':>10} | command ms:      "
            f"{'no pass':>7} {'canon+cse':>9} {'per kernel':>10}")
    print(head)
    print("-" * len(head))
    for row in rows:
        inproc = row["parse"] + row["print"] + row["canonicalize_cse"]
        cli = row["cli_canonicalize_cse"]
        print(f"{row['kernels']:7d} {row['bytes'] / 1024:6.0f} {row['lines']:6d} | "
              f"{'':18} {_ms(row['parse'])[1:]} {_ms(row['print'])[2:]} "
              f"{_ms(row['canonicalize_cse'])[-9:]:>9} {_ms(inproc / row['kernels'])[-10:]:>10} | "
              f"{'':16} {_ms(row['cli'])[1:]} {_ms(cli)[-9:]:>9} "
              f"{_ms(cli / row['kernels'] if cli else None)[-10:]:>10}")
    print("\nper kernel: in-process parse+print+canonicalize,cse, and the command with "
          "--canonicalize --cse, divided by the kernels in the file; command: wall time, or "
          "CPU time with --cpu")


STARTUP_COMMANDS = {
    "tileopt --help": ["--help"],
    "tileopt examples/kernels/softmax.ttir (no pass)":
        [str(REPO / "examples" / "kernels" / "softmax.ttir"), "-o", os.devnull],
}


def startup_table(repeat: int) -> dict[str, float | None]:
    return {name: time_command(args, repeat) for name, args in STARTUP_COMMANDS.items()}


def _short(err: Exception) -> str:
    text = err.format() if isinstance(err, TileoptError) else f"{type(err).__name__}: {err}"
    return text.splitlines()[0][:120]


# Runs under the interpreter that has Triton; prints one JSON object.
TRITON_SCRIPT = textwrap.dedent("""
    import json, resource, statistics, sys, time
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import IRSource, make_backend
    from triton._C.libtriton import ir
    request = json.loads(sys.argv[1])
    def clock():
        if not request["cpu"]:
            return time.perf_counter()
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime
    out = {}
    for job in request["jobs"]:
        target = GPUTarget(job["backend"], job["arch"], job["warp_size"])
        backend = make_backend(target)
        samples = {"ttgir": [], "llir": [], job["code"]: []}
        error = None
        for run in range(request["repeat"] + 1):
            try:
                context = ir.context()
                src = IRSource(job["ttir"], context, backend)
                options = backend.parse_options(dict(num_warps=job["num_warps"],
                                                     num_stages=job["num_stages"], num_ctas=1))
                metadata = {"hash": "bench", "target": target, **options.__dict__}
                stages = {}
                backend.add_stages(stages, options, src.language)
                module = src.make_ir(target, options, backend.get_codegen_implementation(options),
                                     backend.get_module_map(), context)
                for ext in ("ttgir", "llir", job["code"]):
                    start = clock()
                    module = stages[ext](module, metadata)
                    if run:  # the first run warms up
                        samples[ext].append(clock() - start)
            except Exception as err:
                error = f"{type(err).__name__}: {err}"[:200]
                break
        out[job["key"]] = {"error": error} if error else {
            ("code" if ext == job["code"] else ext): statistics.median(v)
            for ext, v in samples.items()}
    print(json.dumps(out))
""")


def time_triton(python: str, corpus: Path, cases: list[tuple[str, str]], repeat: int) -> dict:
    jobs = []
    for target, kernel in cases:
        meta = json.loads((corpus / target / f"{kernel}.json").read_text())
        spec = TARGETS[target]
        jobs.append({"key": f"{target}/{kernel}", "ttir": str(corpus / target / f"{kernel}.ttir"),
                     "backend": spec.backend, "arch": spec.triton_arch,
                     "warp_size": spec.warp_size, "code": spec.code,
                     "num_warps": meta["num_warps"], "num_stages": meta["num_stages"]})
    result = subprocess.run([python, "-c", TRITON_SCRIPT, json.dumps({"jobs": jobs, "repeat": repeat,
                                                          "cpu": COMMAND_CPU_TIME})],
                            capture_output=True, text=True, timeout=3600)
    if result.returncode != 0:
        raise RuntimeError(f"Triton timing failed: {result.stderr.strip().splitlines()[-1:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def print_summary(records: list[dict]) -> None:
    """The issue's figures over the table: tileopt / Triton in-process, and the command's
    wall time against 0.4 s."""
    ratios = sorted(record["ratio"] for record in records if record["ratio"])
    walls: dict[str, list[float]] = {"non-dot": [], "dot": []}
    for record in records:
        if record["cli_wall"] is not None:
            walls["dot" if record["kernel"] in DOT else "non-dot"].append(record["cli_wall"])
    print("\nsummary:")
    if ratios:
        print(f"  in-process tileopt / Triton: median {ratios[len(ratios) // 2]:.1f}x, "
              f"{ratios[0]:.1f}x to {ratios[-1]:.1f}x, {sum(r <= 3 for r in ratios)} of "
              f"{len(ratios)} within 3x")
    for kind, values in walls.items():
        if values:
            values.sort()
            print(f"  the command, wall, {kind} kernels: median {1e3 * values[len(values) // 2]:.0f}"
                  f" ms, {sum(v < 0.4 for v in values)} of {len(values)} under 0.4 s")


def _served_ms(times: tuple[float, float] | None) -> str:
    """The srv columns: wall ms of the client command, CPU ms with the server child's."""
    wall, cpu = times if times else (None, None)
    return f" {_ms(wall)[2:]} {_ms(cpu)[1:]}"


def _ms(value) -> str:
    return f"{1e3 * value:8.0f}" if isinstance(value, float) else f"{'n/a':>8}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("TILEOPT_CORPUS",
                                                           str(REPO.parent / "shared" / "corpus")))
    parser.add_argument("--triton-python", default=os.environ.get("TRITON_PYTHON"),
                        help="a Python with triton==3.6.0 (default: $TRITON_PYTHON; none: "
                             "no Triton column)")
    parser.add_argument("--kernel", action="append", help="only these kernels")
    parser.add_argument("--target", action="append", choices=list(TARGETS))
    parser.add_argument("--repeat", type=int, default=5, help="Triton runs per kernel (median)")
    parser.add_argument("--all", action="store_true", help="the dot kernels too")
    parser.add_argument("--cli-repeat", type=int, default=3,
                        help="runs of each command timed (best)")
    parser.add_argument("--cpu", action="store_true",
                        help="time the commands in CPU seconds (user + system), not wall")
    parser.add_argument("--no-startup", action="store_true", help="no start-up table")
    parser.add_argument("--no-scaling", action="store_true", help="no scaling table")
    parser.add_argument("--json", help="also write the numbers to this file")
    parser.add_argument("--server", action="store_true",
                        help="also time the commands through a compile server (srv columns)")
    args = parser.parse_args()
    global COMMAND_CPU_TIME
    COMMAND_CPU_TIME = args.cpu
    corpus = Path(args.corpus)
    if not (corpus / "README.md").exists():
        print(f"corpus not found at {corpus}", file=sys.stderr)
        return 1
    kernels = args.kernel or (NON_DOT + DOT if args.all else NON_DOT)
    targets = args.target or list(TARGETS)
    cases = [(t, k) for t in targets for k in kernels]

    triton: dict = {}
    if args.triton_python:
        print(f"timing Triton with {args.triton_python} ...", file=sys.stderr, flush=True)
        triton = time_triton(args.triton_python, corpus, cases, args.repeat)

    # A warm-up per target, as Triton gets one: the first use of a pipeline imports its
    # passes (in this process) and writes their bytecode cache (for the commands).
    for target in targets:
        time_tileopt(corpus, target, kernels[0])
        time_cli(corpus, target, kernels[0], 1)
    server = Server() if args.server else None
    try:
        if server is not None:
            server.start()
        return _tables(args, corpus, kernels, cases, triton, server)
    finally:
        if server is not None:
            server.stop()


def _tables(args, corpus: Path, kernels: list[str], cases: list[tuple[str, str]], triton: dict,
            server: Server | None) -> int:
    srv_head = f" {'srv':>6} {'srv cpu':>7}" if server else ""

    head = (f"{'target':10} {'kernel':14} | tileopt ms: {'parse':>6} {'ttir':>7} {'ttgir':>7} "
            f"{'llir':>7} {'code':>7} {'total':>8} {'.ttgir':>8} {'CLI':>6} {'wall':>5}{srv_head} | Triton ms: {'ttgir':>6} "
            f"{'llir':>6} {'code':>6} {'total':>6} | {'ratio':>6}  notes")
    print(head)
    print("-" * len(head))
    records = []
    for target, kernel in cases:
        ours = time_tileopt(corpus, target, kernel)
        lowering, route = time_lowering(corpus, target, kernel)
        cli_times = time_cli(corpus, target, kernel, args.cli_repeat)
        cli, cli_wall = (None, None) if cli_times is None else \
            (cli_times[1] if args.cpu else cli_times[0], cli_times[0])
        served = time_cli(corpus, target, kernel, args.cli_repeat, server) if server else None
        stage_times = [ours.get(s) for s in ("parse", *STAGES, "code")]
        total = sum(stage_times) if all(isinstance(t, float) for t in stage_times) else None
        theirs = triton.get(f"{target}/{kernel}", {})
        t_times = [theirs.get(s) for s in ("ttgir", "llir", "code")]
        t_total = sum(t_times) if all(isinstance(t, float) for t in t_times) else None
        ratio = total / t_total if total and t_total else None
        ratio_text = f"{ratio:6.1f}" if ratio else f"{'n/a':>6}"
        notes = []
        if "stopped" in ours:
            notes.append(f"tileopt: {ours['stopped']}")
        if lowering is not None and total is None:
            notes.append(f".ttgir via {route}")
            if t_total:
                t_low = theirs["llir"] + theirs["code"]
                notes.append(f"lowering ratio vs Triton llir+code {lowering / t_low:.1f}")
        elif lowering is None:
            notes.append(f".ttgir: {route}")
        if theirs.get("error"):
            notes.append(f"Triton: {theirs['error']}")
        print(f"{target:10} {kernel:14} |             {_ms(ours.get('parse'))[2:]} "
              f"{_ms(ours.get('ttir'))[1:]} {_ms(ours.get('ttgir'))[1:]} {_ms(ours.get('llir'))[1:]} "
              f"{_ms(ours.get('code'))[1:]} {_ms(total)} {_ms(lowering)} {_ms(cli)[2:]} {_ms(cli_wall)[3:]}"
              f"{_served_ms(served) if server else ''} |            "
              f"{_ms(t_times[0])[2:]} {_ms(t_times[1])[2:]} {_ms(t_times[2])[2:]} {_ms(t_total)[2:]} "
              f"| {ratio_text}  {'; '.join(notes)}", flush=True)
        records.append({"target": target, "kernel": kernel, "tileopt": ours,
                        "tileopt_from_ttgir": lowering, "ttgir_route": route, "cli": cli,
                        "cli_wall": cli_wall, "ratio": ratio,
                        "cli_server": served, "triton": theirs})
    print("\nratio = tileopt total / Triton total (.ttir to PTX or AMDGCN, `code`); tileopt "
          "in-process with verification after each pass, as the tileopt command runs it; CLI = "
          "the command `tileopt K.ttir --pass-pipeline=P{options} --emit=ptx|amdgcn -o K.ptx`; "
          "all wall times, or CPU times (user + system, children included) with --cpu; "
          "wall = the command's wall time (the issue's figure for it)"
          + ("; srv = the same command through a warm compile server, wall time, and srv cpu "
             "= its CPU time with the server child's" if server else ""))
    results: dict[str, object] = {"kernels": records}
    print_summary(records)
    if not args.no_startup:
        startup = startup_table(args.cli_repeat)
        clock = "CPU" if args.cpu else "wall"
        served = {name: server.time(command, args.cli_repeat)
                  for name, command in STARTUP_COMMANDS.items()} if server else {}
        print(f"\n{f'start-up ({clock}, best of {args.cli_repeat})':50} ms"
              + (f" {'srv':>6} {'srv cpu':>7}" if server else ""))
        for name, seconds in startup.items():
            print(f"{name:50} {_ms(seconds)}" + (_served_ms(served[name]) if server else ""))
        results["startup"] = startup
        if server:
            results["startup_server"] = served
    if not args.no_scaling:
        print()
        rows = scaling_table(corpus, args.cli_repeat)
        print_scaling(rows)
        results["scaling"] = rows
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
