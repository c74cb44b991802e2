"""docs/op-coverage.md is the table tileopt/testing/op_coverage.py makes from the
registered lowering patterns and lit tests: a new pattern, a lost test or an op with no
lowering and no owner shows up here before a user meets it."""

from __future__ import annotations

from tileopt.testing import op_coverage

DOC = op_coverage.REPO / "docs" / "op-coverage.md"


def test_document_is_up_to_date():
    assert DOC.read_text() == op_coverage.render(), (
        "docs/op-coverage.md is out of date: python -m tileopt.testing.op_coverage "
        "> docs/op-coverage.md")


def test_every_lowered_op_has_a_lit_test():
    untested = [name for name, lowering, test in op_coverage.rows()
                if lowering != "-" and test == "none"]
    assert not untested


def test_every_op_that_is_not_lowered_says_why():
    assert not [name for name, _, why in op_coverage.rows() if why.endswith("no owner")]


def test_an_unregistered_pattern_would_show():
    """The table reads PATTERNS: an op whose pattern goes away is 'not lowered'."""
    from tileopt.conversion.triton_gpu_to_llvm.lowering import PATTERNS

    saved = PATTERNS.pop("tt.histogram")
    try:
        row = next(r for r in op_coverage.rows() if r[0] == "tt.histogram")
        assert row[1] == "-" and row[2] == "not lowered: no owner"
    finally:
        PATTERNS["tt.histogram"] = saved
