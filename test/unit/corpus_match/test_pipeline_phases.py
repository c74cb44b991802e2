"""The phases of tritongpu-pipeline, each run alone from the pass's input, against the IR
Triton's pipeliner printed after that phase (``SoftwarePipeliner internal IR Dump After:
LowerLoops`` / ``ExpandLoops``, kept with the corpus dump taken before the pass)."""

from __future__ import annotations

import pytest
from pass_harness import KERNELS, KERNELS_39, NVIDIA, difference_cell, module_table

from tileopt.dialects.triton_version import set_module_version
from tileopt.ir import make_context, parse_module
from tileopt.testing.corpus_compare import compare_modules, corpus_pass_cases
from tileopt.transforms.ttgir.pipeliner.expand import expand_loops
from tileopt.transforms.ttgir.pipeliner.lower_loops import lower_loops

# Each phase runs from the pass's input, after the phases before it.
PHASES = {"LowerLoops": [lower_loops], "ExpandLoops": [lower_loops, expand_loops]}

table = module_table("tritongpu-pipeline phases, each from the pass's input: tileopt vs "
                     "Triton 3.6 (cells: LowerLoops/ExpandLoops)")


table_39 = module_table("tritongpu-pipeline phases, each from the pass's input: tileopt vs "
                        "Triton 3.9 (cells: LowerLoops/ExpandLoops)", KERNELS_39)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", NVIDIA)
def test_phases_match_triton(passes_root, table, target, kernel):
    check_phases(passes_root, table, target, kernel, "3.6")


# 3.9: sm90 desc_matmul's TMA loads (mbarrier ring) after each phase.
@pytest.mark.parametrize("kernel", KERNELS_39)
@pytest.mark.parametrize("target", NVIDIA)
def test_phases_match_triton_39(passes_root39, table_39, target, kernel):
    check_phases(passes_root39, table_39, target, kernel, "3.9")


def check_phases(passes_root, table, target, kernel, version):
    (case,) = corpus_pass_cases(passes_root, "tritongpu-pipeline", (target,), (kernel,))
    cells, failures = [], []
    for phase, steps in PHASES.items():
        assert phase in case.phase_dumps, f"{case.id} has no dump after {phase}"
        module = parse_module(case.input_text, str(case.input_path), make_context())
        set_module_version(module, version)
        for step in steps:
            step(module)
        module.verify()
        expected = parse_module(case.phase_dumps[phase], f"{case.input_path} ({phase})",
                                make_context())
        result = compare_modules(module, expected)
        cells.append(difference_cell(result))
        if not result.equal:
            failures.append(f"{case.id} after {phase}:\n{result.summary()}")
    table[(target, kernel)] = "/".join(cells)
    assert not failures, "\n".join(failures)
