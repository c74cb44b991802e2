"""``triton-nvidia-gpu-fence-insertion`` against Triton 3.6 and 3.9 (see pass_harness):
every run on the NVIDIA targets, with the kernel's compute capability. In 3.6 only sm90's
block-pointer matmul gets a fence (its wgmma operands are written from registers); in 3.9
the sm90 matmuls whose operands cp.async fills get one too, and desc_matmul (TMA) none."""

from __future__ import annotations

from pass_harness import NVIDIA, compute_capability_options, pass_match_tests

PASS = "triton-nvidia-gpu-fence-insertion"

test_matches_triton, test_print_match_table = pass_match_tests(
    PASS, options=compute_capability_options, targets=NVIDIA, check_order=True)
test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    PASS, options=compute_capability_options, targets=NVIDIA, check_order=True,
    triton_version="3.9")
