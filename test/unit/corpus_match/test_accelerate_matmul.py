"""``tritongpu-accelerate-matmul`` against Triton 3.6 (see pass_harness): every run on the
NVIDIA targets, with the compute capability of the kernel's compile; and, for the dot
kernels, the chain from it to the loop scheduler run on tileopt's own output (the
second remove-layout-conversions must carry ``#mma`` through the loop as Triton's does).
"""

from __future__ import annotations

import pytest

from pass_harness import (NVIDIA, compile_metadata, compute_capability_options,
                          num_stages_options, pass_match_tests, print_table, run_chain)

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritongpu-accelerate-matmul", options=compute_capability_options, targets=NVIDIA)

DOT_KERNELS = ("matmul", "matmul_small", "block_ptr_matmul")
_chain_results: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("kernel", DOT_KERNELS)
@pytest.mark.parametrize("target", NVIDIA)
def test_chain_to_pipeliner_matches_triton(corpus, passes_root, target, kernel):
    """accelerate-matmul and the passes after it, up to the IR Triton hands to
    tritongpu-schedule-loops (the passes tileopt lacks in between, plan-cta's neighbours
    and warp specialization, change nothing on these kernels)."""
    meta = compile_metadata(corpus, target, kernel)
    passes = [("tritongpu-accelerate-matmul", compute_capability_options(meta)),
              ("tritongpu-remove-layout-conversions", {}),
              ("tritongpu-optimize-dot-operands", {}),
              ("canonicalize", {}),
              ("triton-loop-aware-cse", {}),
              ("tritongpu-fuse-nested-loops", {}),
              ("canonicalize", {}),
              ("triton-licm", {}),
              ("canonicalize", {}),
              ("tritongpu-combine-tensor-select-and-if", {}),
              ("tritongpu-assign-latencies", num_stages_options(meta))]
    result = run_chain(passes_root, target, kernel, passes, "tritongpu-schedule-loops")
    assert result is not None, f"Triton's {target} pipeline for {kernel} lacks these passes"
    _chain_results[(target, kernel)] = "match" if result.equal else "DIFF"
    assert result.equal, result.summary()


def test_print_chain_table(capsys):
    print_table(capsys, "accelerate-matmul .. assign-latencies vs Triton 3.6 "
                "before schedule-loops", _chain_results, NVIDIA)
