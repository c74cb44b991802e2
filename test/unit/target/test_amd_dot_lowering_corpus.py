"""Issue 11, the lowering part: Triton's own final TTGIR of the three dot kernels (the corpus
``.ttgir``: MFMA on gfx942, WMMA on gfx1100, operands from LDS) through tileopt's AMD
lowering alone (``tileopt K.ttgir --pass-pipeline='amd-cdna3{...}' --start-at=llir``), then
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
from test_corpus_amdgpu import (
    EM_AMDGPU,
    ET_DYN,
    _lld_available,
    amdgcn_target,
    elf_header,
    metadata,
)

from tileopt.driver.pass_manager import PassManager
from tileopt.ir import make_context, parse_module, print_module
from tileopt.pipelines import resolve_pass_pipeline, slice_stages
from tileopt.target import translate
from tileopt.testing.run_cases import DOT, compile_options

PIPELINES = {"hip-gfx942": "amd-cdna3", "hip-gfx1100": "amd-rdna3"}
MATRIX = re.compile(r"^\s+v_(?:mfma|wmma)_", re.M)
SCRATCH = re.compile(r"\.private_segment_fixed_size:\s+(\d+)")


def lower_ttgir(corpus, target: str, kernel: str) -> str:
    source = corpus / target / f"{kernel}.ttgir"
    pipeline = resolve_pass_pipeline(PIPELINES[target]
                                     + compile_options(source.with_suffix(".json")))
    ctx = make_context()
    module = parse_module(source.read_text(), str(source), ctx)
    PassManager(slice_stages(pipeline, "llir", None), str(source)).run(ctx, module)
    return print_module(module)


def dots_per_iteration(ttgir: str) -> int:
    """``tt.dot`` ops inside the ``scf.for`` body (one iteration's dots)."""
    body = ttgir.split("scf.for", 1)[1].split("scf.yield", 1)[0]
    return body.count("tt.dot ")


@pytest.mark.parametrize("target", tuple(PIPELINES))
@pytest.mark.parametrize("kernel", DOT)
def test_dot_ttgir_lowers_like_tritons(corpus, target, kernel):
    arch = target.split("-")[1]
    llvm_dialect = lower_ttgir(corpus, target, kernel)
    assert re.search(r"rocdl\.(mfma|wmma)\.", llvm_dialect)
    ours = translate(llvm_dialect, emit="amdgcn", arch=arch)
    triton = (corpus / target / f"{kernel}.amdgcn").read_text()
    assert amdgcn_target(ours) == amdgcn_target(triton)
    assert metadata(ours) == metadata(triton)   # LDS (group segment) included
    scratch = int(SCRATCH.search(ours).group(1))
    assert scratch == 0 or int(SCRATCH.search(triton).group(1)) > 0, "scratch Triton avoids"
    ttgir = (corpus / target / f"{kernel}.ttgir").read_text()
    ours_n, triton_n = len(MATRIX.findall(ours)), len(MATRIX.findall(triton))
    if "exitcond.peel" in (corpus / target / f"{kernel}.llir").read_text():
        per_dot = ours_n // ttgir.count("tt.dot ")
        assert triton_n == ours_n + per_dot * dots_per_iteration(ttgir)
    else:
        assert ours_n == triton_n
    if _lld_available():   # the hsaco links
        header = elf_header(translate(llvm_dialect, emit="hsaco", arch=arch))
        assert (header["type"], header["machine"]) == (ET_DYN, EM_AMDGPU)
