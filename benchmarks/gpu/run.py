"""Run tileopt's PTX and Triton's PTX for the same kernels on a GPU: check and time both.

For every kernel of :mod:`problems` and every target (``cuda-sm80``, ``cuda-sm90`` PTX; both
run on an H100, the sm_80 PTX JIT-compiled by the driver):

1. fresh random inputs at the issue's sizes, on the GPU (PyTorch), and a float64 reference;
2. each PTX (``out/tileopt/<target>/<kernel>.ptx``, made here by ``build.sh``, and Triton's
   ``out/triton/<target>/<kernel>.ptx`` from the corpus) loaded through the same CUDA driver
   calls (:mod:`cuda_driver`), launched with the corpus ``.json``'s signature, grid,
   ``num_warps * 32`` threads and dynamic shared memory;
3. outputs poisoned (NaN) before the run, then checked: every element that must be written
   was, nothing else was, and the max relative error against the reference;
4. timed with CUDA events (warm-up, then the median of many launches), beside a
   device-to-device copy measured in the same run;
5. a table: kernel, target, max relative error, tileopt ms, Triton ms, ratio, GB/s, % of
   copy bandwidth, registers and spills (``cuFuncGetAttribute``; ``ptxas -v`` spill stores
   when ``tileopt/target/ptxas.py`` finds a ptxas). A kernel with no tileopt PTX shows
   n/a; Triton's still runs.

Logs and ``results.json`` go to ``$OUT`` (the device tool's folder) or ``--log-dir``.

    python3 benchmarks/gpu/run.py [--selftest] [--size full|small] [--kernel add ...]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from array_ops import TorchOps, max_relative_error  # noqa: E402
from cuda_driver import DriverError, LoadedKernel, open_driver  # noqa: E402
from kernel_abi import AbiError, KernelMeta, evaluate_grid, kernel_parameters, parse_entry  # noqa: E402
from problems import ALL_PROBLEMS, HAND_WRITTEN, KERNELS, Problem  # noqa: E402

TARGETS = ("cuda-sm80", "cuda-sm90")
SOURCES = ("triton", "tileopt")  # Triton first: a faulting tileopt kernel cannot spoil it
PTXAS_ARCH = {"cuda-sm80": "sm_90", "cuda-sm90": "sm_90a"}  # what the H100 runs
BANDWIDTH_KERNELS = ("add", "axpy_f16", "gelu")  # the issue's >= 90% of copy bandwidth
DOT_SPEED = 0.95  # the issue's dots: at least this fraction of Triton's TF/s


class Log:
    """Print and keep a copy in ``run.log``."""

    def __init__(self, folder: Path | None):
        self.file = None
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            self.file = open(folder / "run.log", "a", encoding="utf-8")

    def __call__(self, *parts) -> None:
        text = " ".join(str(p) for p in parts)
        print(text, flush=True)
        if self.file is not None:
            self.file.write(text + "\n")
            self.file.flush()


@dataclass
class Measurement:
    status: str = "n/a"          # ok | FAIL | n/a
    note: str = ""
    error: float = math.nan
    ms: float = math.nan
    registers: int | None = None
    local_bytes: int | None = None
    spill_stores: int | None = None
    shared: int | None = None
    route: str = ""


@dataclass
class Row:
    kernel: str
    target: str
    bytes_moved: int = 0
    results: dict[str, Measurement] = field(default_factory=dict)
    flops: int = 0


# ------------------------------------------------------------------ inputs on disk


def variant_files(root: Path, source: str, target: str, kernel: str):
    """(ptx path, Triton's .json path, tileopt's meta path) of one variant."""
    ptx = root / source / target / f"{kernel}.ptx"
    meta = root / "triton" / target / f"{kernel}.json"
    extra = root / "tileopt" / target / f"{kernel}.meta.json"
    return ptx, meta, extra


def find_ptxas() -> str | None:
    """tileopt's one ptxas lookup (``tileopt/target/ptxas.py``: the nvidia-cuda-nvcc wheel,
    PATH, ``$CUDA_HOME/bin``), loaded by path: tileopt's dependencies need not be here."""
    source = HERE.parents[1] / "tileopt" / "target" / "ptxas.py"
    spec = importlib.util.spec_from_file_location("_tileopt_ptxas", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.find_ptxas()


def ptxas_spills(ptx_path: Path, target: str) -> int | None:
    """Spill-store bytes ``ptxas -v`` reports for the GPU the harness runs on."""
    ptxas = find_ptxas()
    if ptxas is None:
        return None
    with tempfile.TemporaryDirectory() as work:
        result = subprocess.run([ptxas, "-v", f"-arch={PTXAS_ARCH[target]}", str(ptx_path),
                                 "-o", str(Path(work) / "k.cubin")],
                                capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        return None
    match = re.search(r"(\d+) bytes spill stores", result.stderr)
    return int(match.group(1)) if match else 0


# ------------------------------------------------------------------ one variant


SCRATCH_BYTES_PER_PROGRAM = 1024


PTX_VERSION_LINE = re.compile(r"^\.version (\d+)\.(\d+)$", re.MULTILINE)


def load_reading_ptx_version(driver, ptx: str, name: str, shared: int):
    """Loads PTX; where the driver refuses its ``.version`` as too new (Triton 3.9's sm90
    PTX says 9.4, the H100 machine's CUDA 13.0 driver reads up to 9.0), loads it again under
    the newest ISA version the driver takes. The ISA version only gates which instructions
    the text may use, so code that uses none newer assembles to the same kernel; code that
    does is still refused. Returns the kernel and a note saying what was read."""
    try:
        return LoadedKernel(driver, ptx, name, shared), ""
    except DriverError as err:
        found = PTX_VERSION_LINE.search(ptx)
        if "UNSUPPORTED_PTX_VERSION" not in str(err) or not found:
            raise
        major, minor = int(found.group(1)), int(found.group(2))
        older = [(a, b) for a in range(major, 7, -1) for b in range(9, -1, -1)
                 if (a, b) < (major, minor)]
        for a, b in older:
            try:
                kernel = LoadedKernel(driver, PTX_VERSION_LINE.sub(f".version {a}.{b}", ptx, 1),
                                      name, shared)
            except DriverError as retry:
                if "UNSUPPORTED_PTX_VERSION" in str(retry):
                    continue
                raise
            return kernel, f"PTX .version {major}.{minor} loaded as {a}.{b} (driver)"
        raise


class Variant:
    """A loaded kernel with the problem's launch parameters."""

    def __init__(self, driver, root: Path, source: str, target: str, kernel: str):
        ptx_path, meta_path, extra_path = variant_files(root, source, target, kernel)
        if not meta_path.exists():
            raise FileNotFoundError(f"{meta_path.name} missing (run build.sh)")
        if not ptx_path.exists():
            reason = "no PTX"
            if source == "tileopt" and extra_path.exists():
                reason = json.loads(extra_path.read_text()).get("error", reason)[:60]
            raise FileNotFoundError(reason)
        self.meta = KernelMeta.load(meta_path)
        self.ptx_path = ptx_path
        ptx = ptx_path.read_text()
        self.entry = parse_entry(ptx)
        self.route = "corpus"
        shared = self.meta.shared
        if source == "tileopt":
            info = json.loads(extra_path.read_text()) if extra_path.exists() else {}
            shared = int(info.get("shared", shared))
            self.route = info.get("route", "?")
        if self.entry.reqntid not in (None, self.meta.threads):
            raise AbiError(f"PTX requires {self.entry.reqntid} threads, json says {self.meta.threads}")
        self.kernel, self.load_note = load_reading_ptx_version(driver, ptx, self.entry.name,
                                                               shared)

    def bind(self, problem: Problem):
        grid = evaluate_grid(self.meta.grid, problem.grid_values)
        # Each program's global scratch (Triton's ttg.global_scratch_memory_size; 384 bytes
        # in desc_matmul, 0 elsewhere) at program id * size: one bound for every kernel.
        # Allocated like an argument tensor, kept while the variant may launch.
        like = next(t for t in problem.args.values() if hasattr(t, "data_ptr"))
        programs = grid[0] * grid[1] * grid[2]
        self.scratch = like.new_empty(
            (SCRATCH_BYTES_PER_PROGRAM * programs + like.element_size() - 1)
            // like.element_size())
        params = kernel_parameters(self.meta, self.entry, problem.args,
                                   address_of=lambda t: t.data_ptr(),
                                   scratch=self.scratch.data_ptr())
        block = (self.meta.threads, 1, 1)
        return params, grid, block

    def close(self) -> None:
        self.kernel.close()


def check_variant(torch, ops, variant: Variant, problem: Problem, stream: int) -> tuple[float, str]:
    """Poison, run once, verify. Returns (max relative error, problems found)."""
    for out in problem.outputs:
        problem.args[out.name].fill_(out.poison)
    params, grid, block = variant.bind(problem)
    variant.kernel.launch(grid, block, stream, params)
    torch.cuda.synchronize()
    worst, notes = 0.0, []
    for out in problem.outputs:
        tensor = problem.args[out.name]
        region = out.written(tensor) if out.written else tensor
        expected = problem.reference[out.name]
        if problem.exact:
            mismatched = int((region.to(torch.int64) != expected.to(torch.int64)).sum())
            if mismatched:
                notes.append(f"{out.name}: {mismatched} wrong")
                worst = math.inf
            continue
        missing = int(torch.isnan(region).sum())
        if missing:
            notes.append(f"{out.name}: {missing} not written")
        if out.unwritten is not None:
            stray = int((~torch.isnan(out.unwritten(tensor))).sum())
            if stray:
                notes.append(f"{out.name}: {stray} written outside")
        worst = max(worst, max_relative_error(ops, region, expected,
                                              problem.scale.get(out.name)))
    return worst, "; ".join(notes)


def input_copies(torch, problem: Problem, l2_bytes: int) -> list[Problem]:
    """Problems sharing outputs but with their own copies of the inputs, enough to
    overflow the L2 cache when the inputs alone would fit (rotated while timing)."""
    inputs = [n for n in problem.input_names if hasattr(problem.args[n], "data_ptr")]
    size = sum(problem.args[n].numel() * problem.args[n].element_size() for n in inputs)
    if size == 0 or size >= 3 * l2_bytes:
        return [problem]
    copies = [problem]
    for _ in range(math.ceil(3 * l2_bytes / size) - 1):
        args = dict(problem.args)
        for n in inputs:
            args[n] = problem.args[n].clone()
        copies.append(Problem(**{**problem.__dict__, "args": args}))
    return copies


def time_variant(torch, variant: Variant, problems: list[Problem], stream: int,
                 warmup: int, reps: int) -> float:
    """Median milliseconds of one launch (CUDA events around each launch)."""
    bound = [variant.bind(p) for p in problems]
    resets = [(problems[0].args[name], value) for name, value in problems[0].reset.items()]

    def launch(i: int) -> None:
        params, grid, block = bound[i % len(bound)]
        variant.kernel.launch(grid, block, stream, params)

    for i in range(warmup):
        for tensor, value in resets:
            tensor.fill_(value)
        launch(i)
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        for tensor, value in resets:
            tensor.fill_(value)
        starts[i].record()
        launch(i)
        ends[i].record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends))


def copy_bandwidth(torch, megabytes: int = 1024, reps: int = 30) -> float:
    """Device-to-device copy, GB/s counting bytes read plus bytes written."""
    n = megabytes * (1 << 20) // 4
    src = torch.randn(n, device="cuda")
    dst = torch.empty_like(src)
    for _ in range(5):
        dst.copy_(src)
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        starts[i].record()
        dst.copy_(src)
        ends[i].record()
    torch.cuda.synchronize()
    ms = statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends))
    del src, dst
    return 2 * n * 4 / (ms * 1e-3) / 1e9


