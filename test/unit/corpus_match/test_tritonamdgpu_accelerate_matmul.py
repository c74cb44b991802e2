"""``tritonamdgpu-accelerate-matmul`` against Triton 3.6 (see pass_harness), on the AMD
targets, with the options Triton's HIP backend passes (the kernel's arch, no forced
instruction size, kPack 1): the dot kernels get ``#ttg.amd_mfma`` (gfx942) or
``#ttg.amd_wmma`` (gfx1100) with their conversions; every other kernel must come out as
Triton's (only the greedy driver's clean-up acts there, e.g. on sum_rows).

For the dot kernels also the chain from it up to the IR Triton hands to
``tritonamdgpu-schedule-loops``, run on tileopt's own output: remove-layout-conversions
must carry the MFMA/WMMA layout through the loop, and the epilogue store from it."""

from __future__ import annotations

from pass_harness import AMD, chain_match_tests, pass_match_tests


def hip_matmul_options(meta: dict) -> dict[str, object]:
    return {"arch-generation-name": meta["arch"], "matrix-instruction-size": 0, "kPack": 1}


def passes_to_schedule_loops(meta: dict) -> list[tuple[str, dict[str, object]]]:
    return [("tritonamdgpu-accelerate-matmul", hip_matmul_options(meta)),
            ("tritongpu-remove-layout-conversions", {}),
            ("tritonamdgpu-optimize-epilogue", {}),
            ("tritonamdgpu-optimize-dot-operands", {"arch-generation-name": meta["arch"]}),
            ("tritonamdgpu-hoist-layout-conversions", {}),
            ("tritongpu-fuse-nested-loops", {}),
            ("canonicalize", {}),
            ("triton-licm", {}),
            ("canonicalize", {})]


test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-accelerate-matmul", options=hip_matmul_options, targets=AMD)

test_chain_to_schedule_loops, test_print_chain_table = chain_match_tests(
    AMD, ("matmul", "matmul_small", "block_ptr_matmul"), passes_to_schedule_loops,
    "tritonamdgpu-schedule-loops",
    "AMD accelerate-matmul .. canonicalize vs Triton 3.6 before tritonamdgpu-schedule-loops")
