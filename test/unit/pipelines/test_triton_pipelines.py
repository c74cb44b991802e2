"""Pipelines as Triton 3.6 prints them (``test/inputs/reproducer/triton-3.6-pipelines.txt``,
written by ``make_triton_reproducer.py`` next to it): every pass tileopt has reads with
every option Triton gives it, so a reproducer Triton writes for any of its passes runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tileopt.passes.options import format_option_value, split_option_text
from tileopt.passes.registry import get_pass
from tileopt.pipelines import resolve_pass_pipeline
from tileopt.pipelines.model import NestStep

PIPELINES = Path(__file__).parents[2] / "inputs" / "reproducer" / "triton-3.6-pipelines.txt"


def _top_level(text: str) -> list[str]:
    """The elements of ``text`` split at the commas outside any brackets."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += char in "({"
        depth -= char in ")}"
        if char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    return parts + [text[start:]]


def _elements() -> list[str]:
    elements = []
    for line in PIPELINES.read_text().splitlines():
        assert line.startswith("any(") and line.endswith(")"), line
        elements += [e for e in _top_level(line[4:-1]) if e not in elements]
    return elements


def _pass_text(element: str) -> str:
    return element[len("tt.func("):-1] if element.startswith("tt.func(") else element


def test_the_file_holds_the_three_targets_pipelines():
    text = PIPELINES.read_text()
    for needle in ("target=cuda:80", "target=cuda:90", "target=hip:gfx942"):
        assert needle in text


@pytest.mark.parametrize("element", [e for e in _elements()
                                     if get_pass(_pass_text(e).split("{")[0]) is not None])
def test_tritons_options_are_accepted(element):
    pipeline = resolve_pass_pipeline(f"builtin.module({element})")
    (step,) = pipeline.steps
    if element.startswith("tt.func("):
        assert isinstance(step, NestStep) and step.anchor == "tt.func"
        (step,) = step.steps
    text = _pass_text(element)
    given = split_option_text(text[text.index("{") + 1:-1]) if "{" in text else []
    values = step.pass_.option_values()
    for option in given:
        # Each value reads as given ("" prints as "" and an empty list is left out).
        assert format_option_value(values[option.key]) in (option.value, '""', ""), option


def test_tritons_op_agnostic_pipeline_text_is_the_pipeline():
    # Triton's pass managers print `any(...)`: the passes run on the module itself.
    ttir_line = next(line for line in PIPELINES.read_text().splitlines()
                     if line.startswith("any(inline{"))
    pipeline = resolve_pass_pipeline(ttir_line)
    assert pipeline.steps[0].name == "inline"
    assert pipeline.text().startswith("builtin.module(inline{default-pipeline=canonicalize "
                                      "inlining-threshold=4294967295 max-iterations=4}, ")
