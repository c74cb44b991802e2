#!/usr/bin/env python3
"""torch.compile'd models with Triton's own compiler and with tileopt's hook, compared.

    python3 benchmarks/inductor/run_models.py --out DIR [--budget 450] [--models a,b]

Three phases, each a fresh process with caches of its own (so each compiles every kernel):
``triton-a`` (Triton 3.6 as installed), ``tileopt`` (the same with
``tileopt.integrations.triton.use(PIPELINE)``: every kernel through tileopt, Triton's own
stages for the kernels tileopt cannot compile) and ``triton-b`` (Triton again: the
run-to-run spread). Each phase runs every model (models.py) in turn: the first step compiles,
``--steps`` steps give the losses, then ``--profile-steps`` steps run under torch.profiler
for each kernel's GPU time. A model that fails is reported and the next one runs; a phase
that loses its CUDA context starts again with the models left. Each phase stops starting
models at its share of ``--budget`` seconds; whatever finished is reported.

Printed (and written to DIR/report.txt; everything in DIR/summary.json): kernels compiled
by tileopt / total by kind, those Triton compiled instead with the first line of why, the
loss and tensor differences tileopt vs Triton and Triton vs Triton, and per-kernel GPU time
tileopt beside Triton with the geomean. DIR/kernels.jsonl has one line per kernel compile
of the tileopt phase, DIR/<phase>.log each phase's output, DIR/kernels.tar.xz every
phase's Triton cache (Triton's stages, tileopt's PTX) and the input tileopt failed on.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

import report  # noqa: E402

PHASES = ("triton-a", "tileopt", "triton-b")
# Of the time left when a phase starts, the share it may use (the last takes the rest).
SHARES = {"triton-a": 0.28, "tileopt": 0.65, "triton-b": 1.0}
CONTEXT_LOST = 3  # a worker's exit status when CUDA errors make the rest of its models moot
MIN_LEFT_S = 15  # a phase with less left starts no worker
GRACE_S = 30  # a worker past its deadline (it checks it between models) is killed this late


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.environ.get("OUT") or "inductor-out")
    parser.add_argument("--budget", type=float, default=450.0,
                        help="seconds for all three phases (default 450)")
    parser.add_argument("--models", default="", help="comma-separated (default: all)")
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument("--pipeline", default="nvidia-sm90")
    parser.add_argument("--free-autotune", action="store_true",
                        help="let every phase time its own configs (default: the later "
                             "phases launch triton-a's picks; autotune_pin.py)")
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--profile-steps", type=int, default=10)
    parser.add_argument("--device", default="cuda", help="cpu: check the harness (no GPU)")
    parser.add_argument("--backend", default="inductor",
                        help="torch.compile backend (aot_eager: check the harness)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--work", help=argparse.SUPPRESS)
    parser.add_argument("--deadline", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return run_worker(args)
    return run_parent(args)


# The parent: phases in fresh processes, then the report -------------------------------

def run_parent(args) -> int:
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    for stale in ["kernels.jsonl", "kernels.tar.xz"] + [f"{p}.log" for p in PHASES]:
        (out / stale).unlink(missing_ok=True)  # this run's files only (logs are appended)
    work = Path(tempfile.mkdtemp(prefix="inductor-bench-"))
    models = [m for m in args.models.split(",") if m] or None
    start = time.time()
    end = start + args.budget
    phase_seconds: dict[str, float] = {}
    for phase in [p for p in args.phases.split(",") if p]:
        now = time.time()
        if now >= end - MIN_LEFT_S:
            print(f"== {phase}: skipped (budget spent)", flush=True)
            continue
        deadline = now + (end - now) * SHARES.get(phase, 1.0)
        run_phase(phase, args, models, work, out, deadline)
        phase_seconds[phase] = time.time() - now
        if phase == PHASES[0]:
            # The others compare against this one: only what it got through is worth running.
            state = report.load_phase(work / phase)["models"]
            models = [m for m, r in state.items() if r.get("status") in ("ok", "failed")]
            if not models:
                print(f"== {phase} ran no model: nothing to compare against", flush=True)
                break
    summary = report.build_summary(
        {phase: report.load_phase(work / phase) for phase in PHASES},
        report.read_jsonl(out / "kernels.jsonl"), phase_seconds, args.pipeline,
        compare=compare_tensors)
    (out / "summary.json").write_text(json.dumps(summary, indent=1, default=str))
    text = report.format_summary(summary)
    (out / "report.txt").write_text(text)
    print(text, flush=True)
    pack_kernels(work, out / "kernels.tar.xz")
    shutil.rmtree(work, ignore_errors=True)
    return 0


def run_phase(phase: str, args, models, work: Path, out: Path, deadline: float) -> None:
    phase_dir = work / phase
    phase_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.update({
        # Caches of its own: every phase compiles every kernel.
        "TORCHINDUCTOR_CACHE_DIR": str(phase_dir / "inductor-cache"),
        "TRITON_CACHE_DIR": str(phase_dir / "triton-cache"),
        "TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1",
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p),
    })
    for name in ("TRITON_CACHE_MANAGER", "TILEOPT_TRITON_PIPELINE", "TILEOPT_TRITON_LOG"):
        env.pop(name, None)
    if phase == "tileopt":
        env["TILEOPT_TRITON_DUMP_FAILED"] = str(work / "failed")
    remaining = list(models) if models else None
    with open(out / f"{phase}.log", "a") as log:
        for attempt in range(3):
            left = deadline - time.time()
            if left < MIN_LEFT_S:
                break
            command = [sys.executable, str(Path(__file__).resolve()), "--worker", phase,
                       "--work", str(phase_dir), "--deadline", str(deadline),
                       "--pipeline", args.pipeline, "--steps", str(args.steps),
                       "--profile-steps", str(args.profile_steps),
                       "--device", args.device, "--backend", args.backend, "--out", str(out)]
            if args.free_autotune:
                command.append("--free-autotune")
            if remaining is not None:
                command += ["--models", ",".join(remaining)]
            print(f"== {phase} (attempt {attempt + 1}, {left:.0f} s left)", flush=True)
            log.write(f"== {' '.join(command)}\n")
            log.flush()
            # A session of its own: at the deadline, Inductor's compile workers go with it.
            process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
            try:
                status = process.wait(timeout=left + GRACE_S)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                print(f"   {phase}: killed at its deadline", flush=True)
                break
            finally:
                try:  # compile workers outlive a worker that exited
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            state = report.load_phase(phase_dir)
            done = state["models"]
            listed = ", ".join(f"{m} ({r.get('status')})" for m, r in done.items())
            print(f"   {phase}: exit {status}; models: {listed}", flush=True)
            if status not in (0, CONTEXT_LOST):
                log.flush()
                tail = (out / f"{phase}.log").read_text(errors="replace").splitlines()[-12:]
                print("\n".join(f"   | {line}" for line in tail), flush=True)
            if status != CONTEXT_LOST:
                break
            wanted = remaining if remaining is not None else state.get("planned", [])
            remaining = [m for m in wanted if m not in done]
            if not remaining:
                break


def compare_tensors(path_a: str, path_b: str) -> dict:
    """Max relative difference over the tensors two phases saved (max |a - b| / max |b|,
    per tensor), and how many are bitwise equal."""
    import torch

    a, b = torch.load(path_a), torch.load(path_b)
    worst, worst_name, equal = 0.0, None, 0
    for name in sorted(set(a) & set(b)):
        x, y = a[name].double(), b[name].double()
        if x.shape != y.shape:
            return {"error": f"{name}: shapes {tuple(x.shape)} and {tuple(y.shape)}"}
        equal += bool(torch.equal(a[name], b[name]))
        scale = y.abs().max().item() or 1.0
        diff = (x - y).abs().max().item() / scale
        diff = math.inf if math.isnan(diff) else diff
        if diff > worst or worst_name is None:
            worst, worst_name = diff, name
    return {"max_rel": worst, "worst": worst_name, "equal": equal,
            "total": len(set(a) & set(b)), "missing": sorted(set(a) ^ set(b))}


# What each phase compiled, kept for study on the CPU: Triton's stages and tileopt's PTX of
# one kernel side by side (a slow or differently-rounding kernel is found from its name).
KEPT_SUFFIXES = (".ttir", ".ttgir", ".llir", ".ptx", ".json", ".source")


def pack_kernels(work: Path, archive: Path) -> None:
    """One archive (the GPU machine returns few files): ``failed_inputs/`` (the text tileopt
    was given for each kernel it failed on) and ``<phase>/<hash>/<file>`` of every phase's
    Triton cache."""
    members = []
    failed = work / "failed"
    if failed.is_dir():
        members += [(path, f"failed_inputs/{path.name}") for path in sorted(failed.iterdir())]
    for phase in PHASES:
        # Inductor points Triton's cache into its own (inductor-cache/triton/...): a Triton
        # cache entry is any folder holding a .ttir.
        for folder in sorted({ttir.parent for ttir in (work / phase).rglob("*.ttir")}):
            members += [(path, f"{phase}/{folder.name}/{path.name}")
                        for path in sorted(folder.iterdir())
                        if path.is_file() and path.name.endswith(KEPT_SUFFIXES)]
    if not members:
        return
    with tarfile.open(archive, "w:xz") as tar:
        for path, name in members:
            tar.add(path, arcname=name)


# The worker: one phase, every model in turn --------------------------------------------

def run_worker(args) -> int:
    import torch
    import torch._dynamo

    import models
    from models import MODELS

    models.DEVICE, models.BACKEND = args.device, args.backend
    work = Path(args.work)
    results_path = work / "results.json"
    results = report.load_phase(work)
    results.setdefault("models", {})
    results["facts"] = facts()
    pin = None
    if args.device == "cuda":
        from autotune_pin import AutotunePin

        mode = "record" if args.worker == PHASES[0] or args.free_autotune else "replay"
        pin = AutotunePin(mode, work.parent / PHASES[0] / "autotune-picks.json",
                          work / "autotune-picks.json")
        pin.install()
        results["autotune"] = {"mode": mode, "counts": pin.counts}
    if args.worker == "tileopt":
        import tileopt.integrations.triton as tileopt_triton

        # The README's one call; its log gathers the compile workers' records too.
        tileopt_triton.use(args.pipeline, log_path=str(Path(args.out) / "kernels.jsonl"))
    names = [m for m in args.models.split(",") if m] if args.models else list(MODELS)
    unknown = [m for m in names if m not in MODELS]
    if unknown:
        print(f"unknown models: {', '.join(unknown)} (known: {', '.join(MODELS)})")
        return 2
    results["planned"] = results.get("planned") or names
    for name in names:
        if name in results["models"]:
            continue
        if time.time() > args.deadline:
            results["models"][name] = {"status": "skipped", "error": "phase deadline"}
            save(results_path, results)
            continue
        mark_log(args, name)
        print(f"-- {name}", flush=True)
        entry: dict = {"status": "running"}
        results["models"][name] = entry
        save(results_path, results)
        try:
            run_model(MODELS[name], entry, work / f"{name}.pt", args)
            entry["status"] = "ok"
        except Exception as err:  # noqa: BLE001 - reported, and the next model runs
            entry["status"] = "failed"
            entry["error"] = first_line(err)
            traceback.print_exc()
            if context_lost(err):
                save(results_path, results)
                return CONTEXT_LOST
        finally:
            if pin is not None:
                pin.save()
            save(results_path, results)
            torch._dynamo.reset()
            if torch.cuda.is_available():
                torch.cuda.empty_cache()
    return 0


def run_model(make, entry: dict, tensors_path: Path, args) -> None:
    import torch
    import torch._inductor.config

    torch.manual_seed(0)
    case = make()
    start = time.perf_counter()
    with torch._inductor.config.patch(case.inductor_config):
        first = case.step()
        synchronize()
    entry["compile_and_first_step_s"] = time.perf_counter() - start
    losses = [first.item()]
    for _ in range(args.steps - 1):
        losses.append(case.step().item())
    synchronize()
    entry["losses"] = losses
    torch.save(case.tensors(), tensors_path)
    entry["tensors"] = str(tensors_path)
    try:
        entry["kernels"] = profile_kernels(case.step, args.profile_steps, args.device)
    except Exception as err:  # noqa: BLE001 - the numbers above still count
        entry["profile_error"] = first_line(err)
        traceback.print_exc()
        if context_lost(err):
            raise


def profile_kernels(step, steps: int, device: str) -> dict[str, dict]:
    """name -> {"count", "total_us"} over ``steps`` steps: every GPU kernel the profiler saw
    (none on the CPU)."""
    import torch
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile

    step()  # warm
    synchronize()
    activity = ProfilerActivity.CUDA if device == "cuda" else ProfilerActivity.CPU
    with profile(activities=[activity]) as prof:
        for _ in range(steps):
            step()
        synchronize()
    kernels: dict[str, dict] = {}
    for event in prof.events():
        if event.device_type != DeviceType.CUDA:
            continue
        slot = kernels.setdefault(event.name, {"count": 0, "total_us": 0.0})
        slot["count"] += 1
        slot["total_us"] += event.time_range.elapsed_us()
    for slot in kernels.values():
        slot["per_step"] = slot["count"] / steps
    return kernels


def synchronize() -> None:
    import torch

    if torch.cuda.is_available():
        torch.cuda.synchronize()


def facts() -> dict:
    import torch
    import triton

    return {"torch": torch.__version__, "triton": triton.__version__,
            "gpu": torch.cuda.get_device_name() if torch.cuda.is_available() else None,
            "python": sys.version.split()[0]}


def mark_log(args, model: str) -> None:
    """A line in the tileopt phase's kernel log: the compiles after it are this model's."""
    if args.worker != "tileopt":
        return
    with open(Path(args.out) / "kernels.jsonl", "a") as log:
        log.write(json.dumps({"model": model, "pid": os.getpid(), "time": time.time()}) + "\n")


def context_lost(err: BaseException) -> bool:
    text = str(err)
    return any(marker in text for marker in (
        "illegal memory access", "misaligned address", "unspecified launch failure",
        "device-side assert", "CUDA error: an illegal instruction"))


def first_line(err: BaseException) -> str:
    lines = [line for line in str(err).splitlines() if line.strip()]
    return f"{type(err).__name__}: {lines[0] if lines else ''}"[:400]


def save(path: Path, results: dict) -> None:
    temp = path.with_suffix(".tmp")
    temp.write_text(json.dumps(results, indent=1))
    temp.replace(path)


if __name__ == "__main__":
    sys.exit(main())
