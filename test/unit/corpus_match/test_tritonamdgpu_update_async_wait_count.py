"""``tritonamdgpu-update-async-wait-count`` against Triton 3.6 (see pass_harness), on the AMD
targets. Triton 3.6 pipelines through registers (no async copies) in every corpus kernel,
so each run must leave the IR as it is; the counting itself is covered by the lit file."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests


def arch_options(meta: dict) -> dict:
    return {"arch-generation-name": meta["arch"]}


test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-update-async-wait-count", arch_options, targets=AMD)
