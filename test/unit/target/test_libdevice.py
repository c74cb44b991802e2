"""Finding and linking CUDA's libdevice for ``tt.extern_elementwise`` calls (``__nv_*``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tileopt.ir import TileoptError
from tileopt.target import nvptx
from tileopt.target import translate

def calling(symbol: str) -> str:
    """A kernel that applies libdevice's f32 ``symbol`` to a value in place."""
    return f"""module {{
  llvm.func @{symbol}(f32) -> f32
  llvm.func @k(%p: !llvm.ptr<1>) attributes {{nvvm.kernel}} {{
    %x = llvm.load %p : !llvm.ptr<1> -> f32
    %y = llvm.call @{symbol}(%x) : (f32) -> f32
    llvm.store %y, %p : f32, !llvm.ptr<1>
    llvm.return
  }}
}}"""


CALLS_TANH = calling("__nv_tanhf")


def _need_libdevice():
    if nvptx.find_libdevice() is None:
        pytest.skip("libdevice.10.bc not found (install the test extra's nvidia-nvvm)")


def test_libdevice_is_linked_with_triton_ftz_reflect():
    """``__nv_sqrtf`` comes from CUDA's libdevice; its ``__nvvm_reflect`` branches pick the
    flush-to-zero (Triton's ``nvvm-reflect-ftz = 1``) approximate (``__CUDA_PREC_SQRT`` is
    0) square root: ``sqrt.approx.ftz.f32``, the instruction in Triton's own layernorm PTX."""
    _need_libdevice()
    ptx = translate(calling("__nv_sqrtf"), "ptx", "sm_80")
    assert "sqrt.approx.ftz.f32" in ptx
    code = [line.split("//")[0] for line in ptx.splitlines()]  # a block may keep its name
    assert not any("__nv_sqrtf" in line or ".extern" in line for line in code)


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
    _need_libdevice()
    ptx = translate(CALLS_TANH, "ptx", "sm_90a")
    code = [line.split("//")[0] for line in ptx.splitlines()]  # a block may keep its name
    assert not any(word in line for line in code for word in ("__nv_tanhf", ".extern", "call"))
