"""``triton-rewrite-tensor-descriptor-to-pointer`` against Triton 3.6 (see pass_harness):
every run, every kernel, on every target but sm90 (where Triton keeps descriptors for TMA
and does not run the pass)."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "triton-rewrite-tensor-descriptor-to-pointer", targets=("cuda-sm80",) + AMD)
