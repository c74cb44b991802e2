"""``tritonamdgpu-accelerate-matmul`` against Triton 3.6 (see pass_harness), on the AMD
targets, with the options Triton's HIP backend passes (the kernel's arch, no forced
instruction size, kPack 1): the dot kernels get ``#ttg.amd_mfma`` (gfx942) or
``#ttg.amd_wmma`` (gfx1100) with their conversions; every other kernel must come out as
Triton's (only the greedy driver's clean-up acts there, e.g. on sum_rows)."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests


def hip_matmul_options(meta: dict) -> dict[str, object]:
    return {"arch-generation-name": meta["arch"], "matrix-instruction-size": 0, "kPack": 1}


test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-accelerate-matmul", options=hip_matmul_options, targets=AMD)
