"""tritongpu-pipeline against every run of it in Triton's NVIDIA pipelines (the dot
kernels are pipelined; on the others the pass must leave the IR as Triton does)."""

from pass_harness import NVIDIA, num_stages_options, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-pipeline", num_stages_options, targets=NVIDIA)
