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

from tileopt.ir import make_context, parse_module
from tileopt.passes import get_pass
from tileopt.testing.corpus_compare import compare_modules

TARGETS = ("cuda-sm80", "cuda-sm90", "hip-gfx942", "hip-gfx1100")
KERNELS = ("add", "add_nodiv", "axpy_f16", "gelu", "softmax", "layernorm_fwd", "sum_rows",
           "sum_cols", "cumsum", "transpose", "atomic_hist", "matmul", "matmul_small",
           "block_ptr_matmul")
STAGE_END = "convert-triton-to-tritongpu"

def stage_passes(passes_root, target: str, kernel: str) -> list[str]:
    order = passes_root / target / "passes" / kernel / "ORDER.txt"
    names = [line.split()[0].split("-", 1)[1].removesuffix(".mlir")
             for line in order.read_text().splitlines()[1:] if line.strip()]
    return names[:names.index(STAGE_END)]


@pytest.fixture(scope="module")
def table(request):
    rows: dict[tuple[str, str], str] = {}
    yield rows
    if not rows:
        return
    lines = ["", "ttir stage vs corpus .ttir (ops, types, attributes; -missing/+extra):",
             f"{'kernel':<18}" + "".join(f"{t:>13}" for t in TARGETS)]
    for kernel in KERNELS:
        cells = [rows.get((t, kernel), "-") for t in TARGETS]
        lines.append(f"{kernel:<18}" + "".join(f"{c:>13}" for c in cells))
    # Printed past pytest's output capture, so that the table shows without -s.
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print("\n".join(lines))


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
    expected_path = corpus / target / f"{kernel}.ttir"
    expected = parse_module(expected_path.read_text(), str(expected_path), make_context())
    result = compare_modules(module, expected)
    table[(target, kernel)] = "match" if result.equal else (
        f"-{sum(result.missing.values())}/+{sum(result.extra.values())}")
    assert result.equal, result.summary()
