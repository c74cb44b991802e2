"""The whole ``ttir`` stage against Triton 3.6 (issue 4's first criterion).

For every target and kernel, the passes Triton runs between the frontend and
``convert-triton-to-tritongpu`` (read from the corpus ``ORDER.txt``: inline, canonicalize,
rewrite-tensor-pointer, ..., loop-unroll) run on ``passes/<target>/passes/<kernel>/
000-inline.mlir``; the result must hold the same ops with the same types and attributes
as the corpus ``<target>/<kernel>.ttir`` (any order, any value names). A table of
matches is printed at the end of the session.
"""

from __future__ import annotations

import pytest
from pass_harness import compare_with_file, difference_cell, module_table

from tileopt.ir import make_context, parse_module
from tileopt.passes import get_pass
from tileopt.testing.corpus_compare import TARGETS, pass_order

KERNELS = ("add", "add_nodiv", "axpy_f16", "gelu", "softmax", "layernorm_fwd", "sum_rows",
           "sum_cols", "cumsum", "transpose", "atomic_hist", "matmul", "matmul_small",
           "block_ptr_matmul")
STAGE_END = "convert-triton-to-tritongpu"


def stage_passes(passes_root, target: str, kernel: str) -> list[str]:
    names = [name for name, _ in pass_order(passes_root, target, kernel)]
    return names[:names.index(STAGE_END)]


table = module_table("ttir stage vs corpus .ttir (ops, types, attributes; -missing/+extra):",
                     KERNELS)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", TARGETS)
def test_ttir_stage_matches_triton(passes_root, corpus, table, request, target, kernel):
    ctx = make_context()
    source = passes_root / target / "passes" / kernel / "000-inline.mlir"
    module = parse_module(source.read_text(), str(source), ctx)
    for name in stage_passes(passes_root, target, kernel):
        pass_class = get_pass(name)
        assert pass_class is not None, f"Triton runs {name} in the ttir stage; tileopt has no such pass"
        pass_class().apply(ctx, module)
    module.verify()
    result = compare_with_file(module, corpus / target / f"{kernel}.ttir")
    table[(target, kernel)] = difference_cell(result)
    assert result.equal, result.summary()
