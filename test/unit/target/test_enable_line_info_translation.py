"""``enable-line-info`` and the LLVM IR translation: the pass attaches the debug scopes the
translation would otherwise build from plain locations, and the translation reads them
instead of building its own. Through amd-cdna3/amd-rdna3, a corpus kernel's LLVM IR is
the same text with and without the pass: one compile unit, one subprogram per kernel,
every ``!DILocation`` once (llvmlite numbers metadata in creation order, so a node made
twice, or made in another order, changes the text)."""

from __future__ import annotations

import re

import pytest

from tileopt.ir import make_context, parse_module
from tileopt.driver.pass_manager import PassManager
from tileopt.pipelines import resolve_pass_pipeline
from tileopt.pipelines.model import PassStep
from tileopt.target import translate

KERNELS = ("add", "gelu", "softmax", "layernorm_fwd", "cumsum")
TARGETS = {"hip-gfx942": "amd-cdna3", "hip-gfx1100": "amd-rdna3"}


def _llvm_ir(corpus, target: str, kernel: str, with_pass: bool) -> tuple[str, object]:
    path = corpus / target / f"{kernel}.ttir"
    pipeline = resolve_pass_pipeline(TARGETS[target])
    names = [step.name for step in pipeline.steps if isinstance(step, PassStep)]
    assert "enable-line-info" in names
    if not with_pass:
        pipeline.steps = [s for s in pipeline.steps
                          if not (isinstance(s, PassStep) and s.name == "enable-line-info")]
    ctx = make_context()
    module = parse_module(path.read_text(), str(path), ctx)
    PassManager(pipeline, str(path)).run(ctx, module)
    return translate(module, emit="llvm-ir", filename=str(path)), module


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", TARGETS)
def test_same_line_tables_with_and_without_the_pass(corpus, target, kernel):
    with_pass, module = _llvm_ir(corpus, target, kernel, with_pass=True)
    without, _ = _llvm_ir(corpus, target, kernel, with_pass=False)
    kernels = [op for op in module.body.block.ops if op.name == "llvm.func" and op.body.blocks]
    assert all("llvm.di_subprogram" in str(op.location) for op in kernels)
    assert with_pass == without
    assert len(re.findall(r"= distinct !DICompileUnit\(", with_pass)) == 1
    assert len(re.findall(r"= distinct !DISubprogram\(", with_pass)) == 1
    nodes = re.findall(r"^!\d+ = (.*)$", with_pass, re.MULTILINE)
    assert len(nodes) == len(set(nodes)), "a metadata node is emitted twice"
