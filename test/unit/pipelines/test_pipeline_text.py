"""MLIR pipeline text: nesting, options, and errors that point at a column."""

from __future__ import annotations

import pytest

from tileopt.ir import TileoptError
from tileopt.pipelines import resolve_pass_pipeline
from tileopt.pipelines.model import NestStep, PassStep
from tileopt.pipelines.text import parse_pipeline_text


CANONICALIZE = ("canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal "
                "test-convergence=false top-down=true}")


def test_explicit_module_anchor_and_nesting():
    pipeline = parse_pipeline_text("builtin.module(canonicalize, tt.func(cse, sccp), cse)")
    assert [type(s) for s in pipeline.steps] == [PassStep, NestStep, PassStep]
    nest = pipeline.steps[1]
    assert nest.anchor == "tt.func" and [s.name for s in nest.steps] == ["cse", "sccp"]
    # Every option is printed, as MLIR does (canonicalize has MLIR's).
    assert pipeline.text() == f"builtin.module({CANONICALIZE}, tt.func(cse, sccp), cse)"


def test_implicit_module_anchor():
    assert parse_pipeline_text("cse,canonicalize").text() == f"builtin.module(cse, {CANONICALIZE})"


def test_options_in_braces():
    pipeline = parse_pipeline_text("builtin.module(inline{default-pipeline='cse'})")
    assert pipeline.steps[0].pass_.default_pipeline == "cse"


def test_empty_nest_is_allowed():
    assert parse_pipeline_text("builtin.module(tt.func())").steps[0].steps == []


@pytest.mark.parametrize("text, col, message", [
    ("builtin.module(csee)", 16, "unknown pass 'csee'; did you mean 'cse'?"),
    ("builtin.module(cse", 19, "expected ',' or ')'"),
    ("cse,,cse", 5, "expected a pass or operation name"),
    ("cse{", 4, "unterminated '{'"),
    ("builtin.module(tt.func(inline))", 16, "pass 'inline' runs on 'builtin.module'"),
    ("inline{default-pipelin=cse}", 8, "has no option 'default-pipelin'"),
])
def test_errors_point_at_a_column(text, col, message):
    with pytest.raises(TileoptError) as err:
        parse_pipeline_text(text)
    assert err.value.file == "<pass-pipeline>" and err.value.col == col, err.value.format()
    assert message in err.value.message
    assert err.value.notes == [text, " " * (col - 1) + "^"]


def test_yaml_names_and_pass_names_are_told_apart():
    assert resolve_pass_pipeline("cse").name is None            # a pass
    assert resolve_pass_pipeline("amd-cdna3").name == "amd-cdna3"  # a pipeline
    with pytest.raises(TileoptError, match="unknown pass or pipeline 'amd-cdna'; did you mean"):
        resolve_pass_pipeline("amd-cdna")


def test_long_pipeline_text_is_never_a_file_name():
    # Issue 16: text past the file system's name limit was first looked up as a file.
    text = resolve_pass_pipeline("amd-cdna3").text()
    assert len(text) > 300
    assert resolve_pass_pipeline(text).text() == text
    with pytest.raises(TileoptError, match="unknown pass or pipeline 'xxx"):
        resolve_pass_pipeline("x" * 300)
