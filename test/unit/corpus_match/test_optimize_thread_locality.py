"""``tritongpu-optimize-thread-locality`` against Triton 3.6 and 3.9 (see pass_harness): every run,
every kernel, every target."""

from __future__ import annotations

from pass_harness import pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-optimize-thread-locality")

# Triton 3.9 (../shared/corpus-3.9): the row reduction's view is made of reshapes that keep
# elements in place, a transpose and a slice layout, converted to the 3-D layout.
test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    "tritongpu-optimize-thread-locality", triton_version="3.9")
