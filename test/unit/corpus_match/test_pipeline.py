"""tritongpu-pipeline against every run of it in Triton's NVIDIA pipelines (the dot
kernels are pipelined; on the others the pass must leave the IR as Triton does)."""

from pass_harness import NVIDIA, num_stages_options, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-pipeline", num_stages_options, targets=NVIDIA)

# Triton 3.9's runs (corpus-3.9): sm90 desc_matmul takes the TMA path (mbarrier ring).
test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    "tritongpu-pipeline", num_stages_options, targets=NVIDIA, triton_version="3.9")
