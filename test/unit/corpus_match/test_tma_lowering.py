"""``triton-nvidia-tma-lowering`` against Triton 3.6 and 3.9 (see pass_harness): every run of
the sm90 pipelines. Only 3.9's desc_matmul has descriptors: its three
tt.make_tensor_descriptor become global-scratch TMA descriptors and its descriptor_store a
TMA store; every other kernel passes through unchanged. (3.6's own pass, run through its
Python bindings on desc_matmul's input spelled as 3.6, gives the same IR.)"""

from __future__ import annotations

from pass_harness import pass_match_tests

PASS = "triton-nvidia-tma-lowering"

test_matches_triton, test_print_match_table = pass_match_tests(
    PASS, targets=("cuda-sm90",), check_order=True)
test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    PASS, targets=("cuda-sm90",), check_order=True, triton_version="3.9")
