"""benchmarks/inductor/autotune_pin.py: the first phase's autotune picks replayed in the
others, with a stand-in for Inductor's CachingAutotuner (no torch here)."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

HARNESS = Path(__file__).resolve().parents[3] / "benchmarks" / "inductor"
sys.path.insert(0, str(HARNESS))

import autotune_pin  # noqa: E402


class Config:
    def __init__(self, xblock, num_warps):
        self.kwargs, self.num_warps, self.num_stages = {"XBLOCK": xblock}, num_warps, 1


class Launcher:
    def __init__(self, config):
        self.config = config


def fn(name):
    kernel = types.SimpleNamespace(src=f"def {name}(): pass")
    kernel.__name__ = name
    return kernel


class FakeAutotuner:
    """Times its launchers from a table, as Inductor's benchmark would."""

    def __init__(self, name, times):
        self.fn, self.size_hints = fn(name), {"x": 4096}
        self.launchers = [Launcher(Config(x, w)) for x, w in times]
        self.times = times

    def benchmark_all_configs(self, *args, **kwargs):
        return {launcher: self.times[(launcher.config.kwargs["XBLOCK"],
                                      launcher.config.num_warps)] for launcher in self.launchers}

    def autotune_to_one_config(self):
        timings = self.benchmark_all_configs()
        return min(timings, key=timings.get).config


class Choice:
    def __init__(self, name, description):
        self.name, self.description = name, description


class FakeSelector:
    """Inductor's algorithm selection: times GEMM template choices from a table."""

    times: dict[str, float] = {}

    @classmethod
    def benchmark_choices(cls, choices, autotune_args):
        return {choice: cls.times[choice.description] for choice in choices}

    @classmethod
    def select(cls, choices):
        timings = cls.benchmark_choices(choices, None)
        return min(timings, key=timings.get).description


UNPATCHED = FakeAutotuner.benchmark_all_configs
UNPATCHED_SELECTOR = FakeSelector.__dict__["benchmark_choices"]


@pytest.fixture
def fake_inductor(monkeypatch):
    module = types.ModuleType("torch._inductor.runtime.triton_heuristics")
    module.CachingAutotuner = FakeAutotuner
    selection = types.ModuleType("torch._inductor.select_algorithm")
    selection.AlgorithmSelectorCache = FakeSelector
    monkeypatch.setitem(sys.modules, selection.__name__, selection)
    for name in ("torch", "torch._inductor", "torch._inductor.runtime"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, module.__name__, module)
    yield
    FakeAutotuner.benchmark_all_configs = UNPATCHED
    FakeSelector.benchmark_choices = UNPATCHED_SELECTOR


def test_later_phases_launch_the_first_phases_pick(tmp_path, fake_inductor):
    record = tmp_path / "triton-a" / "autotune-picks.json"
    record.parent.mkdir()
    pin = autotune_pin.AutotunePin("record", record, record)
    pin.install()
    chosen = FakeAutotuner("k", {(1024, 4): 2.0, (512, 8): 2.5}).autotune_to_one_config()
    assert (chosen.kwargs["XBLOCK"], chosen.num_warps) == (1024, 4)
    templates = [Choice("triton_mm", "BLOCK_K=32"), Choice("triton_mm", "BLOCK_K=64")]
    FakeSelector.times = {"BLOCK_K=32": 5.0, "BLOCK_K=64": 6.0}
    assert FakeSelector.select(templates) == "BLOCK_K=32"
    pin.save()
    # the next phase is a fresh process
    FakeAutotuner.benchmark_all_configs = UNPATCHED
    FakeSelector.benchmark_choices = UNPATCHED_SELECTOR

    replay = autotune_pin.AutotunePin("replay", record, tmp_path / "tileopt-picks.json")
    replay.install()
    # This phase's own timing would pick the other config; the record wins.
    chosen = FakeAutotuner("k", {(1024, 4): 2.7, (512, 8): 2.1}).autotune_to_one_config()
    assert (chosen.kwargs["XBLOCK"], chosen.num_warps) == (1024, 4)
    # A kernel the record lacks is timed.
    chosen = FakeAutotuner("other", {(1024, 4): 2.7, (512, 8): 2.1}).autotune_to_one_config()
    assert (chosen.kwargs["XBLOCK"], chosen.num_warps) == (512, 8)
    FakeSelector.times = {"BLOCK_K=32": 6.0, "BLOCK_K=64": 5.0}
    assert FakeSelector.select(templates) == "BLOCK_K=32"
    assert replay.counts == {"replayed": 2, "timed": 1}
    replay.save()
    picks = (tmp_path / "tileopt-picks.json").read_text()
    assert '"replayed": true' in picks and '"replayed": false' in picks


def test_the_pick_gets_the_best_time_and_every_time_stays_a_measurement():
    timings = {"a": 2.0, "b": 1.5, "c": 3.0}
    assert autotune_pin.pinned(timings, "c") == {"a": 2.0, "b": 3.0, "c": 1.5}
    assert autotune_pin.pinned(timings, "b") == timings
