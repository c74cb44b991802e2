"""Issue 11, the lowering part: Triton's own final TTGIR of the three dot kernels (the corpus
``.ttgir``: MFMA on gfx942, WMMA on gfx1100, operands from LDS) through tileopt's AMD
lowering alone (``tileopt K.ttgir --pass-pipeline='amd-cdna3{...}' --start-at=llir``), and
the ``.ttir`` through the whole pipeline, then
``tileopt-translate``: the hsaco links, the code object carries Triton's metadata (LDS,
arguments, wave and work-group size), uses scratch only where Triton's does, and issues
Triton's number of matrix instructions.

Triton's LLVM (not its lowering) peeled the first iteration of the single-buffer loop of
``matmul_small`` (its ``.llir`` has ``exitcond.peel``): there Triton's static count is ours
plus one iteration's dot, which the test works out from the kernel's ``tt.dot`` ops.
"""

from __future__ import annotations

import re

import pytest
from test_amd_lowering_corpus import PIPELINES, check_code_object, lower

from tileopt.testing.run_cases import DOT

MATRIX = re.compile(r"^\s+v_(?:mfma|wmma)_", re.M)
SCRATCH = re.compile(r"\.private_segment_fixed_size:\s+(\d+)")


def dots_per_iteration(ttgir: str) -> int:
    """``tt.dot`` ops inside the ``scf.for`` body (one iteration's dots)."""
    body = ttgir.split("scf.for", 1)[1].split("scf.yield", 1)[0]
    return body.count("tt.dot ")


@pytest.mark.parametrize("source", ("ttgir", "ttir"))
@pytest.mark.parametrize("target", tuple(PIPELINES))
@pytest.mark.parametrize("kernel", DOT)
def test_dot_kernel_lowers_like_tritons(corpus, target, kernel, source):
    """From Triton's ``.ttgir`` (the lowering alone) and from the ``.ttir`` (tileopt's whole
    AMD pipeline: its ttgir stage gives Triton's ``.ttgir``, test_ttgir_stage.py)."""
    llvm_dialect = lower(corpus, target, kernel, source)
    assert re.search(r"rocdl\.(mfma|wmma)\.", llvm_dialect)
    triton = (corpus / target / f"{kernel}.amdgcn").read_text()
    # Scratch only where Triton spills too (gfx1100 matmul needs more than 256 VGPRs).
    ours = check_code_object(llvm_dialect, triton, target.split("-")[1],
                             scratch_allowed=int(SCRATCH.search(triton).group(1)) > 0)
    ttgir = (corpus / target / f"{kernel}.ttgir").read_text()
    ours_n, triton_n = len(MATRIX.findall(ours)), len(MATRIX.findall(triton))
    if "exitcond.peel" in (corpus / target / f"{kernel}.llir").read_text():
        per_dot = ours_n // ttgir.count("tt.dot ")
        assert triton_n == ours_n + per_dot * dots_per_iteration(ttgir)
    else:
        assert ours_n == triton_n