# ------------------------------------------------------------------ the whole run


# tileopt may round differently from Triton (another summation order), not worse.
TRITON_ERROR_SLACK = 1.25


def error_limit(tolerance: float, source: str, triton) -> float:
    """The error a ``source`` result may have: the problem's tolerance; for tileopt also
    Triton's own error on the same inputs (times TRITON_ERROR_SLACK) where Triton's PTX
    ran first, so that rounding Triton shares is never held against tileopt. Triton is
    judged by the tolerance alone: its FAIL says the tolerance (or the harness) is wrong."""
    if source != "tileopt" or triton is None or triton.error is None \
            or not math.isfinite(triton.error):
        return tolerance
    return max(tolerance, TRITON_ERROR_SLACK * triton.error)


def measure_kernel(torch, driver, root: Path, kernel: str, target: str, size: str,
                   sources, warmup: int, reps: int, l2: int, log, seed: int) -> Row:
    ops = TorchOps(torch, "cuda", seed)
    row = Row(kernel, target)
    try:
        problem = ALL_PROBLEMS[kernel](ops, size)
        torch.cuda.synchronize()
    except Exception as err:  # noqa: BLE001
        log(traceback.format_exc())
        for source in sources:
            row.results[source] = Measurement("FAIL", f"inputs: {type(err).__name__}: {err}")
        return row
    row.bytes_moved, row.flops = problem.bytes_moved, problem.flops
    stream = torch.cuda.current_stream().cuda_stream
    copies = input_copies(torch, problem, l2)
    for source in sources:
        m = Measurement()
        row.results[source] = m
        try:
            variant = Variant(driver, root, source, target, kernel)
        except FileNotFoundError as err:
            m.note = str(err)
            continue
        except (AbiError, DriverError) as err:
            m.status, m.note = "FAIL", f"load: {err}"
            log(f"  {kernel} {target} {source}: {m.note}")
            continue
        m.route = variant.route
        m.registers, m.local_bytes = variant.kernel.registers, variant.kernel.local_bytes
        m.shared = variant.kernel.shared
        m.spill_stores = ptxas_spills(variant.ptx_path, target)
        try:
            m.error, notes = check_variant(torch, ops, variant, problem, stream)
            limit = error_limit(problem.tolerance, source, row.results.get("triton"))
            ok = m.error <= limit and not notes
            m.status = "ok" if ok else "FAIL"
            m.note = notes or ("" if ok else f"error {m.error:.2e} > {limit:.2e}")
            m.note = "; ".join(n for n in (m.note, variant.load_note) if n)
            m.ms = time_variant(torch, variant, copies, stream, warmup, reps)
        except Exception as err:  # noqa: BLE001 - one broken kernel must not stop the run
            m.status, m.note = "FAIL", f"{type(err).__name__}: {err}"
            log(traceback.format_exc())
        finally:
            variant.close()
        log(f"  {kernel:14} {target:10} {source:8} {m.status:5} err={m.error:.2e} "
            f"ms={m.ms:.4f} regs={m.registers} local={m.local_bytes} spills={m.spill_stores} "
            f"shared={m.shared} {m.route} {m.note}")
    del problem, copies, ops
    try:
        torch.cuda.empty_cache()
    except Exception:  # noqa: BLE001 - a faulted context; the worker ends anyway
        pass
    return row


