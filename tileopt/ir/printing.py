"""Printing xDSL IR as MLIR/triton-opt print it.

``TileoptPrinter`` is xDSL's ``Printer`` with MLIR's output conventions:

- ``module attributes {...} {`` for ``builtin.module``; ``return`` for ``func.return``
  inside ``func.func`` (an op's default dialect is elided, as in MLIR);
- attribute aliases hoisted to the top (``#blocked = #ttg.blocked<...>``) for attribute
  classes that declare ``triton_alias = "blocked"``; MLIR's order and numbering: sorted by
  nesting depth then name, numbered ``#blocked``, ``#blocked1``, ... by first use, where
  "use" is the order MLIR's alias pass visits the IR (the text order, except that generic
  ops visit their regions before their types);
- with ``debuginfo``, ``loc(#locN)`` after each op and ``#locN = loc(...)`` lines after
  the module; block argument locations inline (``loc("x"(#loc))``) and their aliases
  (and the aliases those use) defined before the module, as MLIR does;
- SSA and block names as MLIR chooses them at print time (``naming.py``; name locations
  only when asked, as MLIR's ``printNameLocAsPrefix``); ``%x:3`` / ``%x#1`` for ops
  with several results; ``// pred: ^bb1`` comments on blocks;
- floats as MLIR writes them (``floats.py``): ``1.000000e+00``, ``0.707106769``,
  ``0xFF800000``; dense splats as ``dense<...>``; attribute dictionaries sorted by name.

Aliases are found by printing the module once into nothing, recording every aliasable
attribute in visit order, then printing it for real.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    NameLoc,
    UnknownLoc,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IndexType,
    IntegerType,
    LocationAttr,
    ModuleOp,
    UnitAttr,
    UnregisteredOp,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue, TypeAttribute
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, IsTerminator

from tileopt.dialects.triton_version import module_version, printing_as
from tileopt.ir.floats import float_format, format_float, format_float_bits
from tileopt.ir.gc_scans import heap_frozen
from tileopt.ir.naming import NameTable, assign_names
from tileopt.ir.upstream import upstream_printer_of
from tileopt.ir.value_users import argument_users_comment, op_ids, users_comment

# Ops whose regions elide their own dialect's prefix (MLIR's getDefaultDialect).
DEFAULT_DIALECTS = {"func.func": "func"}

# Non-splat dense attributes with more elements than this print as a hex string.
_DENSE_HEX_THRESHOLD = 100


class _NullStream:
    def write(self, text: str) -> int:
        return len(text)


@dataclass(eq=False)
class _AliasInfo:
    name: str  # "blocked", "loc", ...
    order: int
    is_type: bool
    deferrable: bool  # printed after the module (op locations), else before it
    depth: int = 0
    children: list[_AliasInfo] = field(default_factory=list)

    def make_non_deferrable(self) -> None:
        """MLIR's ``markAliasNonDeferrable``: the alias and what it refers to go on top."""
        if self.deferrable:
            self.deferrable = False
            for child in self.children:
                child.make_non_deferrable()


class _SyntaxTemplate:
    """An op's custom syntax (what its ``print`` writes after the op name) cut at its
    SSA values: printing another op of the same class with the same types, properties
    and attributes writes the same text around its own values, taken from the same
    operand or result positions."""

    __slots__ = ("parts", "positions")
    RECORDED: _SyntaxTemplate  # a recorder's mark: this op's attributes were visited

    def __init__(self, parts: tuple[str, ...], positions: tuple[int, ...]) -> None:
        self.parts = parts
        self.positions = positions  # operand index, or ~result index

    @classmethod
    def of(cls, op: Operation, text: str, values: list) -> _SyntaxTemplate | None:
        """The template of ``text``, printed by ``op`` with ``values`` (value, start,
        end) at those offsets; None where a value is not one of ``op``'s own at a single
        position (then each op prints itself) or the text spans lines."""
        if "\n" in text:
            return None
        where: dict[int, int] = {}
        for index, value in enumerate(op._operands):  # noqa: SLF001
            if where.setdefault(id(value), index) != index:
                return None  # a value used twice: which operand is printed is unclear
        for index, value in enumerate(op.results):
            where[id(value)] = ~index
        parts, positions, at = [], [], 0
        for value, start, end in values:
            position = where.get(id(value))
            if position is None or start < at:
                return None
            parts.append(text[at:start])
            positions.append(position)
            at = end
        parts.append(text[at:])
        return cls(tuple(parts), tuple(positions))

    def print(self, printer, operands, results) -> None:
        parts = self.parts
        for index, position in enumerate(self.positions):
            printer.print_string(parts[index])
            printer.print_ssa_value(operands[position] if position >= 0
                                    else results[~position])
        printer.print_string(parts[-1])


