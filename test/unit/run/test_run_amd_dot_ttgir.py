"""Issue 11, the lowering part: Triton's final TTGIR of the three dot kernels (corpus
``.ttgir``) through tileopt's AMD lowering alone (from the ``llir`` stage), run by
tileopt-run against float64 numpy: MFMA 32x32x8 f16 on gfx942 and WMMA 16x16x16 f16 on
gfx1100, operands read from LDS, two blocks along M and N with ragged tails, and a K loop
of two steps (prologue and epilogue only) or five (the pipelined loop's steady state), the
last one ragged. The same cases as Triton's own ``.llir`` passes (test_run_amd_corpus.py)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from tileopt.run.launch import Compiled, compile_source, run_kernel
from tileopt.testing.run_cases import CASES, DOT, compile_options

PIPELINES = {"hip-gfx942": "amd-cdna3", "hip-gfx1100": "amd-rdna3"}


@lru_cache(maxsize=None)
def _compiled(corpus: Path, target: str, kernel: str, source: str = "ttgir") -> Compiled:
    """The kernel from Triton's ``.ttgir`` (the lowering alone) or from its ``.ttir``
    (tileopt's whole AMD pipeline, the stream pipeliner included)."""
    path = corpus / target / f"{kernel}.{source}"
    return compile_source(path.read_text(), path.name,
                          PIPELINES[target] + compile_options(path.with_suffix(".json")),
                          start_at="llir" if source == "ttgir" else None)


@pytest.mark.parametrize("source", ("ttgir", "ttir"))
@pytest.mark.parametrize("k_steps", [1, 4])
@pytest.mark.parametrize("target", PIPELINES)
@pytest.mark.parametrize("kernel", DOT)
def test_dot_kernel_matches_reference(corpus, target, kernel, k_steps, source):
    compiled = _compiled(corpus, target, kernel, source)
    case = CASES[kernel](np.random.default_rng(0), k_steps=k_steps)
    result = run_kernel(compiled, case.args, case.grid)
    assert result.reports == []
    case.check(result.outputs)


def _bf16(x: np.ndarray) -> np.ndarray:
    """bf16 bit patterns (uint16) as float64."""
    return (x.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


@pytest.mark.parametrize("target", PIPELINES)
def test_bf16_dot_ttgir_matches_reference(corpus, target):
    """matmul_small's TTGIR with every f16 made bf16: the bf16 MFMA (32x32x8bf16_1k, operands
    as i16 vectors) and WMMA (16x16x16.bf16), C rounded to bf16 (half an ulp: 2^-8)."""
    path = corpus / target / "matmul_small.ttgir"
    compiled = compile_source(path.read_text().replace("f16", "bf16"), path.name,
                              PIPELINES[target] + compile_options(path.with_suffix(".json")),
                              start_at="llir")
    rng = np.random.default_rng(0)
    m, n, k = 64 + 16, 64 + 16, 32 * 4 + 16
    a, b = ((rng.standard_normal(s).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
            for s in ((m, k), (k, n)))
    c = np.full((m, n + 16), 0x7FC0, np.uint16)   # NaN: the padding column must stay so
    result = run_kernel(compiled, [a, b, c, m, n, k, k, n, n + 16], (4,))
    assert result.reports == []
    want, got = _bf16(a) @ _bf16(b), _bf16(result.outputs[2])
    assert np.all(np.abs(got[:, :n] - want) <= 2 ** -8 * np.maximum(1, np.abs(want)))
    assert np.isnan(got[:, n:]).all()


# matmul_small's TTGIR with its layouts changed in place (every use of #mma follows): the
# variants Triton's AMD passes also pick, each checked to reach its instruction.
VARIANTS = {
    "not transposed": ("hip-gfx942", [("isTransposed = true", "isTransposed = false")],
                       "mfma.f32.32x32x8f16"),
    "wmma not transposed": ("hip-gfx1100", [("isTranspose = true", "isTranspose = false")],
                            "wmma.f32.16x16x16.f16"),
    "kpack 2": ("hip-gfx942", [("kWidth = 4", "kWidth = 8")], "mfma.f32.32x32x8f16"),
    "16x16x16": ("hip-gfx942", [("instrShape = [32, 32, 8]", "instrShape = [16, 16, 16]")],
                 "mfma.f32.16x16x16f16"),
    "16x16x16 kpack 2": ("hip-gfx942", [("instrShape = [32, 32, 8]",
                                         "instrShape = [16, 16, 16]"),
                                        ("kWidth = 4", "kWidth = 8")], "mfma.f32.16x16x16f16"),
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_layout_variants_match_reference(corpus, variant):
    target, edits, intrinsic = VARIANTS[variant]
    path = corpus / target / "matmul_small.ttgir"
    text = path.read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    compiled = compile_source(text, path.name,
                              PIPELINES[target] + compile_options(path.with_suffix(".json")),
                              start_at="llir")
    assert f"@llvm.amdgcn.{intrinsic}" in compiled.llvm_ir
    case = CASES["matmul_small"](np.random.default_rng(0), k_steps=4)
    result = run_kernel(compiled, case.args, case.grid)
    assert result.reports == []
    case.check(result.outputs)
