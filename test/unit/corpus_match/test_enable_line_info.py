"""``enable-line-info`` against Triton 3.6: wherever Triton's pipelines run it, every op of
tileopt's result has the location Triton's has (function subprograms with their compile
unit, lexical block files on inlined code), the producer aside: tileopt's compile units
say "tileopt" (``tileopt.ir.debug_scope.PRODUCER``). The pass adds and removes no op, so
the two walks pair op with op."""

from __future__ import annotations

import pytest
from pass_harness import AMD, KERNELS, module_table

from tileopt.ir import make_context, parse_module
from tileopt.ir.debug_scope import PRODUCER
from tileopt.passes.registry import get_pass
from tileopt.testing.corpus_compare import corpus_pass_cases

table = module_table("enable-line-info: locations of tileopt vs Triton 3.6")


def _locations(module) -> list[tuple[str, str]]:
    return [(op.name, str(op.location).replace('producer = "triton"',
                                               f'producer = "{PRODUCER}"'))
            for op in module.walk()]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", AMD)
def test_locations_match_triton(passes_root, target, kernel, table):
    cases = list(corpus_pass_cases(passes_root, "enable-line-info", (target,), (kernel,)))
    assert cases, f"Triton's {target} pipeline for {kernel} has no run of enable-line-info"
    for case in cases:
        ctx = make_context()
        module = parse_module(case.input_text, str(case.input_path), ctx)
        get_pass("enable-line-info")().apply(ctx, module)
        expected = parse_module(case.expected_text, str(case.expected_path), make_context())
        ours, theirs = _locations(module), _locations(expected)
        assert len(ours) == len(theirs), f"{case.id}: {len(ours)} ops, Triton {len(theirs)}"
        scoped = sum("di_" in loc for _, loc in theirs)
        for (name, loc), (_, want) in zip(ours, theirs):
            assert loc == want, f"{case.id}: '{name}' at\n  {loc}\nwhere Triton has\n  {want}"
        table[(target, kernel)] = f"match ({scoped})"
