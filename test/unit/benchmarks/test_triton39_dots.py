"""benchmarks/triton39_dots.py as a check (issue 19): each dot kernel of Triton 3.9's corpus
through tileopt's ``-triton39`` pipeline to PTX or a code object, beside Triton 3.9's own.
NVIDIA: ptxas assembles it, no spills, as many mma.sync/wgmma instructions as Triton's and
at most 10% more registers; sm80 PTX also assembled for sm_90 (as the H100 of the GPU check
compiles it: desc_matmul spilled 8 bytes there before tritongpu-prefetch), and as many
ldmatrix as Triton's (the K-slices that pass loads, each with ldmatrix however its view is
carried through the loop). AMD: the same LDS and MFMA/WMMA count as Triton's, VGPRs at most
10% above. The gaps are strict xfails, each in docs/plans/issue-19.md."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

from triton39_dots import TARGETS, NvidiaFigures, ours, theirs  # noqa: E402

from tileopt.target.ptxas import find_ptxas  # noqa: E402
from tileopt.testing.run_cases import DOT_39  # noqa: E402

MARGIN = 1.10
_PEELED = ("Triton's LLVM peels the first iteration of the K loop{}: {}; tileopt's "
           ".ttgir is 3.9's (test_ttgir_stage_39), llvmlite's LLVM does neither")
NOT_YET = {
    ("hip-gfx942", "matmul_small"): _PEELED.format(" and unrolls it by 2",
                                                   "20 MFMA, tileopt 8"),
    ("hip-gfx1100", "matmul_small"): _PEELED.format("", "24 WMMA, tileopt 16"),
}


def _cases():
    for target in TARGETS:
        for kernel in DOT_39:
            marks = [pytest.mark.xfail(strict=True, reason=NOT_YET[(target, kernel)])] \
                if (target, kernel) in NOT_YET else []
            yield pytest.param(target, kernel, id=f"{target}-{kernel}", marks=marks)


@pytest.mark.parametrize(("target", "kernel"), list(_cases()))
def test_dot_code_beside_triton_39(corpus39, target, kernel):
    if target.startswith("cuda") and find_ptxas() is None:
        pytest.skip("no ptxas (the test extra's nvidia-cuda-nvcc wheel)")
    mine, triton = ours(corpus39, target, kernel), theirs(corpus39, target, kernel)
    assert not isinstance(mine, str), mine
    if isinstance(mine, NvidiaFigures):
        assert not isinstance(mine.ptxas, str), f"ptxas: {mine.ptxas}"
        assert not isinstance(triton.ptxas, str), f"ptxas on Triton's PTX: {triton.ptxas}"
        assert (mine.ptxas.spill_stores, mine.ptxas.spill_loads) == (0, 0)
        assert mine.mma == triton.mma
        if target == "cuda-sm80":  # sm90's wgmma reads shared memory itself
            assert mine.ldmatrix == triton.ldmatrix
            assert not isinstance(mine.h100, str), f"ptxas for sm_90: {mine.h100}"
            assert (mine.h100.spill_stores, mine.h100.spill_loads) == (0, 0)
            assert mine.h100.registers <= MARGIN * triton.h100.registers
        assert mine.ptxas.registers <= MARGIN * triton.ptxas.registers
    else:
        assert mine.lds == triton.lds
        assert mine.matrix == triton.matrix
        assert mine.resources.vgpr_count <= MARGIN * triton.resources.vgpr_count
