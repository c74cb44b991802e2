"""``tritonamdgpu-optimize-epilogue`` against Triton 3.6 (see pass_harness), on the AMD
targets: the dot kernels store their result from ``#mma`` (pointers and mask converted
instead), every other kernel is left as it is."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-optimize-epilogue", targets=AMD)
