"""``convert-triton-to-tritongpu`` against Triton 3.6 (see pass_harness): every kernel on
every target, with the target, warps, threads per warp and CTAs of the kernel's compile."""

from __future__ import annotations

from pass_harness import pass_match_tests, tritongpu_conversion_options

test_matches_triton, test_print_match_table = pass_match_tests(
    "convert-triton-to-tritongpu", options=tritongpu_conversion_options)
