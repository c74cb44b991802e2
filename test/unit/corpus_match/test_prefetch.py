"""``tritongpu-prefetch`` against Triton 3.6 and 3.9 (see pass_harness), op order included.

3.9 runs it on sm80 only, where it splits the pipelined dot loops of matmul, matmul_small
and desc_matmul along K (sliced ``local_load``s, the next iteration's first slice loaded
before the last dot); 3.6 runs it on sm80 and sm90 and changes none of its corpus kernels
(its pipeliner puts the buffer index in the loop, which 3.6's pass did not take)."""

from __future__ import annotations

from pass_harness import NVIDIA, pass_match_tests

PASS = "tritongpu-prefetch"

test_matches_triton, test_print_match_table = pass_match_tests(
    PASS, targets=NVIDIA, check_order=True)
test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    PASS, targets=("cuda-sm80",), check_order=True, triton_version="3.9")
