"""The built-in pipelines through the ``ttgir`` stage against Triton 3.6 (issue 4's second
criterion).

For every non-dot kernel on every target, the YAML pipeline of that target
(``nvidia-sm80``, ``nvidia-sm90``, ``amd-cdna3``, ``amd-rdna3``) runs in-process exactly as
``tileopt <target>/<kernel>.ttir --pass-pipeline=NAME{...} --stop-after=ttgir`` does, with
the kernel's compile options (num-warps, num-ctas, num-stages from its ``.json``) as the
pipeline's parameters. The result must hold the same ops, with the same types, layouts and
attributes, and the same module attributes, as the corpus ``<target>/<kernel>.ttgir`` (any
order, any value names). A kernel x target table is printed at the end.

The dot kernels (matmul, matmul_small, block_ptr_matmul) run on the NVIDIA pipelines too
(accelerate-matmul, the software pipeliner, fence insertion: issue 8); the AMD pipelines
lack their loop scheduler and pipeliner yet (issue 11). Each pass is also compared on its
own in its per-pass test.
"""

from __future__ import annotations

import pytest
from pass_harness import check_stage, module_table

PIPELINES = {"cuda-sm80": "nvidia-sm80", "cuda-sm90": "nvidia-sm90",
             "hip-gfx942": "amd-cdna3", "hip-gfx1100": "amd-rdna3"}
TARGETS = tuple(PIPELINES)
KERNELS = ("add", "add_nodiv", "axpy_f16", "gelu", "softmax", "layernorm_fwd", "sum_rows",
           "sum_cols", "cumsum", "transpose", "atomic_hist")
DOT_KERNELS = ("matmul", "matmul_small", "block_ptr_matmul")
DOT_TARGETS = ("cuda-sm80", "cuda-sm90", "hip-gfx942", "hip-gfx1100")
"""Targets whose pipelines take the dot kernels through the stage: all four."""
STAGE = "ttgir"


table = module_table(f"pipelines through the {STAGE} stage vs corpus .ttgir "
                     "(ops, types, layouts, attributes, module attributes; -missing/+extra):",
                     KERNELS + DOT_KERNELS)


def _cases():
    for target in TARGETS:
        for kernel in KERNELS:
            yield pytest.param(target, kernel, id=f"{target}-{kernel}")
        if target in DOT_TARGETS:
            for kernel in DOT_KERNELS:
                yield pytest.param(target, kernel, id=f"{target}-{kernel}")


@pytest.mark.parametrize(("target", "kernel"), list(_cases()))
def test_ttgir_stage_matches_triton(corpus, table, target, kernel):
    pipeline = check_stage(corpus, table, PIPELINES[target], target, kernel, STAGE)
    assert "convert-triton-to-tritongpu" in [s.name for s in pipeline.pass_steps()]
