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

import bisect
import re
import weakref
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    LocationAttr,
    ModuleOp,
    NameLoc,
    NoneAttr,
    StringAttr,
)
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from tileopt.ir.aliases import AliasDefinition, LazyAliasTable, find_alias_definitions
from tileopt.ir.context import make_context
from tileopt.ir.diagnostics import TileoptError
from tileopt.ir.floats import bits_to_float, float_format


@dataclass
class _SourceText:
    """A parsed file's name and text, to turn offsets into line:col on demand."""

    filename: str
    text: str
    first_line: int
    _line_starts: list[int] | None = None

    def line_col(self, offset: int) -> tuple[int, int]:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        index = bisect.bisect_right(self._line_starts, offset) - 1
        return index + self.first_line, offset - self._line_starts[index] + 1


# Operation -> (source, offset of its first token). Weak: IR rewritten by passes drops
# its entries with the ops.
_OP_SOURCES: weakref.WeakKeyDictionary[Operation, tuple[_SourceText, int]] = (
    weakref.WeakKeyDictionary())


def source_position(op: Operation) -> tuple[str, int, int] | None:
    """(file, line, col) where ``op`` was read, for ops that came from ``parse_module``."""
    found = _OP_SOURCES.get(op)
    if found is None:
        return None
    source, offset = found
    return (source.filename, *source.line_col(offset))


class _HexFloatElement(Parser._TensorLiteralElement):
    """A hexadecimal literal in a dense float literal: a bit pattern, as in MLIR."""

    def to_type(self, parser, type):
        fmt = float_format(type)
        if fmt is not None and isinstance(self.value, int):
            if self.value >> (fmt[0] + fmt[1] + 1):
                parser.raise_error(
                    f"hexadecimal float constant out of range for type {type}",
                    at_position=self.span)
            return bits_to_float(self.value, fmt)
        return super().to_type(parser, type)


class TileoptParser(Parser):
    """xDSL's parser, extended to read what Triton 3.6 and MLIR write."""

    def __init__(self, ctx: Context, text: str, filename: str = "<stdin>"):
        super().__init__(ctx, text, filename)
        self.attribute_aliases = LazyAliasTable(
            find_alias_definitions(text), self._parse_alias_value, self._alias_cycle)
        self.op_starts: list[tuple[Operation, int]] = []
        self._op_name_span: Span | None = None
        self._dense_hex_bits: list[int | None] | None = None

    # --- aliases defined after use ---------------------------------------------------

    def _parse_alias_value(self, definition: AliasDefinition) -> tuple[Attribute, int]:
        """Parse the value of an alias definition at its own place in the file."""
        saved = self._parser_state
        lexer = MLIRLexer(self.lexer.input)
        lexer.pos = definition.value_start
        self._parser_state = ParserState(lexer)
        try:
            value = self.parse_attribute()
            return value, self._current_token.span.start
        finally:
            self._parser_state = saved

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

    # --- operations: positions and unknown names -----------------------------------

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        self.op_starts.append((op, start))
        return op

    def _parse_op_result_list(self):
        results = super()._parse_op_result_list()
        self._op_name_span = self._current_token.span
        return results

    def _get_op_by_name(self, name: str) -> type[Operation]:
        op_type = self.ctx.get_optional_op(
            name, dialect_stack=self._parser_state.dialect_stack)
        if op_type is not None:
            return op_type
        span = self._op_name_span or self._current_token.span
        if "." not in name:
            self.raise_error(f"custom op '{name}' is unknown", span)
        dialect = name.split(".", 1)[0]
        if self.ctx.get_optional_dialect(dialect) is None:
            self.raise_error(
                f"custom op '{name}' is unknown (dialect '{dialect}' is not registered)",
                span)
        self.raise_error(f"custom op '{name}' is unknown", span)

    # --- locations -----------------------------------------------------------------

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
        if token.kind == MLIRTokenKind.BARE_IDENT and token.text not in (
                "unknown", "callsite"):
            self.raise_error(f"unknown location kind '{token.text}'", token.span)
        return super()._parse_location()

    # --- hexadecimal floats in dense literals ----------------------------------------

    def _parse_tensor_literal_element(self):
        token = self._current_token
        if token.kind == MLIRTokenKind.INTEGER_LIT and token.text[:2] in ("0x", "0X"):
            self._consume_token(MLIRTokenKind.INTEGER_LIT)
            value = token.kind.get_int_value(token.span)
            if self._dense_hex_bits is not None:
                self._dense_hex_bits.append(value)
            return _HexFloatElement(False, value, token.span)
        element = super()._parse_tensor_literal_element()
        if self._dense_hex_bits is not None:
            self._dense_hex_bits.append(None)
        return element

    def parse_dense_int_or_fp_elements_attr(self, type):
        outer = self._dense_hex_bits
        self._dense_hex_bits = elements = []
        try:
            attr = super().parse_dense_int_or_fp_elements_attr(type)
        finally:
            self._dense_hex_bits = outer
        element_type = attr.get_element_type()
        if not isinstance(element_type, AnyFloat) or all(e is None for e in elements):
            return attr
        # Keep the exact bit patterns (NaN payloads included), not their float values.
        size = element_type.compile_time_size
        values = attr.get_values()
        if len(elements) == 1 and len(values) > 1:  # splat
            elements = elements * len(values)
        data = b"".join(
            bits.to_bytes(size, "little") if bits is not None
            else element_type.pack((value,))
            for bits, value in zip(elements, values))
        return DenseIntOrFPElementsAttr(attr.type, BytesAttr(data))


