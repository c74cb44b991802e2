"""Custom-assembly pieces the Triton dialects share (``tt``, ``ttg``, ``ttng``, ``amdg``).

Where xDSL's ``assembly_format`` cannot express an op's syntax (operand types Triton
infers, ``oilist`` clauses, enum keywords before the operands), the op has a hand-written
``parse``/``print``. These are the constructs such formats have in common, each parsed and
printed once, the way MLIR's generated code for Triton's ``.td`` formats does it:

- ``attr-dict`` of an op with properties: inherent and discardable attributes in one
  sorted dictionary, without the ones printed elsewhere in the format, those at their
  default value, and ``operandSegmentSizes``;
- Triton's ``oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)``;
- enum keywords leading an op, as in ``tt.atomic_rmw add, acq_rel, gpu, %p, %v``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from tileopt.dialects.tt_types import (
    CACHE_MODIFIER,
    EVICTION_POLICY,
    MEM_SEMANTIC,
    MEM_SYNC_SCOPE,
    RMW_OP,
    CacheModifier,
    EvictionPolicy,
    TritonEnum,
)


def parse_attr_dict_split(parser: Parser, op_type: type[IRDLOperation]) -> tuple[dict, dict]:
    """Parse an optional ``{...}``; split inherent (property) entries from discardable ones."""
    entries = parser.parse_optional_attr_dict()
    prop_names = set(op_type.get_irdl_definition().properties)
    props = {k: v for k, v in entries.items() if k in prop_names}
    attrs = {k: v for k, v in entries.items() if k not in prop_names}
    return props, attrs


def print_attr_dict(
    printer: Printer,
    op: Operation,
    elide: Iterable[str] = (),
    defaults: Mapping[str, Attribute] | None = None,
) -> None:
    """Print properties and attributes as one ``{...}``, sorted by name as MLIR does,
    leaving out ``elide`` (printed elsewhere), ``operandSegmentSizes`` and the entries
    equal to their value in ``defaults``."""
    skip = {*elide, "operandSegmentSizes"}
    defaults = defaults or {}
    merged = {**op.properties, **op.attributes}
    entries = {
        k: merged[k] for k in sorted(merged) if k not in skip and defaults.get(k) != merged[k]
    }
    if entries:
        printer.print_string(" ")
        printer.print_attr_dict(entries)


_CACHE_CLAUSES = {
    # keyword: (property, enum, default)
    "cacheModifier": ("cache", CACHE_MODIFIER, CacheModifier.NONE),
    "evictionPolicy": ("evict", EVICTION_POLICY, EvictionPolicy.NORMAL),
}


def parse_cache_keywords(
    parser: Parser, keywords: Sequence[str] = tuple(_CACHE_CLAUSES)
) -> dict[str, Attribute]:
    """Triton's ``oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)``.

    ``keywords`` are the clauses the op allows; each at most once, in any order.
    """
    found: dict[str, Attribute] = {}
    while True:
        pos = parser.pos
        keyword = parser.parse_optional_keyword_in(list(keywords))
        if keyword is None:
            return found
        prop, spec, _ = _CACHE_CLAUSES[keyword]
        if prop in found:
            parser.raise_error(f"'{keyword}' given twice", pos, parser.pos)
        parser.parse_punctuation("=")
        found[prop] = spec.parse(parser)


def print_cache_keywords(printer: Printer, op: Operation) -> None:
    """The non-default cache modifier / eviction policy, as Triton prints them."""
    for keyword, (prop, spec, default) in _CACHE_CLAUSES.items():
        value = op.properties.get(prop)
        if isinstance(value, IntegerAttr) and value != spec.attr(default):
            printer.print_string(f" {keyword} = ")
            spec.print(printer, value)


def parse_enum_prefix(parser: Parser, specs: Sequence[TritonEnum]) -> list[IntegerAttr]:
    """Enum keywords each followed by a comma: ``add, acq_rel, gpu,``."""
    values = []
    for spec in specs:
        values.append(spec.parse(parser))
        parser.parse_punctuation(",")
    return values


def print_enum_prefix(printer: Printer, enums: Sequence[tuple[TritonEnum, IntegerAttr]]) -> None:
    """`` add, acq_rel, gpu, `` for ``parse_enum_prefix``: a space, then each keyword and
    a comma."""
    printer.print_string(" ")
    for spec, value in enums:
        spec.print(printer, value)
        printer.print_string(", ")


RMW_PREFIX = (RMW_OP, MEM_SEMANTIC, MEM_SYNC_SCOPE)
"""The enums leading an atomic read-modify-write (``tt.atomic_rmw``,
``amdg.buffer_atomic_rmw``): ``fadd, acq_rel, gpu,``."""


def print_rmw_prefix(printer: Printer, op: Operation) -> None:
    print_enum_prefix(printer, list(zip(RMW_PREFIX, (op.atomic_rmw_op, op.sem, op.scope))))


class StaticOffsetsOp(IRDLOperation):
    """Base of ops written ``%x[0, 32] {attrs} : T -> U`` (``ttg.memdesc_subslice``) or
    ``%x [0, 32] {attrs} : T to U`` (``amdg.extract_slice``): one operand, static offsets
    kept in a dense-array property, then the operand and result types."""

    OFFSETS: ClassVar[str]
    OFFSETS_TYPE: ClassVar[Attribute]
    GAP: ClassVar[str] = ""
    ARROW: ClassVar[str] = "->"

    @classmethod
    def parse(cls, parser: Parser) -> StaticOffsetsOp:
        source = parser.parse_unresolved_operand()
        offsets = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
        props, attrs = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        if cls.ARROW == "->":
            parser.parse_punctuation("->")
        else:
            parser.parse_keyword(cls.ARROW)
        result_type = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(source, source_type)],
            result_types=[result_type],
            properties={**props, cls.OFFSETS: DenseArrayBase.from_list(cls.OFFSETS_TYPE, offsets)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        source = self.operands[0]
        printer.print_string(" ")
        printer.print_operand(source)
        offsets = ", ".join(str(v) for v in self.properties[self.OFFSETS].get_values())
        printer.print_string(f"{self.GAP}[{offsets}]")
        print_attr_dict(printer, self, elide=[self.OFFSETS])
        printer.print_string(" : ")
        printer.print_attribute(source.type)
        printer.print_string(f" {self.ARROW} ")
        printer.print_attribute(self.results[0].type)


def parse_dot_types(
    parser: Parser, a_scaled: bool = False, b_scaled: bool = False
) -> tuple[Attribute, Attribute | None, Attribute, Attribute | None, Attribute]:
    """Triton's dot signature ``: A [, A-scale] * B [, B-scale] -> D`` (``tt.dot``,
    ``tt.dot_scaled``, ``ttng.warp_group_dot``): the types of a, its scale, b, its scale
    and d; a scale's type is there only when the op has that scale operand."""

    def scale_type(scaled: bool) -> Attribute | None:
        if not scaled:
            return None
        parser.parse_punctuation(",")
        return parser.parse_type()

    parser.parse_punctuation(":")
    a = parser.parse_type()
    a_scale = scale_type(a_scaled)
    parser.parse_punctuation("*")
    b = parser.parse_type()
    b_scale = scale_type(b_scaled)
    parser.parse_punctuation("->")
    return a, a_scale, b, b_scale, parser.parse_type()


