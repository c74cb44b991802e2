"""``--list-passes`` and ``--list-pipelines``."""

from __future__ import annotations

from tileopt.passes.registry import all_passes
from tileopt.passes.options import format_option_value


def _aligned(rows: list[tuple[str, str]], indent: str) -> list[str]:
    """``left  right`` lines with the right column aligned (right may be empty)."""
    width = max((len(left) for left, _ in rows), default=0)
    return [f"{indent}{left:<{width}}  {right}".rstrip() if right else f"{indent}{left}"
            for left, right in rows]


def _option_rows(options) -> list[tuple[str, str]]:
    rows = []
    for name, type_name, default, help_text in options:
        shown = f" = {default}" if default is not None else ""
        rows.append((f"{name}: {type_name}{shown}", help_text))
    return rows


def list_passes_text() -> str:
    passes = all_passes()
    width = max(len(name) for name in passes) + 2
    lines = ["Available passes:"]
    for name, cls in passes.items():
        anchor = "" if cls.anchor == "builtin.module" else \
            ("  [any op]" if cls.anchor is None else f"  [on {cls.anchor}]")
        lines.append(f"  {'--' + name:<{width}}  {cls.one_line_summary()}{anchor}")
        lines += _aligned(_option_rows(
            (spec.name, spec.type_name,
             None if spec.default is None else format_option_value(spec.default), spec.help)
            for spec in cls.options()), "      ")
    return "\n".join(lines) + "\n"


def list_pipelines_text() -> str:
    from tileopt.pipelines.loader import MISSING, available_pipelines, load_definition
    from tileopt.ir import TileoptError

    lines = ["Available pipelines:"]
    for name, path in available_pipelines().items():
        try:
            definition = load_definition(path)
        except TileoptError as err:
            lines.append(f"  {name}  (invalid: {err.format()})")
            continue
        target = definition.target
        where = "/".join(str(target[k]) for k in ("backend", "arch") if k in target)
        version = f"  (Triton {definition.triton_version})" if definition.triton_version \
            else ""
        lines.append(f"  {name}  {definition.description}" + (f"  [{where}]" if where else "")
                     + version)
        lines.append(f"      file: {path}")
        lines.append(f"      stages: {', '.join(definition.stages)}")
        rows = []
        for param in definition.params.values():
            type_name = "|".join(str(c) for c in param.choices) if param.choices \
                else param.type
            default = " (required)" if param.default is MISSING else \
                f" = {format_option_value(param.default)}"
            rows.append((f"{param.name}: {type_name}{default}", param.help or ""))
        lines += _aligned(rows, "      ")
    return "\n".join(lines) + "\n"
