"""``triton-nvidia-tma-lowering`` against Triton 3.9 (see pass_harness): every run of its sm90
pipeline (the pass is new in the 3.9 pipelines). Only desc_matmul has descriptors: its three
tt.make_tensor_descriptor become global-scratch TMA descriptors and its descriptor_store a
TMA store; the other kernels pass through unchanged."""

from __future__ import annotations

from pass_harness import pass_match_tests

test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    "triton-nvidia-tma-lowering", targets=("cuda-sm90",), check_order=True,
    triton_version="3.9")
