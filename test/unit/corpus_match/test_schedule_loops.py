"""tritongpu-schedule-loops against every run of it in Triton's NVIDIA pipelines."""

from pass_harness import NVIDIA, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-schedule-loops", targets=NVIDIA)
