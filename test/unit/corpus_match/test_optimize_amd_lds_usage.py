"""``optimize-amd-lds-usage`` against Triton 3.6 (see pass_harness): every kernel on the two
AMD targets, for the kernel's arch. No corpus kernel needs more than the 64 KiB of LDS (the
matmul holds exactly that), so Triton changes none of them and tileopt must not either."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "optimize-amd-lds-usage", targets=AMD, options=lambda meta: {"target-arch": meta["arch"]})