def print_dot_types(
    printer: Printer,
    a: Attribute,
    b: Attribute,
    d: Attribute,
    a_scale: Attribute | None = None,
    b_scale: Attribute | None = None,
) -> None:
    """The signature ``parse_dot_types`` reads."""
    printer.print_string(" : ")
    printer.print_attribute(a)
    if a_scale is not None:
        printer.print_string(", ")
        printer.print_attribute(a_scale)
    printer.print_string(" * ")
    printer.print_attribute(b)
    if b_scale is not None:
        printer.print_string(", ")
        printer.print_attribute(b_scale)
    printer.print_string(" -> ")
    printer.print_attribute(d)


def print_types(printer: Printer, types: Sequence[Attribute], separator: str = ", ") -> None:
    """`` : T1, T2`` (or, with ``" -> "`` as the separator, `` : T1 -> T2``)."""
    printer.print_string(" : ")
    printer.print_list(types, printer.print_attribute, separator)


def print_attrs_and_types(printer: Printer, op: Operation, types: Sequence[Attribute]) -> None:
    """`` {attrs} : T1, T2``, how many custom formats end (``attr-dict `:` type(...)``,
    discardable attributes only)."""
    printer.print_op_attributes(op.attributes)
    print_types(printer, types)


def parse_operands(parser: Parser, count: int) -> list[UnresolvedOperand]:
    """``%a, %b, %c``: exactly ``count`` comma-separated operands (what follows them may
    start with a comma too, so the list cannot be read greedily)."""
    operands = [parser.parse_unresolved_operand()]
    for _ in range(count - 1):
        parser.parse_punctuation(",")
        operands.append(parser.parse_unresolved_operand())
    return operands


def parse_attrs_and_types(parser: Parser, count: int = 1) -> tuple:
    """``{attrs} : T1, T2`` as ``print_attrs_and_types`` writes it: the attributes, then
    ``count`` types."""
    attributes = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    types = [parser.parse_type()]
    for _ in range(count - 1):
        parser.parse_punctuation(",")
        types.append(parser.parse_type())
    return (attributes, *types)