def run_isolated(args, kernel: str, target: str, size: str, warmup: int, reps: int,
                 log) -> Row:
    """One (kernel, target) in its own process: a kernel that faults (a sticky CUDA
    error) or hangs cannot take the other measurements with it."""
    with tempfile.TemporaryDirectory() as work:
        result = Path(work) / "row.json"
        command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(result),
                   "--kernel", kernel, "--target", target, "--size", size, "--warmup", str(warmup),
                   "--reps", str(reps), "--seed", str(args.seed), "--driver", args.driver,
                   "--root", args.root]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
            output, status = done.stdout + done.stderr, done.returncode
        except subprocess.TimeoutExpired as err:
            output, status = _text(err.stdout) + _text(err.stderr), "timeout"
        for line in output.splitlines():
            log("   " + line)
        if result.exists():
            data = json.loads(result.read_text())
            return Row(data["kernel"], data["target"], data["bytes"],
                       {k: Measurement(**v) for k, v in data["results"].items()},
                       data.get("flops", 0))
    note = f"worker {'timed out' if status == 'timeout' else f'exited {status}'} before reporting"
    return Row(kernel, target, 0, {s: Measurement("FAIL", note) for s in SOURCES})


def _text(data) -> str:
    if data is None:
        return ""
    return data.decode(errors="replace") if isinstance(data, bytes) else data


