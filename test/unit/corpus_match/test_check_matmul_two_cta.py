"""``triton-nvidia-check-matmul-two-cta`` against Triton 3.6 (its ``llir`` stage) and 3.9
(its ``ttgir`` stage): every CUDA module gets ``"ttng.two-ctas" = false`` (no corpus
kernel uses Blackwell's two-CTA matmul)."""

from __future__ import annotations

from pass_harness import NVIDIA, pass_match_tests

PASS = "triton-nvidia-check-matmul-two-cta"

test_matches_triton, test_print_match_table = pass_match_tests(PASS, targets=NVIDIA)
test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    PASS, targets=NVIDIA, triton_version="3.9")
