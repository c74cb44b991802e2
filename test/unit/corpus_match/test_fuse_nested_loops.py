"""``tritongpu-fuse-nested-loops`` against Triton 3.6: every run of the pass, every kernel, every target.

Each run's input is the corpus dump taken before Triton ran the pass there, the expected
output the dump taken before the next pass. Run with ``-s`` to see the match table
(``k/n``: k of the n runs in that pipeline match).
"""

from __future__ import annotations

import pytest

from layout_pass_cases import KERNELS, TARGETS, format_table
from ttgir_pass_runs import cell, run_all

PASS = "tritongpu-fuse-nested-loops"
CHECK_ORDER = False
_results: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", TARGETS)
def test_matches_triton(passes_root, target, kernel):
    runs = run_all(passes_root, PASS, target, kernel, check_order=CHECK_ORDER)
    if not runs:
        pytest.skip(f"{PASS} does not run for {kernel} on {target}")
    _results[(target, kernel)] = cell(runs)
    for index, result, order in runs:
        assert result.equal, f"run at pipeline step {index}: {result.summary()}"
        assert order is None, f"run at pipeline step {index}: {order}"


def test_print_match_table(capsys):
    if not _results:
        pytest.skip("no corpus cases ran")
    with capsys.disabled():
        print(f"\n{PASS}: tileopt vs Triton 3.6\n" + format_table(_results))
