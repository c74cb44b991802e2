"""Reading Triton/MLIR text into xDSL IR, with errors that point into the file.

``TileoptParser`` is xDSL's ``Parser`` with what real Triton files need:

- ``#locN = loc(...)`` aliases defined after the module, in any order (``aliases.py``);
- every MLIR location form: ``loc(unknown)``, ``"file":l:c`` (also ``to`` ranges, of
  which the start is kept), ``"name"(loc)``, ``callsite(a at b)``, ``fused[...]``,
  ``fused<meta>[...]``;
- hexadecimal float literals in ``dense<...>`` read as bit patterns
  (``dense<0xFF800000> : tensor<..xf32>`` is -inf; xDSL reads a huge finite float);
- the source position of every operation, for verifier messages (``source_position``);
- MLIR's wording and position for an unknown operation.

Every failure, whatever raised it, leaves as ``TileoptError(message, file, line, col)``.
"""

from __future__ import annotations

import math
import re
import unicodedata

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    BytesAttr,
    CallSiteLoc,
    ComplexType,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    FloatData,
    FileLineColLoc,
    FusedLoc,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    MemRefType,
    ModuleOp,
    NameLoc,
    NoneAttr,
    StringAttr,
    TensorType,
    UnknownLoc,
    UnregisteredOp,
    VectorType,
)
from xdsl.ir import Attribute, BlockArgument, Operation
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import (
    DiagnosticException,
    MultipleSpansParseError,
    ParseError,
    VerifyException,
)
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRTokenKind, StringLiteral

from tileopt.dialects import triton_version
from tileopt.ir.aliases import AliasDefinition, LazyAliasTable, find_alias_definitions
from tileopt.ir.context import make_context
from tileopt.ir.diagnostics import TileoptError
from tileopt.ir.floats import bits_to_float, float_format, float_to_bits
from tileopt.ir.gc_scans import heap_frozen
from tileopt.ir.lexer import FastMLIRLexer
from tileopt.ir.naming import restore_argument_name_locs
from tileopt.ir.op_templates import OpTemplates
from tileopt.ir.source_positions import (OP_SOURCES, SourceText, byte_line_col, remember_source,
                                         source_position)
from tileopt.ir.verify import verify_module