def row_json(row: Row) -> dict:
    return {"kernel": row.kernel, "target": row.target, "bytes": row.bytes_moved,
            "flops": row.flops, "results": {k: vars(v) for k, v in row.results.items()}}


def _fmt(value, spec: str, missing: str = "n/a") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return missing
    return format(value, spec)


def table(rows: list[Row], copy_gbs: float) -> list[str]:
    head = (f"{'kernel':20} {'target':6} {'max rel err':>19} {'tileopt ms':>10} {'Triton ms':>9} "
            f"{'ratio':>6} {'GB/s t/T':>11} {'%copy t/T':>10} {'TF/s t/T':>9} {'regs t/T':>9} "
            f"{'spills t/T':>11}  notes")
    lines = [head, "-" * len(head)]
    for row in rows:
        t, T = row.results.get("tileopt", Measurement()), row.results.get("triton", Measurement())

        def err(m: Measurement) -> str:
            if m.status == "n/a":
                return "n/a"
            return ("FAIL " if m.status == "FAIL" else "") + _fmt(m.error, ".1e")

        def gbs(m: Measurement) -> float:
            return row.bytes_moved / (m.ms * 1e-3) / 1e9 if m.ms == m.ms else math.nan

        def tfs(m: Measurement) -> float:
            return row.flops / (m.ms * 1e-3) / 1e12 if row.flops and m.ms == m.ms else math.nan

        def spills(m: Measurement) -> str:
            if m.registers is None:
                return "n/a"
            return str(m.spill_stores if m.spill_stores is not None else m.local_bytes)

        ratio = t.ms / T.ms if t.ms == t.ms and T.ms == T.ms else math.nan
        notes = "; ".join(f"{src}: {m.note}" for src, m in row.results.items() if m.note)
        route = t.route if t.route not in ("", "ttir") else ""
        lines.append(
            f"{row.kernel:20} {row.target[-4:]:6} {err(t) + ' / ' + err(T):>19} "
            f"{_fmt(t.ms, '.4f'):>10} {_fmt(T.ms, '.4f'):>9} {_fmt(ratio, '.2f'):>6} "
            f"{_fmt(gbs(t), '.0f') + '/' + _fmt(gbs(T), '.0f'):>11} "
            f"{_fmt(100 * gbs(t) / copy_gbs, '.0f') + '/' + _fmt(100 * gbs(T) / copy_gbs, '.0f'):>10} "
            f"{_fmt(tfs(t), '.0f') + '/' + _fmt(tfs(T), '.0f'):>9} "
            f"{_fmt(t.registers, 'd') + '/' + _fmt(T.registers, 'd'):>9} "
            f"{spills(t) + '/' + spills(T):>11}  {('[' + route + '] ') if route else ''}{notes}")
    return lines


