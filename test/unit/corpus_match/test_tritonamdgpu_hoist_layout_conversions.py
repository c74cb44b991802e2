"""``tritonamdgpu-hoist-layout-conversions`` against Triton 3.6 (see pass_harness), on the
AMD targets: the corpus dot kernels convert only loop-variant tiles to dot operands, so
every dump must stay as it is, op order included; the lit file has the cases where it
hoists."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-hoist-layout-conversions", targets=AMD, check_order=True)
