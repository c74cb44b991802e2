"""``tritongpu-F32DotTC`` against Triton 3.6: every kernel on every target.

No corpus kernel has an f32 dot of precision tf32x3/bf16x3/bf16x6, so Triton's pass left
every input unchanged; this checks that tileopt's does too (its cleanup included), with
``emu-tf32`` set as Triton sets it (NVIDIA only).
"""

from __future__ import annotations

import pytest

from layout_pass_cases import KERNELS, TARGETS, format_table, run_case

PASS = "tritongpu-F32DotTC"
_results: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", TARGETS)
def test_matches_triton(corpus, passes_root, target, kernel):
    options = {"emu-tf32": target.startswith("cuda")}
    case = run_case(passes_root, PASS, target, kernel, options)
    if case is None:
        pytest.skip(f"{PASS} does not run for {kernel} on {target}")
    _results[(target, kernel)] = "match" if case.result.equal else "DIFF"
    assert case.result.equal, case.result.summary()


def test_print_match_table(capsys):
    if not _results:
        pytest.skip("no corpus cases ran")
    with capsys.disabled():
        print(f"\n{PASS}: tileopt vs Triton 3.6\n" + format_table(_results))
