"""``triton-rewrite-tensor-descriptor-to-pointer`` against Triton 3.6 and 3.9 (see
pass_harness): every run, every kernel, on every target but sm90 (where Triton keeps
descriptors for TMA and does not run the pass). In 3.9 desc_matmul's three
``tt.make_tensor_descriptor`` descriptors are rewritten (sm80, gfx942, gfx1100)."""

from __future__ import annotations

from pass_harness import AMD, pass_match_tests

PASS = "triton-rewrite-tensor-descriptor-to-pointer"
TARGETS = ("cuda-sm80",) + AMD

test_matches_triton, test_print_match_table = pass_match_tests(PASS, targets=TARGETS)
test_matches_triton_39, test_print_match_table_39 = pass_match_tests(
    PASS, targets=TARGETS, triton_version="3.9", check_order=True)
