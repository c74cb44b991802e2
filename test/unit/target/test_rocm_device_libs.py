"""ROCm's ocml/ockl bitcode for AMD kernels (``tileopt/target/rocm_device_libs.py``): where
it is found, the error when it is not, and what linking it gives (only the functions called,
Triton's control constants, printf out of line, a hostcall buffer for printing kernels).

CI gets the libraries from Triton's wheel (the test extra installs ``triton``); elsewhere
the tests that need them skip, naming what to install.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tileopt.ir import TileoptError
from tileopt.target import parse_arch, rocm_device_libs, translate
from tileopt.target.hsaco_metadata import metadata_of_amdgcn, read_hsaco
from tileopt.testing.inductor_cases import lower_with_options

INDUCTOR = Path(__file__).resolve().parents[2] / "inputs" / "inductor"


def _need_libraries():
    missing = [n for n in rocm_device_libs.LIBRARIES if rocm_device_libs.find_library(n) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not found (install the test extra's triton, or ROCm)")


def _kernel_calling(*calls: str, declarations: str) -> str:
    body = "\n".join(f"    {c}" for c in calls)
    attributes = "nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 64>"
    return f"""module {{
{declarations}
  llvm.func @k(%p: !llvm.ptr<1>, %x: f32) attributes {{{attributes}}} {{
{body}
    llvm.return
  }}
}}"""


OCML_KERNEL = _kernel_calling(
    "%t = llvm.call @__ocml_tanh_f32(%x) : (f32) -> f32",
    "%y = llvm.call @__ocml_pow_f32(%t, %x) : (f32, f32) -> f32",
    "llvm.store %y, %p : f32, !llvm.ptr<1>",
    declarations="  llvm.func @__ocml_tanh_f32(f32) -> f32\n"
                 "  llvm.func @__ocml_pow_f32(f32, f32) -> f32")

# A tt.print's calls as the AMD lowering writes them (one argument word).
PRINT_KERNEL = _kernel_calling(
    "%z = llvm.mlir.constant(0 : i64) : i64",
    "%one = llvm.mlir.constant(1 : i32) : i32",
    "%zero = llvm.mlir.constant(0 : i32) : i32",
    "%n = llvm.mlir.constant(4 : i64) : i64",
    "%f = llvm.mlir.addressof @fmt : !llvm.ptr",
    "%m = llvm.call @__ockl_printf_begin(%z) : (i64) -> i64",
    "%m2 = llvm.call @__ockl_printf_append_string_n(%m, %f, %n, %zero) : "
    "(i64, !llvm.ptr, i64, i32) -> i64",
    "%w = llvm.zext %one : i32 to i64",
    "%m3 = llvm.call @__ockl_printf_append_args(%m2, %one, %w, %z, %z, %z, %z, %z, %z, %one) : "
    "(i64, i32, i64, i64, i64, i64, i64, i64, i64, i32) -> i64",
    declarations='  llvm.mlir.global internal constant @fmt("%u\\0A\\00") {addr_space = 0 : i32}\n'
                 "  llvm.func @__ockl_printf_begin(i64) -> i64\n"
                 "  llvm.func @__ockl_printf_append_string_n(i64, !llvm.ptr, i64, i32) -> i64\n"
                 "  llvm.func @__ockl_printf_append_args(i64, i32, i64, i64, i64, i64, i64, i64, "
                 "i64, i32) -> i64")


def _functions(amdgcn: str) -> list[str]:
    return re.findall(r"^\s*\.type\s+([\w.$]+),@function", amdgcn, re.M)


# --------------------------------------------------------------------------- finding them


def _no_defaults(monkeypatch, tmp_path):
    """No ROCm, no Triton: only what a test puts in the environment."""
    for name in ("TILEOPT_ROCM_DEVICE_LIBS", "ROCM_PATH", "HIP_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(rocm_device_libs, "_ROCM_DEFAULT", tmp_path / "no-rocm")
    monkeypatch.setattr(rocm_device_libs.importlib.util, "find_spec", lambda name: None)


def test_search_order(monkeypatch, tmp_path):
    _no_defaults(monkeypatch, tmp_path)
    rocm = tmp_path / "rocm"
    (rocm / "amdgcn" / "bitcode").mkdir(parents=True)
    (rocm / "amdgcn" / "bitcode" / "ocml.bc").write_bytes(b"")
    clang = rocm / "lib" / "llvm" / "lib" / "clang" / "19" / "lib" / "amdgcn" / "bitcode"
    clang.mkdir(parents=True)
    (clang / "ockl.bc").write_bytes(b"")
    assert rocm_device_libs.find_library("ocml") is None
    monkeypatch.setenv("ROCM_PATH", str(rocm))
    assert rocm_device_libs.find_library("ocml") == rocm / "amdgcn" / "bitcode" / "ocml.bc"
    assert rocm_device_libs.find_library("ockl") == clang / "ockl.bc"  # newer ROCm's place
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "ocml.bc").write_bytes(b"")
    monkeypatch.setenv("TILEOPT_ROCM_DEVICE_LIBS", str(mine))
    assert rocm_device_libs.find_library("ocml") == mine / "ocml.bc"  # the variable first
    assert rocm_device_libs.find_library("ockl") == clang / "ockl.bc"  # not there: go on


def test_triton_wheel_is_found_without_importing_it(monkeypatch, tmp_path):
    _no_defaults(monkeypatch, tmp_path)
    package = tmp_path / "site" / "triton"
    (package / "backends" / "amd" / "lib").mkdir(parents=True)
    (package / "backends" / "amd" / "lib" / "ockl.bc").write_bytes(b"")
    spec = type("Spec", (), {"origin": str(package / "__init__.py")})()
    monkeypatch.setattr(rocm_device_libs.importlib.util, "find_spec",
                        lambda name: spec if name == "triton" else None)
    assert rocm_device_libs.find_library("ockl") == package / "backends" / "amd" / "lib" / "ockl.bc"


def test_missing_library_is_one_clear_line(monkeypatch, tmp_path):
    _no_defaults(monkeypatch, tmp_path)
    with pytest.raises(TileoptError) as caught:
        translate(OCML_KERNEL, "amdgcn", "gfx942")
    message = str(caught.value)
    assert "\n" not in message
    assert "__ocml_pow_f32, __ocml_tanh_f32" in message
    assert "ocml.bc was not found" in message and "TILEOPT_ROCM_DEVICE_LIBS" in message


def test_unreadable_library_is_an_error(monkeypatch, tmp_path):
    _no_defaults(monkeypatch, tmp_path)
    (tmp_path / "ocml.bc").write_bytes(b"not bitcode")
    monkeypatch.setenv("TILEOPT_ROCM_DEVICE_LIBS", str(tmp_path))
    with pytest.raises(TileoptError, match="cannot read the device library .*ocml.bc"):
        translate(OCML_KERNEL, "amdgcn", "gfx942")


def test_cuda_libdevice_calls_are_refused_on_amd():
    kernel = _kernel_calling("%y = llvm.call @__nv_expf(%x) : (f32) -> f32",
                             declarations="  llvm.func @__nv_expf(f32) -> f32")
    with pytest.raises(TileoptError, match=r"CUDA's libdevice function __nv_expf.*"
                                           r"triton.language.extra.libdevice"):
        translate(kernel, "amdgcn", "gfx942")


# --------------------------------------------------------------------------- control constants


@pytest.mark.parametrize("arch,version", [
    # LLVM's AMDGPU::getIsaVersion: major, minor, stepping (hex digit: gfx90a is 9.0.10).
    ("gfx942", 9402), ("gfx90a", 9010), ("gfx950", 9500), ("gfx1100", 11000),
    ("gfx1201", 12001), ("gfx942:sramecc+:xnack-", 9402)])
def test_isa_version(arch, version):
    assert rocm_device_libs.isa_version(arch) == version


def test_control_constants_as_triton_sets_them():
    cdna, rdna = (rocm_device_libs.control_constants(parse_arch(a)) for a in ("gfx942", "gfx1100"))
    assert cdna["__oclc_wavefrontsize64"] == (8, 1) and rdna["__oclc_wavefrontsize64"] == (8, 0)
    assert cdna["__oclc_ISA_version"] == (32, 9402) and rdna["__oclc_ISA_version"] == (32, 11000)
    for constants in (cdna, rdna):
        assert constants["__oclc_ABI_version"] == (32, 500)
        assert constants["__oclc_finite_only_opt"] == (8, 0)
        assert constants["__oclc_unsafe_math_opt"] == (8, 0)
        assert constants["__oclc_correctly_rounded_sqrt32"] == (8, 1)


# --------------------------------------------------------------------------- linking them


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_ocml_calls_are_linked_and_inlined(arch):
    _need_libraries()
    amdgcn = translate(OCML_KERNEL, "amdgcn", arch)
    assert _functions(amdgcn) == ["k"]  # tanh and pow inlined, nothing else of ocml kept
    # No call, and no symbol of the libraries left (their names stay in block comments).
    assert "s_swappc" not in amdgcn and not re.search(r"^[^;]*__oc", amdgcn, re.M)
    # The libraries' OpenCL metadata is dropped: the kernel is not described as OpenCL C.
    assert "OpenCL" not in amdgcn and ".ident" not in amdgcn
    kernel, = metadata_of_amdgcn(amdgcn)["amdhsa.kernels"]
    assert kernel[".private_segment_fixed_size"] == 0


def test_printf_links_ockl_out_of_line_with_a_hostcall_buffer():
    _need_libraries()
    amdgcn = translate(PRINT_KERNEL, "amdgcn", "gfx942")
    # Triton keeps the printf functions out of line; what they call is inlined into them.
    assert sorted(_functions(amdgcn)) == ["__ockl_printf_append_args",
                                          "__ockl_printf_append_string_n",
                                          "__ockl_printf_begin", "k"]
    kernel, = metadata_of_amdgcn(amdgcn)["amdhsa.kernels"]
    kinds = [arg[".value_kind"] for arg in kernel[".args"]]
    assert "hidden_hostcall_buffer" in kinds


# --------------------------------------------------------------------------- Inductor kernels

# The four pinned Inductor kernels whose index checks (tl.device_assert) need ockl; their
# VGPRs in Triton 3.6's own gfx942 code object (its HIP back end run on the CPU over the
# same .ttir with the .json's num_warps); SGPRs were 39 and scratch 0 in all four.
ASSERT_KERNELS = {
    "block_bf16/triton_per_fused__log_softmax__to_copy_nll_loss_forward_sub_view_13": 25,
    "block_bf16/triton_per_fused_add_div_embedding_dense_backward_expand_mul_nll_loss_forward_"
    "pow_sum_view_19": 18,
    "block_fp32/triton_per_fused__log_softmax_nll_loss_forward_sub_view_13": 25,
    "block_fp32/triton_per_fused_add_div_embedding_dense_backward_expand_mul_nll_loss_forward_"
    "pow_sum_view_18": 18,
}


@pytest.mark.parametrize("name", list(ASSERT_KERNELS), ids=lambda n: n.split("/")[0] + "/"
                         + n.split("_fused_")[1][:24])
def test_inductor_asserting_kernels_reach_hsaco(name):
    _need_libraries()
    ttir = INDUCTOR / f"{name}.ttir"
    assert "tt.assert" in ttir.read_text()
    meta = json.loads(ttir.with_suffix(".json").read_text())
    hsaco = translate(lower_with_options(ttir, "amd-cdna3"), emit="hsaco", arch="gfx942",
                      filename=str(ttir))
    kernel, = [k for k in read_hsaco(hsaco) if k.name == meta["name"]]
    assert kernel.private_segment_size == 0 and kernel.vgpr_spill_count == 0
    assert kernel.vgpr_count <= ASSERT_KERNELS[name] * 1.1
