"""``tritongpu-coalesce-async-copy`` against Triton 3.6 (see pass_harness): every run on
the NVIDIA targets. No corpus kernel has a copy to clip, so this proves the pass leaves
them exactly as they are; the lit test shows a rewrite."""

from __future__ import annotations

from pass_harness import NVIDIA, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-coalesce-async-copy", targets=NVIDIA, check_order=True)
