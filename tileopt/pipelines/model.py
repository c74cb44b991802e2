"""A pass pipeline: passes with typed options, nested under anchor ops, grouped in stages.

Every way of naming passes (flags, ``--pass-pipeline`` text, YAML files) ends up here, and
:func:`make_step` is the one place where a pass name and its option values are checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tileopt.ir import TileoptError
from tileopt.ir.diagnostics import caret_excerpt, did_you_mean
from tileopt.passes.base import Pass
from tileopt.passes.registry import all_passes, get_pass


@dataclass(frozen=True)
class Where:
    """A position to blame: file (or ``<pass-pipeline>``, ``<command line>``), line, col.

    ``notes`` are extra lines (the pipeline text and a caret under the column).
    """

    file: str | None = None
    line: int | None = None
    col: int | None = None
    notes: tuple[str, ...] = ()

    def error(self, message: str) -> TileoptError:
        return TileoptError(message, self.file, self.line, self.col, list(self.notes))


def where_in_text(source: str, text: str, offset: int) -> Where:
    """Column ``offset + 1`` of one-line ``text`` (pipeline text, a flag's value), with the
    text and a caret under the column."""
    return Where(source, 1, offset + 1, tuple(caret_excerpt(text, offset + 1)))


@dataclass(frozen=True)
class OptionInput:
    """An option as written: its key and raw value (text or a YAML scalar), with positions."""

    key: str
    value: object
    key_where: Where
    value_where: Where


@dataclass
class PassStep:
    """One pass to run; ``stage`` is the YAML stage it belongs to (None outside YAML)."""

    pass_: Pass
    stage: str | None = None

    @property
    def name(self) -> str:
        return self.pass_.name


@dataclass
class NestStep:
    """Run ``steps`` on every ``anchor`` op directly inside the current op."""

    anchor: str
    steps: list["Step"] = field(default_factory=list)


Step = PassStep | NestStep


@dataclass
class Pipeline:
    """The passes to run on the top-level op (always ``builtin.module``)."""

    steps: list[Step] = field(default_factory=list)
    anchor: str = "builtin.module"
    name: str | None = None
    # YAML pipelines: stage names in order (each PassStep.stage is one of them).
    stages: list[str] = field(default_factory=list)
    # YAML pipelines: stage -> passes it lists as ``!missing`` (not in tileopt yet, skipped).
    missing: dict[str, list[str]] = field(default_factory=dict)
    # YAML pipelines with a target: the GPU as Triton names it (``cuda:90``, ``hip:gfx942``),
    # what ``tileopt --emit`` compiles for unless ``--arch`` is given.
    target: str | None = None
    # YAML pipelines: the Triton release they follow ("3.6", "3.9"); the module is
    # compiled and printed as that version (tileopt.dialects.triton_version).
    triton_version: str | None = None

    def text(self) -> str:
        """MLIR pipeline text: ``builtin.module(canonicalize, tt.func(cse))``."""
        return f"{self.anchor}({_steps_text(self.steps)})"

    def pass_steps(self) -> list[PassStep]:
        return list(_walk(self.steps))

    def incomplete_stages(self) -> list[str]:
        """One line per stage that skips ``!missing`` passes, for the driver to warn with."""
        return [f"stage '{stage}' of pipeline '{self.name}' is incomplete: it skips "
                f"{', '.join(self.missing[stage])} (not run by tileopt yet)"
                for stage in self.stages if self.missing.get(stage)]


def _steps_text(steps: list[Step]) -> str:
    parts = []
    for step in steps:
        if isinstance(step, PassStep):
            parts.append(step.pass_.pipeline_text())
        else:
            parts.append(f"{step.anchor}({_steps_text(step.steps)})")
    return ", ".join(parts)


def _walk(steps: list[Step]):
    for step in steps:
        if isinstance(step, PassStep):
            yield step
        else:
            yield from _walk(step.steps)


def unknown_pass_error(name: str, where: Where) -> TileoptError:
    return where.error(f"unknown pass '{name}'" + did_you_mean(name, all_passes()))


def unknown_option_error(pass_name: str, key: str, known: list[str],
                         where: Where) -> TileoptError:
    listed = f" (its options: {', '.join(known)})" if known else " (it takes no options)"
    return where.error(f"pass '{pass_name}' has no option '{key}'"
                       + did_you_mean(key, known, listed))


def make_step(name: str, options: list[OptionInput], where: Where,
              stage: str | None = None) -> PassStep:
    """Look up pass ``name`` and build it from ``options``; errors blame their position."""
    cls = get_pass(name)
    if cls is None:
        raise unknown_pass_error(name, where)
    specs = {spec.name: spec for spec in cls.options()}
    values: dict[str, object] = {}
    for item in options:
        spec = specs.get(item.key)
        if spec is None:
            raise unknown_option_error(name, item.key, list(specs), item.key_where)
        if item.key in values:
            raise item.key_where.error(f"option '{item.key}' of pass '{name}' is given twice")
        try:
            values[item.key] = spec.parse(item.value)
        except ValueError as err:
            raise item.value_where.error(f"{err} (pass '{name}')") from None
    return PassStep(cls.from_options(values), stage)
