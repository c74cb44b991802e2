"""find_ptxas: the nvidia-cuda-nvcc wheel's ptxas first, then PATH, then $CUDA_HOME/bin."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import subprocess
from pathlib import Path

import pytest

from tileopt.target.ptxas import find_ptxas


def fake_tool(path: Path, executable: bool = True) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755 if executable else 0o644)
    return path


_find_spec = importlib.util.find_spec


@pytest.fixture
def no_wheel(monkeypatch):
    """Hide every installed ``nvidia`` package."""
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "nvidia" else _find_spec(name, *a))


def test_wheel_copy_comes_before_path(tmp_path, monkeypatch):
    wheel = fake_tool(tmp_path / "site" / "nvidia" / "cu13" / "bin" / "ptxas")
    fake_tool(tmp_path / "bin" / "ptxas")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    assert find_ptxas() == str(wheel)


def test_cuda12_wheel_layout(tmp_path, monkeypatch):
    wheel = fake_tool(tmp_path / "site" / "nvidia" / "cuda_nvcc" / "bin" / "ptxas")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    # The first namespace portion on sys.path wins, whatever other wheels are installed.
    assert find_ptxas() == str(wheel)


def test_path_then_cuda_home(tmp_path, monkeypatch, no_wheel):
    on_path = fake_tool(tmp_path / "bin" / "ptxas")
    in_home = fake_tool(tmp_path / "cuda" / "bin" / "ptxas")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "cuda"))
    assert find_ptxas() == str(on_path)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert find_ptxas() == str(in_home)
    monkeypatch.delenv("CUDA_HOME")
    assert find_ptxas() is None


def test_a_file_that_cannot_run_is_no_ptxas(tmp_path, monkeypatch, no_wheel):
    fake_tool(tmp_path / "bin" / "ptxas", executable=False)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.delenv("CUDA_HOME", raising=False)
    assert find_ptxas() is None


def test_the_installed_wheel_is_found():
    try:
        files = importlib.metadata.distribution("nvidia-cuda-nvcc").files or []
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("nvidia-cuda-nvcc is not installed (the test extra)")
    shipped = [f for f in files if f.name == "ptxas"]
    assert shipped, "the wheel ships no bin/ptxas"
    assert Path(find_ptxas()).resolve() == Path(shipped[0].locate()).resolve()
    version = subprocess.run([find_ptxas(), "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and "Cuda compilation tools" in version.stdout
