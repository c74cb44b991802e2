"""``tritonamdgpu-fold-true-cmpi`` against Triton 3.6 (see pass_harness): every run, every
kernel, on the AMD targets."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-fold-true-cmpi", targets=AMD)
