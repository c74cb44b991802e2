"""``tritonamdgpu-schedule-loops`` against Triton 3.6 (see pass_harness), on the AMD
targets: the loads feeding the dot at stage 0 and the dot at the last stage in matmul and
matmul_small; block_ptr_matmul scheduled on gfx1100 only (on gfx942 its i64-offset loads
are too small to pipeline)."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests


def _options(meta: dict) -> dict:
    # Triton 3.6 spells this pass's option num_stages (not num-stages as the others)
    return {"num_stages": meta["num_stages"]}


test_matches_triton, test_print_match_table = pass_match_tests(
    "tritonamdgpu-schedule-loops", _options, targets=AMD)
