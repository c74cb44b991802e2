"""tritongpu-global-scratch-memory-allocation against every run of it in Triton's
pipelines (NVIDIA in both corpora, AMD in 3.9's; pass_harness): the offsets of 3.9's desc_matmul descriptors
(three 128-byte tensormaps: 0, 128, 256; size 384, alignment 128) and, on every other
kernel, size 0 and alignment 1 (3.9 also writes the profiler's scratch)."""

from pass_harness import NVIDIA, TARGETS, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-global-scratch-memory-allocation", targets=NVIDIA)
test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    "tritongpu-global-scratch-memory-allocation", targets=TARGETS, triton_version="3.9")
