"""Attribute aliases that may be used before they are defined.

MLIR files print location aliases after the module that uses them::

    tt.return loc(#loc55)
  } loc(#loc)
  #loc55 = loc("kernels.py":103:4)

and aliases may refer to each other in any order (``#loc121 = loc("acc"(#loc120))``
with ``#loc120`` defined after it). xDSL's parser wants every alias defined first, so
tileopt finds the top-level alias definitions before parsing (they start a line and only
occur at top level) and parses each one on first use, from its own place in the file:
positions in error messages stay the file's own. When the main parse then reaches a
definition that was already read this way, it skips over it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.ir import Attribute

# A top-level alias definition: `#name = ...` or `!name = ...` at the start of a line.
_ALIAS_DEFINITION = re.compile(r"^[ \t]*([#!][A-Za-z_][\w$.-]*)[ \t]*=", re.MULTILINE)


@dataclass
class AliasDefinition:
    """Where one alias definition is in the file."""

    name: str
    start: int  # offset of the `#name` token
    value_start: int  # offset just after the `=`
    value_end: int | None = None  # offset of the token after the value, once parsed


def find_alias_definitions(text: str) -> dict[str, list[AliasDefinition]]:
    """Every top-level alias definition of the file, by name, in file order."""
    found: dict[str, list[AliasDefinition]] = {}
    if "=" not in text:
        return found
    for match in _ALIAS_DEFINITION.finditer(text):
        name = match.group(1)
        found.setdefault(name, []).append(
            AliasDefinition(name, match.start(1), match.end()))
    return found


class LazyAliasTable(dict):
    """The parser's alias table; a name defined later in the file is parsed on demand.

    ``parse_value(definition)`` parses the attribute at ``definition.value_start`` and
    returns it with the offset where the text after it starts.
    """

    def __init__(self, definitions: dict[str, list[AliasDefinition]],
                 parse_value: Callable[[AliasDefinition], tuple[Attribute, int]],
                 on_cycle: Callable[[AliasDefinition], None]):
        super().__init__()
        self.definitions = definitions
        self._parse_value = parse_value
        self._on_cycle = on_cycle
        self._resolving: set[str] = set()

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or name in self.definitions

    def __getitem__(self, name: str) -> Attribute:
        try:
            return dict.__getitem__(self, name)
        except KeyError:
            pass
        definition = self.definitions[name][0]
        if name in self._resolving:
            self._on_cycle(definition)
        self._resolving.add(name)
        try:
            value, end = self._parse_value(definition)
        finally:
            self._resolving.discard(name)
        definition.value_end = end
        dict.__setitem__(self, name, value)
        return value

    def first_definition(self, name: str) -> AliasDefinition | None:
        found = self.definitions.get(name)
        return found[0] if found else None
