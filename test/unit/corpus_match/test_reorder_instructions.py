"""``tritongpu-reorder-instructions`` against Triton 3.6 (see pass_harness): every run on
NVIDIA (AMD runs tritonamdgpu-reorder-instructions instead). The pass only moves ops: op
order is compared too."""

from __future__ import annotations

from pass_harness import NVIDIA, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-reorder-instructions", targets=NVIDIA, check_order=True)