def _decode(text: str | bytes, filename: str, first_line: int) -> str:
    if isinstance(text, str):
        return text
    try:
        return text.decode("utf-8")
    except UnicodeDecodeError as err:
        before = text[:err.start]
        line = before.count(b"\n") + first_line
        col = err.start - (before.rfind(b"\n") + 1) + 1
        raise TileoptError(
            f"input is not UTF-8 text (byte 0x{text[err.start]:02X} cannot start or "
            "continue a character); expected an MLIR file", filename, line, col) from None


def _check_text(text: str, filename: str, first_line: int) -> None:
    """Reject binary data early: MLIR text never contains NUL or other C0 controls."""
    match = re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text)
    if match is None:
        return
    source = _SourceText(filename, text, first_line)
    line, col = source.line_col(match.start())
    raise TileoptError(
        f"unexpected control character 0x{ord(match.group()):02X}: this looks like "
        "binary data, not an MLIR file", filename, line, col)


def _error_from_parse_error(err: ParseError, source: _SourceText) -> TileoptError:
    line, col = source.line_col(err.span.start)
    message = err.msg
    if err.span.start >= len(source.text) and "end of file" not in message:
        message += " (at end of file: is the input truncated?)"
    return TileoptError(message, source.filename, line, col)


def parse_module(text: str | bytes, filename: str = "<stdin>", ctx: Context | None = None,
                 *, first_line: int = 1, verify: bool = True) -> ModuleOp:
    """Parse MLIR text into a ``ModuleOp``; raises ``TileoptError`` on bad input.

    ``first_line`` is the file line where ``text`` starts (for ``--split-input-file``
    chunks). Like ``mlir-opt``, the module is verified after parsing unless
    ``verify=False``; an empty input is an empty module.
    """
    text = _decode(text, filename, first_line)
    _check_text(text, filename, first_line)
    ctx = ctx or make_context()
    source = _SourceText(filename, text, first_line)
    parser = TileoptParser(ctx, text, filename)
    try:
        if parser._current_token.kind == MLIRTokenKind.EOF:
            module = ModuleOp([])
        else:
            module = parser.parse_module()
    except ParseError as err:
        raise _error_from_parse_error(err, source) from None
    except TileoptError:
        raise
    except Exception as err:  # a dialect's parser or an attribute constructor failed
        line, col = source.line_col(parser._current_token.span.start)
        raise TileoptError(_describe(err), filename, line, col) from err
    for op, start in parser.op_starts:
        _OP_SOURCES[op] = (source, start)
    if module not in _OP_SOURCES:
        _OP_SOURCES[module] = (source, 0)
    if verify:
        verify_module(module, filename)
    return module


def _describe(err: Exception) -> str:
    """The first line of an unexpected exception's message, for a diagnostic."""
    text = str(err).strip()
    first = text.splitlines()[0] if text else type(err).__name__
    if isinstance(err, DiagnosticException):
        return first
    return f"invalid input ({type(err).__name__}: {first})"


def split_input_file(text: str) -> list[tuple[str, int]]:
    """Split like ``--split-input-file``: chunks between ``// -----`` lines.

    Returns ``(chunk_text, first_line_number)`` pairs; pass the line number to
    ``parse_module(..., first_line=...)`` so messages keep the file's own lines.
    """
    chunks: list[tuple[str, int]] = []
    current: list[str] = []
    start_line = 1
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        if re.fullmatch(r"\s*// -----\s*", line):
            chunks.append(("".join(current), start_line))
            current = []
            start_line = number + 1
        else:
            current.append(line)
    chunks.append(("".join(current), start_line))
    return chunks


from tileopt.ir.verify import verify_module  # noqa: E402  (verify imports source_position)

__all__ = ["TileoptParser", "parse_module", "source_position", "split_input_file",
           "verify_module"]
