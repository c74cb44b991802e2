"""``sccp`` against Triton 3.6 (see pass_harness): every run, every kernel, on the NVIDIA
targets, the pipelines that run it (sm80's matmul_small is the case that needs constants
through loop-carried counters, zero constants and arith's cmpi/select folders)."""

from __future__ import annotations

from pass_harness import NVIDIA, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests("sccp", targets=NVIDIA)
