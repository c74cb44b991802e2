"""``tritonamdgpu-block-pingpong`` against Triton 3.6 and 3.9 (see pass_harness), on gfx942
(the only AMD pipeline that runs it). Triton 3.6: matmul_small (4 warps, 2 stages, a
64x64x32 f16 tile) gets the one-cluster schedule with its setprio and sched.barrier fences,
in Triton's op order; matmul and block_ptr_matmul (3 stages) are left alone. Triton 3.9
leaves matmul_small alone as well: its K-bound masks change from one iteration to the next."""

from __future__ import annotations

from pass_harness import num_stages_options, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-block-pingpong", num_stages_options, targets=("hip-gfx942",),
    check_order=True)

test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    "tritonamdgpu-block-pingpong", num_stages_options, targets=("hip-gfx942",),
    check_order=True, triton_version="3.9")
