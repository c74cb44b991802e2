"""Reading YAML while keeping positions: every value remembers its file, line and column.

PyYAML's ``compose`` gives a node tree with marks; the loader walks it through the small
typed accessors here so that every error names ``file:line:col`` of the offending node.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from tileopt.ir import TileoptError
from tileopt.ir.diagnostics import did_you_mean
from tileopt.ir.source_positions import SourceText, byte_line_col, remember_source
from tileopt.pipelines.model import Where


MAX_NESTING = 100
"""Deeper flow or block nesting is refused before PyYAML's recursive composer sees it
(it would run out of Python stack)."""


def compose(text: str) -> yaml.Node | None:
    """PyYAML's ``compose`` of ``text``: through libyaml (PyYAML's C extension, a fifteenth
    of the time: 0.25 ms against 4 ms for a built-in pipeline) when PyYAML has it; a text
    libyaml refuses is composed again by the Python parser, whose messages the errors
    quote."""
    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None:
        try:
            return yaml.compose(text, Loader=fast)
        except yaml.YAMLError:
            pass
    return yaml.compose(text, Loader=yaml.SafeLoader)


def _nesting_depth(text: str) -> int:
    """An upper bound on the YAML nesting depth of ``text``: open flow brackets, or the
    deepest indentation (each level indents by at least one column)."""
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth = max(depth - 1, 0)
    indent = max((len(line) - len(line.lstrip(" -")) for line in text.splitlines()),
                 default=0)
    return max(deepest, indent // 2 if indent > 2 * MAX_NESTING else 0)


class YamlFile:
    """A composed YAML document and the path used in its error messages."""

    def __init__(self, path: Path, display: str):
        self.path = path
        self.display = display
        try:
            data = path.read_bytes()
        except OSError as err:
            raise TileoptError(f"cannot read pipeline file: {err.strerror}", display) from err
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            line, col = byte_line_col(data, err.start)
            raise TileoptError(f"cannot read pipeline file: not UTF-8 text (byte "
                               f"0x{data[err.start]:02x})", display, line, col) from None
        # Errors at a position in the file show its line and a caret.
        remember_source(SourceText(display, text, 1))
        depth = _nesting_depth(text)
        if depth > MAX_NESTING:
            raise TileoptError(f"pipeline file nests {depth} levels deep, more than the "
                               f"{MAX_NESTING} a pipeline can need", display, 1, 1)
        try:
            self.root = compose(text)
        except yaml.MarkedYAMLError as err:
            mark = err.problem_mark or err.context_mark
            problem = err.problem or err.context or "invalid YAML"
            if mark is None:
                raise TileoptError(f"invalid YAML: {problem}", display) from err
            raise TileoptError(f"invalid YAML: {problem}", display, mark.line + 1,
                               mark.column + 1) from err
        except yaml.YAMLError as err:
            raise TileoptError(f"invalid YAML: {err}", display) from err
        if self.root is None:
            raise TileoptError("empty pipeline file: expected 'name:' and 'stages:'",
                               display, 1, 1)

    def where(self, node: yaml.Node) -> Where:
        mark = node.start_mark
        return Where(self.display, mark.line + 1, mark.column + 1)

    def error(self, node: yaml.Node, message: str) -> TileoptError:
        return self.where(node).error(message)

    # Typed accessors --------------------------------------------------------------------

    def mapping(self, node: yaml.Node, what: str) -> list[tuple[yaml.ScalarNode, yaml.Node]]:
        """Key/value node pairs of a mapping with plain string keys and no duplicates."""
        if not isinstance(node, yaml.MappingNode):
            raise self.error(node, f"{what} must be a mapping (key: value)")
        seen: dict[str, yaml.Node] = {}
        pairs = []
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                raise self.error(key, f"keys of {what} must be plain names")
            if key.value in seen:
                line = seen[key.value].start_mark.line + 1
                raise self.error(key, f"duplicate key '{key.value}' in {what} "
                                      f"(first given on line {line})")
            seen[key.value] = key
            pairs.append((key, value))
        return pairs

    def check_keys(self, pairs: list[tuple[yaml.ScalarNode, yaml.Node]], allowed: list[str],
                   what: str) -> None:
        for key, _ in pairs:
            if key.value not in allowed:
                message = f"unknown key '{key.value}' in {what}" + did_you_mean(
                    key.value, allowed, f" (expected: {', '.join(allowed)})")
                raise self.error(key, message)

    def string(self, node: yaml.Node, what: str) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.tag == "tag:yaml.org,2002:null":
            raise self.error(node, f"{what} must be a string")
        return node.value

    def sequence(self, node: yaml.Node, what: str) -> list[yaml.Node]:
        if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null":
            return []
        if not isinstance(node, yaml.SequenceNode):
            raise self.error(node, f"{what} must be a list")
        return list(node.value)

    def scalar(self, node: yaml.Node, what: str) -> object:
        """A scalar as YAML types it (int, float, bool, null, str); lists of scalars too."""
        if isinstance(node, yaml.SequenceNode):
            return [self.scalar(item, what) for item in node.value]
        if not isinstance(node, yaml.ScalarNode):
            raise self.error(node, f"{what} must be a single value or a list of values")
        return yaml.SafeLoader("").construct_object(node)
