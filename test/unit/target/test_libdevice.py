"""Finding and linking CUDA's libdevice for ``tt.extern_elementwise`` calls (``__nv_*``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tileopt.ir import TileoptError
from tileopt.target import nvptx
from tileopt.target import translate

CALLS_TANH = """module {
  llvm.func @__nv_tanhf(f32) -> f32
  llvm.func @k(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %x = llvm.load %p : !llvm.ptr<1> -> f32
    %y = llvm.call @__nv_tanhf(%x) : (f32) -> f32
    llvm.store %y, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}"""


def test_missing_libdevice_is_named(monkeypatch):
    monkeypatch.delenv("TILEOPT_LIBDEVICE", raising=False)
    monkeypatch.setattr(nvptx, "libdevice_candidates", lambda: [])
    with pytest.raises(TileoptError, match=r"libdevice functions \(__nv_tanhf\) but "
                                           r"libdevice\.10\.bc \(CUDA's libdevice\) was not found"):
        translate(CALLS_TANH, "ptx", "sm_90a")


def test_explicit_libdevice_that_is_not_a_file(monkeypatch, tmp_path):
    monkeypatch.setenv("TILEOPT_LIBDEVICE", str(tmp_path / "nothing.bc"))
    with pytest.raises(TileoptError, match="TILEOPT_LIBDEVICE=.*nothing.bc is not a file"):
        translate(CALLS_TANH, "ptx", "sm_90a")


def test_pip_layouts_are_searched(monkeypatch, tmp_path):
    """A wheel's ``nvidia/<pkg>/nvvm/libdevice/libdevice.10.bc`` is found without ptxas."""
    bc = tmp_path / "nvidia" / "cuda_nvcc" / "nvvm" / "libdevice" / "libdevice.10.bc"
    bc.parent.mkdir(parents=True)
    bc.write_bytes(b"")
    monkeypatch.delenv("TILEOPT_LIBDEVICE", raising=False)
    monkeypatch.delenv("CUDA_HOME", raising=False)
    monkeypatch.delenv("CUDA_PATH", raising=False)
    monkeypatch.setattr(nvptx, "find_ptxas", lambda: None)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert bc in nvptx.libdevice_candidates()


def test_extern_call_is_linked_and_inlined():
    """``__nv_tanhf`` comes out of libdevice as PTX arithmetic: no call, no extern."""
    if nvptx.find_libdevice() is None:
        pytest.skip("libdevice.10.bc not found (install the test extra's nvidia-nvvm)")
    ptx = translate(CALLS_TANH, "ptx", "sm_90a")
    assert "__nv_tanhf" not in ptx and ".extern" not in ptx and "call" not in ptx
