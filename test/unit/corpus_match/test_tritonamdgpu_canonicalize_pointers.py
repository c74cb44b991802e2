"""``tritonamdgpu-canonicalize-pointers`` against Triton 3.6: for every kernel and target where
Triton runs the pass, the IR tileopt produces from the dump taken before the pass has the
same ops (names, types, attributes) as the dump Triton took after it."""

from __future__ import annotations

import pytest

from tileopt.ir import make_context, parse_module
from tileopt.passes import get_pass
from tileopt.testing.corpus_compare import compare_modules, corpus_pass_cases

PASS = "tritonamdgpu-canonicalize-pointers"
TARGETS = ("hip-gfx942", "hip-gfx1100")
KERNELS = ("add", "add_nodiv", "axpy_f16", "gelu", "softmax", "layernorm_fwd", "sum_rows",
           "sum_cols", "cumsum", "transpose", "atomic_hist", "matmul", "matmul_small",
           "block_ptr_matmul")


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
