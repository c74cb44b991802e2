"""benchmarks/inductor/run_models.py's phases, with a stand-in worker (no torch, no GPU): a
worker that loses its CUDA context is started again with the models left, a phase stops at
its deadline, and later phases run only what the first one got through."""

from __future__ import annotations

import json
import sys
import textwrap
from argparse import Namespace
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[3] / "benchmarks" / "inductor"
sys.path.insert(0, str(HARNESS))

import run_models  # noqa: E402

# Stands in for ``python run_models.py --worker ...``: each model in --models is "ok",
# except those named in $FAIL_FIRST, which lose the CUDA context on their first try.
WORKER = textwrap.dedent("""\
    import json, os, sys, time
    argv = sys.argv[2:]
    get = lambda flag: argv[argv.index(flag) + 1] if flag in argv else None
    work = get("--work")
    path = os.path.join(work, "results.json")
    results = json.load(open(path)) if os.path.exists(path) else {"models": {}}
    names = get("--models").split(",") if get("--models") else ["m1", "m2", "m3"]
    results.setdefault("planned", names)
    with open(os.environ["CALLS"], "a") as calls:
        calls.write(get("--worker") + ":" + ",".join(names) + "\\n")
    for name in names:
        if name in os.environ.get("SLOW", ""):
            time.sleep(60)
        if name in os.environ.get("FAIL_FIRST", "") and name not in results["models"]:
            results["models"][name] = {"status": "failed", "error": "illegal memory access"}
            json.dump(results, open(path, "w"))
            sys.exit(3)
        results["models"][name] = {"status": "ok", "losses": [1.0]}
        json.dump(results, open(path, "w"))
""")


def _args(**changes) -> Namespace:
    values = dict(pipeline="nvidia-sm90", steps=1, profile_steps=1, device="cuda",
                  backend="inductor", free_autotune=False)
    values.update(changes)
    return Namespace(**values)


def _fake_python(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CALLS", str(tmp_path / "calls.txt"))
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    fake = tmp_path / "fake-python"
    fake.write_text(f"#!/bin/sh\nexec {sys.executable} {script} \"$@\"\n")
    fake.chmod(0o755)
    monkeypatch.setattr(run_models.sys, "executable", str(fake))


def test_a_lost_context_restarts_with_the_models_left(tmp_path, monkeypatch):
    _fake_python(tmp_path, monkeypatch)
    monkeypatch.setenv("FAIL_FIRST", "m2")
    work, out = tmp_path / "work", tmp_path / "out"
    out.mkdir()
    run_models.run_phase("triton-a", _args(), None, work, out, deadline=1e12)
    calls = (tmp_path / "calls.txt").read_text().split()
    assert calls == ["triton-a:m1,m2,m3", "triton-a:m3"]
    models = json.loads((work / "triton-a" / "results.json").read_text())["models"]
    assert {m: r["status"] for m, r in models.items()} == \
        {"m1": "ok", "m2": "failed", "m3": "ok"}


def test_a_phase_is_killed_at_its_deadline(tmp_path, monkeypatch):
    _fake_python(tmp_path, monkeypatch)
    monkeypatch.setenv("SLOW", "m2")  # m2 sleeps a minute
    monkeypatch.setattr(run_models, "MIN_LEFT_S", 0.1)
    monkeypatch.setattr(run_models, "GRACE_S", 0.0)
    work, out = tmp_path / "work", tmp_path / "out"
    out.mkdir()
    start = run_models.time.time()
    run_models.run_phase("triton-a", _args(), None, work, out, deadline=start + 3.0)
    assert run_models.time.time() - start < 20
    models = json.loads((work / "triton-a" / "results.json").read_text())["models"]
    assert list(models) == ["m1"]
    assert "killed at its deadline" not in (out / "triton-a.log").read_text()  # printed, not logged


def test_later_phases_run_what_the_first_got_through(tmp_path, monkeypatch, capsys):
    _fake_python(tmp_path, monkeypatch)
    monkeypatch.setenv("SLOW", "m3")
    monkeypatch.setattr(run_models, "MIN_LEFT_S", 0.1)
    monkeypatch.setattr(run_models, "GRACE_S", 0.0)
    monkeypatch.setattr(run_models.tempfile, "mkdtemp", lambda prefix: str(tmp_path / "work"))
    (tmp_path / "work").mkdir()
    out = tmp_path / "out"
    run_models.run_parent(_args(out=str(out), budget=10.0, models="",
                                phases="triton-a,tileopt,triton-b"))
    summary = json.loads((out / "summary.json").read_text())
    assert list(summary["models"]) == ["m1", "m2", "m3"]
    assert summary["models"]["m3"]["status"] == \
        {"triton-a": "not run", "tileopt": "not run", "triton-b": "not run"}
    assert summary["models"]["m1"]["status"]["triton-b"] == "ok"
    assert "m1: ok / ok / ok" in capsys.readouterr().out
    assert (tmp_path / "calls.txt").read_text().split() == \
        ["triton-a:m1,m2,m3", "tileopt:m1,m2", "triton-b:m1,m2"]
