"""tileopt-run tests: the corpus kernels compiled once per session, per target."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from tileopt.run.launch import Compiled, compile_source, optimized
from tileopt.testing.run_cases import DOT, compile_options

PIPELINES = {"nvidia-sm80": "cuda-sm80", "nvidia-sm90": "cuda-sm90"}


@pytest.fixture(scope="session")
def compiled(corpus: Path):
    """compiled(kernel, pipeline[, opt_level, source]) -> the corpus kernel's .ttir (or
    Triton's own .ttgir) through that pipeline (then LLVM's -O<opt_level>)."""

    @lru_cache(maxsize=None)
    def build(kernel: str, pipeline: str, opt_level: int = 0, source: str = "ttir") -> Compiled:
        if opt_level:
            return optimized(build(kernel, pipeline, 0, source), opt_level)
        path = corpus / PIPELINES[pipeline] / f"{kernel}.{source}"
        if kernel in DOT:  # matmul was compiled with 8 warps: the options from its .json
            pipeline += compile_options(path.with_suffix(".json"))
        return compile_source(path.read_text(), path.name, pipeline)

    return build

