"""``tritongpu-optimize-dot-operands`` against Triton 3.6 (see pass_harness): both runs in
every NVIDIA pipeline. No corpus kernel transposes a dot operand, so this proves the pass
(and the canonicalization it starts with) leaves them exactly as they are; the lit test
shows the rewrites."""

from __future__ import annotations

from pass_harness import NVIDIA, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-optimize-dot-operands", targets=NVIDIA, check_order=True)
