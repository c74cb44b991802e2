"""Running a YAML pipeline from Python, stage by stage: what an integration calls instead of
the ``tileopt`` command (same passes, same verification, no command line).

``load_pipeline("nvidia-sm90", {"num-warps": 8})`` builds the pipeline with the parameters it
declares (the others are dropped, so a user's YAML need not declare all of Triton's options);
``run_stages(text, pipeline)`` parses the text, runs each stage in turn and returns every
stage's printed output together with the final module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp

from tileopt.driver import ir_io
from tileopt.driver.pass_manager import PassManager
from tileopt.ir import TileoptError, make_context
from tileopt.passes.diagnostics import Diagnostic
from tileopt.passes.registry import is_indexed_or_registered
from tileopt.passes.options import OptionTextError, split_option_text
from tileopt.pipelines import slice_stages
from tileopt.pipelines.loader import (NAME, instantiate, load_definition,
                                      looks_like_pipeline, resolve_name)
from tileopt.pipelines.model import Pipeline, where_in_text


@dataclass
class StagedRun:
    """What ``run_stages`` made: each stage's output text (in order) and the last module."""

    texts: dict[str, str]
    module: ModuleOp
    # Warnings and remarks the passes emitted (not printed: the caller decides).
    diagnostics: list[Diagnostic] = field(default_factory=list)


def load_pipeline(spec: str, params: Mapping[str, object] | None = None) -> Pipeline:
    """A YAML pipeline (name, ``NAME{k=v ...}`` or ``.yaml`` path) with ``params`` set.

    Of ``params``, only those the pipeline declares are set; values written in ``spec``'s
    own ``{...}`` win over them (and must be declared).
    """
    name, _, braced = spec.partition("{")
    name = name.strip()
    if not looks_like_pipeline(name) and (is_indexed_or_registered(name)
                                          or not NAME.fullmatch(name)):
        raise TileoptError(f"'{spec}' is not a YAML pipeline (a name such as nvidia-sm90, "
                           "or a .yaml file)")
    where = where_in_text("<pipeline>", spec, 0)
    try:
        written = [(a.key, a.value) for a in split_option_text(braced.rpartition("}")[0])]
    except OptionTextError as err:
        raise where.error(f"in the parameters of '{spec}': {err.message}") from None
    path = resolve_name(name, where)
    declared = load_definition(path).params
    keys = {key for key, _ in written}
    overrides = [(key, value, where) for key, value in written]
    overrides += [(key, value, where) for key, value in (params or {}).items()
                  if key in declared and key not in keys]
    return instantiate(load_definition(path), overrides)


def run_stages(text: str, pipeline: Pipeline, *, filename: str = "<input>",
               start_at: str | None = None) -> StagedRun:
    """Parse ``text`` and run ``pipeline``'s stages from ``start_at`` (default: the first)
    to the end, verifying after each pass; raises ``TileoptError`` (or
    ``InternalPassError``) at the first failure."""
    if not pipeline.stages:
        raise TileoptError("run_stages needs a YAML pipeline with stages")
    ctx = make_context()
    # Read as Triton's Python prints (names from name locations): a loop's arguments get
    # their name locations back, so the stage files name them as Triton's do.
    module = ir_io.parse(text, filename, ctx, arg_name_locs=True)
    first = pipeline.stages.index(start_at) if start_at else 0
    texts: dict[str, str] = {}
    found: list[Diagnostic] = []
    for stage in pipeline.stages[first:]:
        part = slice_stages(pipeline, stage, stage)
        PassManager(part, filename, diagnostics=found.append).run(ctx, module)
        # As Triton's Python writes its stage files: locations, names from name locations.
        texts[stage] = ir_io.render(module, ir_io.PrintOptions(debuginfo=True, name_locs=True))
    return StagedRun(texts, module, found)
