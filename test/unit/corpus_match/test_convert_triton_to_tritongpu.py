"""``convert-triton-to-tritongpu`` against Triton 3.6: every kernel on every target.

Input: the corpus dump taken before Triton's convert-triton-to-tritongpu; expected: the
dump taken before the next pass. Pass options come from the kernel's compile metadata.
Run with ``-s`` to see the match table.
"""

from __future__ import annotations

import pytest

from layout_pass_cases import KERNELS, TARGETS, format_table, kernel_options, run_case

PASS = "convert-triton-to-tritongpu"
_results: dict[tuple[str, str], str] = {}


def options(corpus, target: str, kernel: str) -> dict[str, object]:
    meta = kernel_options(corpus, target, kernel)
    return {"target": meta["target"], "num-warps": meta["num_warps"],
            "threads-per-warp": meta["warp_size"], "num-ctas": meta["num_ctas"]}


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", TARGETS)
def test_matches_triton(corpus, passes_root, target, kernel):
    case = run_case(passes_root, PASS, target, kernel, options(corpus, target, kernel))
    if case is None:
        pytest.skip(f"{PASS} does not run for {kernel} on {target}")
    _results[(target, kernel)] = "match" if case.result.equal else "DIFF"
    assert case.result.equal, case.result.summary()


def test_print_match_table(capsys):
    if not _results:
        pytest.skip("no corpus cases ran")
    with capsys.disabled():
        print(f"\n{PASS}: tileopt vs Triton 3.6\n" + format_table(_results))
