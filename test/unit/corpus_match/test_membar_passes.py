"""Triton 3.9's membar passes against its corpus (see pass_harness): every run of
``triton-nvidia-gpu-membar`` (with the kernel's compute capability) and
``triton-amdgpu-membar``, op order included (the pass only inserts ``ttg.barrier local``).
Triton 3.6 has no such pass: its barriers came with the LLVM lowering."""

from __future__ import annotations

from pass_harness import AMD, NVIDIA, compute_capability_options, pass_match_tests

# The pipelined dot kernels: tileopt's barrier analysis is 3.6's (but for async waits in a
# row, which share one barrier as in 3.9), which puts a barrier where 3.9's finds the
# accesses already ordered (between pipeline stages: copies into different buffers); 3.9's membar also marks what it proved (warp_group_dot_wait ``warpGroupLocal``,
# AMD ``ttg.amdg.syncedViaAsyncWait``), which tileopt does not.
_DOTS = "3.9's membar on pipelined dots: fewer barriers than 3.6's analysis, and marks"
NOT_YET_NVIDIA = {(t, k): _DOTS for t, k in [
    ("cuda-sm80", "matmul"), ("cuda-sm80", "desc_matmul"),
    ("cuda-sm90", "matmul"), ("cuda-sm90", "desc_matmul")]}
NOT_YET_AMD = {(t, k): _DOTS for t, k in [
    ("hip-gfx942", "matmul"), ("hip-gfx942", "matmul_small"), ("hip-gfx942", "desc_matmul"),
    ("hip-gfx1100", "matmul"), ("hip-gfx1100", "desc_matmul")]}

test_nvidia_matches_triton_39, test_print_nvidia_table_39 = pass_match_tests(
    "triton-nvidia-gpu-membar", options=compute_capability_options, targets=NVIDIA,
    check_order=True, triton_version="3.9", not_yet=NOT_YET_NVIDIA)
test_amd_matches_triton_39, test_print_amd_table_39 = pass_match_tests(
    "triton-amdgpu-membar", targets=AMD, check_order=True, triton_version="3.9",
    not_yet=NOT_YET_AMD)
