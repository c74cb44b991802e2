"""``tritongpu-coalesce`` against Triton 3.6: every kernel on every target.

Input: the corpus dump taken before Triton's tritongpu-coalesce; expected: the
dump taken before the next pass (the pass has no options: it reads the module attributes).
Run with ``-s`` to see the match table.
"""

from __future__ import annotations

import pytest

from layout_pass_cases import KERNELS, TARGETS, format_table, run_case

PASS = "tritongpu-coalesce"
_results: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", TARGETS)
def test_matches_triton(corpus, passes_root, target, kernel):
    case = run_case(passes_root, PASS, target, kernel, {})
    if case is None:
        pytest.skip(f"{PASS} does not run for {kernel} on {target}")
    _results[(target, kernel)] = "match" if case.result.equal else "DIFF"
    assert case.result.equal, case.result.summary()


def test_print_match_table(capsys):
    if not _results:
        pytest.skip("no corpus cases ran")
    with capsys.disabled():
        print(f"\n{PASS}: tileopt vs Triton 3.6\n" + format_table(_results))
