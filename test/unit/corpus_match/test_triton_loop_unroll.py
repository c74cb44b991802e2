"""``triton-loop-unroll`` against Triton 3.6 (see pass_harness): every run, every kernel,
every target."""

from __future__ import annotations

from pass_harness import pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests("triton-loop-unroll")
