"""The corpus dot kernels from Triton's own TTGIR through the llir stage's lowering
(scf-to-cf, allocate-shared-memory-nv, convert-triton-gpu-to-llvm), tileopt-translate and
ptxas, for sm_80 (mma.sync) and sm_90a (wgmma).

Checked against Triton's PTX for the same TTGIR: as many ``mma.sync`` and
``wgmma.mma_async`` instructions, each of the same shape, and no spills. ``pytest -s``
prints the registers beside Triton's (the plan's table: 167/80/128 on sm_80, 126/60/127
on sm_90a).
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tileopt.target import translate
from tileopt.target.ptxas import find_ptxas

from .test_corpus_kernels import ARCHES, lower, ptxas_report

KERNELS = ("matmul", "matmul_small", "block_ptr_matmul")
PASSES = ("convert-scf-to-cf", "allocate-shared-memory-nv", "convert-triton-gpu-to-llvm")
MATRIX = re.compile(r"\b(mma\.sync\.aligned\.[a-z0-9.]+|wgmma\.mma_async\.sync\.aligned\.[a-z0-9.]+)")
CASES = [(t, k) for t in ARCHES for k in KERNELS]
_table: list[str] = []


@pytest.mark.parametrize("target,kernel", CASES, ids=[f"{t}-{k}" for t, k in CASES])
def test_dot_kernel_lowers_like_triton(corpus, tmp_path, target, kernel):
    arch, capability = ARCHES[target]
    llvm_dialect = lower((corpus / target / f"{kernel}.ttgir").read_text(), capability, PASSES)
    ptx = translate(llvm_dialect, emit="ptx", arch=arch)
    triton_ptx = (corpus / target / f"{kernel}.ptx").read_text()
    assert Counter(MATRIX.findall(ptx)) == Counter(MATRIX.findall(triton_ptx))
    if find_ptxas() is None:
        pytest.skip("ptxas not found (install the nvidia-cuda-nvcc wheel)")
    ours = ptxas_report(ptx, arch, tmp_path, "ours")
    theirs = ptxas_report(triton_ptx, arch, tmp_path, "triton")
    _table.append(f"  {arch:7} {kernel:17} {ours[0]:4} / {ours[1]:<4} {theirs[0]:4} / {theirs[1]}")
    assert ours[1] == 0, f"ptxas reports {ours[1]} bytes of spills"


def test_register_table():
    """Print what the cases above measured (run with -s to see it)."""
    if not _table:
        pytest.skip("no kernel was assembled")
    print("\n  arch    kernel            tileopt regs/spill  Triton regs/spill")
    print("\n".join(_table))