_SyntaxTemplate.RECORDED = _SyntaxTemplate((), ())


_OP_CLASS_FACTS: dict[type, tuple] = {}


def _op_class_facts(cls: type[Operation]) -> tuple:
    """Whether ``cls`` is the module op, an unregistered op, printed in the generic form
    (no custom syntax), and its upstream printer; asked once per class."""
    facts = _OP_CLASS_FACTS.get(cls)
    if facts is None:
        facts = _OP_CLASS_FACTS[cls] = (
            issubclass(cls, ModuleOp), issubclass(cls, UnregisteredOp),
            Operation.print is cls.print, upstream_printer_of(cls))
    return facts


def alias_name_of(attr: Attribute, debuginfo: bool) -> str | None:
    """The alias MLIR/Triton give this attribute, or None when it prints inline."""
    name = getattr(type(attr), "triton_alias", None)
    if name is not None:
        return name
    if debuginfo and isinstance(attr, LocationAttr):
        return "loc"
    return None


@dataclass(eq=False, repr=False)
class TileoptPrinter(Printer):
    """xDSL's printer with MLIR's conventions (see the module docstring)."""

    use_syntax_templates: ClassVar[bool] = True  # see ``_print_custom_syntax``

    names: NameTable | None = field(default=None)
    aliases: dict[Attribute, str] = field(default_factory=dict)
    recording: bool = field(default=False)
    # --mlir-elide-elementsattrs-if-larger: a non-splat dense attribute with more elements
    # prints as dense_resource<__elided__>.
    elide_elements_larger: int | None = field(default=None)
    # --mlir-pretty-debuginfo: locations as "file:line:col", without loc(...) or aliases.
    pretty_debuginfo: bool = field(default=False)
    # --mlir-print-value-users: "// users: ..." comments (value_users.py).
    print_value_users: bool = field(default=False)
    _op_ids: dict[Operation, str] = field(default_factory=dict)
    _alias_infos: dict[Attribute, _AliasInfo] = field(default_factory=dict, init=False)
    _alias_stack: list[_AliasInfo] = field(default_factory=list, init=False)
    _visiting_op_location: bool = field(default=False, init=False)
    _visited: dict[int, tuple[Attribute, _AliasInfo]] = field(default_factory=dict,
                                                             init=False)
    _printed: dict[int, tuple[Attribute, str]] = field(default_factory=dict, init=False)
    _defining_alias: Attribute | None = field(default=None, init=False)
    _default_dialects: list[str] = field(default_factory=lambda: ["builtin"], init=False)
    # ``_print_custom_syntax``: (op class, ids of its types and attributes) -> template;
    # the module is not changed while it prints, so ids stay its objects'
    _syntax_templates: dict[tuple, _SyntaxTemplate] = field(default_factory=dict,
                                                           init=False)
    _capture: list | None = field(default=None, init=False)

    # --- output -------------------------------------------------------------------

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if "\n" not in text:
            self._current_column += len(text)
            self.stream.write(text)
            return
        super().print_string(text, indent=indent)

    def _print_new_line(self, indent: int | None = None, print_message: bool = True) -> None:
        if self._next_line_callback and print_message:
            super()._print_new_line(indent, print_message)
            return
        # xDSL's, in one write instead of two ``print`` calls (once per op)
        spaces = (self._indent if indent is None else indent) * self.indent_num_spaces
        self.stream.write("\n" + " " * spaces)
        self._current_line += 1
        self._current_column = spaces

    # --- names ---------------------------------------------------------------------

    def print_ssa_value(self, value: SSAValue) -> str:
        capture = self._capture
        start = self.stream.tell() if capture is not None else 0
        if self.names is not None and (name := self.names.values.get(value)) is not None:
            self.print_string(f"%{name}")
        else:
            name = super().print_ssa_value(value)
        if capture is not None:
            capture.append((value, start, self.stream.tell()))
        return name

    def _get_block_name(self, block: Block) -> str:
        if self.names is not None and (name := self.names.blocks.get(block)) is not None:
            return name
        return super()._get_block_name(block)

    def _populate_block_name(self, block: Block, block_index: int | None = None) -> None:
        if self.names is not None and block in self.names.blocks:
            self._blocks[block] = self.names.blocks[block]
            return
        super()._populate_block_name(block, block_index)

    def _print_results(self, op: Operation) -> None:
        if not op.results:
            return
        if self.names is not None and (base := self.names.result_groups.get(op)):
            self.print_string(f"%{base}:{len(op.results)} = ")
            return
        self.print_list(op.results, self.print_ssa_value)
        self.print_string(" = ")

    # --- operations -----------------------------------------------------------------

    def print_op(self, op: Operation) -> None:
        if self.recording and self.print_debuginfo and not self.pretty_debuginfo:
            self._print_location_ref(op.location)  # MLIR visits an op's location first
        is_module, unregistered, generic, special = _op_class_facts(type(op))
        if is_module and not self.print_generic_format:
            self._print_module_op(op)
            return
        isolated = bool(op.get_traits_of_type(IsolatedFromAbove))
        if not self.recording:  # (results hold no attributes to record)
            self._print_results(op)
        if isolated:
            self.enter_scope()
        if unregistered:
            self.print_string(f'"{op.op_name.data}"')
            op_name = op.op_name
            del op.attributes["op_name__"]
            try:
                self.print_op_with_default_format(op)
            finally:
                op.attributes["op_name__"] = op_name
        elif self.print_generic_format or generic:
            self.print_string(f'"{op.name}"')
            self.print_op_with_default_format(op)
        else:
            if not self.recording:
                self.print_string(self._op_name_text(op))
            self._default_dialects.append(DEFAULT_DIALECTS.get(op.name, ""))
            try:
                if special is not None:
                    special(op, self)
                else:
                    self._print_custom_syntax(op)
            finally:
                self._default_dialects.pop()
        self._print_op_location(op)
        if self.print_value_users and not self.recording:
            self.print_string(users_comment(op, self._user_identifier))
        if isolated:
            self.exit_scope()

    def _print_custom_syntax(self, op: Operation) -> None:
        """``op.print``, from the template of an earlier op of the same class, types,
        properties and attributes where there is one (``_SyntaxTemplate``)."""
        if op.regions or op.successors or self.print_value_users or \
                not self.use_syntax_templates:
            op.print(self)
            return
        operands, results = op._operands, op.results  # noqa: SLF001
        key = (type(op), *[id(v._type) for v in operands], -1,  # noqa: SLF001
               *[id(r._type) for r in results], -1,  # noqa: SLF001
               *op.properties, *map(id, op.properties.values()), -1,
               *op.attributes, *map(id, op.attributes.values()))
        template = self._syntax_templates.get(key)
        if template is not None:
            if not self.recording:  # (a recorder has seen these attributes already)
                template.print(self, operands, results)
            return
        if self.recording:
            op.print(self)
            self._syntax_templates[key] = _SyntaxTemplate.RECORDED
            return
        stream, self.stream = self.stream, io.StringIO()
        column, self._capture = self._current_column, []
        try:
            op.print(self)
            text, values = self.stream.getvalue(), self._capture
        finally:
            self.stream, self._capture = stream, None
        self._current_column = column
        self.print_string(text)
        template = _SyntaxTemplate.of(op, text, values)
        if template is not None:
            self._syntax_templates[key] = template

    def _op_name_text(self, op: Operation) -> str:
        name = op.name
        default = self._default_dialects[-1]
        if default and name.startswith(default + ".") and name.count(".") == 1:
            return name[len(default) + 1:]
        return name

    def _print_op_location(self, op: Operation) -> None:
        if not self.print_debuginfo:
            return
        self.print_string(" ")
        if self.pretty_debuginfo:
            self.print_string(pretty_location(op.location))
            return
        self._print_location_ref(op.location)

    def _print_location_ref(self, location: Attribute) -> None:
        """An op's location: ``loc(#locN)`` when it has an alias."""
        if self.recording:
            self._visiting_op_location = True
            try:
                self.print_attribute(location)
            finally:
                self._visiting_op_location = False
            return
        alias = self.aliases.get(location)
        if alias is not None:
            self.print_string(f"loc({alias})")
        else:
            self.print_attribute(location)

    def _print_module_op(self, op: ModuleOp) -> None:
        self.print_string("module")
        if op.sym_name is not None:
            self.print_string(" ")
            self.print_symbol_name(op.sym_name.data)
        self.print_op_attributes(op.attributes, print_keyword=True)
        self.print_string(" ")
        self._default_dialects.append("")
        try:
            self.print_region(op.body, print_entry_block_args=False,
                              print_empty_block=False)
        finally:
            self._default_dialects.pop()
        self._print_op_location(op)

    def print_op_with_default_format(self, op: Operation) -> None:
        if self.recording:
            # MLIR's alias pass visits a generic op's regions before its types.
            for region in op.regions:
                self.print_region(region)
            for type_ in op.operand_types:
                self.print_attribute(type_)
            for type_ in op.result_types:
                self.print_attribute(type_)
            for attr in (*op.properties.values(), *op.attributes.values()):
                self.print_attribute(attr)
            return
        self.print_operands(op.operands)
        self.print_successors(op.successors)
        self._print_op_properties(op.properties)
        self.print_regions(op.regions)
        self.print_op_attributes(op.attributes)
        self.print_string(" : ")
        self.print_function_type(op.operand_types, op.result_types)

    def print_operation_type(self, op: Operation) -> None:
        self.print_function_type(op.operand_types, op.result_types)

    def _print_op_properties(self, properties: dict[str, Attribute]) -> None:
        if not properties:
            return
        self.print_string(" <")
        self.print_attr_dict(dict(sorted(properties.items())))
        self.print_string(">")

    def print_op_attributes(self, attributes, *, reserved_attr_names=(),
                            print_keyword: bool = False) -> bool:
        shown = {name: attr for name, attr in sorted(attributes.items())
                 if name not in reserved_attr_names}
        if not shown:
            return False
        if print_keyword:
            self.print_string(" attributes")
        self.print_string(" ")
        self.print_attr_dict(shown)
        return True

    # --- blocks -------------------------------------------------------------------

    def print_block(self, block: Block, print_block_args: bool = True,
                    print_block_terminator: bool = True) -> None:
        if print_block_args:
            self._print_new_line()
            if block not in self._blocks:
                self._populate_block_name(block)
            self.print_block_name(block)
            if block.args:
                with self.in_parens():
                    self.print_list(block.args, self.print_block_argument)
            self.print_string(":")
            self._print_predecessors(block)
        with self.indented():
            if self.print_value_users and not self.recording:
                for arg in block.args:
                    self._print_new_line()
                    self.print_string(argument_users_comment(arg, self._value_text,
                                                             self._user_identifier))
            for op in block.ops:
                if not print_block_terminator and op.has_trait(
                        IsTerminator, value_if_unregistered=False):
                    continue
                self._print_new_line()
                self.print_op(op)

    def _print_predecessors(self, block: Block) -> None:
        """MLIR's ``// pred: ^bb1`` / ``// 2 preds: ^bb0, ^bb2`` block comments."""
        if self.recording or block.parent is None:
            return
        predecessors = list(dict.fromkeys(block.predecessors()))
        if not predecessors:
            if block.parent.first_block is not block:
                self.print_string("  // no predecessors")
            return
        if len(predecessors) == 1:
            self.print_string(f"  // pred: ^{self._get_block_name(predecessors[0])}")
            return
        order = {b: i for i, b in enumerate(block.parent.blocks)}
        predecessors.sort(key=lambda b: order.get(b, len(order)))
        names = ", ".join(f"^{self._get_block_name(b)}" for b in predecessors)
        self.print_string(f"  // {len(predecessors)} preds: {names}")

    def print_block_argument(self, arg: BlockArgument, print_type: bool = True) -> None:
        self.print_ssa_value(arg)
        if print_type:
            self.print_string(": ")
            self.print_attribute(arg.type)
            if self.print_debuginfo:
                self.print_string(" ")
                if self.pretty_debuginfo:
                    self.print_string(pretty_location(arg.location))
                else:
                    self.print_attribute(arg.location)

    # --- value users (--mlir-print-value-users) -----------------------------------------

    def _value_text(self, value: SSAValue) -> str:
        stream, self.stream = self.stream, io.StringIO()
        column = self._current_column
        try:
            self.print_ssa_value(value)
            return self.stream.getvalue()
        finally:
            self.stream, self._current_column = stream, column

    def _user_identifier(self, op: Operation) -> str:
        """A user by its results (``%x``, ``%x#0, %x#1``), one without results by its id
        (``value_users.op_ids``)."""
        if op.results:
            return ", ".join(self._value_text(result) for result in op.results)
        return self._op_ids.get(op, "%op?")

    # --- attributes ---------------------------------------------------------------

    def print_attribute(self, attribute: Attribute) -> None:
        if self.recording:
            self._visit_attribute(attribute)
            return
        if attribute is not self._defining_alias:
            alias = self.aliases.get(attribute) if alias_name_of(
                attribute, self.print_debuginfo) else None
            if alias is not None:
                if isinstance(attribute, LocationAttr) and not self.printing_location:
                    # A location outside an op position (e.g. a block argument's)
                    # prints inline, its nested locations as aliases.
                    pass
                else:
                    self.print_string(alias)
                    return
        if isinstance(attribute, LocationAttr) or attribute is self._defining_alias:
            self._print_attribute_inline(attribute)
            return
        # The same type object is printed again and again (`tensor<128xf32, #blocked>`);
        # with the aliases fixed, its text is too.
        cached = self._printed.get(id(attribute))
        if cached is not None and cached[0] is attribute:
            self.print_string(cached[1])
            return
        stream, self.stream = self.stream, io.StringIO()
        try:
            self._print_attribute_inline(attribute)
            text = self.stream.getvalue()
        finally:
            self.stream = stream
        self.stream.write(text)
        if "\n" not in text:
            self._printed[id(attribute)] = (attribute, text)

    def _print_attribute_inline(self, attribute: Attribute) -> None:
        defining, self._defining_alias = self._defining_alias, None
        try:
            if isinstance(attribute, DenseIntOrFPElementsAttr):
                self._print_dense(attribute)
            elif isinstance(attribute, DictionaryAttr):
                self.print_attr_dict(dict(sorted(attribute.data.items())))
            else:
                super().print_attribute(attribute)
        finally:
            self._defining_alias = defining

    def _visit_attribute(self, attribute: Attribute) -> None:
        """Record aliasable attributes in MLIR's visit order, with their depth."""
        name = alias_name_of(attribute, self.print_debuginfo)
        if name is None:
            self._visit_plain_attribute(attribute)
            return
        deferrable = self._visiting_op_location
        info = self._alias_infos.get(attribute)
        if info is None:
            info = _AliasInfo(name, len(self._alias_infos),
                              isinstance(attribute, TypeAttribute), deferrable)
            self._alias_infos[attribute] = info
            self._alias_stack.append(info)
            try:
                self._print_attribute_inline(attribute)
            finally:
                self._alias_stack.pop()
        elif not deferrable:
            info.make_non_deferrable()
        if self._alias_stack:
            enclosing = self._alias_stack[-1]
            enclosing.depth = max(enclosing.depth, info.depth + 1)
            enclosing.children.append(info)

    def _visit_plain_attribute(self, attribute: Attribute) -> None:
        """An attribute without alias: walk it once for the aliases inside it, and on
        later visits pass on what that walk found instead of walking it again."""
        if isinstance(attribute, LocationAttr):
            self._print_attribute_inline(attribute)
            return
        cached = self._visited.get(id(attribute))
        if cached is not None and cached[0] is attribute:
            inside = cached[1]
        else:
            inside = _AliasInfo("", -1, False, False)  # collects the aliases inside
            self._alias_stack.append(inside)
            try:
                self._print_attribute_inline(attribute)
            finally:
                self._alias_stack.pop()
            self._visited[id(attribute)] = (attribute, inside)
        if self._alias_stack:
            enclosing = self._alias_stack[-1]
            enclosing.depth = max(enclosing.depth, inside.depth)
            enclosing.children.extend(inside.children)
        if not self._visiting_op_location:
            for child in inside.children:
                child.make_non_deferrable()

    def print_float(self, value: float, type: AnyFloat) -> None:
        self.print_string(format_float(value, type))

    def print_attr_dict(self, attr_dict) -> None:
        self.print_string("{")
        self.print_list(attr_dict.items(), self._print_attr_string)
        self.print_string("}")

    def _print_attr_string(self, attr_tuple: tuple[str, Attribute]) -> None:
        self.print_identifier_or_string_literal(attr_tuple[0])
        if not isinstance(attr_tuple[1], UnitAttr):
            self.print_string(" = ")
            self.print_attribute(attr_tuple[1])

    def _print_dense(self, attr: DenseIntOrFPElementsAttr) -> None:
        """``dense<...> : type`` from the raw data, so float bit patterns stay exact."""
        element_type = attr.get_element_type()
        fmt = float_format(element_type)
        is_int = isinstance(element_type, IntegerType | IndexType)
        if fmt is None and not is_int:  # complex numbers: xDSL's own printing
            attr.print_builtin(self)
            return
        data = attr.data.data
        count = len(attr)
        size = element_type.compile_time_size
        splat = bool(count) and data == data[:size] * count
        if self.elide_elements_larger is not None and count > self.elide_elements_larger \
                and not splat:
            self.print_string("dense_resource<__elided__> : ")
            self.print_attribute(attr.get_type())
            return
        self.print_string("dense<")
        if count:
            if not splat and count > _DENSE_HEX_THRESHOLD:
                self.print_string(f'"0x{data.hex().upper()}"')
            else:
                shown = 1 if splat else count
                if fmt is not None:
                    elements = [format_float_bits(int.from_bytes(
                        data[i * size:(i + 1) * size], "little"), fmt)
                        for i in range(shown)]
                else:
                    values = attr.get_values()[:shown]
                    if isinstance(element_type, IntegerType) and \
                            element_type.width.data == 1:
                        elements = ["true" if v else "false" for v in values]
                    else:
                        elements = [str(v) for v in values]
                self.print_string(elements[0] if splat
                                  else _nest(elements, list(attr.get_shape())))
        self.print_string("> : ")
        self.print_attribute(attr.get_type())

    # --- aliases ---------------------------------------------------------------------

    def assign_aliases(self) -> list[tuple[Attribute, str, bool]]:
        """Name the recorded aliases as MLIR does; returns them in definition order,
        each with whether it is deferred (printed after the module)."""
        ordered = sorted(self._alias_infos.items(),
                         key=lambda item: (item[1].depth, not item[1].is_type,
                                           item[1].name, item[1].order))
        counts: dict[str, int] = {}
        result = []
        for attr, info in ordered:
            index = counts.get(info.name, 0)
            counts[info.name] = index + 1
            suffix = ""
            if index:
                suffix = ("_" if info.name[-1].isdigit() else "") + str(index)
            prefix = "!" if info.is_type else "#"
            text = f"{prefix}{info.name}{suffix}"
            self.aliases[attr] = text
            result.append((attr, text, info.deferrable))
        return result

    def print_alias_definition(self, attr: Attribute, text: str) -> None:
        self.print_string(f"{text} = ")
        self._defining_alias = attr
        try:
            self.print_attribute(attr)
        finally:
            self._defining_alias = None
        self._print_new_line()


