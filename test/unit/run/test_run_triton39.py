"""Triton 3.9's ``.ttir`` of every non-dot corpus kernel through tileopt's Triton 3.9
pipelines (``NAME-triton39``) to LLVM, executed by tileopt-run at small ragged sizes
against the float64 numpy references of ``tileopt.testing.run_cases`` (issue 19): the 3.9
passes tileopt runs (thread locality's exact views, ...) and those it skips still give the
kernel's answer, on all four targets."""

from __future__ import annotations

import numpy as np
import pytest

from tileopt.run.launch import compile_source, run_kernel
from tileopt.testing.run_cases import CASES, NON_DOT

PIPELINES = {"cuda-sm80": "nvidia-sm80-triton39", "cuda-sm90": "nvidia-sm90-triton39",
             "hip-gfx942": "amd-cdna3-triton39", "hip-gfx1100": "amd-rdna3-triton39"}


@pytest.mark.parametrize("target", PIPELINES)
@pytest.mark.parametrize("kernel", NON_DOT)
def test_triton39_pipeline_matches_reference(corpus39, target, kernel):
    path = corpus39 / target / f"{kernel}.ttir"
    compiled = compile_source(path.read_text(), path.name, PIPELINES[target])
    case = CASES[kernel](np.random.default_rng(0))
    result = run_kernel(compiled, case.args, case.grid)
    assert result.reports == []
    case.check(result.outputs)
