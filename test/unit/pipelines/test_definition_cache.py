"""Loaded pipeline definitions kept across commands (``pipelines/definition_cache.py``):
the same definition as a fresh load, none once a file of its chain changed, none for a
chain with plugins, and a command that finds one imports no PyYAML."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tileopt.pipelines import definition_cache
from tileopt.pipelines.loader import MISSING, find_pipeline, instantiate, load_definition

BASE = """\
    name: base
    target: {backend: cuda, arch: "90", warp-size: 32}
    parameters:
      pipeline: {type: str, default: cse}
      needed: {type: int}
    stages:
      ttir:
        - inline: {default-pipeline: "${pipeline}"}
        - cse
      llir:
        - !missing gluon-inline
        - symbol-dce
"""
CHILD = """\
    name: child
    extends: base.yaml
    changes:
      - remove: cse
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The cache switched on, in a folder of its own, written even where this machine's
    shells set PYTHONDONTWRITEBYTECODE."""
    monkeypatch.setattr(definition_cache, "_enabled", True)
    monkeypatch.setattr(definition_cache, "cache_folder", lambda: tmp_path / "cache")
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.chdir(tmp_path)
    return tmp_path / "cache"


def _entry_file(path: Path) -> Path:
    return definition_cache._file(definition_cache._key(path))  # noqa: SLF001


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def _steps(definition) -> list[str]:
    return [str(step) for step in instantiate(definition, [("needed", "1", None)]).steps]


def test_a_kept_definition_equals_a_fresh_load(cache, tmp_path):
    _write(tmp_path, "base.yaml", BASE)
    child = _write(tmp_path, "child.yaml", CHILD)
    assert definition_cache.lookup(child) is None
    fresh = load_definition(child)
    assert _entry_file(child).is_file()
    kept = definition_cache.lookup(child)
    assert kept is not None and kept is not fresh
    assert kept == fresh and _steps(kept) == _steps(fresh)
    assert kept.params["needed"].default is MISSING  # the sentinel stays one object
    assert [entry.missing for entry in kept.stages["llir"]] == [True, False]
    assert load_definition(child) == fresh


@pytest.mark.parametrize("changed", ["base.yaml", "child.yaml"])
def test_a_change_to_any_file_of_the_chain_is_read(cache, tmp_path, changed):
    _write(tmp_path, "base.yaml", BASE)
    child = _write(tmp_path, "child.yaml", CHILD)
    load_definition(child)
    path = tmp_path / changed
    text = path.read_text()
    path.write_text(text.replace("name: base", "name: base2") if changed == "base.yaml"
                    else text.replace("remove: cse", "remove: symbol-dce"))
    assert definition_cache.lookup(child) is None
    reloaded = load_definition(child)
    if changed == "child.yaml":
        assert [entry.name for entry in reloaded.stages["llir"]] == ["gluon-inline"]
    assert definition_cache.lookup(child) == reloaded


def test_the_working_folder_is_part_of_the_key(cache, tmp_path, monkeypatch):
    # Messages name files relative to it.
    path = _write(tmp_path, "base.yaml", BASE)
    load_definition(path)
    monkeypatch.chdir(tmp_path.parent)
    assert definition_cache.lookup(path) is None


def test_a_chain_with_plugins_is_not_kept(cache, tmp_path):
    (tmp_path / "plugin.py").write_text("")
    path = _write(tmp_path, "p.yaml", BASE.replace("stages:", "plugins: [plugin.py]\n    stages:"))
    load_definition(path)
    assert definition_cache.lookup(path) is None
    assert not cache.exists()


def test_nothing_is_kept_when_switched_off_or_unwritable(tmp_path, monkeypatch):
    path = _write(tmp_path, "base.yaml", BASE)
    monkeypatch.setattr(definition_cache, "cache_folder", lambda: tmp_path / "cache")
    load_definition(path)  # not a command: never switched on
    assert not (tmp_path / "cache").exists()
    monkeypatch.setattr(definition_cache, "_enabled", True)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    load_definition(path)
    assert not (tmp_path / "cache").exists()
    (tmp_path / "cache").mkdir()
    _entry_file(path).write_bytes(b"not a pickle")
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert definition_cache.lookup(path) is None  # an unreadable file is no cache
    load_definition(path)
    assert definition_cache.lookup(path) is not None  # and is replaced


def test_an_entry_is_read_only_for_its_own_key(cache, tmp_path):
    # Entries are named by a checksum of their key; one of another key under that name
    # (a collision) is not taken.
    first, second = (_write(tmp_path, name, BASE) for name in ("a.yaml", "b.yaml"))
    load_definition(first)
    os.replace(_entry_file(first), _entry_file(second))
    assert definition_cache.lookup(second) is None
    assert load_definition(second).file == second


_COMMAND = """
import json, sys
from tileopt.driver import code_cache
code_cache.install()
from tileopt.driver.opt import run_opt
status = run_opt([sys.argv[1], "--pass-pipeline=nvidia-sm90", "--dump-pass-pipeline",
                  "-o", sys.argv[2]])
print(json.dumps({"status": status, "yaml": "yaml" in sys.modules}))
"""


def test_a_command_that_finds_its_pipeline_kept_imports_no_yaml(tmp_path):
    source = tmp_path / "empty.mlir"
    source.write_text("module {\n}\n")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "pycache")  # this test's own caches
    runs = [subprocess.run([sys.executable, "-c", _COMMAND, str(source), str(tmp_path / "out")],
                           env=env, capture_output=True, text=True, check=True)
            for _ in range(2)]
    first, second = (json.loads(run.stdout) for run in runs)
    assert first == {"status": 0, "yaml": True}
    assert second == {"status": 0, "yaml": False}
    assert runs[0].stderr == runs[1].stderr and "nvidia-sm90" in runs[0].stderr
    assert find_pipeline("nvidia-sm90") is not None
