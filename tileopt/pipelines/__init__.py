"""Pipelines: what ``--pass-pipeline`` accepts, and running part of a staged pipeline.

- ``model``: the Pipeline / PassStep / NestStep objects every source produces.
- ``text``: MLIR pipeline text, ``builtin.module(cse, tt.func(canonicalize))``.
- ``loader``: YAML pipelines (format in docs/pipelines.md), found by name in the built-in
  directory then ``$TILEOPT_PIPELINE_PATH``.
"""

from __future__ import annotations

import re

from tileopt.ir import TileoptError
from tileopt.ir.diagnostics import did_you_mean
from tileopt.passes.options import OptionTextError, split_option_text
from tileopt.passes.registry import all_passes, get_pass
from tileopt.pipelines.loader import (NAME, available_pipelines, load_pipeline,
                                      looks_like_pipeline, resolve_name)
from tileopt.pipelines.model import PassStep, Pipeline, Where, where_in_text
from tileopt.pipelines.text import SOURCE, parse_pipeline_text

__all__ = ["resolve_pass_pipeline", "slice_stages", "available_pipelines", "Pipeline"]

_WITH_PARAMS = re.compile(r"^\s*([^{}\s]+)\s*\{(.*)\}\s*$", re.DOTALL)


def _where(text: str, offset: int) -> Where:
    return where_in_text(SOURCE, text, offset)


def resolve_pass_pipeline(text: str) -> Pipeline:
    """``--pass-pipeline`` value -> Pipeline.

    ``amd-cdna3`` or ``path/to/file.yaml``: a YAML pipeline; ``amd-cdna3{num-warps=8}``: the
    same with parameters overridden; anything else: MLIR pipeline text.
    """
    match = _WITH_PARAMS.match(text)
    name = match.group(1) if match else text.strip()
    if looks_like_pipeline(name):
        overrides = []
        if match:
            body_start = text.index("{") + 1
            try:
                assignments = split_option_text(match.group(2))
            except OptionTextError as err:
                raise _where(text, body_start + err.offset).error(err.message) from None
            overrides = [(a.key, a.value, _where(text, body_start + a.offset))
                         for a in assignments]
        return load_pipeline(resolve_name(name, _where(text, 0)), overrides)
    if NAME.fullmatch(name) and get_pass(name) is None:
        # A lone name that is neither a pass nor a pipeline: suggest from both.
        candidates = list(all_passes()) + list(available_pipelines())
        message = f"unknown pass or pipeline '{name}'" + did_you_mean(name, candidates)
        raise _where(text, text.index(name)).error(message)
    return parse_pipeline_text(text)


def slice_stages(pipeline: Pipeline, start_at: str | None, stop_after: str | None) -> Pipeline:
    """Keep the stages from ``start_at`` (inclusive) through ``stop_after`` (inclusive)."""
    if not pipeline.stages:
        raise TileoptError("--start-at/--stop-after need a YAML pipeline with stages "
                           "(--pass-pipeline=NAME)")
    first, last = 0, len(pipeline.stages) - 1
    for flag, stage in (("start-at", start_at), ("stop-after", stop_after)):
        if stage is None:
            continue
        if stage not in pipeline.stages:
            message = (f"--{flag}: pipeline '{pipeline.name}' has no stage '{stage}'"
                       + did_you_mean(stage, pipeline.stages,
                                      f" (stages: {', '.join(pipeline.stages)})"))
            raise TileoptError(message)
        if flag == "start-at":
            first = pipeline.stages.index(stage)
        else:
            last = pipeline.stages.index(stage)
    if first > last:
        raise TileoptError(f"--start-at={start_at} comes after --stop-after={stop_after}")
    kept = pipeline.stages[first:last + 1]
    steps = [s for s in pipeline.steps if isinstance(s, PassStep) and s.stage in kept]
    missing = {stage: names for stage, names in pipeline.missing.items() if stage in kept}
    return Pipeline(steps, pipeline.anchor, pipeline.name, kept, missing, pipeline.target,
                    pipeline.triton_version)
