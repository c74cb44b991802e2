"""A ``tl.rand`` (Philox) kernel through every YAML pipeline's ``ttir`` and ``ttgir`` stages
(issue 12, item 1).

The fixtures in ``test/inputs/philox`` are Triton 3.6.0's own output, made by
``test/inputs/philox/make_philox.py``: the frontend output (``dropout.inline.mlir``, five
helper ``tt.func`` for ``inline`` to inline, values named ``%_0``, ``%_0_1``, ...), the
``.ttir`` and the ``.ttgir``. The ``ttir`` stage runs on the frontend output and must hold
Triton's ``.ttir`` ops; the ``ttgir`` stage runs on Triton's ``.ttir`` and must hold its
``.ttgir`` ops (same ops, types, layouts, attributes; any order, any names).

The strict variant asks for Triton's text line for line, locations dropped, printed as
Triton's Python prints (names from name locations): the 32 integer constants in the order
MLIR's greedy driver, inliner and sccp leave them, with Triton's names (issue 12, item 4).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pass_harness import compare_with_file

from tileopt.driver.pass_manager import PassManager
from tileopt.ir import make_context, parse_module, print_module
from tileopt.pipelines import resolve_pass_pipeline, slice_stages
from tileopt.testing.corpus_compare import _strip_locations, first_difference

FIXTURES = Path(__file__).resolve().parents[2] / "inputs" / "philox"
PIPELINES = {"cuda-sm80": "nvidia-sm80", "cuda-sm90": "nvidia-sm90",
             "hip-gfx942": "amd-cdna3", "hip-gfx1100": "amd-rdna3"}
STAGES = {"ttir": ("dropout.inline.mlir", "dropout.ttir"),
          "ttgir": ("dropout.ttir", "dropout.ttgir")}


def _run_stage(target: str, stage: str):
    meta = json.loads((FIXTURES / target / "dropout.json").read_text())
    pipeline = resolve_pass_pipeline(
        f"{PIPELINES[target]}{{num-warps={meta['num_warps']} num-ctas={meta['num_ctas']} "
        f"num-stages={meta['num_stages']}}}")
    pipeline = slice_stages(pipeline, stage, stage)
    source = FIXTURES / target / STAGES[stage][0]
    ctx = make_context()
    # read as Triton's Python printed it (names from name locations)
    module = parse_module(source.read_text(), str(source), ctx, arg_name_locs=True)
    PassManager(pipeline, str(source)).run(ctx, module)
    return module


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("target", PIPELINES)
def test_philox_stage_matches_triton(target, stage):
    module = _run_stage(target, stage)
    result = compare_with_file(module, FIXTURES / target / STAGES[stage][1])
    assert result.equal, result.summary()


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("target", PIPELINES)
def test_philox_stage_text_is_tritons(target, stage):
    module = _run_stage(target, stage)
    expected = _strip_locations((FIXTURES / target / STAGES[stage][1]).read_text()).strip()
    difference = first_difference(expected, print_module(module, name_locs=True).strip())
    assert difference is None, "line {}:\n  triton:  {}\n  tileopt: {}".format(*difference)
