"""``tritonamdgpu-accelerate-matmul`` against Triton 3.6 (see pass_harness), on the AMD
targets, with the options Triton's HIP backend passes (the kernel's arch, no forced
instruction size, kPack 1): the dot kernels get ``#ttg.amd_mfma`` (gfx942) or
``#ttg.amd_wmma`` (gfx1100) with their conversions; every other kernel must come out as
Triton's (only the greedy driver's clean-up acts there, e.g. on sum_rows). For the dot
kernels, also the chain from it to the loop scheduler run on tileopt's own output."""

from __future__ import annotations

import pytest

from pass_harness import AMD, compile_metadata, pass_match_tests, print_table, run_chain


def hip_matmul_options(meta: dict) -> dict[str, object]:
    return {"arch-generation-name": meta["arch"], "matrix-instruction-size": 0, "kPack": 1}


test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-accelerate-matmul", options=hip_matmul_options, targets=AMD)

DOT_KERNELS = ("matmul", "matmul_small", "block_ptr_matmul")
_chain_results: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("kernel", DOT_KERNELS)
@pytest.mark.parametrize("target", AMD)
def test_chain_to_schedule_loops_matches_triton(corpus, passes_root, target, kernel):
    """accelerate-matmul and the passes after it, up to the IR Triton hands to
    tritonamdgpu-schedule-loops: remove-layout-conversions must carry the MFMA/WMMA layout
    through the loop, and the epilogue store it."""
    meta = compile_metadata(corpus, target, kernel)
    passes = [("tritonamdgpu-accelerate-matmul", hip_matmul_options(meta)),
              ("tritongpu-remove-layout-conversions", {}),
              ("tritonamdgpu-optimize-epilogue", {}),
              ("tritonamdgpu-optimize-dot-operands", {"arch-generation-name": meta["arch"]}),
              ("tritonamdgpu-hoist-layout-conversions", {}),
              ("tritongpu-fuse-nested-loops", {}),
              ("canonicalize", {}),
              ("triton-licm", {}),
              ("canonicalize", {})]
    result = run_chain(passes_root, target, kernel, passes, "tritonamdgpu-schedule-loops")
    assert result is not None, f"Triton's {target} pipeline for {kernel} lacks these passes"
    _chain_results[(target, kernel)] = "match" if result.equal else "DIFF"
    assert result.equal, result.summary()


def test_print_chain_table(capsys):
    print_table(capsys, "AMD accelerate-matmul .. canonicalize vs Triton 3.6 before "
                "tritonamdgpu-schedule-loops", _chain_results, AMD)
