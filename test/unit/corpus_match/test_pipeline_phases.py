"""The phases of tritongpu-pipeline, each run alone from the pass's input, against the IR
Triton's pipeliner printed after that phase (``SoftwarePipeliner internal IR Dump After:
LowerLoops`` / ``ExpandLoops``, kept with the corpus dump taken before the pass)."""

from __future__ import annotations

import pytest
from pass_harness import KERNELS, NVIDIA, difference_cell, module_table

from tileopt.ir import make_context, parse_module
from tileopt.testing.corpus_compare import compare_modules, corpus_pass_cases
from tileopt.transforms.ttgir.pipeliner.expand import expand_loops
from tileopt.transforms.ttgir.pipeliner.lower_loops import lower_loops

# Each phase runs from the pass's input, after the phases before it.
PHASES = {"LowerLoops": [lower_loops], "ExpandLoops": [lower_loops, expand_loops]}

lower_table = module_table("tritongpu-pipeline, LowerLoops alone: tileopt vs Triton 3.6")
expand_table = module_table("tritongpu-pipeline, up to ExpandLoops: tileopt vs Triton 3.6")


def run_phases(passes_root, target: str, kernel: str, phase: str):
    (case,) = corpus_pass_cases(passes_root, "tritongpu-pipeline", (target,), (kernel,))
    assert phase in case.phase_dumps, f"{case.id} has no dump after {phase}"
    module = parse_module(case.input_text, str(case.input_path), make_context())
    for step in PHASES[phase]:
        step(module)
    module.verify()
    expected = parse_module(case.phase_dumps[phase], f"{case.input_path} ({phase})",
                            make_context())
    return case, compare_modules(module, expected)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", NVIDIA)
def test_lower_loops(passes_root, lower_table, target, kernel):
    case, result = run_phases(passes_root, target, kernel, "LowerLoops")
    lower_table[(target, kernel)] = difference_cell(result)
    assert result.equal, f"{case.id} after LowerLoops:\n{result.summary()}"


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", NVIDIA)
def test_expand_loops(passes_root, expand_table, target, kernel):
    case, result = run_phases(passes_root, target, kernel, "ExpandLoops")
    expand_table[(target, kernel)] = difference_cell(result)
    assert result.equal, f"{case.id} after ExpandLoops:\n{result.summary()}"
