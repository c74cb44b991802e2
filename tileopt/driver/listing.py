"""``--list-passes`` and ``--list-pipelines``."""

from __future__ import annotations

from tileopt.passes.registry import all_passes
from tileopt.passes.options import format_option_value


def list_passes_text() -> str:
    lines = ["Available passes:"]
    for name, cls in all_passes().items():
        anchor = "" if cls.anchor == "builtin.module" else \
            ("  [any op]" if cls.anchor is None else f"  [on {cls.anchor}]")
        lines.append(f"  --{name}  {cls.one_line_summary()}{anchor}")
        for spec in cls.options():
            default = "" if spec.default is None else f" = {format_option_value(spec.default)}"
            help_text = f"  {spec.help}" if spec.help else ""
            lines.append(f"      {spec.name}: {spec.type_name}{default}{help_text}")
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
        lines.append(f"  {name}  {definition.description}" + (f"  [{where}]" if where else ""))
        lines.append(f"      file: {path}")
        lines.append(f"      stages: {', '.join(definition.stages)}")
        for param in definition.params.values():
            default = " (required)" if param.default is MISSING else \
                f" = {format_option_value(param.default)}"
            lines.append(f"      {param.name}: {param.type}{default}"
                         + (f"  {param.help}" if param.help else ""))
    return "\n".join(lines) + "\n"
