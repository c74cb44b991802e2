"""The autotuner's pick, recorded in the first Triton phase and replayed in the others.

Inductor times a kernel's configs (XBLOCK, num_warps, ...) at its first launch and keeps
the fastest. For kernels of 1 to 3 us that pick is noise: in the run of 2026-11-26 the
same PTX took 2.0 us in the Triton phases and 2.7 us in the tileopt phase, which had
picked another config. Comparing compilers needs one config on both sides, so the
``triton-a`` phase records each kernel's pick (keyed by its name, size hints and source)
and the ``tileopt`` and ``triton-b`` phases time the configs as usual, then hand the
recorded pick the best of those times (it wins; every value is still a measurement,
which matters because Inductor compares a template's time with its fused epilogue's
before fusing them: fake times of 0 made the tileopt phase skip a fusion). Under
max-autotune the choice among GEMM template configs (Inductor's algorithm selection,
which times every choice when the graph compiles) is pinned the same way, keyed by its
place in the compile order and the names of the choices. A kernel or selection the record
lacks is timed as usual, and counted.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path


def kernel_key(autotuner) -> str:
    fn = autotuner.fn
    text = f"{fn.__name__}|{autotuner.size_hints}|{getattr(fn, 'src', '')}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def pinned(timings: dict, chosen) -> dict:
    """``timings`` with the values of ``chosen`` and of the fastest exchanged."""
    fastest = min(timings, key=timings.get)
    out = dict(timings)
    out[chosen], out[fastest] = timings[fastest], timings[chosen]
    return out


def describe_choice(choice) -> str:
    return f"{choice.name} {getattr(choice, 'description', '')}"


def describe(config) -> str:
    return json.dumps({"kwargs": dict(config.kwargs), "num_warps": config.num_warps,
                       "num_stages": config.num_stages}, sort_keys=True)


class AutotunePin:
    """Installed in a worker: ``record`` keeps every pick, ``replay`` launches the picks
    of ``record_path`` (timing only what it lacks). ``save`` writes this phase's picks."""

    def __init__(self, mode: str, record_path: Path, picks_path: Path):
        self.mode = mode
        self.picks_path = picks_path
        self.recorded = {}
        if mode == "replay" and record_path.exists():
            self.recorded = json.loads(record_path.read_text())
        self.picks: dict[str, dict] = (json.loads(picks_path.read_text())
                                       if picks_path.exists() else {})
        self.counts = {"replayed": 0, "timed": 0}
        self.selections = 0

    def install(self) -> None:
        from torch._inductor.runtime.triton_heuristics import CachingAutotuner

        timed = CachingAutotuner.benchmark_all_configs
        pin = self

        def benchmark_all_configs(autotuner, *args, **kwargs):
            key = kernel_key(autotuner)
            wanted = pin.recorded.get(key, {}).get("config")
            chosen = [launcher for launcher in autotuner.launchers
                      if describe(launcher.config) == wanted]
            timings = timed(autotuner, *args, **kwargs)
            if chosen:
                pin.counts["replayed"] += 1
                timings = pinned(timings, chosen[0])
            else:
                pin.counts["timed"] += 1
            best = min(timings, key=timings.get)
            pin.picks[key] = {"kernel": autotuner.fn.__name__, "config": describe(best.config),
                              "replayed": bool(chosen), "configs": len(autotuner.launchers)}
            return timings

        CachingAutotuner.benchmark_all_configs = benchmark_all_configs

        from torch._inductor.select_algorithm import AlgorithmSelectorCache

        timed_choices = AlgorithmSelectorCache.benchmark_choices

        def benchmark_choices(cls, choices, *args, **kwargs):
            pin.selections += 1
            names = [describe_choice(choice) for choice in choices]
            digest = hashlib.sha256("\n".join(names).encode()).hexdigest()[:16]
            key = f"selection {pin.selections} {digest}"
            wanted = pin.recorded.get(key, {}).get("config")
            timings = timed_choices(choices, *args, **kwargs)
            if wanted in names:
                pin.counts["replayed"] += 1
                timings = pinned(timings, choices[names.index(wanted)])
            else:
                pin.counts["timed"] += 1
            best = min(timings, key=timings.get)
            pin.picks[key] = {"kernel": "GEMM template selection", "config": describe_choice(best),
                              "replayed": wanted in names, "configs": len(choices)}
            return timings

        AlgorithmSelectorCache.benchmark_choices = classmethod(benchmark_choices)

    def save(self) -> None:
        self.picks_path.write_text(json.dumps(self.picks, indent=1, sort_keys=True))