def verdict(rows: list[Row], copy_gbs: float) -> list[str]:
    """The issue's speed criteria, for the rows where both ran correctly."""
    lines = []
    for row in rows:
        t, T = row.results.get("tileopt"), row.results.get("triton")
        if not t or not T or t.status != "ok" or T.status != "ok":
            continue
        ratio = t.ms / T.ms
        if row.flops:
            speed = T.ms / t.ms
            lines.append(f"{'PASS' if speed >= DOT_SPEED else 'SLOW'} {row.kernel} {row.target}: "
                         f"tileopt/Triton TF/s {speed:.2f} (needs {DOT_SPEED})")
            continue
        lines.append(f"{'PASS' if ratio <= 1.1 else 'SLOW'} {row.kernel} {row.target}: "
                     f"tileopt/Triton time {ratio:.2f} (limit 1.10)")
        if row.kernel in BANDWIDTH_KERNELS:
            pct = 100 * row.bytes_moved / (t.ms * 1e-3) / 1e9 / copy_gbs
            lines.append(f"{'PASS' if pct >= 90 else 'SLOW'} {row.kernel} {row.target}: "
                         f"{pct:.1f}% of copy bandwidth (needs 90%)")
    return lines


def environment(torch, driver) -> dict:
    props = torch.cuda.get_device_properties(0)
    return {
        "device": props.name, "sms": props.multi_processor_count,
        "l2_bytes": int(getattr(props, "L2_cache_size", 50 << 20)),
        "memory_gib": round(props.total_memory / (1 << 30), 1),
        "torch": torch.__version__, "cuda": torch.version.cuda, "driver_binding": driver.name,
        "python": platform.python_version(), "ptxas": find_ptxas() or "not found",
    }


