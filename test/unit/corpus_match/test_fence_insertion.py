"""``triton-nvidia-gpu-fence-insertion`` against Triton 3.6 (see pass_harness): every run
on the NVIDIA targets, with the kernel's compute capability (only sm90's block-pointer
matmul gets a fence: its wgmma operands are written from registers)."""

from __future__ import annotations

from pass_harness import NVIDIA, compute_capability_options, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "triton-nvidia-gpu-fence-insertion", options=compute_capability_options, targets=NVIDIA,
    check_order=True)
