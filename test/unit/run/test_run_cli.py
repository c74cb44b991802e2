"""The tileopt-run command: the README's example, its output files and summary, and bad
input reported as one error line with exit status 1 (no traceback)."""

from __future__ import annotations

import numpy as np
import pytest

from tileopt.run.cli import run_cli


@pytest.fixture
def add_inputs(tmp_path):
    n = 2512
    rng = np.random.default_rng(1)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    for name, a in (("x", x), ("y", y), ("out", np.zeros(n, np.float32))):
        np.save(tmp_path / f"{name}.npy", a)
    return tmp_path, x, y


def test_readme_command_runs_add(corpus, add_inputs, capsys):
    d, x, y = add_inputs
    rc = run_cli([str(corpus / "cuda-sm90" / "add.ttir"), "--pass-pipeline=nvidia-sm90",
                  "--grid", "3", str(d / "x.npy"), str(d / "y.npy"), str(d / "out.npy"), "2512",
                  "--out", str(d / "r")])
    out = capsys.readouterr().out
    assert rc == 0
    assert out.startswith("add_kernel: grid 3x1x1, 128 threads per block, 384 threads, ")
    assert f"arg2: float32[2512] -> {d / 'r' / 'arg2.npy'}" in out
    assert (np.load(d / "r" / "arg2.npy") == x + y).all()
    assert (np.load(d / "r" / "arg0.npy") == x).all()
    assert sorted(p.name for p in (d / "r").iterdir()) == ["arg0.npy", "arg1.npy", "arg2.npy"]


def test_negative_scalars_are_arguments(corpus, tmp_path, capsys):
    n = 4112
    x = np.ones(n, np.float16)
    for name, a in (("x", x), ("y", x), ("o", np.zeros(n, np.float16))):
        np.save(tmp_path / f"{name}.npy", a)
    rc = run_cli([str(corpus / "cuda-sm80" / "axpy_f16.ttir"), "--pass-pipeline", "nvidia-sm80",
                  "--grid=3", *(str(tmp_path / f"{k}.npy") for k in "xyo"), "-2.5", str(n),
                  "--out", str(tmp_path / "r")])
    assert rc == 0, capsys.readouterr().err
    assert (np.load(tmp_path / "r" / "arg2.npy") == np.float16(-1.5)).all()


def _error(argv, capsys) -> str:
    rc = run_cli(argv)
    captured = capsys.readouterr()
    assert rc == 1
    assert "Traceback" not in captured.err
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


@pytest.mark.parametrize("extra, message", [
    (["--grid", "0"], "error: --grid '0': expected one to three positive integers, X[,Y,Z]"),
    (["--grid", "1,2,3,4"], "error: --grid '1,2,3,4': expected one to three positive integers"),
    ([], "error: give the launch grid: --grid X[,Y,Z]"),
    (["--grid", "3", "a.txt"], "error: argument 0: 'a.txt' is neither a .npy file nor a number"),
    (["--grid", "3", "missing.npy"], "error: argument 0: no such file 'missing.npy'"),
    (["--grid", "3", "--bogus"], "error: unknown command line argument '--bogus'"),
    (["--grid", "3", "--opt-level", "5"], "error: --opt-level '5': expected 0, 1, 2 or 3"),
])
def test_bad_command_lines(corpus, extra, message, capsys):
    line = _error([str(corpus / "cuda-sm90" / "add.ttir"), "--pass-pipeline=nvidia-sm90", *extra],
                  capsys)
    assert line.startswith(message)


def test_wrong_arguments_for_the_kernel(corpus, add_inputs, capsys):
    d, _, _ = add_inputs
    ttir = str(corpus / "cuda-sm90" / "add.ttir")
    line = _error([ttir, "--pass-pipeline=nvidia-sm90", "--grid", "3", str(d / "x.npy"), "5"],
                  capsys)
    assert line == "error: argument 1 (5): the kernel takes a pointer here, give a .npy array"
    line = _error([ttir, "--pass-pipeline=nvidia-sm90", "--grid", "3", str(d / "x.npy"),
                   str(d / "y.npy"), str(d / "out.npy"), "2.5"], capsys)
    assert line == "error: argument 3 (2.5): the kernel takes an i32 here, got 2.5"


def test_triton_ir_without_a_pipeline(corpus, capsys):
    line = _error([str(corpus / "cuda-sm90" / "add.ttir"), "--grid", "3"], capsys)
    assert line.endswith("error: 'tt.func' is not in the LLVM dialect (compile it first: "
                         "--pass-pipeline=nvidia-sm90, for instance)")
    assert line.startswith("kernels.py:11:0: ")   # the tt.func's loc in the .ttir


def test_out_of_bounds_access_is_an_error_line(corpus, add_inputs, capsys):
    d, _, _ = add_inputs
    line = _error([str(corpus / "cuda-sm90" / "add.ttir"), "--pass-pipeline=nvidia-sm90",
                   "--grid", "4", str(d / "x.npy"), str(d / "y.npy"), str(d / "out.npy"),
                   "4096"], capsys)
    assert line.startswith("kernels.py:15:16: error: out-of-bounds load of 16 bytes at byte "
                           f"offset 10048 of argument 0 ({d / 'x.npy'}, 10048 bytes)")


def test_help(capsys):
    assert run_cli(["--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: tileopt-run FILE")


def test_too_few_arguments(corpus, add_inputs, capsys):
    d, _, _ = add_inputs
    line = _error([str(corpus / "cuda-sm90" / "add.ttir"), "--pass-pipeline=nvidia-sm90",
                   "--grid", "3", str(d / "x.npy")], capsys)
    assert line == ("error: kernel 'add_kernel' takes 4 arguments (ptr addrspace(1), "
                    "ptr addrspace(1), ptr addrspace(1), i32), then 2 scratch pointers "
                    "(null unless given); got 1")


@pytest.mark.parametrize("target,arch,threads", [("hip-gfx942", "gfx942", 256),
                                                 ("hip-gfx1100", "gfx1100", 128)])
def test_amd_llvm_ir_runs_with_its_arch(corpus, add_inputs, capsys, target, arch, threads):
    d, x, y = add_inputs
    rc = run_cli([str(corpus / target / "add.llir"), "--arch", arch, "--grid", "3",
                  str(d / "x.npy"), str(d / "y.npy"), str(d / "out.npy"), "2512",
                  "--out", str(d / "r")])
    out = capsys.readouterr().out
    assert rc == 0
    # 4 waves: of 64 lanes on gfx942, of 32 on gfx1100
    assert out.startswith(f"add_kernel: grid 3x1x1, {threads} threads per block, ")
    assert (np.load(d / "r" / "arg2.npy") == x + y).all()


def test_amd_llvm_ir_without_arch_is_one_error(corpus, add_inputs, capsys):
    d, _, _ = add_inputs
    line = _error([str(corpus / "hip-gfx942" / "add.llir"), "--grid", "3", str(d / "x.npy"),
                   str(d / "y.npy"), str(d / "out.npy"), "2512"], capsys)
    assert line == ("error: an AMDGPU module runs with its architecture, which gives the wave "
                    "size: --arch gfx942 or gfx1100 (the module does not name it)")
    line = _error([str(corpus / "hip-gfx942" / "add.llir"), "--arch", "gfx9000x", "--grid", "3"],
                  capsys)
    assert line.startswith("error: unknown GPU architecture 'gfx9000x'")


def test_help_names_arch(capsys):
    assert run_cli(["--help"]) == 0
    assert "--arch" in capsys.readouterr().out