def pretty_location(loc: Attribute) -> str:
    """A location in MLIR's pretty form (``--mlir-pretty-debuginfo``): ``file:line:col``,
    ``[unknown]``, ``"name"(child)``, ``callee at caller``, ``[a, b]`` (for reading, not
    parsing back)."""
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    if isinstance(loc, NameLoc):
        child = "" if isinstance(loc.location, UnknownLoc) else \
            f"({pretty_location(loc.location)})"
        return f'"{loc.desc.data}"{child}'
    if isinstance(loc, CallSiteLoc):
        return f"{pretty_location(loc.callee)} at {pretty_location(loc.caller)}"
    if isinstance(loc, FusedLoc):
        return "[" + ", ".join(pretty_location(inner) for inner in loc.locations.data) + "]"
    return "[unknown]"


def _nest(elements: list[str], shape: list[int]) -> str:
    if len(shape) <= 1:
        return "[" + ", ".join(elements) + "]"
    step = len(elements) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nest(elements[i:i + step], shape[1:])
                           for i in range(0, len(elements), step or 1)) + "]"


@heap_frozen
def print_module(module: ModuleOp, debuginfo: bool = False, local_scope: bool = False,
                 generic: bool = False, elide_elements: int | None = None,
                 pretty_debuginfo: bool = False, value_users: bool = False,
                 triton_version: str | None = None, name_locs: bool = False) -> str:
    """The module as MLIR/triton-opt prints it (``--mlir-print-debuginfo`` if asked;
    ``local_scope``: every attribute and location in place, no aliases; ``generic``: every
    op in the generic form; ``elide_elements``: dense attributes of more elements elided;
    ``pretty_debuginfo``: locations in MLIR's pretty form; ``value_users``: comments naming
    each value's users; ``name_locs``: values named after their ``loc("name")``, as
    ``--mlir-use-nameloc-as-prefix`` and every file Triton's Python writes), spelled as
    Triton ``triton_version`` prints it (default: the module's version,
    ``tileopt.dialects.triton_version``)."""
    settings = dict(elide_elements_larger=elide_elements, pretty_debuginfo=pretty_debuginfo,
                    print_value_users=value_users,
                    _op_ids=op_ids(module) if value_users else {})
    with printing_as(triton_version or module_version(module)):
        return _print_module(module, debuginfo, local_scope, generic, settings, name_locs)


def _print_module(module: ModuleOp, debuginfo: bool, local_scope: bool,
                  generic: bool, settings: dict, name_locs: bool) -> str:
    names = assign_names(module, name_locs)
    if local_scope:
        stream = io.StringIO()
        printer = TileoptPrinter(stream=stream, print_debuginfo=debuginfo, names=names,
                                 print_generic_format=generic, **settings)
        printer.print_op(module)
        printer._print_new_line()
        return stream.getvalue()

    recorder = TileoptPrinter(stream=_NullStream(), print_debuginfo=debuginfo,
                              names=names, recording=True, print_generic_format=generic,
                              **settings)
    recorder.print_op(module)
    definitions = recorder.assign_aliases()

    stream = io.StringIO()
    printer = TileoptPrinter(stream=stream, print_debuginfo=debuginfo, names=names,
                             aliases=recorder.aliases, print_generic_format=generic,
                             **settings)
    deferred = []
    for attr, text, is_deferred in definitions:
        if is_deferred:
            deferred.append((attr, text))
        else:
            printer.print_alias_definition(attr, text)
    printer.print_op(module)
    printer._print_new_line()
    for attr, text in deferred:
        printer.print_alias_definition(attr, text)
    return stream.getvalue()
