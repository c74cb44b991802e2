"""Ops whose line repeats another's up to SSA names, built without parsing them again.

Triton's text repeats whole op lines with only the value names changed (``%7 =
tt.splat %3 : i32 -> tensor<1024xi32, #blocked>``, the same ``arith.addi`` on the same
tensor type, a kernel's prologue in every kernel of a file). Parsing such an op through
xDSL (tokens, the declarative format's interpreter, ``irdl_op_init``) is most of the
parse time. Within one parse, a line that parsed into one op without regions or
successors becomes a template: its text with every ``%name`` cut out (the key), the op
class, which name feeds which operand, the operand and result types, properties,
attributes and location. A later line with the same key whose names resolve to values of
the same types gives the same op, up to its operands: it is built directly.

Everything else goes through the parser as before: lines with a string or a comment,
ops spread over several lines or with regions, names not defined yet (forward
references) or of another type (the parser's own error), an operand used twice where the
template's were distinct. ``test/unit/ir/test_op_templates.py`` parses the corpus and
the lit inputs with and without templates and compares the IR.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import LocationAttr
from xdsl.utils.lexer import Span

from tileopt.dialects.xdsl_fast_paths import new_operation

# the lexer's rule for a `%` identifier (``lexer.py``), so that cutting the names out
# of two lines with the same key leaves the same tokens
_SSA_NAME = re.compile(r"(%(?:[0-9]+|[a-zA-Z$._][a-zA-Z0-9$._-]*|-(?!\})[a-zA-Z0-9$._-]*))",
                       re.ASCII)
# `loc(#loc12)` ending the line: the op's location, cut out of the key as the names are
# (the parser's own fast path for it, ``parse_optional_location``, reads the same)
_LOCATION_AT_END = re.compile(r"[ \t]+loc\((#[A-Za-z_][\w$.-]*)\)[ \t\r]*$")
_TUPLE_INDEX = re.compile(r"#([0-9]+)")
_CUT = "\x00"  # never in parsed text (``_check_text`` refuses control characters)


class _Template:
    __slots__ = ("cls", "defs", "refs", "operand_types", "result_types", "properties",
                 "attributes", "location")

    def __init__(self, op, defs: tuple[int, ...], refs: tuple[tuple[int, int], ...],
                 location) -> None:
        self.cls = type(op)
        self.defs = defs  # size of each name of the result list
        self.refs = refs  # per operand: (index among the names, index in its tuple)
        self.operand_types = tuple([v.type for v in op.operands])
        self.result_types = tuple([r.type for r in op.results])
        self.properties = dict(op.properties)
        self.attributes = dict(op.attributes)
        self.location = location  # None: the alias at the end of the line


class _Line:
    """One op line cut into its key and names."""

    __slots__ = ("start", "end", "parts", "key", "location_alias")

    def __init__(self, text: str, start: int, dialects: tuple[str, ...]) -> None:
        end = text.find("\n", start)
        if end < 0:
            end = len(text)
        self.start, self.end = start, end
        line = text[start:end]
        self.location_alias = None
        if line.endswith(")"):
            found = _LOCATION_AT_END.search(line)
            if found is not None:
                self.location_alias = found.group(1)
                line = line[:found.start()]
        self.parts = _SSA_NAME.split(line)
        self.key = (dialects, _CUT.join(self.parts[0::2])) \
            if '"' not in line and "//" not in line else None

    def name_start(self, index: int) -> int:
        return self.start + sum(len(part) for part in self.parts[:2 * index + 1])


class OpTemplates:
    """The templates of one parse (aliases and names are the file's own)."""

    def __init__(self) -> None:
        self._templates: dict[tuple, _Template | None] = {}

    def line(self, parser, start: int) -> _Line | None:
        line = _Line(parser._text, start, tuple(parser._parser_state.dialect_stack))  # noqa: SLF001
        return line if line.key is not None else None

    def build(self, parser, line: _Line):
        """The op of ``line`` from its template, registered like the parser does, with
        the parser after the line; None where the parser must read it."""
        template = self._templates.get(line.key)
        if template is None:
            return None
        names = line.parts[1::2]
        ssa_values = parser.ssa_values
        operands = []
        for (index, number), expected in zip(template.refs, template.operand_types):
            values = ssa_values.get(names[index][1:])
            if values is None or number >= len(values):
                return None
            value = values[number]
            if value.type is not expected and value.type != expected:
                return None
            operands.append(value)
        if line.location_alias is None:
            location = template.location
            if location is None:  # the template's line had `loc(#alias)`, this one none
                return None
        else:
            # as the parser's ``parse_optional_location`` reads it (an alias defined
            # further down is read now)
            aliases = parser.attribute_aliases
            if line.location_alias not in aliases:
                return None
            location = aliases[line.location_alias]
            if not isinstance(location, LocationAttr):
                return None
        op = new_operation(template.cls, operands, template.result_types,
                           template.properties, template.attributes, location)
        results = op.results
        first = 0
        for index, size in enumerate(template.defs):
            start = line.name_start(index)
            name = names[index]
            parser._register_ssa_definition(  # noqa: SLF001
                name[1:], results[first:first + size],
                Span(start, start + len(name), parser.lexer.input))
            first += size
        parser._resume_from(line.end)  # noqa: SLF001
        return op

    def remember(self, parser, line: _Line, op, bound_results) -> None:
        """Make ``op``, just parsed from ``line``, a template if it qualifies."""
        key = line.key
        if key in self._templates or op.regions or op.successors:
            return
        self._templates[key] = None  # tried once: a line of this key that did not
        # qualify (a forward reference, say) is not looked at again
        text = parser._text  # noqa: SLF001
        after = parser._current_token.span.start  # noqa: SLF001
        if after < line.end or (after > line.end and not text[line.end:after].isspace()):
            return  # the op went on past its line
        names = line.parts[1::2]
        if len(bound_results) + len(op.operands) != len(names):
            return
        for index, (span, _) in enumerate(bound_results):
            if span.text != names[index] or span.start != line.name_start(index):
                return
        uses = {}
        for index in range(len(bound_results), len(names)):
            values = parser.ssa_values.get(names[index][1:])
            if values is None:
                return
            suffix = _TUPLE_INDEX.match(line.parts[2 * index + 2])
            number = int(suffix.group(1)) if suffix is not None else 0
            if number >= len(values):
                return
            value = values[number]
            if id(value) in uses:
                return
            uses[id(value)] = (index, number)
        refs = []
        for operand in op.operands:
            ref = uses.pop(id(operand), None)
            if ref is None:
                return
            refs.append(ref)
        if line.location_alias is None:
            location = op.location
        else:
            if op.location is not parser.attribute_aliases.get(line.location_alias):
                return
            location = None
        self._templates[key] = _Template(op, tuple(size for _, size in bound_results),
                                         tuple(refs), location)
