"""The built-in pipelines through the ``ttgir`` stage against Triton 3.6 (issue 4's second
criterion).

For every non-dot kernel on every target, the YAML pipeline of that target
(``nvidia-sm80``, ``nvidia-sm90``, ``amd-cdna3``, ``amd-rdna3``) runs in-process exactly as
``tileopt <target>/<kernel>.ttir --pass-pipeline=NAME{...} --stop-after=ttgir`` does, with
the kernel's compile options (num-warps, num-ctas, num-stages from its ``.json``) as the
pipeline's parameters. The result must hold the same ops, with the same types, layouts and
attributes, and the same module attributes, as the corpus ``<target>/<kernel>.ttgir`` (any
order, any value names). A kernel x target table is printed at the end.

The dot kernels (matmul, matmul_small, block_ptr_matmul) need passes tileopt does not have
yet (accelerate-matmul, software pipelining); their TTGIR front up to Triton's first
``tritongpu-remove-layout-conversions`` (convert-triton-to-tritongpu, coalesce, F32DotTC)
is compared in ``test_coalesce.py``.
"""

from __future__ import annotations

import json

import pytest

from tileopt.driver.pass_manager import PassManager
from tileopt.ir import make_context, parse_module
from tileopt.pipelines import resolve_pass_pipeline, slice_stages
from tileopt.testing.corpus_compare import compare_modules

PIPELINES = {"cuda-sm80": "nvidia-sm80", "cuda-sm90": "nvidia-sm90",
             "hip-gfx942": "amd-cdna3", "hip-gfx1100": "amd-rdna3"}
TARGETS = tuple(PIPELINES)
KERNELS = ("add", "add_nodiv", "axpy_f16", "gelu", "softmax", "layernorm_fwd", "sum_rows",
           "sum_cols", "cumsum", "transpose", "atomic_hist")
STAGE = "ttgir"


def pipeline_text(corpus, target: str, kernel: str) -> str:
    """``NAME{num-warps=.. num-ctas=.. num-stages=..}`` with what Triton compiled with."""
    meta = json.loads((corpus / target / f"{kernel}.json").read_text())
    return (f"{PIPELINES[target]}{{num-warps={meta['num_warps']} "
            f"num-ctas={meta['num_ctas']} num-stages={meta['num_stages']}}}")


@pytest.fixture(scope="module")
def table(request):
    rows: dict[tuple[str, str], str] = {}
    yield rows
    if not rows:
        return
    lines = ["", f"pipelines through the {STAGE} stage vs corpus .ttgir "
             "(ops, types, layouts, attributes, module attributes; -missing/+extra):",
             f"{'kernel':<15}" + "".join(f"{t:>13}" for t in TARGETS)]
    for kernel in KERNELS:
        cells = [rows.get((t, kernel), "-") for t in TARGETS]
        lines.append(f"{kernel:<15}" + "".join(f"{c:>13}" for c in cells))
    # Printed past pytest's output capture, so that the table shows without -s.
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print("\n".join(lines))


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", TARGETS)
def test_ttgir_stage_matches_triton(corpus, table, target, kernel):
    pipeline = slice_stages(resolve_pass_pipeline(pipeline_text(corpus, target, kernel)),
                            None, STAGE)
    assert "convert-triton-to-tritongpu" in [s.name for s in pipeline.pass_steps()]
    source = corpus / target / f"{kernel}.ttir"
    ctx = make_context()
    module = parse_module(source.read_text(), str(source), ctx)
    table[(target, kernel)] = "error"
    PassManager(pipeline, str(source)).run(ctx, module)  # verifies after every pass
    expected_path = corpus / target / f"{kernel}.ttgir"
    expected = parse_module(expected_path.read_text(), str(expected_path), make_context())
    result = compare_modules(module, expected)
    table[(target, kernel)] = "match" if result.equal else (
        f"-{sum(result.missing.values())}/+{sum(result.extra.values())}"
        + ("/attrs" if result.module_attributes_differ else ""))
    assert result.equal, result.summary()
