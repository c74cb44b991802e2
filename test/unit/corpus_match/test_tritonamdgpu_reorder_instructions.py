"""``tritonamdgpu-reorder-instructions`` against Triton 3.6. The pass only moves ops, so
besides the op multiset the test compares the order of ops (name and result types, in
walk order): transpose (a hoisted tt.trans), matmul and matmul_small (prologue loads
hoisted, the second loop load sunk before the dot) and block_ptr_matmul on gfx1100 must
come out in Triton's order."""

from __future__ import annotations

import pytest

from tileopt.ir import make_context, parse_module
from tileopt.passes import get_pass
from tileopt.testing.corpus_compare import compare_modules, corpus_pass_cases, format_key, op_key

PASS = "tritonamdgpu-reorder-instructions"
TARGETS = ("hip-gfx942", "hip-gfx1100")
KERNELS = ("add", "add_nodiv", "axpy_f16", "gelu", "softmax", "layernorm_fwd", "sum_rows",
           "sum_cols", "cumsum", "transpose", "atomic_hist", "matmul", "matmul_small",
           "block_ptr_matmul")


def op_order(module) -> list[str]:
    return [format_key(op_key(op, with_attributes=False)) for op in module.walk()]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", TARGETS)
def test_matches_triton(passes_root, target, kernel):
    cases = list(corpus_pass_cases(passes_root, PASS, (target,), (kernel,)))
    if not cases:
        pytest.skip(f"Triton does not run {PASS} for {target}")
    for case in cases:
        ctx = make_context()
        module = parse_module(case.input_path.read_text(), str(case.input_path), ctx)
        get_pass(PASS)().apply(ctx, module)
        module.verify()
        expected = parse_module(case.expected_path.read_text(), str(case.expected_path),
                                make_context())
        result = compare_modules(module, expected)
        assert result.equal, f"{case.id}:\n{result.summary()}"
        actual_order, expected_order = op_order(module), op_order(expected)
        first = next((i for i, (a, e) in enumerate(zip(actual_order, expected_order))
                      if a != e), None)
        assert first is None, (f"{case.id}: op {first} is\n  {actual_order[first]}\n"
                               f"where Triton has\n  {expected_order[first]}")
