"""``tritongpu-remove-layout-conversions`` against Triton 3.6 and 3.9 (see pass_harness): every run
(the pipeline runs it several times), every kernel, every target."""

from __future__ import annotations

from pass_harness import pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-remove-layout-conversions")

# Triton 3.9 (../shared/corpus-3.9), whose inputs include 3.9's thread-locality views; a
# broadcast whose operand already has a fitting layout only changes its result's layout
# (the B offsets of the AMD matmuls).
NOT_YET_39 = {
    **{(target, "desc_matmul"): "the descriptor rewritten to pointers: 3.9 keeps the index "
       "math in the load's slices, tileopt gives it 1-D blocked/linear layouts"
       for target in ("cuda-sm80", "hip-gfx942", "hip-gfx1100")},
}
test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    "tritongpu-remove-layout-conversions", triton_version="3.9", not_yet=NOT_YET_39)
