"""``tritonamdgpu-fold-true-cmpi`` against Triton 3.6 and 3.9 (see pass_harness): every run,
every kernel, on the AMD targets. Triton 3.9 also folds tensor comparisons (desc_matmul's
``offs >= 0`` masks)."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-fold-true-cmpi", targets=AMD)

test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    "tritonamdgpu-fold-true-cmpi", targets=AMD, triton_version="3.9")
