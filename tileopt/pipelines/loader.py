"""YAML pipelines: find, load, check, extend and instantiate them (format: docs/pipelines.md).

A pipeline file names registered passes in stages; ``${param}`` in an option value refers to
a pipeline parameter (or ``${target.arch}`` etc. to the target). ``extends:`` starts from
another pipeline and edits it with ``changes:``. Every error names file:line:col.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tileopt.ir.diagnostics import TileoptError, did_you_mean
from tileopt.passes.registry import get_pass, is_indexed_or_registered, load_plugin_file
from tileopt.pipelines.model import (OptionInput, PassStep, Pipeline, Where, make_step,
                                     unknown_option_error, unknown_pass_error)
from tileopt.dialects.triton_version import check_version

if TYPE_CHECKING:  # PyYAML is imported when a pipeline file is read, not at start-up
    import yaml

    from tileopt.pipelines.yaml_file import YamlFile

BUILTIN_DIR = Path(__file__).resolve().parent / "builtin"
PATH_VARIABLE = "TILEOPT_PIPELINE_PATH"

PARAM_TYPES = {"int": int, "float": float, "bool": bool, "str": str}
TARGET_KEYS = ["backend", "arch", "warp-size"]
BACKENDS = ["cuda", "hip"]
TOP_KEYS = ["name", "description", "triton-version", "extends", "plugins", "target",
            "parameters", "stages", "changes"]
_REFERENCE = re.compile(r"\$\{([A-Za-z0-9_.\-]+)\}")
# ``- !missing pass-name``: a pass the pipeline needs that tileopt does not run yet; it is
# skipped, and the driver warns that its stage is incomplete.
MISSING_TAG = "!missing"
NAME = re.compile(r"[\w.\-]+")  # how a pipeline (or pass) name is spelled


def search_path() -> list[Path]:
    """The package's built-in pipelines first, then ``$TILEOPT_PIPELINE_PATH`` directories."""
    dirs = [BUILTIN_DIR]
    for entry in os.environ.get(PATH_VARIABLE, "").split(os.pathsep):
        if entry:
            dirs.append(Path(entry))
    return dirs


def available_pipelines() -> dict[str, Path]:
    """Pipeline name -> file, for every ``NAME.yaml`` on the search path (first one wins)."""
    found: dict[str, Path] = {}
    for directory in search_path():
        if directory.is_dir():
            for file in sorted(directory.glob("*.yaml")):
                found.setdefault(file.stem, file)
    return found


def pipelines_for_target(backend: str, arch: str, triton_version: str | None = None) -> list[str]:
    """The pipelines on the search path whose target is ``backend`` and ``arch`` (and, if
    given, whose Triton version is ``triton_version``; for a hint: a file that does not
    load is left out)."""
    names = []
    for name, path in available_pipelines().items():
        try:
            definition = load_definition(path)
        except TileoptError:
            continue
        target = definition.target
        if target.get("backend") == backend and str(target.get("arch")) == arch and \
                triton_version in (None, definition.triton_version):
            names.append(name)
    return names


def find_pipeline(name: str) -> Path | None:
    if not NAME.fullmatch(name):
        return None  # pipeline names are words; anything else is no file of ours
    for directory in search_path():
        candidate = directory / f"{name}.yaml"
        try:
            if candidate.is_file():
                return candidate
        except OSError:  # a name the file system refuses (too long, ...) is simply not there
            continue
    return None


