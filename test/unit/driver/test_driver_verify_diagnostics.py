"""expected-* comments: designators, regex bodies, and matching against diagnostics."""

from __future__ import annotations

from tileopt.driver.verify_diagnostics import DiagnosticChecker, parse_expectations
from tileopt.ir import TileoptError
from tileopt.passes.diagnostics import Diagnostic

SOURCE = """\
op1
// expected-error {{here}}
op3 // expected-warning {{same line}}
// expected-remark@above {{above}}
// expected-note@below {{below}}
// expected-error@below {{also below}}
op7
// expected-error@+2 {{plus two}}
// expected-error@-8 {{minus eight}}
op10
// expected-error@unknown {{nowhere}}
// expected-error-re {{value {{[0-9]+}} too big}}
"""


def test_designators():
    lines = {e.text: e.line for e in parse_expectations(SOURCE)}
    assert lines["here"] == 2
    assert lines["same line"] == 3
    # @above: the last line without an expectation (line 3 has one), as in mlir-opt.
    assert lines["above"] == 1
    assert lines["below"] == 7      # the next line that is not an expectation
    assert lines["also below"] == 7
    assert lines["plus two"] == 10
    assert lines["minus eight"] == 1
    assert lines["nowhere"] is None


def test_regex_body():
    (expectation,) = [e for e in parse_expectations(SOURCE) if e.regex is not None]
    assert expectation.matches("value 1234 too big")
    assert not expectation.matches("value x too big")


def _checker(*diagnostics: Diagnostic) -> DiagnosticChecker:
    checker = DiagnosticChecker("t.mlir")
    for diagnostic in diagnostics:
        checker(diagnostic)
    return checker


def test_all_expectations_met():
    text = "op // expected-remark {{hello}}\n"
    checker = _checker(Diagnostic("remark", "well hello there", "t.mlir", 1, 1))
    assert checker.check_expectations(text, split=False)
    assert checker.problems == []


def test_unexpected_and_missing_are_both_reported():
    text = "op // expected-error {{wanted}}\n"
    checker = _checker(Diagnostic("warning", "surprise", "t.mlir", 1, 4))
    assert not checker.check_expectations(text, split=False)
    assert checker.problems == [
        "t.mlir:1:4: error: unexpected warning: surprise",
        't.mlir:1:7: error: expected error "wanted" was not produced',
    ]


def test_severity_and_line_must_match():
    text = "op\n// expected-error@-1 {{x}}\n"
    assert not _checker(Diagnostic("error", "x", "t.mlir", 2, 1)).check_expectations(text, False)
    assert not _checker(Diagnostic("warning", "x", "t.mlir", 1, 1)).check_expectations(text, False)
    assert _checker(Diagnostic("error", "x", "t.mlir", 1, 1)).check_expectations(text, False)


def test_errors_and_their_notes():
    text = "op // expected-error {{bad}}\n// expected-note@-1 {{because}}\n"
    checker = DiagnosticChecker("t.mlir")
    checker.add_error(TileoptError("bad op", "t.mlir", 1, 1, notes=["t.mlir:1:1: note: because"]))
    assert checker.check_expectations(text, split=False), checker.problems


def test_diagnostics_in_other_files_only_match_unknown():
    text = "// expected-remark@unknown {{elsewhere}}\n"
    checker = _checker(Diagnostic("remark", "elsewhere", "kernels.py", 12, 3))
    assert checker.check_expectations(text, split=False)