# ------------------------------------------------------------------ self-test

SELFTEST_PTX = r"""
.version 7.0
.target sm_80
.address_size 64
.visible .entry selftest_add(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<10>;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [b];
    ld.param.u64 %rd3, [c];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.s32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd4, %rd1;
    cvta.to.global.u64 %rd5, %rd2;
    cvta.to.global.u64 %rd6, %rd3;
    mul.wide.s32 %rd7, %r5, 4;
    add.s64 %rd8, %rd4, %rd7;
    ld.global.f32 %f1, [%rd8];
    add.s64 %rd8, %rd5, %rd7;
    ld.global.f32 %f2, [%rd8];
    add.f32 %f3, %f1, %f2;
    add.s64 %rd9, %rd6, %rd7;
    st.global.f32 [%rd9], %f3;
DONE:
    ret;
}
"""


def selftest_driver(torch, driver, log) -> None:
    """Load, query, configure and launch a hand-written PTX kernel; check its result."""
    n = 1000
    a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    c = torch.full((n,), float("nan"), device="cuda")
    kernel = LoadedKernel(driver, SELFTEST_PTX, "selftest_add", 64 * 1024)
    stream = torch.cuda.current_stream().cuda_stream
    kernel.launch((math.ceil(n / 128), 1, 1), (128, 1, 1), stream,
                  [("u64", a.data_ptr()), ("u64", b.data_ptr()), ("u64", c.data_ptr()), ("i32", n)])
    driver.synchronize()
    torch.cuda.synchronize()
    if not torch.equal(c, a + b):
        raise DriverError("the self-test kernel computed a wrong result")
    log(f"driver self-test ok ({driver.name}): registers={kernel.registers} "
        f"local={kernel.local_bytes} max_threads={kernel.max_threads}, 64 KiB dynamic shared set")
    kernel.close()


