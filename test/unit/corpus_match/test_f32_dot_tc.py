"""``tritongpu-F32DotTC`` against Triton 3.6 (see pass_harness): every kernel on every target.

No corpus kernel has an f32 dot of precision tf32x3/bf16x3/bf16x6, so Triton's pass left
every input unchanged; this checks that tileopt's does too (its cleanup included), with
``emu-tf32`` set as Triton sets it (NVIDIA only).
"""

from __future__ import annotations

from pass_harness import f32_dot_tc_options, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-F32DotTC", options=f32_dot_tc_options)
