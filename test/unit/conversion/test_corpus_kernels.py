"""Every non-dot corpus kernel, from Triton's own TTGIR, through convert-triton-gpu-to-llvm,
tileopt-translate and ptxas, for sm_80 and sm_90a.

Two routes: the pass alone (``direct``: structured control flow, the stand-in shared-memory
allocation), and Triton's llir-stage order (``pipeline``: convert-scf-to-cf,
allocate-shared-memory-nv, then the lowering with the barrier analysis).
Checked against Triton's output for the same TTGIR (the corpus ``.ptx``/``.json``):

- the lowering succeeds and its LLVM-dialect text parses back and becomes PTX;
- ptxas assembles it, with no spills (Triton's have none);
- global memory is accessed with the same instruction widths as Triton's
  (``ld.global.v4.b32`` where Triton vectorises, scalar where it cannot);
- the kernel needs no more shared memory than Triton's, and no more barriers.

``pytest -s`` prints a table of registers and spills beside Triton's (ptxas -v).
"""

from __future__ import annotations

import json
import re
import subprocess
from collections import Counter

import pytest

from tileopt.ir import make_context, parse_module, print_module
from tileopt.passes import get_pass
from tileopt.target import translate
from tileopt.target.ptxas import find_ptxas

ARCHES = {"cuda-sm80": ("sm_80", 80), "cuda-sm90": ("sm_90a", 90)}
KERNELS = ("add", "add_nodiv", "axpy_f16", "gelu", "softmax", "layernorm_fwd", "sum_rows",
           "sum_cols", "cumsum", "transpose", "atomic_hist")
ROUTES = {
    "direct": ("convert-triton-gpu-to-llvm",),
    "pipeline": ("convert-scf-to-cf", "allocate-shared-memory-nv", "convert-triton-gpu-to-llvm"),
}
CASES = [(route, target, kernel) for route in ROUTES for target in ARCHES for kernel in KERNELS]
GLOBAL_ACCESS = re.compile(r"\b((?:ld|st)\.global(?:\.[a-z0-9:_]+)*)")

_table: list[tuple[str, str, str, str]] = []


def lower(text: str, capability: int, passes: tuple[str, ...]) -> str:
    module = parse_module(text, "corpus.ttgir")
    ctx = make_context()
    for name in passes:
        cls = get_pass(name)
        options = {"compute-capability": capability} if any(
            spec.name == "compute-capability" for spec in cls.options()) else {}
        cls.from_options(options).apply(ctx, module)
    return print_module(module)


def ptxas_report(ptx: str, arch: str, tmp_path, name: str) -> tuple[int, int]:
    """(registers, spill bytes) from ``ptxas -v``."""
    path = tmp_path / f"{name}.ptx"
    path.write_text(ptx)
    done = subprocess.run([find_ptxas(), f"-arch={arch}", "-v", str(path), "-o", str(path) + ".o"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    registers = int(re.search(r"Used (\d+) registers", done.stderr).group(1))
    spills = sum(int(n) for n in re.findall(r"(\d+) bytes spill", done.stderr))
    return registers, spills


def global_accesses(ptx: str) -> Counter:
    return Counter(m.group(1) for m in GLOBAL_ACCESS.finditer(ptx))


@pytest.mark.parametrize("route,target,kernel", CASES, ids=[f"{r}-{t}-{k}" for r, t, k in CASES])
def test_kernel_lowers_to_ptx(corpus, tmp_path, route, target, kernel):
    arch, capability = ARCHES[target]
    llvm_dialect = lower((corpus / target / f"{kernel}.ttgir").read_text(), capability,
                         ROUTES[route])
    assert "tt." not in re.sub(r"tt\.divisibility", "", llvm_dialect)
    ptx = translate(llvm_dialect, emit="ptx", arch=arch)
    triton_ptx = (corpus / target / f"{kernel}.ptx").read_text()
    assert global_accesses(ptx) == global_accesses(triton_ptx)
    shared = int(re.search(r"ttg\.shared = (\d+)", llvm_dialect).group(1))
    assert shared <= json.loads((corpus / target / f"{kernel}.json").read_text())["shared"]
    assert ptx.count("bar.sync") <= triton_ptx.count("bar.sync")
    if find_ptxas() is None:
        pytest.skip("ptxas not found (install the nvidia-cuda-nvcc wheel)")
    ours = ptxas_report(ptx, arch, tmp_path, "ours")
    theirs = ptxas_report(triton_ptx, arch, tmp_path, "triton")
    _table.append((route, target, kernel, f"{ours[0]} / {ours[1]}", f"{theirs[0]} / {theirs[1]}"))
    assert ours[1] == 0, f"ptxas reports {ours[1]} bytes of spills"


def test_register_table():
    """Print what the cases above measured (run with -s to see it)."""
    if not _table:
        pytest.skip("no kernel was assembled")
    print("\n  route     target     kernel          tileopt regs/spill   Triton regs/spill")
    for route, target, kernel, ours, theirs in _table:
        print(f"  {route:9} {target:10} {kernel:15} {ours:20} {theirs}")
