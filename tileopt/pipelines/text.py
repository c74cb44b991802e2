"""Parsing MLIR's textual pass pipeline: ``builtin.module(canonicalize, tt.func(cse{...}))``.

Grammar (as ``mlir-opt --pass-pipeline``)::

    pipeline := element (',' element)*
    element  := pass-name ('{' options '}')?
              | op-name '(' pipeline? ')'        nest: run the inner passes on each op-name

The outer ``builtin.module(...)`` may be left out: ``--pass-pipeline='cse,canonicalize'`` is
read as ``builtin.module(cse,canonicalize)``. Errors point at a column of the text.
"""

from __future__ import annotations

from tileopt.ir import TileoptError
from tileopt.passes.options import OptionTextError, split_option_text
from tileopt.pipelines.model import (NestStep, OptionInput, PassStep, Pipeline, Step, Where,
                                     make_step, where_in_text)

SOURCE = "<pass-pipeline>"
ANY = "any"
"""The anchor of an op-agnostic nested pipeline, ``any(...)``: every op one level down."""


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def where(self, offset: int) -> Where:
        return where_in_text(SOURCE, self.text, offset)

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def name(self) -> tuple[str, int]:
        self.skip_space()
        start = self.pos
        while self.pos < len(self.text) and (self.text[self.pos].isalnum()
                                             or self.text[self.pos] in "-_.$"):
            self.pos += 1
        if start == self.pos:
            found = self.text[start] if start < len(self.text) else "end of text"
            raise self.where(start).error(f"expected a pass or operation name, found '{found}'")
        return self.text[start:self.pos], start

    def braced(self) -> tuple[str, int]:
        """Text inside a balanced ``{...}`` starting at the current position."""
        start = self.pos
        depth = 0
        quote = ""
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if quote:
                if char == quote:
                    quote = ""
            elif char in "'\"":
                quote = char
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    self.pos += 1
                    return self.text[start + 1:self.pos - 1], start + 1
            self.pos += 1
        raise self.where(start).error("unterminated '{' in pass options")


def parse_pipeline_text(text: str) -> Pipeline:
    reader = _Reader(text)
    if not text.strip():
        raise reader.where(0).error("empty pass pipeline")
    steps = _parse_list(reader, closing="")
    if reader.peek():
        raise reader.where(reader.pos).error(f"unexpected '{reader.peek()}' in pass pipeline")
    # An explicit top-level ``builtin.module(...)`` is the pipeline itself, and so is
    # ``any(...)``, the op-agnostic form Triton's pass managers print.
    if len(steps) == 1 and isinstance(steps[0], NestStep) and \
            steps[0].anchor in ("builtin.module", ANY):
        return Pipeline(steps[0].steps)
    for step in steps:
        if isinstance(step, NestStep) and step.anchor == "builtin.module":
            raise TileoptError("'builtin.module(...)' must be the whole pipeline, not one "
                               "element of a list", SOURCE)
    return Pipeline(steps)


def _parse_list(reader: _Reader, closing: str) -> list[Step]:
    steps: list[Step] = []
    if closing and reader.peek() == closing:
        return steps
    while True:
        steps.append(_parse_element(reader))
        char = reader.peek()
        if char == ",":
            reader.pos += 1
            continue
        if char == closing:
            return steps
        if closing:
            raise reader.where(reader.pos).error(
                f"expected ',' or '{closing}' in pass pipeline, found '{char or 'end of text'}'")
        raise reader.where(reader.pos).error(f"expected ',' in pass pipeline, found '{char}'")


def _parse_element(reader: _Reader) -> Step:
    name, start = reader.name()
    char = reader.peek()
    if char == "(":
        reader.pos += 1
        inner = _parse_list(reader, closing=")")
        if reader.peek() != ")":
            raise reader.where(reader.pos).error("expected ')' to close the nested pipeline")
        reader.pos += 1
        for step in inner:
            if isinstance(step, PassStep):
                anchor = type(step.pass_).anchor
                # A function pass at module level runs on every function (the YAML
                # pipelines list Triton's tt.func passes so).
                if anchor is not None and name not in (anchor, ANY, "builtin.module"):
                    raise reader.where(start).error(
                        f"pass '{step.name}' runs on '{anchor}' and cannot be nested under "
                        f"'{name}'")
        return NestStep(name, inner)
    options: list[OptionInput] = []
    if char == "{":
        body, body_start = reader.braced()
        try:
            assignments = split_option_text(body)
        except OptionTextError as err:
            raise reader.where(body_start + err.offset).error(err.message) from None
        for item in assignments:
            options.append(OptionInput(item.key, item.value,
                                       reader.where(body_start + item.offset),
                                       reader.where(body_start + item.value_offset)))
    return make_step(name, options, reader.where(start))
