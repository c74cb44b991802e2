"""Which symbols an operation refers to (for ``inline`` and ``symbol-dce``).

A reference is any ``SymbolRefAttr`` in an op's properties or attributes, also inside
arrays, dictionaries and other attributes' parameters (MLIR's ``SymbolTable::getSymbolUses``).
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation, ParametrizedAttribute


def symbol_name(op: Operation) -> str | None:
    """The ``sym_name`` of a symbol op, else None."""
    attr = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return attr.data if isinstance(attr, StringAttr) else None


def is_private(op: Operation) -> bool:
    attr = op.properties.get("sym_visibility") or op.attributes.get("sym_visibility")
    return isinstance(attr, StringAttr) and attr.data in ("private", "nested")


_SYMBOL, _ARRAY, _DICTIONARY, _PARAMETRIZED, _OTHER = range(5)
_KINDS: dict[type, int] = {}
"""attribute class -> which of ``_refs_in``'s cases it is (an ``isinstance`` chain per
attribute before: four checks for most)"""


def _kind(cls: type) -> int:
    kind = _KINDS[cls] = (_SYMBOL if issubclass(cls, SymbolRefAttr) else
                          _ARRAY if issubclass(cls, ArrayAttr) else
                          _DICTIONARY if issubclass(cls, DictionaryAttr) else
                          _PARAMETRIZED if issubclass(cls, ParametrizedAttribute) else
                          _OTHER)
    return kind


def _refs_in(attr: Attribute, seen: set[int]) -> Iterator[str]:
    if id(attr) in seen:
        return
    seen.add(id(attr))
    kind = _KINDS.get(type(attr))
    if kind is None:
        kind = _kind(type(attr))
    if kind == _SYMBOL:
        yield attr.root_reference.data
    elif kind == _ARRAY:
        for item in attr.data:
            yield from _refs_in(item, seen)
    elif kind == _DICTIONARY:
        for item in attr.data.values():
            yield from _refs_in(item, seen)
    elif kind == _PARAMETRIZED:
        for param in attr.parameters:
            if isinstance(param, Attribute):
                yield from _refs_in(param, seen)


def referenced_symbols(op: Operation, *, nested: bool = True) -> set[str]:
    """Root names of every symbol referenced by ``op`` (and the ops inside it)."""
    found: set[str] = set()
    seen: set[int] = set()
    ops = op.walk() if nested else [op]
    for inner in ops:
        for attr in (*inner.properties.values(), *inner.attributes.values()):
            found.update(_refs_in(attr, seen))
    return found
