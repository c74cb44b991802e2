"""``tritongpu-remove-layout-conversions`` against Triton 3.6 and 3.9 (see pass_harness): every run
(the pipeline runs it several times), every kernel, every target."""

from __future__ import annotations

from pass_harness import pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-remove-layout-conversions")

# Triton 3.9 (../shared/corpus-3.9), whose inputs include 3.9's thread-locality views; a
# broadcast whose operand already has a fitting layout only changes its result's layout
# (the B offsets of the AMD matmuls), and a reshape that drops or adds a unit dim keeps a
# slice layout (the descriptor's index math in desc_matmul).
test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    "tritongpu-remove-layout-conversions", triton_version="3.9")
