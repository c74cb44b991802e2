"""``tritonamdgpu-in-thread-transpose`` against Triton 3.6 (see pass_harness), on gfx942 (the
only AMD pipeline that runs it): block_ptr_matmul's A operand (M-contiguous loads, an
unpipelined local_alloc) is loaded 4 K-elements per thread, transposed in registers and
stored to an amd_rotating_shared buffer; the pipelined matmuls are left alone."""

from __future__ import annotations

from pass_harness import pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-in-thread-transpose", targets=("hip-gfx942",))
