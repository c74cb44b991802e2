"""``tritonamdgpu-pipeline`` against Triton 3.6 (see pass_harness), on the AMD targets: the
stream-pipelined matmul loops (shared buffers, prologue, loop, peeled epilogue with
``scf.if`` dots), as Triton's pass leaves them before canonicalize.

Also the whole stretch of Triton's AMD pipeline around it, from the dump before
``tritonamdgpu-schedule-loops`` to the one before ``tritonamdgpu-canonicalize-pointers``
(schedule, pipeline, canonicalize, layout clean-ups, in-thread transpose and ping-pong on
gfx942), for the three dot kernels."""

from __future__ import annotations

import pytest
from pass_harness import AMD, compile_metadata, pass_match_tests, run_chain

test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-pipeline", targets=AMD)


@pytest.mark.parametrize("kernel", ("matmul", "matmul_small", "block_ptr_matmul"))
@pytest.mark.parametrize("target", AMD)
def test_pipelining_stretch_matches_triton(corpus, passes_root, target, kernel):
    num_stages = compile_metadata(corpus, target, kernel)["num_stages"]
    stages = {"num-stages": num_stages}
    cdna = target == "hip-gfx942"
    # Triton spells schedule-loops' option num_stages, block-pingpong's num-stages
    passes = [("tritonamdgpu-schedule-loops", {"num_stages": num_stages}),
              ("tritonamdgpu-pipeline", {}),
              ("canonicalize", {}), ("tritongpu-remove-layout-conversions", {}),
              ("tritongpu-reduce-data-duplication", {})]
    if cdna:
        passes += [("tritonamdgpu-in-thread-transpose", {}),
                   ("tritongpu-remove-layout-conversions", {})]
    passes.append(("tritonamdgpu-reorder-instructions", {}))
    if cdna:
        passes.append(("tritonamdgpu-block-pingpong", stages))
    result = run_chain(passes_root, target, kernel, passes,
                       "tritonamdgpu-canonicalize-pointers")
    assert result is not None, f"no {target} {kernel} dumps for the stretch"
    assert result.equal, result.summary()
