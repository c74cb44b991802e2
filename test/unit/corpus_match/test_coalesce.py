"""``tritongpu-coalesce`` against Triton 3.6 (see pass_harness): every kernel on every
target (the pass has no options: it reads the module attributes); and the TTGIR front
(convert-triton-to-tritongpu, coalesce, F32DotTC) as one chain.
"""

from __future__ import annotations

import pytest

from pass_harness import (KERNELS, TARGETS, compile_metadata, f32_dot_tc_options,
                          pass_match_tests, print_table, run_chain,
                          tritongpu_conversion_options)

test_matches_triton, test_print_match_table = pass_match_tests("tritongpu-coalesce")

_chain_results: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("target", TARGETS)
def test_ttgir_front_matches_triton(corpus, passes_root, target, kernel):
    """convert-triton-to-tritongpu, coalesce and F32DotTC from Triton's TTIR give the IR
    Triton has before its first tritongpu-remove-layout-conversions (issue 4 asks this for
    the matmul kernels; it holds for all)."""
    meta = compile_metadata(corpus, target, kernel)
    passes = [("convert-triton-to-tritongpu", tritongpu_conversion_options(meta)),
              ("tritongpu-coalesce", {}),
              ("tritongpu-F32DotTC", f32_dot_tc_options(meta))]
    result = run_chain(passes_root, target, kernel, passes,
                       "tritongpu-remove-layout-conversions")
    assert result is not None, f"Triton's {target} pipeline for {kernel} lacks these passes"
    _chain_results[(target, kernel)] = "match" if result.equal else "DIFF"
    assert result.equal, result.summary()


def test_print_chain_table(capsys):
    print_table(capsys, "convert-triton-to-tritongpu + coalesce + F32DotTC vs Triton 3.6 "
                "before remove-layout-conversions", _chain_results)
test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    "tritongpu-coalesce", triton_version="3.9")