# ------------------------------------------------------------------ main


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=str(HERE / "out"), help="where build.sh put the PTX")
    parser.add_argument("--log-dir", default=os.environ.get("OUT"), help="logs and results.json")
    parser.add_argument("--size", choices=("full", "small"), default="full")
    parser.add_argument("--kernel", action="append", choices=list(ALL_PROBLEMS),
                        help="only these kernels")
    parser.add_argument("--target", action="append", choices=TARGETS, help="only these targets")
    parser.add_argument("--driver", choices=("auto", "cuda-bindings", "cupy"), default="auto")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    parser.add_argument("--selftest", action="store_true",
                        help="check the driver path and every kernel at small sizes, then stop")
    parser.add_argument("--timeout", type=int, default=240, help="seconds per (kernel, target)")
    parser.add_argument("--in-process", action="store_true",
                        help="measure in this process instead of one worker per kernel")
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # internal: write one row here
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args)

    log_dir = Path(args.log_dir) if args.log_dir else None
    log = Log(log_dir)
    try:
        import torch
    except ImportError:
        log("PyTorch is not installed: the GPU harness needs it (inputs, references, timing)")
        return 2
    if not torch.cuda.is_available():
        log("no CUDA GPU visible to PyTorch: nothing to run")
        return 2
    torch.zeros(1, device="cuda")  # make PyTorch's primary context current
    try:
        driver = open_driver(args.driver)
    except DriverError as err:
        log(str(err))
        return 3
    env = environment(torch, driver)
    log("environment:", json.dumps(env))
    root = Path(args.root)
    if not (root / "triton").is_dir():
        log(f"{root}/triton is missing: run benchmarks/gpu/build.sh before carrying out/")
        return 2

    sources = SOURCES
    if args.selftest:
        try:
            selftest_driver(torch, driver, log)
        except (DriverError, RuntimeError) as err:
            log(f"SELFTEST FAILED: the driver path does not work: {err}")
            return 1
        # Triton's own kernels at small sizes, in this process: they check the harness.
        size, warmup, reps, sources = "small", 2, 5, ("triton",)
        args.in_process = True
    else:
        size, warmup, reps = args.size, args.warmup, args.reps
    # The self-test runs Triton's kernels only (the hand-written ones have none), those
    # build.sh copied.
    built = [k for k in KERNELS if any((root / "triton" / t / f"{k}.ptx").exists() for t in TARGETS)]
    kernels = args.kernel or (built if args.selftest else list(ALL_PROBLEMS))
    targets = args.target or list(TARGETS)
    copy_gbs = copy_bandwidth(torch, 256 if args.selftest else 1024)
    torch.cuda.empty_cache()
    log(f"device-to-device copy: {copy_gbs:.0f} GB/s (read + write)")
    log(f"seed {args.seed}; size {size}; {warmup} warm-up, median of {reps} launches")

    rows = []
    for kernel in kernels:
        for target in targets:
            if args.in_process:
                rows.append(measure_kernel(torch, driver, root, kernel, target, size, sources,
                                           warmup, reps, env["l2_bytes"], log, args.seed))
            else:
                rows.append(run_isolated(args, kernel, target, size, warmup, reps, log))
    lines = table(rows, copy_gbs)
    checks = verdict(rows, copy_gbs)
    log("")
    for line in lines:
        log(line)
    log(f"\ncopy bandwidth {copy_gbs:.0f} GB/s; max rel err = max |out - ref| / max(|ref|, "
        f"1e-3 max|ref|) against float64, for the dots max |out - ref| / (|A| @ |B| + |C|); "
        f"t/T = tileopt/Triton; spills = ptxas -v spill stores (bytes), else local memory "
        f"per thread")
    for line in checks:
        log(line)
    if log_dir is not None:
        (log_dir / "results.json").write_text(json.dumps({
            "environment": env, "copy_gbs": copy_gbs, "size": size, "seed": args.seed,
            "rows": [row_json(r) for r in rows]}, indent=1, default=str))
    triton_broken = [r for r in rows if r.results["triton"].status != "ok"
                     and r.kernel not in HAND_WRITTEN]
    tileopt_wrong = [r for r in rows if r.results.get("tileopt", Measurement()).status == "FAIL"]
    if args.selftest:
        log("SELFTEST " + ("OK" if not triton_broken else "FAILED: Triton's own kernels did not "
                           "all pass, so the harness is at fault"))
        return 1 if triton_broken else 0
    return 1 if tileopt_wrong or triton_broken else 0


def worker(args) -> int:
    """Measure one (kernel, target) and write its row as JSON (see run_isolated)."""
    import torch

    torch.zeros(1, device="cuda")
    driver = open_driver(args.driver)
    l2 = int(getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 50 << 20))
    row = measure_kernel(torch, driver, Path(args.root), args.kernel[0], args.target[0], args.size,
                         SOURCES, args.warmup, args.reps, l2, Log(None), args.seed)
    Path(args.worker).write_text(json.dumps(row_json(row), default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
