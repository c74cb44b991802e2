"""``tritonamdgpu-convert-buffer-ops`` against Triton 3.6 (see pass_harness): every kernel
on the two AMD targets, for the kernel's arch (softmax and cumsum become buffer
loads/stores; offsets that may wrap around stay global accesses)."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-convert-buffer-ops", targets=AMD,
    options=lambda meta: {"arch-generation-name": meta["arch"]})
