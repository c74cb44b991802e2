"""``tritongpu-combine-tensor-select-and-if`` against Triton 3.6 (see pass_harness): every
run on NVIDIA (Triton's AMD pipeline does not run it). Op order is compared too."""

from __future__ import annotations

from pass_harness import NVIDIA, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-combine-tensor-select-and-if", targets=NVIDIA, check_order=True)
