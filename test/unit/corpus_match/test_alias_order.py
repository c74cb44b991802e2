"""Layout aliases are numbered in the order the printer first meets them (issue 12, item 6).

MLIR names ``#blocked``, ``#blocked1``, ... by where each layout is first used in the
printed text (after sorting by nesting depth and name). For atomic_hist's ``ttgir`` stage
tileopt's ``#blocked`` is Triton's ``#blocked1`` and the other way round: not a numbering
bug, but a consequence of the constant order (item 4): tileopt's first constant has the
other layout. This checks the rule itself on every target, on tileopt's pipeline output
and on Triton's own ``.ttgir``: each ``#blockedN`` is first used after ``#blocked(N-1)``.
"""

from __future__ import annotations

import json
import re

import pytest

from tileopt.driver.pass_manager import PassManager
from tileopt.ir import make_context, parse_module, print_module
from tileopt.pipelines import resolve_pass_pipeline, slice_stages

PIPELINES = {"cuda-sm80": "nvidia-sm80", "cuda-sm90": "nvidia-sm90",
             "hip-gfx942": "amd-cdna3", "hip-gfx1100": "amd-rdna3"}


def first_use_order(text: str) -> list[str]:
    """The ``#blocked`` aliases in the order the module's text first uses them."""
    order: list[str] = []
    for name in re.findall(r"#blocked\d*(?![\w.])", text[text.index("module"):]):
        if name not in order:
            order.append(name)
    return order


def numbered(count: int) -> list[str]:
    return ["#blocked"] + [f"#blocked{n}" for n in range(1, count)]


@pytest.mark.parametrize("target", PIPELINES)
def test_atomic_hist_aliases_follow_first_use(corpus, target):
    expected = (corpus / target / "atomic_hist.ttgir").read_text()
    assert first_use_order(expected) == numbered(2)
    meta = json.loads((corpus / target / "atomic_hist.json").read_text())
    pipeline = slice_stages(resolve_pass_pipeline(
        f"{PIPELINES[target]}{{num-warps={meta['num_warps']} num-ctas={meta['num_ctas']} "
        f"num-stages={meta['num_stages']}}}"), None, "ttgir")
    source = corpus / target / "atomic_hist.ttir"
    ctx = make_context()
    module = parse_module(source.read_text(), str(source), ctx)
    PassManager(pipeline, str(source)).run(ctx, module)
    printed = print_module(module)
    assert first_use_order(printed) == numbered(2)
