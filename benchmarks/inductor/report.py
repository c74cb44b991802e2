"""The report of run_models.py, from what its phases left (pure Python: no torch, no GPU).

A phase's ``results.json``: ``{"facts": {...}, "planned": [model, ...], "models": {model:
{"status", "error", "losses", "tensors", "kernels": {kernel: {"count", "total_us"}}}}}``.
The tileopt phase's kernel log (``kernels.jsonl``): model markers ``{"model": m}``, then one
record per kernel compile (tileopt.integrations.triton.KernelRecord) until the next marker.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Callable

KINDS = ("pointwise", "reduction", "persistent reduction", "template", "other")
TILEOPT, TRITON_A, TRITON_B = "tileopt", "triton-a", "triton-b"
SLOW = 0.9  # the floor for one kernel's speed ratio


def load_phase(folder: Path) -> dict:
    path = Path(folder) / "results.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {"models": {}}


def read_jsonl(path: Path) -> list[dict]:
    try:
        lines = Path(path).read_text().splitlines()
    except OSError:
        return []
    entries = []
    for line in lines:
        try:
            entries.append(json.loads(line))
        except ValueError:
            continue  # a line cut short by a killed process
    return entries


def kernel_kind(name: str, has_dot: bool = False) -> str:
    """Inductor's kernel families, by the prefix it names them with; a kernel with a
    ``tt.dot`` is a GEMM template whatever its name."""
    if has_dot or name.startswith("triton_tem"):
        return "template"
    for prefix, kind in (("triton_poi", "pointwise"), ("triton_red", "reduction"),
                         ("triton_per", "persistent reduction")):
        if name.startswith(prefix):
            return kind
    return "other"


def records_by_model(log: list[dict]) -> dict[str, list[dict]]:
    """The compile records after each model marker (compile workers' included)."""
    found: dict[str, list[dict]] = defaultdict(list)
    model = "<before any model>"
    for entry in log:
        if "model" in entry and "name" not in entry:
            model = entry["model"]
        elif "name" in entry:
            found[model].append(entry)
    return dict(found)


def kernel_table(records: list[dict]) -> dict[str, dict]:
    """kernel name -> how its compiles went: ``by`` is tileopt (every compile of it),
    triton (none) or mixed; ``variants`` counts its compiles (configs, autotune choices)."""
    table: dict[str, dict] = {}
    for record in records:
        row = table.setdefault(record["name"], {
            "kind": kernel_kind(record["name"], record.get("has_dot", False)),
            "variants": 0, "tileopt": 0, "reasons": [], "tileopt_seconds": 0.0})
        row["variants"] += 1
        row["tileopt_seconds"] += record.get("seconds") or 0.0
        if record.get("compiled_by") == "tileopt":
            row["tileopt"] += 1
        elif record.get("reason"):
            reason = f"[{record.get('failed_at')}] {record['reason']}"
            if reason not in row["reasons"]:
                row["reasons"].append(reason)
    for row in table.values():
        row["by"] = "tileopt" if row["tileopt"] == row["variants"] else \
            "triton" if row["tileopt"] == 0 else "mixed"
    return table


def geomean(values: list[float]) -> float | None:
    values = [v for v in values if v and v > 0 and math.isfinite(v)]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def max_abs_diff(a: list[float] | None, b: list[float] | None) -> float | None:
    if not a or not b or len(a) != len(b):
        return None
    return max(abs(x - y) for x, y in zip(a, b))


def mean_us(kernel: dict | None) -> float | None:
    if not kernel or not kernel.get("count"):
        return None
    return kernel["total_us"] / kernel["count"]


Compare = Callable[[str, str], dict]  # (tensors file a, file b) -> {"max_rel", "equal", "total"}


def build_summary(phases: dict[str, dict], log: list[dict], phase_seconds: dict[str, float],
                  pipeline: str, compare: Compare | None = None) -> dict:
    by_model = records_by_model(log)
    all_records = [r for records in by_model.values() for r in records]
    tables = {model: kernel_table(records) for model, records in by_model.items()}
    any_table = kernel_table(all_records)
    models = []
    for phase in (TRITON_A, TILEOPT, TRITON_B):
        for name in phases.get(phase, {}).get("planned", []) + \
                list(phases.get(phase, {}).get("models", {})):
            if name not in models:
                models.append(name)

    summary: dict = {"pipeline": pipeline, "phase_seconds": phase_seconds,
                     "facts": next((p["facts"] for p in phases.values() if p.get("facts")), {}),
                     "models": {}, "kernels": [], "failures": [], "timing": [],
                     "autotune": {phase: phases.get(phase, {}).get("autotune")
                                  for phase in (TRITON_A, TILEOPT, TRITON_B)}}
    for model in models:
        runs = {phase: phases.get(phase, {}).get("models", {}).get(model, {})
                for phase in (TRITON_A, TILEOPT, TRITON_B)}
        entry = {"status": {p: r.get("status", "not run") for p, r in runs.items()},
                 "errors": {p: r["error"] for p, r in runs.items() if r.get("error")},
                 "profile_errors": {p: r["profile_error"] for p, r in runs.items()
                                    if r.get("profile_error")},
                 "losses": {p: r.get("losses") for p, r in runs.items()},
                 "loss_diff": max_abs_diff(runs[TILEOPT].get("losses"),
                                           runs[TRITON_A].get("losses")),
                 "loss_spread": max_abs_diff(runs[TRITON_B].get("losses"),
                                             runs[TRITON_A].get("losses"))}
        if compare is not None:
            for key, other in (("tensor_diff", TILEOPT), ("tensor_spread", TRITON_B)):
                a, b = runs[other].get("tensors"), runs[TRITON_A].get("tensors")
                if a and b:
                    try:
                        entry[key] = compare(a, b)
                    except Exception as err:  # noqa: BLE001 - shown, not fatal
                        entry[key] = {"error": f"{type(err).__name__}: {err}"}
        entry["verdict"] = _verdict(entry)
        summary["models"][model] = entry

        table = tables.get(model, {})
        for name, row in table.items():
            summary["kernels"].append({"model": model, "kernel": name, **row})
            if row["by"] != "tileopt":
                summary["failures"].append({"model": model, "kernel": name,
                                            "kind": row["kind"], "by": row["by"],
                                            "reasons": row["reasons"]})
        summary["timing"] += _timing_rows(model, runs, table, any_table)
    summary["by_kind"] = _by_kind(summary["kernels"])
    summary["geomeans"] = _geomeans(summary["timing"])
    return summary


def _verdict(entry: dict) -> str:
    diff, spread = entry["loss_diff"], entry["loss_spread"]
    if diff is None:
        return "no comparison"
    tensor = (entry.get("tensor_diff") or {}).get("max_rel")
    tensor_spread = (entry.get("tensor_spread") or {}).get("max_rel")
    if spread is None:
        return "equal to Triton-a" if diff == 0 and not tensor else "no spread run"
    ok = diff <= spread and (tensor is None or tensor_spread is None or tensor <= tensor_spread)
    if diff == 0 and not tensor:
        return "bitwise equal"
    return "within spread" if ok else "OUTSIDE spread"


def _timing_rows(model: str, runs: dict, table: dict, any_table: dict) -> list[dict]:
    tileopt_kernels = runs[TILEOPT].get("kernels") or {}
    triton_a = runs[TRITON_A].get("kernels") or {}
    triton_b = runs[TRITON_B].get("kernels") or {}
    rows = []
    for name in sorted(set(tileopt_kernels) & set(triton_a)):
        row = table.get(name)
        cached = row is None
        if cached:
            row = any_table.get(name)  # compiled for an earlier model, then reused
        if row is None and not name.startswith("triton"):
            continue  # cuBLAS and PyTorch's own kernels: not compiled by Triton
        t_tileopt, t_a = mean_us(tileopt_kernels[name]), mean_us(triton_a[name])
        t_b = mean_us(triton_b.get(name))
        rows.append({
            "model": model, "kernel": name,
            "kind": row["kind"] if row else kernel_kind(name),
            "by": (row["by"] if row else "unknown") + (" (cached)" if cached and row else ""),
            "tileopt_us": t_tileopt, "triton_us": t_a, "triton_b_us": t_b,
            "per_step": tileopt_kernels[name].get("per_step"),
            "speedup": t_a / t_tileopt if t_a and t_tileopt else None,
            "spread": t_a / t_b if t_a and t_b else None,
        })
    return rows


def _by_kind(kernels: list[dict]) -> dict[str, dict]:
    counts = {kind: {"tileopt": 0, "total": 0, "variants_tileopt": 0, "variants": 0}
              for kind in KINDS}
    for row in kernels:
        slot = counts[row["kind"]]
        slot["total"] += 1
        slot["tileopt"] += row["by"] == "tileopt"
        slot["variants"] += row["variants"]
        slot["variants_tileopt"] += row["tileopt"]
    counts["all"] = {key: sum(counts[k][key] for k in KINDS) for key in counts[KINDS[0]]}
    return counts


def _geomeans(timing: list[dict]) -> dict:
    def over(rows: list[dict], key: str) -> dict:
        values = [r[key] for r in rows if r.get(key)]
        slowest = min(rows, key=lambda r: r.get(key) or math.inf, default=None)
        return {"geomean": geomean(values), "n": len(values),
                "min": slowest.get(key) if slowest else None,
                "min_kernel": f"{slowest['model']}/{slowest['kernel']}" if slowest else None,
                "below_floor": sum(1 for v in values if v < SLOW)}

    by_tileopt = [r for r in timing if r["by"].startswith("tileopt")]
    by_triton = [r for r in timing if r["by"].startswith("triton")]
    return {"tileopt_kernels": over(by_tileopt, "speedup"),
            "fallback_kernels": over(by_triton, "speedup"),
            "triton_spread": over(timing, "spread")}


# Printing -------------------------------------------------------------------------------

def _fmt(value, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if value != 0 and (abs(value) < 1e-3 or abs(value) >= 1e5):
            return f"{value:.2e}"
        return f"{value:.{digits}f}"
    return str(value)


def _table(header: list[str], rows: list[list]) -> list[str]:
    cells = [header] + [[_fmt(c) for c in row] for row in rows]
    widths = [max(len(str(row[i])) for row in cells) for i in range(len(header))]
    return ["  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]


def format_summary(summary: dict) -> str:
    facts = summary.get("facts", {})
    lines = [f"== torch.compile'd models: Triton 3.6 vs tileopt ({summary['pipeline']})",
             f"{facts.get('gpu')}, torch {facts.get('torch')}, triton {facts.get('triton')}, "
             f"python {facts.get('python')}",
             "phases: " + ", ".join(f"{p} {s:.0f} s"
                                    for p, s in summary.get("phase_seconds", {}).items()),
             "autotune: " + "; ".join(
                 f"{p} {a['mode']} (configs replayed for {a['counts']['replayed']} kernels, "
                 f"timed for {a['counts']['timed']})"
                 for p, a in summary.get("autotune", {}).items() if a),
             "", "Models (status per phase: triton-a / tileopt / triton-b)"]
    for model, entry in summary["models"].items():
        status = " / ".join(entry["status"].values())
        lines.append(f"  {model}: {status}")
        for phase, error in entry["errors"].items():
            lines.append(f"    {phase}: {error}")
        for phase, error in entry.get("profile_errors", {}).items():
            lines.append(f"    {phase} (profiler): {error}")

    lines += ["", "Kernels compiled by tileopt / total, by kind (unique names per model; "
              "compiles: every config and autotune choice)"]
    rows = [[kind, f"{c['tileopt']}/{c['total']}", f"{c['variants_tileopt']}/{c['variants']}"]
            for kind, c in summary["by_kind"].items() if c["total"] or kind == "all"]
    lines += ["  " + line for line in _table(["kind", "kernels", "compiles"], rows)]

    lines += ["", "Kernels Triton compiled instead (first line of why)"]
    if not summary["failures"]:
        lines.append("  none")
    for row in summary["failures"]:
        reason = row["reasons"][0] if row["reasons"] else "-"
        lines.append(f"  {row['model']}/{row['kernel']} [{row['kind']}, {row['by']}]: "
                     f"{reason}")

    lines += ["", "Numerics: max |loss difference| over the steps and max relative tensor "
              "difference (gradients after step 1, or the output), against triton-a"]
    rows = []
    for model, entry in summary["models"].items():
        rows.append([model, entry["loss_diff"], entry["loss_spread"],
                     (entry.get("tensor_diff") or {}).get("max_rel"),
                     (entry.get("tensor_spread") or {}).get("max_rel"), entry["verdict"]])
    lines += ["  " + line for line in _table(
        ["model", "loss tileopt", "loss triton-b", "tensors tileopt", "tensors triton-b",
         "verdict"], rows)]

    lines += ["", "Per-kernel GPU time (µs per launch, torch.profiler); speedup = Triton µs / "
              "tileopt µs (>1: tileopt faster); spread = triton-a µs / triton-b µs"]
    rows = [[r["model"], r["kernel"], r["kind"], r["by"], r["tileopt_us"], r["triton_us"],
             r["speedup"], r["spread"]] for r in summary["timing"]]
    lines += ["  " + line for line in _table(
        ["model", "kernel", "kind", "compiled by", "tileopt", "triton", "speedup", "spread"],
        rows)]
    names = {"tileopt_kernels": "compiled by tileopt", "fallback_kernels":
             "compiled by Triton in both runs (noise)", "triton_spread": "triton-a vs triton-b"}
    for key, label in names.items():
        g = summary["geomeans"][key]
        lines.append(f"  geomean {label}: {_fmt(g['geomean'])} over {g['n']} kernels; "
                     f"lowest {_fmt(g['min'])} ({g['min_kernel']}); "
                     f"{g['below_floor']} below {SLOW}")
    return "\n".join(lines) + "\n"