class _HexFloatElement(Parser._TensorLiteralElement):
    """A hexadecimal literal in a dense float literal: a bit pattern, as in MLIR."""

    def bits(self, parser, type, fmt: tuple[int, int]) -> bytes:
        width = fmt.width
        if self.value >> width:
            parser.raise_error(f"hexadecimal float constant out of range for type {type}",
                               at_position=self.span)
        return self.value.to_bytes(width // 8, "little")

    def to_type(self, parser, type):
        fmt = float_format(type)
        if fmt is not None:
            self.bits(parser, type, fmt)
            return bits_to_float(self.value, fmt)
        return super().to_type(parser, type)


_ALIAS = r"#[A-Za-z_][\w$.-]*"
_SIMPLE_LOCATION = re.compile(
    r"[ \t]*loc\((?:"
    r'"(?P<name>[^"\\\n]*)"(?::(?P<line>\d+):(?P<col>\d+)|\((?P<child>' + _ALIAS + r")\))"
    r"|callsite\((?P<callee>" + _ALIAS + r") at (?P<caller>" + _ALIAS + r")\)"
    r"|unknown)\)")
_LOCATION_ALIAS_USE = re.compile(r"loc\((#[A-Za-z_][\w$.-]*)\)")
# IntegerType::kMaxWidth of MLIR: the widest iN, siN, uiN its parser accepts
MAX_INTEGER_WIDTH = 16_777_215
_SHAPED_TYPES = frozenset(("tensor", "vector", "memref"))
_BRACKET = re.compile(r'->|[<>()\[\]{}"]')
# `i32`, `i1`, `i64`...: an integer type (three attributes to build and verify) per
# spelling, shared by every parse (attributes are immutable)
_INTEGER_TYPES: dict[str, IntegerType] = {}
# `0 : i32`, `-1 : i64`: an integer attribute per spelling (the literal and its type
# right after it; a hexadecimal literal, a float or a type alias does not match)
_INTEGER_LITERAL = re.compile(r"-?[0-9]+ ?: ?(?:[su]?i[0-9]+|index)(?![\w$.\-])")
_INTEGER_ATTRS: dict[str, IntegerAttr] = {}


# ops whose custom parsers add MLIR's implicit scf.yield (SingleBlockImplicitTerminator)
_IMPLICIT_YIELD = frozenset({"scf.if", "scf.for"})


def _generic_form(name: str) -> str:
    return f'"{name}"(...) : (...) -> (...)'


# `<...>` with at most one level of `<...>` inside and no other bracket, string or `->`
# (`tensor<128x64xf16, #blocked>`, `!tt.ptr<tensor<4xf32>>`): one match instead of a loop
_PLAIN = r'(?:[^<>()\[\]{}"-]|-(?!>))*'
_SIMPLE_ANGLES = re.compile(rf"<{_PLAIN}(?:<{_PLAIN}>{_PLAIN})*>")


def _balanced_end(text: str, pos: int) -> int | None:
    """End of the ``<...>`` that starts at ``pos``; None if there is none or a string
    is inside (then the type is parsed the ordinary way)."""
    if text[pos:pos + 1] != "<":
        return None
    simple = _SIMPLE_ANGLES.match(text, pos)
    if simple is not None:
        return simple.end()
    depth = 0
    for match in _BRACKET.finditer(text, pos):
        bracket = match.group()
        if bracket == "->":
            continue
        if bracket == '"':
            return None
        if bracket in "<([{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return match.end() if bracket == ">" else None
    return None


class TileoptParser(Parser):
    """xDSL's parser, extended to read what Triton 3.6 and MLIR write."""

    use_op_templates = True  # repeated op lines built from the first (``op_templates.py``)

    def __init__(self, ctx: Context, text: str, filename: str = "<stdin>",
                 arg_spellings: bool = False):
        # xDSL's constructor lexes the first token with its own lexer: give it no text
        super().__init__(ctx, "", filename)
        # each block argument's name as spelled (``restore_argument_name_locs``)
        self.arg_spellings: dict[BlockArgument, str] | None = {} if arg_spellings else None
        self._parser_state = ParserState(FastMLIRLexer(Input(text, filename)))
        self.attribute_aliases = LazyAliasTable(
            find_alias_definitions(text), self._parse_alias_value, self._alias_cycle)
        self.op_starts: list[tuple[Operation, int]] = []
        self._op_name_span: Span | None = None
        self._text = text
        self._type_cache: dict[str, Attribute] = {}
        self._first_uses: dict[str, Span] = {}
        # per op being read (innermost last): its name when written in custom form
        self._custom_ops: list[str | None] = []
        self._op_templates = OpTemplates() if self.use_op_templates else None
        self._bound_results: list[tuple[Span, int]] = []

    # --- aliases defined after use ---------------------------------------------------

    def _parse_alias_value(self, definition: AliasDefinition) -> tuple[Attribute, int]:
        """Parse the value of an alias definition at its own place in the file."""
        if (fast := self._simple_location(definition.value_start)) is not None:
            return fast
        saved = self._parser_state
        lexer = FastMLIRLexer(self.lexer.input)
        lexer.pos = definition.value_start
        self._parser_state = ParserState(lexer)
        try:
            value = self.parse_attribute()
            return value, self._current_token.span.start
        finally:
            self._parser_state = saved

    def _simple_location(self, pos: int) -> tuple[Attribute, int] | None:
        """The common location definitions of Triton files, read without the lexer:
        ``loc("f.py":3:4)``, ``loc("name"(#loc2))``, ``loc(callsite(#a at #b))``,
        ``loc(unknown)``. None for anything else (then the parser reads it)."""
        match = _SIMPLE_LOCATION.match(self._text, pos)
        if match is None:
            return None
        name, line, col, child, callee, caller = match.group(
            "name", "line", "col", "child", "callee", "caller")
        aliases = self.attribute_aliases
        if name is not None:
            if line is not None:
                location = FileLineColLoc(StringAttr(name), IntAttr(int(line)),
                                          IntAttr(int(col)))
            else:
                if child not in aliases:
                    return None
                location = NameLoc(StringAttr(name), aliases[child])
        elif callee is not None:
            if callee not in aliases or caller not in aliases:
                return None
            location = CallSiteLoc(aliases[callee], aliases[caller])
        else:
            location = UnknownLoc()
        return location, match.end()

    def _alias_cycle(self, definition: AliasDefinition) -> None:
        raise ParseError(
            Span(definition.start, definition.start + len(definition.name), self.lexer.input),
            f"alias '{definition.name}' is defined in terms of itself")

    def _parse_alias_def(self):
        token = self._current_token
        aliases = self.attribute_aliases
        first = aliases.first_definition(token.text)
        if first is None:  # not at the start of a line: parse it in place
            return super()._parse_alias_def()
        if first.start != token.span.start:
            kind = "type" if token.text.startswith("!") else "attribute"
            self.raise_error(f"redefinition of {kind} alias '{token.text}'", token.span)
        aliases[token.text]  # parses it now unless a use already did
        self._resume_from(first.value_end)

    # --- SSA values and blocks: errors at the use ----------------------------------

    def _register_ssa_definition(self, name, values, span) -> None:
        super()._register_ssa_definition(name, values, span)
        if self.arg_spellings is not None and isinstance(values[0], BlockArgument):
            self.arg_spellings[values[0]] = name

    def resolve_operand(self, operand, type):
        if operand.operand_name not in self.ssa_values:
            self._first_uses.setdefault(operand.operand_name, operand.span)
        return super().resolve_operand(operand, type)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        try:
            module = super().parse_module(allow_implicit_module)
        except ParseError as err:
            if err.msg == "Could not parse entire input!" and \
                    self._current_token.kind == MLIRTokenKind.EOF:
                # only alias definitions (a `// -----` part of Triton's tests): MLIR
                # reads an empty module
                module = ModuleOp([])
                _stable_name_hints(module)
                return module
            if err.msg.startswith("values used but not defined") and \
                    self.forward_ssa_references:
                name = next(iter(self.forward_ssa_references))
                raise ParseError(self._first_uses.get(name, err.span),
                                 f"use of undeclared SSA value name '%{name}'") from None
            raise
        _stable_name_hints(module)
        return module

    def parse_optional_region(self, arguments=None):
        owner = self._custom_ops[-1] if self._custom_ops else None
        try:
            region = super().parse_optional_region(arguments)
        except MultipleSpansParseError as err:
            if err.msg.startswith("region ends with missing block") and err.refs:
                span = err.refs[0][0]
                raise ParseError(span, f"reference to an undefined block '{span.text}'") \
                    from None
            raise
        if owner in _IMPLICIT_YIELD and region is not None and len(region.blocks) == 1:
            # MLIR's ensureRegionTerminator: an unregistered op is no terminator
            # (hasTrait), so the implicit scf.yield follows it; xDSL's parsers take it for
            # one (mightHaveTrait) and then reject the region.
            block = region.blocks.first
            if isinstance(block.last_op, UnregisteredOp):
                from xdsl.dialects import scf  # loaded: owner is one of its ops

                block.add_op(scf.YieldOp())
        return region

    def _parse_block(self):
        token = self._current_token
        if token.kind != MLIRTokenKind.CARET_IDENT:
            self.raise_error("expected an operation, a block label or '}' to close the "
                             f"region, got '{token.text}'" if token.text else
                             "expected '}' to close the region (at end of file: is the "
                             "input truncated?)", token.span)
        return super()._parse_block()

    # --- attribute dictionaries: a repeated key is reported at the key ----------------

    def parse_optional_dictionary_attr_dict(self) -> dict[str, Attribute]:
        seen: dict[str, Attribute] = {}

        def entry() -> tuple[str, Attribute]:
            span = self._current_token.span
            name, value = self._parse_attribute_entry()
            if name in seen:
                self.raise_error(f"duplicate key '{name}' in dictionary attribute", span)
            seen[name] = value
            return name, value

        self.parse_optional_comma_separated_list(self.Delimiter.BRACES, entry)
        return seen

    # --- integer and float attributes: errors at the literal -------------------------

    def parse_optional_builtin_int_or_float_attr(self):
        start = self._current_token.span
        literal = _INTEGER_LITERAL.match(self._text, start.start)
        if literal is not None and (cached := _INTEGER_ATTRS.get(literal.group())) is not None:
            self._resume_from(literal.end())
            return cached
        try:
            attr = super().parse_optional_builtin_int_or_float_attr()
            if literal is not None and isinstance(attr, IntegerAttr) and \
                    self._current_token.span.start == literal.end() and \
                    len(_INTEGER_ATTRS) < 4096:
                _INTEGER_ATTRS[literal.group()] = attr
            if isinstance(attr, FloatAttr) and start.text[:2] in ("0x", "0X"):
                # a bit pattern: xDSL unpacks it with the type's own packing, and
                # FloatAttr() narrows again, both losing the f8 types' NaN patterns
                fmt = float_format(attr.type)
                if fmt is not None:
                    value = bits_to_float(int(start.text, 16), fmt)
                    return FloatAttr.new((FloatData(value), attr.type))
            return attr
        except VerifyException as err:
            raise ParseError(start, str(err).splitlines()[0]) from None
        except ParseError as err:
            if err.msg.startswith("Floating point value is not valid"):
                raise ParseError(start, "floating point value is not valid for an "
                                 "integer type") from None
            raise

    # --- arrow type lists ----------------------------------------------------------

    def parse_comma_separated_list(self, delimiter, parse, context_msg: str = ""):
        """MLIR's arrow type lists take one type without parentheses (``scf.if %c ->
        tensor<8xi64> {``, ``scf.for ... -> index {``); xDSL's parsers of those ops ask
        for a parenthesized list."""
        if (delimiter is self.Delimiter.PAREN
                and self._current_token.kind is not MLIRTokenKind.L_PAREN
                and self._after_arrow()):
            return [parse()]
        return super().parse_comma_separated_list(delimiter, parse, context_msg)

    def _after_arrow(self) -> bool:
        text, end = self.lexer.input.content, self._current_token.span.start
        while end > 0 and text[end - 1].isspace():
            end -= 1
        return text[end - 2:end] == "->"

    # --- operations: positions and unknown names -----------------------------------

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        line = None
        if self._op_templates is not None:
            line = self._op_templates.line(self, start)
            if line is not None and (op := self._op_templates.build(self, line)) is not None:
                self.op_starts.append((op, start))
                return op
        self._custom_ops.append(None)
        try:
            op = super().parse_operation()
        except VerifyException as err:
            # An op's own parser built something its constraints reject: report it at
            # the op, named like a verifier error.
            name = self._op_name_span.text if self._op_name_span is not None else "op"
            message = " ".join(str(err).split())
            raise ParseError(Span(start, start + 1, self.lexer.input),
                             f"'{name.strip(chr(34))}' op {message}") from None
        finally:
            self._custom_ops.pop()
        self.op_starts.append((op, start))
        if line is not None:
            self._op_templates.remember(self, line, op, self._bound_results)
        return op

    def _parse_op_result_list(self):
        results = self._bound_results = super()._parse_op_result_list()
        self._op_name_span = self._current_token.span
        return results

    def _get_op_by_name(self, name: str) -> type[Operation]:
        op_type = self.ctx.get_optional_op(
            name, dialect_stack=self._parser_state.dialect_stack)
        span = self._op_name_span or self._current_token.span
        generic = span.text.startswith('"')
        if self._custom_ops:
            self._custom_ops[-1] = None if generic else name
        if op_type is not None:
            if not generic and issubclass(op_type, UnregisteredOp):
                # --allow-unregistered-dialect: such an op has no custom syntax to read
                self.raise_error(f"custom op '{name}' is unknown: an unregistered op is "
                                 f"read only in the generic form, {_generic_form(name)}",
                                 span)
            return op_type
        what = f"unregistered operation '{name}'" if generic else f"custom op '{name}' is unknown"
        if "." not in name:
            self.raise_error(what, span)
        dialect = name.split(".", 1)[0]
        if self.ctx.get_optional_dialect(dialect) is None:
            # MLIR's hint: the flag that accepts it (in the generic form only)
            hint = "--allow-unregistered-dialect accepts it" if generic else (
                "with --allow-unregistered-dialect, its ops are read in the generic form, "
                + _generic_form(name))
            self.raise_error(f"{what} (dialect '{dialect}' is not registered; {hint})", span)
        self.raise_error(f"{what} found in dialect ('{dialect}') that does not allow unknown "
                         "operations" if generic else what, span)

    # --- alias uses ---------------------------------------------------------------------

    def _check_alias_use(self) -> None:
        """An undefined ``#alias``/``!alias`` is reported at the alias, as MLIR does
        (xDSL reports the token after it)."""
        token = self._current_token
        if token.kind in (MLIRTokenKind.HASH_IDENT, MLIRTokenKind.EXCLAMATION_IDENT) and \
                "." not in token.text and token.text not in self.attribute_aliases and \
                self._text[token.span.end:token.span.end + 1] != "<":
            self.raise_error(f"undefined symbol alias '{token.text}'", token.span)

    def parse_optional_attribute(self):
        self._check_alias_use()
        return super().parse_optional_attribute()

    def _parse_optional_builtin_attr(self):
        """A string with byte escapes (``"caf\\C3\\A9"``, how MLIR prints what is not
        printable ASCII) is a string attribute when its bytes are UTF-8, as in MLIR, whose
        strings are bytes: xDSL would make a ``BytesAttr`` of it, which no string-valued
        attribute accepts, so printed output would not read back."""
        token = self._current_token
        if token.kind == MLIRTokenKind.BYTES_LIT:
            data = StringLiteral.from_span(token.span).bytes_contents
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                return super()._parse_optional_builtin_attr()
            self._consume_token(MLIRTokenKind.BYTES_LIT)
            return StringAttr(text)
        return super()._parse_optional_builtin_attr()

    # --- integer types: MLIR's width limit ---------------------------------------------

    def _parse_optional_integer_or_float_type(self):
        """``iN``, ``siN``, ``uiN`` wider than MLIR allows are refused here: a constant of
        such a type would otherwise build a number of N bits (``i99999999999``: all the
        machine's memory)."""
        token = self._current_token
        if token.kind == MLIRTokenKind.BARE_IDENT:
            cached = _INTEGER_TYPES.get(token.text)
            if cached is not None:
                self._consume_token()
                return cached
            match = self._builtin_integer_type_regex.match(token.text)
            if match is not None:
                digits = match.group(1).lstrip("0")
                # the length first: int() of a very long digit string is itself an error
                if len(digits) > len(str(MAX_INTEGER_WIDTH)) or \
                        int(digits or "0") > MAX_INTEGER_WIDTH:
                    self.raise_error(
                        f"integer bitwidth is limited to {MAX_INTEGER_WIDTH} bits", token.span)
                parsed = super()._parse_optional_integer_or_float_type()
                if len(_INTEGER_TYPES) < 256:
                    _INTEGER_TYPES[token.text] = parsed
                return parsed
        return super()._parse_optional_integer_or_float_type()

    # --- types: parsed once per spelling ---------------------------------------------

    def parse_optional_type(self):
        """Types repeat verbatim all over a Triton file (``tensor<128x64xf16,
        #blocked1>``); within one file, with its aliases, the same text is the same
        type, so each spelling is parsed once."""
        self._check_alias_use()
        token = self._current_token
        if not (token.kind == MLIRTokenKind.EXCLAMATION_IDENT or (
                token.kind == MLIRTokenKind.BARE_IDENT and token.text in _SHAPED_TYPES)):
            return super().parse_optional_type()
        start = token.span.start
        end = _balanced_end(self._text, token.span.end)
        if end is None:
            return super().parse_optional_type()
        key = self._text[start:end]
        cached = self._type_cache.get(key)
        if cached is not None:
            self._resume_from(end)
            return cached
        parsed = super().parse_optional_type()
        if parsed is not None:
            # cache it only if the parse consumed exactly the scanned text
            next_start = self._current_token.span.start
            if next_start == end or (next_start > end and
                                     self._text[end:next_start].isspace()):
                self._type_cache[key] = parsed
        return parsed

    # --- locations -------------------------------------------------------------------

    def parse_optional_location(self) -> LocationAttr | None:
        # Fast path for the form on nearly every op of a Triton file: `loc(#loc12)`.
        token = self._current_token
        if token.kind == MLIRTokenKind.BARE_IDENT and token.text == "loc":
            match = _LOCATION_ALIAS_USE.match(self._text, token.span.start)
            if match is not None and match.group(1) in self.attribute_aliases:
                location = self.attribute_aliases[match.group(1)]
                if isinstance(location, LocationAttr):
                    self._resume_from(match.end())
                    return location
        return super().parse_optional_location()

    def _parse_location(self) -> LocationAttr:
        token = self._current_token
        if token.kind == MLIRTokenKind.BARE_IDENT and token.text == "fused":
            self._consume_token(MLIRTokenKind.BARE_IDENT)
            metadata: Attribute = NoneAttr()
            if self.parse_optional_punctuation("<") is not None:
                metadata = self.parse_attribute()
                self.parse_punctuation(">", " after fused location metadata")
            locations = self.parse_comma_separated_list(
                self.Delimiter.SQUARE, self._parse_location, " in fused location")
            return FusedLoc(tuple(locations), metadata)
        if token.kind == MLIRTokenKind.STRING_LIT:
            name = self.parse_str_literal()
            if self.parse_optional_punctuation(":") is None:
                child: Attribute = NoneAttr()
                if self._current_token.kind == MLIRTokenKind.L_PAREN:
                    with self.in_parens():
                        child = self._parse_location()
                return NameLoc(StringAttr(name), child)
            line = self.parse_integer(False, False, " as line number in location")
            self.parse_punctuation(":", " after line number in location")
            col = self.parse_integer(False, False, " as column number in location")
            if self.parse_optional_keyword("to") is not None:
                # FileLineColRange: keep the start, read the end `[line]:col`
                if self.parse_optional_punctuation(":") is None:
                    self.parse_integer(False, False, " as end line in location")
                    self.parse_punctuation(":", " after end line in location")
                self.parse_integer(False, False, " as end column in location")
            return FileLineColLoc(StringAttr(name), IntAttr(line), IntAttr(col))
        if token.kind == MLIRTokenKind.HASH_IDENT:
            attr = self.parse_attribute()
            if not isinstance(attr, LocationAttr):
                self.raise_error(f"expected location, but '{token.text}' is not one",
                                 token.span)
            return attr
        if token.kind == MLIRTokenKind.BARE_IDENT and token.text == "callsite":
            self._consume_token(MLIRTokenKind.BARE_IDENT)
            self.parse_punctuation("(", " after 'callsite'")
            callee = self._parse_location()
            if self.parse_optional_keyword("at") is None:
                self.raise_error("expected 'at' in callsite location")
            caller = self._parse_location()
            self.parse_punctuation(")", " to close the callsite location")
            return CallSiteLoc(callee, caller)
        if token.kind == MLIRTokenKind.BARE_IDENT and token.text != "unknown":
            self.raise_error(f"unknown location kind '{token.text}'", token.span)
        return super()._parse_location()

    # --- dense literals: hexadecimal floats, fast splats -----------------------------

    def _parse_tensor_literal_element(self):
        token = self._current_token
        if token.kind == MLIRTokenKind.INTEGER_LIT and token.text[:2] in ("0x", "0X"):
            self._consume_token(MLIRTokenKind.INTEGER_LIT)
            return _HexFloatElement(False, token.kind.get_int_value(token.span), token.span)
        return super()._parse_tensor_literal_element()

    def parse_dense_int_or_fp_elements_attr(self, type):
        """``dense<...>`` as MLIR reads it: hexadecimal elements of a float type are bit
        patterns, and a splat is stored without expanding it element by element."""
        self.parse_punctuation("<", " in dense attribute")
        contents = None
        if self.parse_optional_punctuation(">") is None:
            contents = self.parse_optional_str_literal()
            if contents is None:
                contents = self._parse_tensor_literal()
            self.parse_punctuation(">", " in dense attribute")
        type_at = self._current_token.span
        if type is None:
            self.parse_punctuation(":", " in dense attribute")
            type_at = self._current_token.span
            type = self.parse_type()
        if not isinstance(type, TensorType | VectorType | MemRefType) or not isinstance(
                type.element_type, IntegerType | IndexType | AnyFloat | ComplexType):
            self.raise_error("dense attribute type must be a tensor, vector or memref "
                             f"of integers, index or floats, not {type}", type_at)
        shape = list(type.get_shape())
        if any(dim == DYNAMIC_INDEX for dim in shape):
            self.raise_error("dense attribute type must have a static shape", type_at)
        count = math.prod(shape)
        element_type = type.element_type
        if contents is None:
            if count:
                self.raise_error("expected dense elements, got none", type_at)
            return DenseIntOrFPElementsAttr(type, BytesAttr(b""))
        if isinstance(contents, str):  # "0x..." raw data
            try:
                data = bytes.fromhex(contents[2:])
            except ValueError:
                self.raise_error("dense hex string is not valid hexadecimal data", type_at)
            if len(data) == element_type.compile_time_size:
                data *= count
            if len(data) != count * element_type.compile_time_size:
                self.raise_error(f"dense hex data holds {len(data)} bytes, the type needs "
                                 f"{count * element_type.compile_time_size}", type_at)
            return DenseIntOrFPElementsAttr(type, BytesAttr(data))
        elements, literal_shape = contents
        if literal_shape and literal_shape != shape:
            self.raise_error(f"dense literal has shape {literal_shape}, the type has "
                             f"{shape}", type_at)
        fmt = float_format(element_type)
        if fmt is not None:
            data = b"".join(
                e.bits(self, element_type, fmt) if isinstance(e, _HexFloatElement)
                else float_to_bits(e.to_type(self, element_type), fmt).to_bytes(
                    fmt.width // 8, "little")
                for e in elements)
            if not literal_shape:
                data *= count
            return DenseIntOrFPElementsAttr(type, BytesAttr(data))
        values = [element.to_type(self, element_type) for element in elements]
        # One element and no brackets is a splat: from_list repeats its bytes.
        return DenseIntOrFPElementsAttr.from_list(type, values)

def _stable_name_hints(module: ModuleOp) -> None:
    """Name hints that ``clone`` keeps as they are.

    xDSL's name setter drops a ``_N`` suffix, so it maps Triton's ``%_0_1`` to ``_0``,
    and a clone maps that to ``""``, which the next clone rejects as invalid (the
    frontend output of ``tl.rand`` names values so). The suffix is dropped here until
    none is left, and a name that ends up empty is no name.
    """
    def stable(value) -> None:
        name = value._name
        while name:
            shorter = value.extract_valid_name(name)
            if shorter == name:
                break
            name = shorter
        value._name = name or None

    for op in module.walk():
        for region in op.regions:
            for block in region.blocks:
                for value in (block, *block.args):
                    stable(value)
        for result in op.results:
            stable(result)


def _decode(text: str | bytes, filename: str, first_line: int) -> str:
    if isinstance(text, str):
        return text
    try:
        return text.decode("utf-8")
    except UnicodeDecodeError as err:
        control = re.search(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text[:err.start])
        at = control.start() if control is not None else err.start
        line, col = byte_line_col(text, at, first_line)
        if control is not None:
            raise TileoptError(
                f"unexpected control character 0x{text[at]:02X}: this looks like binary "
                "data, not an MLIR file", filename, line, col) from None
        raise TileoptError(
            f"input is not UTF-8 text (byte 0x{text[err.start]:02X} cannot start or "
            "continue a character); expected an MLIR file", filename, line, col) from None


def _check_text(text: str, filename: str, first_line: int) -> None:
    """Reject binary data early: MLIR text never contains NUL or other C0 controls."""
    match = re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text)
    if match is None:
        return
    source = SourceText(filename, text, first_line)
    line, col = source.line_col(match.start())
    raise TileoptError(
        f"unexpected control character 0x{ord(match.group()):02X}: this looks like "
        "binary data, not an MLIR file", filename, line, col)


def _name_invisible_character(message: str) -> str:
    """``Unexpected character: <BOM>`` names a character one cannot see by its code point."""
    prefix = "Unexpected character: "
    if message.startswith(prefix) and len(message.rstrip("\n")) == len(prefix) + 1:
        char = message[len(prefix)]
        if not char.isprintable() or char.isspace() or unicodedata.category(char) == "Cf":
            name = unicodedata.name(char, "")
            return f"{prefix}U+{ord(char):04X}" + (f" ({name})" if name else "")
    return message


# xDSL's wording where MLIR's says something else for the same input.
_MLIR_WORDING = {
    "Expected shape type.": "expected non-function type",
    "Expected an operand.": "expected SSA operand",
    "End of file reached before closing string literal.": "expected '\"' in string literal",
}
_QUOTED_EXPECTED = re.compile(r"('[^']+') expected")


def _mlir_wording(message: str) -> str:
    """xDSL's parse error in MLIR's words: lower case, no full stop, ``expected 'x'``."""
    message = _MLIR_WORDING.get(message, message)
    if (quoted := _QUOTED_EXPECTED.fullmatch(message)) is not None:
        return f"expected {quoted.group(1)}"
    if message.startswith(("Expected ", "Unexpected character")):
        message = message[0].lower() + message[1:]
        if message[-1] in ".!" and message[-2] != "'":
            message = message[:-1]
    return message


def _wrong_token_offset(text: str, offset: int) -> int:
    """Where MLIR reports a missing token: right after the text before the one found,
    backing over blanks, line breaks and ``//`` comments (so a missing ``:`` at the end of
    a line is reported there, not at the next line's first token)."""
    end = offset
    while True:
        trimmed = text[:end].rstrip(" \t")
        if not trimmed:
            return offset
        if trimmed[-1] not in "\r\n":
            return len(trimmed)
        end = len(trimmed) - 1
        line_start = text.rfind("\n", 0, end) + 1
        comment = text.find("//", line_start, end)
        if comment >= 0:
            end = comment


def _error_from_parse_error(err: ParseError, source: SourceText) -> TileoptError:
    original = _name_invisible_character(err.msg).strip()
    message = _mlir_wording(original)
    offset = err.span.start
    if original.startswith("Expected") or _QUOTED_EXPECTED.fullmatch(original):
        # xDSL reports a missing token at the token found instead; tileopt's own
        # messages (already in MLIR's words) are at their place
        offset = _wrong_token_offset(source.text, offset)
    line, col = source.line_col(offset)
    if max(err.span.start, err.span.end) >= len(source.text.rstrip()) and \
            "xpected" in message and "end of file" not in message and \
            not message.startswith("unexpected character"):
        message += " (at end of file: is the input truncated?)"
    return TileoptError(message, source.filename, line, col)


@heap_frozen
def parse_module(text: str | bytes, filename: str = "<stdin>", ctx: Context | None = None,
                 *, first_line: int = 1, verify: bool = True,
                 implicit_module: bool = True, arg_name_locs: bool = False) -> ModuleOp:
    """Parse MLIR text into a ``ModuleOp``; raises ``TileoptError`` on bad input.

    ``first_line`` is the file line where ``text`` starts (for ``--split-input-file``
    chunks). Like ``mlir-opt``, the module is verified after parsing unless
    ``verify=False``; an empty input is an empty module. ``implicit_module=False``
    (``--no-implicit-module``): the text must be one ``builtin.module``, not ops that
    are wrapped in one. ``arg_name_locs``: the text was printed with name locations (as
    Triton's Python prints): a block argument it gives no location gets back the name
    location its name shows (``tileopt.ir.naming.restore_argument_name_locs``).
    """
    text = _decode(text, filename, first_line)
    _check_text(text, filename, first_line)
    ctx = ctx or make_context()
    source = SourceText(filename, text, first_line)
    remember_source(source)  # diagnostics at a position in it show the line and a caret
    parser = None
    try:
        # Building the parser lexes the first token: a bad first character fails here.
        with triton_version.recording_spellings() as spellings:
            parser = TileoptParser(ctx, text, filename, arg_name_locs)
            if parser._current_token.kind == MLIRTokenKind.EOF:
                module = ModuleOp([])
            else:
                module = parser.parse_module()
    except ParseError as err:
        raise _error_from_parse_error(err, source) from None
    except TileoptError:
        raise
    except Exception as err:  # a dialect's parser or an attribute constructor failed
        line, col = source.line_col(parser._current_token.span.start if parser else 0)
        raise TileoptError(_describe(err), filename, line, col) from err
    if not implicit_module:
        _check_explicit_module(module, parser, source)
    if arg_name_locs and parser is not None:
        restore_argument_name_locs(module, parser.arg_spellings)
    for op, start in parser.op_starts:
        OP_SOURCES[op] = (source, start)
    if module not in OP_SOURCES:
        OP_SOURCES[module] = (source, 0)
    # The text's own spellings say which Triton wrote it (printed back the same way).
    detected = triton_version.detected_version(module, spellings)
    if detected is not None:
        triton_version.set_module_version(module, detected)
    if verify:
        verify_module(module, filename)
    return module


def _check_explicit_module(module: ModuleOp, parser: TileoptParser | None,
                           source: SourceText) -> None:
    """``--no-implicit-module``: the input is one op, a ``builtin.module`` (MLIR's words)."""
    starts = dict(parser.op_starts) if parser is not None else {}
    if module in starts:
        return  # the text's own module
    ops = list(module.ops)
    where = (source.filename, *source.line_col(starts.get(ops[0], 0) if ops else 0))
    if len(ops) != 1:
        raise TileoptError(f"source must contain a single top-level operation, found: "
                           f"{len(ops)}", *where)
    raise TileoptError(f"top-level operation '{ops[0].name}' is not a 'builtin.module' "
                       "(--no-implicit-module: tileopt runs its pipelines on a module)", *where)


def _describe(err: Exception) -> str:
    """The first line of an unexpected exception's message, for a diagnostic."""
    text = str(err).strip()
    first = text.splitlines()[0] if text else type(err).__name__
    if isinstance(err, DiagnosticException):
        return first
    if isinstance(err, RecursionError):
        return ("regions or attributes nested too deeply: tileopt's parser is recursive and "
                "stops at about a hundred levels")
    if isinstance(err, OverflowError):
        return f"a number too large for 64 bits ({first})"
    return f"invalid input ({type(err).__name__}: {first})"


_SPLIT_MARKER = re.compile(r"^// -----.*(?:\n|$)", re.MULTILINE)


def split_input_file(text: str) -> list[tuple[str, int]]:
    """Split like ``mlir-opt --split-input-file``: at lines starting with ``// -----``.

    Returns ``(chunk_text, first_line_number)`` pairs; pass the line number to
    ``parse_module(..., first_line=...)`` so messages keep the file's own lines.
    """
    chunks: list[tuple[str, int]] = []
    start, line = 0, 1
    for marker in _SPLIT_MARKER.finditer(text):
        chunks.append((text[start:marker.start()], line))
        line += text.count("\n", start, marker.end()) + (
            0 if marker.group().endswith("\n") else 1)
        start = marker.end()
    chunks.append((text[start:], line))
    return chunks


__all__ = ["TileoptParser", "parse_module", "source_position", "split_input_file",
           "verify_module"]
