"""Issue 10's first criterion: every non-dot corpus kernel, from its ``.ttir`` through the
``amd-cdna3`` (gfx942) or ``amd-rdna3`` (gfx1100) YAML pipeline to the end, gives AMDGCN
and an hsaco that ``ld.lld`` links, as ``tileopt K.ttir --pass-pipeline=... | tileopt-translate
--emit=hsaco --arch=...`` does.

The code object must carry what Triton's does where that does not depend on register
allocation (kernel name, target id, argument bytes, LDS, wave size, work-group size: the
corpus ``.amdgcn``'s metadata) and use no scratch memory. Registers and instruction mix are
compared with Triton's in ``benchmarks/amd/``.
"""

from __future__ import annotations

import json
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

PIPELINES = {"hip-gfx942": "amd-cdna3", "hip-gfx1100": "amd-rdna3"}
KERNELS = ("add", "add_nodiv", "axpy_f16", "gelu", "softmax", "layernorm_fwd", "sum_rows",
           "sum_cols", "cumsum", "transpose", "atomic_hist")


def lower(corpus, target: str, kernel: str, stage: str = "ttir") -> str:
    """The LLVM-dialect text the target's whole YAML pipeline makes from the ``.ttir``
    (``stage="ttgir"``: from Triton's ``.ttgir``, the pipeline's ``llir`` stage on)."""
    meta = json.loads((corpus / target / f"{kernel}.json").read_text())
    pipeline = resolve_pass_pipeline(
        f"{PIPELINES[target]}{{num-warps={meta['num_warps']} num-ctas={meta['num_ctas']} "
        f"num-stages={meta['num_stages']}}}")
    if stage == "ttgir":
        pipeline = slice_stages(pipeline, "llir", None)
    source = corpus / target / f"{kernel}.{stage}"
    ctx = make_context()
    module = parse_module(source.read_text(), str(source), ctx)
    PassManager(pipeline, str(source)).run(ctx, module)
    return print_module(module)


def check_code_object(llvm_dialect: str, triton: str, arch: str,
                      scratch_allowed: bool = False) -> str:
    """Our AMDGCN of ``llvm_dialect``, checked against Triton's (``triton``): target id and
    metadata equal, no scratch (unless ``scratch_allowed``), and the hsaco links."""
    ours = translate(llvm_dialect, emit="amdgcn", arch=arch)
    assert amdgcn_target(ours) == amdgcn_target(triton)
    assert metadata(ours) == metadata(triton)
    if not scratch_allowed:
        assert re.search(r"\.private_segment_fixed_size:\s+0\b", ours), "the kernel uses scratch"
    if _lld_available():
        header = elf_header(translate(llvm_dialect, emit="hsaco", arch=arch))
        assert (header["type"], header["machine"]) == (ET_DYN, EM_AMDGPU)
    return ours


@pytest.mark.parametrize("target", tuple(PIPELINES))
@pytest.mark.parametrize("kernel", KERNELS)
def test_kernel_compiles_to_hsaco_like_tritons(corpus, target, kernel):
    arch = target.split("-")[1]
    llvm_dialect = lower(corpus, target, kernel)
    assert "ttg." not in re.sub(r'"ttg\.[^"]*"|ttg\.[a-z_]+ = ', "", llvm_dialect), \
        "TritonGPU ops left after the pipeline"
    check_code_object(llvm_dialect, (corpus / target / f"{kernel}.amdgcn").read_text(), arch)
