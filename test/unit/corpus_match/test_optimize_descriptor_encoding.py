"""``triton-nvidia-optimize-descriptor-encoding`` against Triton 3.6 and 3.9 (see
pass_harness): every run on the NVIDIA targets. Only 3.9's sm90 desc_matmul still has
descriptors there (sm80 rewrote them to pointers): A and B take the wgmma buffers'
encoding, C the default; everything else passes through unchanged."""

from __future__ import annotations

from pass_harness import NVIDIA, pass_match_tests

PASS = "triton-nvidia-optimize-descriptor-encoding"

test_matches_triton, test_print_match_table = pass_match_tests(
    PASS, targets=NVIDIA, check_order=True)
test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    PASS, targets=NVIDIA, check_order=True, triton_version="3.9")
