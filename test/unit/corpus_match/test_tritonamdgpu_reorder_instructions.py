"""``tritonamdgpu-reorder-instructions`` against Triton 3.6 (see pass_harness), on the AMD
targets. The pass only moves ops, so besides the op multiset the test compares the order
of ops (walk order): transpose (a hoisted tt.trans), matmul and matmul_small (prologue
loads hoisted, the second loop load sunk before the dot) and block_ptr_matmul on gfx1100
must come out in Triton's order."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-reorder-instructions", targets=AMD, check_order=True)
