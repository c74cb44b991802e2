"""``tritonamdgpu-pipeline`` against Triton 3.6 (see pass_harness), on the AMD targets: the
stream-pipelined matmul loops (shared buffers, prologue, loop, peeled epilogue with
``scf.if`` dots), as Triton's pass leaves them before canonicalize."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-pipeline", targets=AMD)
