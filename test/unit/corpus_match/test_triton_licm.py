"""``triton-licm`` against Triton 3.6 (see pass_harness): every run in the corpus
pipelines, op order included (the pass moves ops and puts each hoisted load's trip-count
guard right before it)."""

from __future__ import annotations

from pass_harness import pass_match_tests

test_matches_triton, test_print_match_table = pass_match_tests("triton-licm",
                                                               check_order=True)
