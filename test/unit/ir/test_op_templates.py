"""Templates change nothing but speed. Ops built from a parse template
(``tileopt/ir/op_templates.py``) are the ops the parser builds: every corpus file and
every lit input parsed with and without templates gives the same IR (op classes,
operands, types, properties, attributes, locations, name hints, source positions); a bad
input gives the same error. Printed with the printer's syntax templates
(``TileoptPrinter._print_custom_syntax``), the text is the one printed without them, in
every printing mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from tileopt.ir import make_context, parse_module, print_module
from tileopt.ir.diagnostics import TileoptError
from tileopt.ir.parse import TileoptParser, split_input_file
from tileopt.ir.printing import TileoptPrinter
from tileopt.ir.source_positions import source_position
from tileopt.testing.corpus_compare import corpus_files, find_corpus

REPO = Path(__file__).resolve().parents[3]


def _parse(text: str, templates: bool, ctx):
    TileoptParser.use_op_templates = templates
    try:
        return parse_module(text, "input.mlir", ctx, verify=False)
    except TileoptError as err:
        return str(err)
    finally:
        TileoptParser.use_op_templates = True


def _describe(module) -> list:
    """Everything the parser decides about each op, values by their position."""
    numbers: dict[int, int] = {}

    def number(value) -> int:
        return numbers.setdefault(id(value), len(numbers))

    found = []
    for op in module.walk():
        for region in op.regions:
            for block in region.blocks:
                number(block)
                for arg in block.args:
                    number(arg)
        found.append((type(op), op.name, sorted(vars(op)), [number(v) for v in op.operands],
                      [v.type for v in op.operands],
                      [(number(r), r.type, r.name_hint) for r in op.results],
                      op.properties, list(op.properties), op.attributes,
                      list(op.attributes), op.location, source_position(op)))
    return found


def _same(text: str, ctx) -> None:
    slow = _parse(text, False, ctx)
    fast = _parse(text, True, ctx)
    if isinstance(slow, str) or isinstance(fast, str):
        assert fast == slow
        return
    assert _describe(fast) == _describe(slow)
    for options in PRINT_OPTIONS:
        TileoptPrinter.use_syntax_templates = False
        try:
            expected = print_module(slow, **options)
        finally:
            TileoptPrinter.use_syntax_templates = True
        assert print_module(fast, **options) == expected, options


PRINT_OPTIONS = ({}, {"debuginfo": True}, {"generic": True, "debuginfo": True},
                 {"local_scope": True}, {"debuginfo": True, "name_locs": True},
                 {"debuginfo": True, "pretty_debuginfo": True})


def _corpus_ids() -> list:
    corpus = find_corpus()
    if corpus is None:
        return [pytest.param(None, id="corpus-absent")]
    # the kernels' .ttir/.ttgir (the per-pass dumps hold the same ops, ten times over)
    return [pytest.param(path, id=file_id) for file_id, path in corpus_files(corpus, None)]


@pytest.fixture(scope="module")
def ctx():
    return make_context(allow_unregistered=True)


@pytest.mark.parametrize("path", _corpus_ids())
def test_corpus_file_parses_the_same(path, ctx):
    if path is None:
        pytest.skip("the Triton corpus is not beside the repository")
    _same(path.read_text(), ctx)


def _lit_inputs() -> list:
    return [pytest.param(path, id=str(path.relative_to(REPO / "test" / "lit")))
            for path in sorted((REPO / "test" / "lit").rglob("*.mlir"))]


@pytest.mark.parametrize("path", _lit_inputs())
def test_lit_input_parses_the_same(path, ctx):
    try:
        text = path.read_text()
    except UnicodeDecodeError:  # an input that tests the error for it
        _same(path.read_bytes(), ctx)
        return
    for chunk, _ in split_input_file(text):
        _same(chunk, ctx)


REPEATED = """\
tt.func @f(%arg0: i32, %arg1: i32, %arg2: i64) {
  %0 = arith.addi %arg0, %arg1 : i32
  %1 = arith.addi %0, %arg1 : i32
  %2 = arith.addi %1, %1 : i32
  %3 = arith.addi %2, %arg0 : i32 loc(#loc1)
  %4 = arith.addi %3, %3 : i32 loc(#loc2)
  tt.return
}
#loc1 = loc("a.py":1:2)
#loc2 = loc("a.py":3:4)
"""


@pytest.mark.parametrize("text", [
    REPEATED,
    # an operand of another type than the template's: the parser's own error
    REPEATED.replace("%2 = arith.addi %1, %1", "%2 = arith.addi %arg2, %1"),
    # a name used before it is defined, then defined
    REPEATED.replace("%1 = arith.addi %0, %arg1", "%1 = arith.addi %0, %9"),
    # a result redefined
    REPEATED.replace("%3 = arith.addi", "%2 = arith.addi"),
    # a line with a location alias first, then the same line without one
    REPEATED.replace("%0 = arith.addi %arg0, %arg1 : i32",
                     "%0 = arith.addi %arg0, %arg1 : i32 loc(#loc1)"),
])
def test_repeated_lines(text, ctx):
    _same(text, ctx)


def test_templates_are_used(ctx, monkeypatch):
    """Lines 2 to 5 come from the template of line 1 (the test above would pass with a
    fast path that never fires)."""
    from tileopt.ir import op_templates

    built = []
    original = op_templates.OpTemplates.build

    def counting(self, parser, line):
        op = original(self, parser, line)
        built.append(op is not None)
        return op

    monkeypatch.setattr(op_templates.OpTemplates, "build", counting)
    _parse(REPEATED, True, ctx)
    assert built.count(True) == 4, built


def test_print_templates_are_used(ctx, monkeypatch):
    """Four of the five `arith.addi` print from the first one's template, values and all
    (``%2 = arith.addi %1, %1`` too, from a template made of distinct operands)."""
    from tileopt.ir import printing

    replayed = []
    original = printing._SyntaxTemplate.print

    def counting(self, printer, operands, results):
        replayed.append(len(operands))
        original(self, printer, operands, results)

    monkeypatch.setattr(printing._SyntaxTemplate, "print", counting)
    text = print_module(_parse(REPEATED, True, ctx))
    assert replayed == [2, 2, 2, 2]
    assert "%2 = arith.addi %1, %1 : i32" in text
    assert "%4 = arith.addi %3, %3 : i32" in text