def _display(path: Path) -> str:
    """How a pipeline file is named in messages: relative to the cwd when below it."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


# The loaded, not yet instantiated form ------------------------------------------------

@dataclass
class Param:
    name: str
    type: str
    default: object  # MISSING when none
    help: str
    where: Where
    choices: list[object] | None = None


class _Missing:
    """The default of a parameter that has none (one object, kept so when pickled)."""

    def __reduce__(self) -> str:
        return "MISSING"

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()


@dataclass
class PassEntry:
    """A pass named in a YAML file; option values are raw (``${...}`` not yet replaced)."""

    name: str
    options: list[tuple[str, object, Where, Where]]
    where: Where
    missing: bool = False  # tagged !missing: not run by tileopt yet, skipped


@dataclass
class Definition:
    name: str
    description: str
    file: Path
    target: dict[str, object] = field(default_factory=dict)
    # The Triton release whose passes and text the pipeline follows (None: the input's).
    triton_version: str | None = None
    params: dict[str, Param] = field(default_factory=dict)
    stages: dict[str, list[PassEntry]] = field(default_factory=dict)


def load_definition(path: Path) -> Definition:
    """Load a pipeline file, following ``extends:`` (kept across commands by
    ``definition_cache``)."""
    from tileopt.pipelines import definition_cache

    definition = definition_cache.lookup(path)
    if definition is None:
        read: list[Path | None] = []
        definition = _load_definition(path, (), None, read)
        if None not in read:  # None: a file of the chain loads plugins
            definition_cache.store(path, read, definition)
    return definition


def _load_definition(path: Path, chain: tuple[Path, ...], via: Where | None,
                     read: list[Path | None]) -> Definition:
    """``chain`` detects cycles; ``read`` gets each file read (None for one with plugins)."""
    resolved = path.resolve()
    read.append(resolved)
    if resolved in chain:
        names = " -> ".join(_display(p) for p in chain + (resolved,))
        raise (via or Where(_display(path))).error(f"cycle in 'extends': {names}")
    from tileopt.pipelines.yaml_file import YamlFile

    doc = YamlFile(path, _display(path))
    pairs = doc.mapping(doc.root, "a pipeline file")
    doc.check_keys(pairs, TOP_KEYS, "a pipeline file")
    nodes = {key.value: (key, value) for key, value in pairs}
    if "name" not in nodes:
        raise doc.error(doc.root, "a pipeline file needs a 'name:'")
    name = doc.string(nodes["name"][1], "'name'")
    if "plugins" in nodes:
        read.append(None)
        # Plugin files (relative to this file) register passes the stages below may name.
        for item in doc.sequence(nodes["plugins"][1], "'plugins'"):
            plugin = path.parent / doc.string(item, "a plugin path")
            if not plugin.is_file():
                raise doc.error(item, f"no plugin file '{item.value}' next to {_display(path)}")
            load_plugin_file(str(plugin))

    if "extends" in nodes:
        base_node = nodes["extends"][1]
        base_ref = doc.string(base_node, "'extends'")
        base_path = _resolve_extends(base_ref, path, doc, base_node)
        definition = _load_definition(base_path, chain + (resolved,), doc.where(base_node),
                                      read)
        definition.name = name
        definition.file = path
    else:
        if "changes" in nodes:
            raise doc.error(nodes["changes"][0], "'changes' edits the pipeline named in "
                                                 "'extends', and this file has no 'extends'")
        if "stages" not in nodes:
            raise doc.error(doc.root, "a pipeline file needs 'stages:' (or 'extends:')")
        definition = Definition(name, "", path)
    if "description" in nodes:
        definition.description = doc.string(nodes["description"][1], "'description'")
    if "triton-version" in nodes:
        node = nodes["triton-version"][1]
        try:
            definition.triton_version = check_version(doc.string(node, "'triton-version'"))
        except ValueError as err:
            raise doc.error(node, str(err)) from None
    if "target" in nodes:
        _load_target(doc, nodes["target"][1], definition)
    if "parameters" in nodes:
        _load_params(doc, nodes["parameters"][1], definition)
    if "stages" in nodes:
        for stage, entries in _load_stages(doc, nodes["stages"][1]).items():
            # In an extending file a stage replaces the base's stage of the same name.
            definition.stages[stage] = entries
    if "changes" in nodes:
        _apply_changes(doc, nodes["changes"][1], definition)
    for entries in definition.stages.values():
        for entry in entries:
            _check_references(entry, definition)
    return definition


def _resolve_extends(ref: str, path: Path, doc: YamlFile, node: yaml.Node) -> Path:
    if ref.endswith((".yaml", ".yml")) or "/" in ref:
        candidate = (path.parent / ref)
        if not candidate.is_file():
            raise doc.error(node, f"'extends': no pipeline file '{ref}' next to "
                                  f"{_display(path)}")
        return candidate
    found = find_pipeline(ref)
    if found is None:
        raise doc.error(node, _unknown_pipeline_message(ref))
    return found


def _unknown_pipeline_message(name: str) -> str:
    known = list(available_pipelines())
    return f"unknown pipeline '{name}'" + did_you_mean(
        name, known, f" (known: {', '.join(known)})" if known else "")


def _load_target(doc: YamlFile, node: yaml.Node, definition: Definition) -> None:
    pairs = doc.mapping(node, "'target'")
    doc.check_keys(pairs, TARGET_KEYS, "'target'")
    for key, value in pairs:
        scalar = doc.scalar(value, f"target '{key.value}'")
        if key.value == "backend" and scalar not in BACKENDS:
            raise doc.error(value, f"target backend must be one of {', '.join(BACKENDS)}, "
                                   f"not '{scalar}'")
        if key.value == "warp-size" and (not isinstance(scalar, int) or isinstance(scalar, bool)
                                         or scalar not in (32, 64)):
            raise doc.error(value, f"target warp-size must be 32 or 64, not '{scalar}'")
        definition.target[key.value] = str(scalar) if key.value == "arch" else scalar


def _load_params(doc: YamlFile, node: yaml.Node, definition: Definition) -> None:
    import yaml

    for key, value in doc.mapping(node, "'parameters'"):
        name = key.value
        inherited = definition.params.get(name)
        if isinstance(value, yaml.MappingNode):
            pairs = doc.mapping(value, f"parameter '{name}'")
            doc.check_keys(pairs, ["type", "default", "help", "choices"], f"parameter '{name}'")
            fields = {k.value: v for k, v in pairs}
        else:
            # Shorthand ``num-warps: 4``: the default, its type inferred.
            fields = {"default": value}
        if "type" in fields:
            type_name = doc.string(fields["type"], f"type of parameter '{name}'")
            if type_name not in PARAM_TYPES:
                raise doc.error(fields["type"], f"unknown parameter type '{type_name}' "
                                                f"(expected: {', '.join(PARAM_TYPES)})")
            if inherited is not None and inherited.type != type_name:
                raise doc.error(fields["type"], f"parameter '{name}' is {inherited.type} in the "
                                                f"pipeline this one extends")
        elif inherited is not None:
            type_name = inherited.type
        elif "default" in fields:
            type_name = _infer_type(doc.scalar(fields["default"], f"default of '{name}'"))
        else:
            raise doc.error(key, f"parameter '{name}' needs a 'type' or a 'default'")
        param = Param(name, type_name, inherited.default if inherited else MISSING,
                      inherited.help if inherited else "", doc.where(key),
                      inherited.choices if inherited else None)
        if "help" in fields:
            param.help = doc.string(fields["help"], f"help of parameter '{name}'")
        if "choices" in fields:
            param.choices = [_typed(doc, item, param) for item in
                             doc.sequence(fields["choices"], f"choices of '{name}'")]
        if "default" in fields:
            param.default = _typed(doc, fields["default"], param)
        definition.params[name] = param


def _infer_type(value: object) -> str:
    for name, kind in (("bool", bool), ("int", int), ("float", float)):
        if isinstance(value, kind):
            return name
    return "str"


def _typed(doc: YamlFile, node: yaml.Node, param: Param) -> object:
    value = doc.scalar(node, f"value of parameter '{param.name}'")
    try:
        return convert_param(param, value)
    except ValueError as err:
        raise doc.error(node, str(err)) from None


def convert_param(param: Param, value: object) -> object:
    """Check/convert a parameter value (from YAML or command-line text) to its type."""
    kind = PARAM_TYPES[param.type]
    result: object
    if kind is bool:
        if isinstance(value, bool):
            result = value
        elif str(value).lower() in ("true", "false"):
            result = str(value).lower() == "true"
        else:
            raise ValueError(f"parameter '{param.name}' is a bool (true/false), not '{value}'")
    elif kind is int:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ValueError(f"parameter '{param.name}' is an int, not '{value}'")
        try:
            result = int(value) if isinstance(value, int) else int(value.strip(), 0)
        except ValueError:
            raise ValueError(f"parameter '{param.name}' is an int, not '{value}'") from None
    elif kind is float:
        try:
            if isinstance(value, bool):
                raise ValueError
            result = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ValueError(f"parameter '{param.name}' is a float, not '{value}'") from None
    else:
        if isinstance(value, (list, dict)):
            raise ValueError(f"parameter '{param.name}' is a string, not a list")
        result = value if isinstance(value, str) else str(value)
    if param.choices is not None and result not in param.choices:
        raise ValueError(f"parameter '{param.name}' must be one of "
                         f"{', '.join(str(c) for c in param.choices)}, not '{value}'")
    return result


def _load_stages(doc: YamlFile, node: yaml.Node) -> dict[str, list[PassEntry]]:
    stages: dict[str, list[PassEntry]] = {}
    for key, value in doc.mapping(node, "'stages'"):
        if "/" in key.value or "#" in key.value:
            raise doc.error(key, f"stage name '{key.value}' may not contain '/' or '#'")
        stages[key.value] = _load_pass_list(doc, value, f"stage '{key.value}'")
    return stages


def _load_pass_list(doc: YamlFile, node: yaml.Node, what: str) -> list[PassEntry]:
    return [_load_pass(doc, item) for item in doc.sequence(node, f"{what}")]


def _load_pass(doc: YamlFile, node: yaml.Node) -> PassEntry:
    """``- cse`` or ``- pass-name: {option: value, ...}``."""
    import yaml

    if isinstance(node, yaml.ScalarNode):
        name_node, options_node = node, None
    elif isinstance(node, yaml.MappingNode) and len(node.value) == 1:
        name_node, options_node = node.value[0]
    else:
        raise doc.error(node, "a pass is written 'pass-name' or 'pass-name: {option: value}'")
    name = doc.string(name_node, "a pass name")
    if name_node.tag == MISSING_TAG:
        # Neither name nor options can be checked against a pass that does not exist yet.
        return PassEntry(name, [], doc.where(name_node), missing=True)
    if name_node.tag.startswith("!"):
        raise doc.error(name_node, f"unknown tag '{name_node.tag}' on pass '{name}' "
                                   f"(the only tag is {MISSING_TAG})")
    if get_pass(name) is None:
        raise unknown_pass_error(name, doc.where(name_node))
    options = []
    if options_node is not None and not (isinstance(options_node, yaml.ScalarNode)
                                         and options_node.tag == "tag:yaml.org,2002:null"):
        options = _load_options(doc, name, options_node)
    return PassEntry(name, options, doc.where(name_node))


def _load_options(doc: YamlFile, name: str, node: yaml.Node
                  ) -> list[tuple[str, object, Where, Where]]:
    """``{option: value, ...}`` of the registered pass ``name``, each option checked."""
    known = [spec.name for spec in get_pass(name).options()]
    options = []
    for key, value in doc.mapping(node, f"options of pass '{name}'"):
        if key.value not in known:
            raise unknown_option_error(name, key.value, list(known), doc.where(key))
        options.append((key.value, doc.scalar(value, f"option '{key.value}'"),
                        doc.where(key), doc.where(value)))
    return options


def _check_references(entry: PassEntry, definition: Definition) -> None:
    for key, value, _key_where, value_where in entry.options:
        for text in (value if isinstance(value, list) else [value]):
            if not isinstance(text, str):
                continue
            for match in _REFERENCE.finditer(text):
                ref = match.group(1)
                if ref.startswith("target."):
                    if ref[len("target."):] not in TARGET_KEYS:
                        raise value_where.error(f"unknown reference '${{{ref}}}' (target fields: "
                                                f"{', '.join('target.' + k for k in TARGET_KEYS)})")
                    if ref[len("target."):] not in definition.target:
                        raise value_where.error(f"'${{{ref}}}' is used but pipeline "
                                                f"'{definition.name}' sets no target "
                                                f"{ref[len('target.'):]}")
                elif ref not in definition.params:
                    message = (f"unknown parameter '${{{ref}}}' in option '{key}'"
                               + did_you_mean(ref, definition.params,
                                              " (declare it under 'parameters:')",
                                              spelled="'${{{}}}'"))
                    raise value_where.error(message)


# extends: changes ----------------------------------------------------------------------

CHANGE_KINDS = ["insert-before", "insert-after", "remove", "replace", "set", "append"]


def _apply_changes(doc: YamlFile, node: yaml.Node, definition: Definition) -> None:
    import yaml

    for change in doc.sequence(node, "'changes'"):
        pairs = doc.mapping(change, "a change")
        keys = {k.value: (k, v) for k, v in pairs}
        kinds = [k for k in keys if k in CHANGE_KINDS]
        if len(kinds) != 1:
            raise doc.error(change, "a change needs exactly one of: " + ", ".join(CHANGE_KINDS))
        kind = kinds[0]
        allowed = {"insert-before": ["passes"], "insert-after": ["passes"], "remove": [],
                   "replace": ["with"], "set": ["options"], "append": ["passes"]}[kind]
        doc.check_keys(pairs, [kind] + allowed, f"a '{kind}' change")
        for needed in allowed:
            if needed not in keys:
                raise doc.error(change, f"a '{kind}' change needs '{needed}:'")
        target_node = keys[kind][1]
        if kind == "append":
            stage = doc.string(target_node, "'append' (a stage name)")
            entries = _load_pass_list(doc, keys["passes"][1], "'passes'")
            definition.stages.setdefault(stage, []).extend(entries)
            continue
        refs = doc.sequence(target_node, kind) if kind in ("remove", "set") and isinstance(
            target_node, yaml.SequenceNode) else [target_node]
        for ref_node in refs:
            ref = doc.string(ref_node, f"'{kind}' (a pass reference)")
            stage, index = _find(doc, ref_node, ref, definition)
            entries = definition.stages[stage]
            if kind == "remove":
                del entries[index]
            elif kind == "set":
                _set_options(doc, ref_node, entries[index], keys["options"][1])
            elif kind == "replace":
                entries[index:index + 1] = _load_pass_list(doc, keys["with"][1], "'with'")
            elif kind == "insert-before":
                entries[index:index] = _load_pass_list(doc, keys["passes"][1], "'passes'")
            else:
                entries[index + 1:index + 1] = _load_pass_list(doc, keys["passes"][1], "'passes'")


def _set_options(doc: YamlFile, ref_node: yaml.Node, entry: PassEntry,
                 options_node: yaml.Node) -> None:
    """``set:``: the options given replace the inherited ones of the same name; the
    others stay as the base wrote them (``${...}`` included)."""
    if entry.missing:
        raise doc.error(ref_node, f"pass '{entry.name}' is tagged {MISSING_TAG} (not run by "
                                  "tileopt yet), so it has no options to set")
    given = _load_options(doc, entry.name, options_node)
    names = {key for key, *_ in given}
    entry.options = [option for option in entry.options if option[0] not in names] + given


def _find(doc: YamlFile, node: yaml.Node, ref: str, definition: Definition) -> tuple[str, int]:
    """Resolve ``[stage/]pass[#N]`` (N counts from 1 within the stage, or the pipeline)."""
    match = re.fullmatch(r"(?:([^/#]+)/)?([^/#]+)(?:#([0-9]+))?", ref.strip())
    if match is None:
        raise doc.error(node, f"bad pass reference '{ref}' (write [stage/]pass[#N])")
    stage_name, pass_name, nth = match.groups()
    if stage_name is not None and stage_name not in definition.stages:
        raise doc.error(node, f"pipeline has no stage '{stage_name}' "
                              f"(stages: {', '.join(definition.stages)})")
    hits = [(stage, i) for stage, entries in definition.stages.items()
            if stage_name in (None, stage)
            for i, entry in enumerate(entries) if entry.name == pass_name]
    scope = f"stage '{stage_name}'" if stage_name else "the pipeline"
    if not hits:
        raise doc.error(node, f"pass '{pass_name}' is not in {scope}, so it cannot be a "
                              "reference point")
    if nth is not None:
        n = int(nth)
        if not 1 <= n <= len(hits):
            raise doc.error(node, f"'{ref}': {scope} has {len(hits)} '{pass_name}' pass(es)")
        return hits[n - 1]
    if len(hits) > 1:
        # Each stage once, with how often the pass occurs there.
        counts: dict[str, int] = {}
        for stage, _ in hits:
            counts[stage] = counts.get(stage, 0) + 1
        places = "" if stage_name else " ({})".format(", ".join(
            f"{stage}/{pass_name}" + (f" ({n} times)" if n > 1 else "")
            for stage, n in counts.items()))
        raise doc.error(node, f"'{pass_name}' occurs {len(hits)} times in {scope}{places}: "
                              f"write {ref.strip()}#N (N counts from 1"
                              f"{' within the stage' if stage_name else ''})"
                              + ("" if stage_name else " or stage/pass[#N]"))
    return hits[0]


# Instantiation ------------------------------------------------------------------------

def instantiate(definition: Definition, overrides: list[tuple[str, str, Where]]) -> Pipeline:
    """Replace ``${...}`` with parameter/target values and build the passes."""
    values: dict[str, object] = {}
    for name, text, where in overrides:
        param = definition.params.get(name)
        if param is None:
            message = f"pipeline '{definition.name}' has no parameter '{name}'" + did_you_mean(
                name, definition.params,
                f" (its parameters: {', '.join(definition.params) or 'none'})")
            raise where.error(message)
        try:
            values[name] = convert_param(param, text)
        except ValueError as err:
            raise where.error(str(err)) from None
    for name, param in definition.params.items():
        if name not in values:
            if param.default is MISSING:
                raise param.where.error(
                    f"parameter '{name}' of pipeline '{definition.name}' has no default and "
                    f"was not given: use --pass-pipeline={definition.name}{{{name}=...}}")
            values[name] = param.default
    for key, value in definition.target.items():
        values["target." + key] = value

    steps: list[PassStep] = []
    missing: dict[str, list[str]] = {}
    for stage, entries in definition.stages.items():
        for entry in entries:
            if entry.missing:
                if entry.name not in missing.setdefault(stage, []):
                    missing[stage].append(entry.name)
                continue
            options = [OptionInput(key, _substitute(value, values), key_where, value_where)
                       for key, value, key_where, value_where in entry.options]
            steps.append(make_step(entry.name, options, entry.where, stage))
    target = definition.target
    gpu = f"{target['backend']}:{target['arch']}" if "backend" in target and "arch" in target \
        else None
    return Pipeline(steps, name=definition.name, stages=list(definition.stages),
                    missing=missing, target=gpu, triton_version=definition.triton_version)


def _substitute(value: object, values: dict[str, object]) -> object:
    if isinstance(value, list):
        return [_substitute(item, values) for item in value]
    if not isinstance(value, str):
        return value
    whole = _REFERENCE.fullmatch(value)
    if whole:
        return values[whole.group(1)]  # keeps the parameter's type
    return _REFERENCE.sub(lambda m: _as_text(values[m.group(1)]), value)


def _as_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def load_pipeline(path: Path, overrides: list[tuple[str, str, Where]]) -> Pipeline:
    return instantiate(load_definition(path), overrides)


def resolve_name(name: str, where: Where) -> Path:
    """A pipeline name or a path to a .yaml file -> the file."""
    if name.endswith((".yaml", ".yml")) or os.sep in name:
        path = Path(name)
        if not path.is_file():
            raise where.error(f"no pipeline file '{name}'")
        return path
    found = find_pipeline(name)
    if found is None:
        raise where.error(_unknown_pipeline_message(name))
    return found


def looks_like_pipeline(name: str) -> bool:
    """Whether ``--pass-pipeline=name`` means a YAML pipeline rather than pipeline text.

    Decided by spelling before any file is looked at: ``*.yaml``/``*.yml`` is a file, a word
    (``[\\w.-]+``) is a pass if one has that name, else a pipeline if one is found; anything
    else (parentheses, commas, spaces) is pipeline text, however long.
    """
    if name.endswith((".yaml", ".yml")):
        return True
    # (Whether it is a pass is asked of the index: a full look-up would import every pass
    # module to learn that ``nvidia-sm90`` is not one.)
    if not NAME.fullmatch(name) or is_indexed_or_registered(name):
        return False
    return find_pipeline(name) is not None
