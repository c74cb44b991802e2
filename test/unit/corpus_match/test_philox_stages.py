"""A ``tl.rand`` (Philox) kernel through every YAML pipeline's ``ttir`` and ``ttgir`` stages
(issue 12, item 1).

The fixtures in ``test/inputs/philox`` are Triton 3.6.0's own output, made by
``test/inputs/philox/make_philox.py``: the frontend output (``dropout.inline.mlir``, five
helper ``tt.func`` for ``inline`` to inline, values named ``%_0``, ``%_0_1``, ...), the
``.ttir`` and the ``.ttgir``. The ``ttir`` stage runs on the frontend output and must hold
Triton's ``.ttir`` ops; the ``ttgir`` stage runs on Triton's ``.ttir`` and must hold its
``.ttgir`` ops (same ops, types, layouts, attributes; any order, any names: the text's
order of constants and its names are items 3 and 4 of the issue).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pass_harness import compare_with_file

from tileopt.driver.pass_manager import PassManager
from tileopt.ir import make_context, parse_module
from tileopt.pipelines import resolve_pass_pipeline, slice_stages

FIXTURES = Path(__file__).resolve().parents[2] / "inputs" / "philox"
PIPELINES = {"cuda-sm80": "nvidia-sm80", "cuda-sm90": "nvidia-sm90",
             "hip-gfx942": "amd-cdna3", "hip-gfx1100": "amd-rdna3"}
STAGES = {"ttir": ("dropout.inline.mlir", "dropout.ttir"),
          "ttgir": ("dropout.ttir", "dropout.ttgir")}


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("target", PIPELINES)
def test_philox_stage_matches_triton(target, stage):
    meta = json.loads((FIXTURES / target / "dropout.json").read_text())
    pipeline = resolve_pass_pipeline(
        f"{PIPELINES[target]}{{num-warps={meta['num_warps']} num-ctas={meta['num_ctas']} "
        f"num-stages={meta['num_stages']}}}")
    pipeline = slice_stages(pipeline, stage, stage)
    source_name, expected_name = STAGES[stage]
    source = FIXTURES / target / source_name
    ctx = make_context()
    module = parse_module(source.read_text(), str(source), ctx)
    PassManager(pipeline, str(source)).run(ctx, module)
    result = compare_with_file(module, FIXTURES / target / expected_name)
    assert result.equal, result.summary()
