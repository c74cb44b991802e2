"""benchmarks/gpu/libdevice_bits.py, the GPU check of libdevice on the CPU: its ulp
measure, and its build step (kernels, PTX, tileopt-run's results) for one function."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from tileopt.target.nvptx import find_libdevice

HARNESS = Path(__file__).resolve().parents[3] / "benchmarks" / "gpu"
sys.path.insert(0, str(HARNESS))

import libdevice_bits as L  # noqa: E402


def test_ulp_difference_counts_representable_steps():
    one = np.float32(1)
    a = np.array([one, one, -0.0, np.nan, np.float32(1e-45)], np.float32)
    b = np.array([one, np.nextafter(np.nextafter(one, 2), 2), 0.0, np.nan,
                  np.float32(-1e-45)], np.float32)
    assert list(L.ulp_difference(a, b)) == [0, 2, 0, 0, 2]   # across zero: +1 and -1 step


@pytest.mark.skipif(find_libdevice() is None, reason="libdevice.10.bc is not installed")
def test_build_writes_ptx_and_the_cpu_results(tmp_path, monkeypatch):
    monkeypatch.setattr(L, "FUNCTIONS", {"__nv_expf": (1, (-10, 10))})
    monkeypatch.setattr(L, "BLOCKS", 2)
    L.build(tmp_path)
    assert json.loads((tmp_path / "index.json").read_text()) == {"__nv_expf": 1}
    assert ".entry k(" in (tmp_path / "__nv_expf.ptx").read_text()
    x = np.load(tmp_path / "__nv_expf.in0.npy")
    for level in (0, 3):
        got = np.load(tmp_path / f"__nv_expf.cpu{level}.npy")
        with np.errstate(over="ignore"):
            want = np.exp(x.astype(np.float64)).astype(np.float32)
        finite = np.isfinite(x) & (np.abs(x) < 80)
        assert L.ulp_difference(got, want)[finite].max() <= 2
