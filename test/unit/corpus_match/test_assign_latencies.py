"""``tritongpu-assign-latencies`` against Triton 3.6 (see pass_harness): every run, every
kernel, on the NVIDIA targets (the AMD pipelines assign latencies in their own stream
pipeliner), with the kernel's num_stages."""

from __future__ import annotations

from pass_harness import NVIDIA, num_stages_options, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-assign-latencies", options=num_stages_options, targets=NVIDIA)
