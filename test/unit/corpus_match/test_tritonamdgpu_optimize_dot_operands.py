"""``tritonamdgpu-optimize-dot-operands`` against Triton 3.6 (see pass_harness), on the
AMD targets: no corpus kernel reads one loaded tile both directly and transposed, so the
pass (with its convert_layout canonicalizations) must leave every dump as Triton did; the
lit file has the cases where it acts."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests


def arch_options(meta: dict) -> dict[str, object]:
    return {"arch-generation-name": meta["arch"]}


test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-optimize-dot-operands", options=arch_options, targets=AMD, check_order=True)
