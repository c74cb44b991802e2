"""SSA value and block names chosen the way MLIR's printer chooses them for Triton.

This follows ``SSANameState`` in ``mlir/lib/IR/AsmPrinter.cpp`` (as Triton 3.6's MLIR
prints; checked against it through Triton's Python bindings). Names are derived when
printing; the SSA names of the parsed text are never kept:

- a region's values are named first, then the regions nested in its ops, each of those
  starting from the counters the enclosing region ended with (so sibling loops reuse
  names, and a loop body's names come after every name of the function body);
- with ``name_locs`` (MLIR's ``printNameLocAsPrefix``: ``--mlir-use-nameloc-as-prefix``,
  on in every file Triton's Python writes) a value takes the name of the first
  ``loc("name")`` inside its location (its op's for a result), searched as MLIR's
  ``findInstanceOf`` does: the location itself, then what it wraps, fusions and both
  sides of a call site, in order;
- otherwise a result takes its op's own name (MLIR's ``getAsmResultNames``: among the ops
  tileopt has ``arith.constant`` gives one: ``%c42_i32``, ``%c42``, ``%true``,
  ``%cst``; and ODS gives an op of several named results without a hook of its own one
  per result, :data:`RESULT_NAMES`: ``%outLHS, %outRHS = tt.split``, where name
  locations name every result), else a number ``%0``, ``%1``, ...;
- entry block arguments are ``%argN`` (one counter for all entry blocks, counted for
  named ones too); other block arguments are numbered;
- a taken name gets ``_N`` appended, N from one counter for all names (``%x``, ``%x_0``,
  ``%y_1``); only names of the same or enclosing regions count as taken;
- an op with several results (other than those of :data:`RESULT_NAMES`) has one name,
  ``%name:3``, used as ``%name#1``;
- blocks are ``^bb0``, ``^bb1``, ... in each region.

``restore_argument_name_locs`` runs the same naming backwards for text printed with name
locations: the block arguments whose locations the text lacks get back the name
locations their printed names show (``parse_module(..., arg_name_locs=True)``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    CallSiteLoc,
    FusedLoc,
    IntegerAttr,
    IntegerType,
    NameLoc,
    NoneAttr,
    Signedness,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue

_VALID_CHAR = re.compile(r"[A-Za-z0-9$._-]")


def sanitize_identifier(name: str) -> str:
    """``mlir::detail::sanitizeIdentifier`` for value names."""
    out = []
    for ch in name:
        if _VALID_CHAR.fullmatch(ch):
            out.append(ch)
        elif ch == " ":
            out.append("_")
        else:
            out.append("".join(f"{b:X}" for b in ch.encode("utf-8")))
    text = "".join(out)
    if text[:1].isdigit():
        text = "_" + text
    return text


RESULT_NAMES: dict[str, tuple[str, ...]] = {
    "tt.split": ("outLHS", "outRHS"),
    "arith.addui_extended": ("sum", "overflow"),
    "arith.mului_extended": ("low", "high"),
    "arith.mulsi_extended": ("low", "high"),
}
"""The ODS result names of the ops with several results and no ``OpAsmOpInterface`` of
their own: ``mlir-tblgen`` makes their ``getAsmResultNames`` name each result after its
declaration (only ops of more than one declared result), so each prints on its own."""


def _asm_result_name(op: Operation) -> str | None:
    """The names ops give their results themselves (MLIR's ``getAsmResultNames``)."""
    if op.name != "arith.constant":
        return None
    value = op.properties.get("value")
    if value is None:  # not ``or``: an IntegerAttr of 0 is falsy
        value = op.attributes.get("value")
    if isinstance(value, IntegerAttr):
        type_ = value.type
        if isinstance(type_, IntegerType) and type_.width.data == 1:
            return "true" if value.value.data else "false"
        if isinstance(type_, IntegerType):
            return f"c{value.value.data}_{_integer_type_text(type_)}"
        return f"c{value.value.data}"
    return "cst"


def _integer_type_text(type_: IntegerType) -> str:
    prefix = {Signedness.SIGNED: "si", Signedness.UNSIGNED: "ui"}.get(
        type_.signedness.data, "i")
    return f"{prefix}{type_.width.data}"


def _name_loc(location: Attribute | None) -> str | None:
    """The first ``NameLoc`` in a pre-order walk of ``location`` (``findInstanceOf``):
    unlike a diagnostic's position, a call site's caller counts too."""
    if isinstance(location, NameLoc):
        return location.desc.data
    if isinstance(location, FusedLoc):
        inner = location.locations.data
    elif isinstance(location, CallSiteLoc):
        inner = (location.callee, location.caller)
    else:
        return None
    return next((name for part in inner if (name := _name_loc(part)) is not None), None)


@dataclass
class _Scope:
    parent: _Scope | None
    names: set[str] = field(default_factory=set)

    def taken(self, name: str) -> bool:
        scope = self
        while scope is not None:
            if name in scope.names:
                return True
            scope = scope.parent
        return False


@dataclass
class _Counters:
    value: int = 0
    argument: int = 0
    conflict: int = 0


@dataclass
class NameTable:
    """The printed names of the values and blocks under one op."""

    values: dict[SSAValue, str] = field(default_factory=dict)
    result_groups: dict[Operation, str] = field(default_factory=dict)  # multi-result ops
    blocks: dict[Block, str] = field(default_factory=dict)


def assign_names(root: Operation, name_locs: bool = False,
                 spellings: dict[BlockArgument, str] | None = None) -> NameTable:
    """Names for everything under ``root``; ``name_locs``: name values after their name
    locations (MLIR's ``printNameLocAsPrefix``); ``spellings``: see
    ``restore_argument_name_locs``."""
    table = NameTable()
    work: list[tuple[Region, _Counters, _Scope | None]] = [
        (region, _Counters(), None) for region in reversed(root.regions)]
    while work:
        region, counters, parent_scope = work.pop()
        scope = _Scope(parent_scope)
        counters = _Counters(counters.value, counters.argument, counters.conflict)
        _name_region(region, counters, scope, table, name_locs, spellings)
        nested = [(inner, counters, scope) for op in _region_ops(region)
                  for inner in op.regions]
        work.extend(reversed(nested))
    return table


def _region_ops(region: Region):
    for block in region.blocks:
        yield from block.ops


def _unique(name: str, counters: _Counters, scope: _Scope) -> str:
    name, counters.conflict = _probe(name, counters.conflict, scope)
    scope.names.add(name)
    return name


def _probe(name: str, conflict: int, scope: _Scope) -> tuple[str, int]:
    """The name ``name`` would be printed as now, and the conflict counter after it."""
    name = sanitize_identifier(name)
    if scope.taken(name):
        while True:
            probe = f"{name}_{conflict}"
            conflict += 1
            if not scope.taken(probe):
                return probe, conflict
    return name, conflict


def _name_region(region: Region, counters: _Counters, scope: _Scope,
                 table: NameTable, name_locs: bool,
                 spellings: dict[BlockArgument, str] | None = None) -> None:
    for number, block in enumerate(region.blocks):
        table.blocks[block] = f"bb{number}"
        entry = number == 0
        for arg in block.args:
            name = None
            if entry:
                name = f"arg{counters.argument}"
                counters.argument += 1
            if spellings and arg in spellings and isinstance(arg.location, UnknownLoc):
                _restore_name_loc(arg, spellings[arg], name, counters, scope)
            if name_locs and (named := _name_loc(arg.location)) is not None:
                name = named  # an empty one gives a number, as in MLIR
            _set_name(arg, name, counters, scope, table)
        for op in block.ops:
            if not op.results:
                continue
            first = op.results[0]
            name = _name_loc(op.location) if name_locs else None
            named = RESULT_NAMES.get(op.name)
            if named is not None and len(named) == len(op.results):
                for result, own in zip(op.results, named):
                    _set_name(result, own if name is None else name, counters, scope, table)
                continue
            if name is None:
                name = _asm_result_name(op)
            base = _set_name(first, name, counters, scope, table)
            if len(op.results) > 1:
                table.result_groups[op] = base
                for index, result in enumerate(op.results):
                    table.values[result] = f"{base}#{index}"


def restore_argument_name_locs(root: Operation, spellings: dict[BlockArgument, str]) -> None:
    """Give back the name locations that text printed with name locations implies.

    MLIR's printer writes no location for an argument of a custom-form region (an
    ``scf.for``'s induction variable and iter_args), so text that Triton's Python printed
    (names from name locations, ``--mlir-use-nameloc-as-prefix``) shows ``%off`` where
    its IR had ``loc("off")``, and a reader gives it no location. ``spellings`` maps each
    block argument to the name the text spelled it with. Naming ``root`` as the printer
    did, a block argument without a location whose spelling is not the name it would get
    anyway (``%argN``, a number) gets ``loc("name")`` for
    the name that, made unique at that point, is the spelling: the spelling without a
    ``_N`` suffix when that is what the printer's uniquing made of it (``%_mean_10`` of
    ``loc("_mean")``), else the spelling itself. A spelling no name explains (input not
    printed by MLIR) leaves the argument as it is.
    """
    assign_names(root, name_locs=True, spellings=spellings)


_UNIQUED = re.compile(r"(.+)_[0-9]+")


def _restore_name_loc(arg: BlockArgument, spelled: str, default: str | None,
                      counters: _Counters, scope: _Scope) -> None:
    anyway = str(counters.value) if default is None else \
        _probe(default, counters.conflict, scope)[0]
    if spelled == anyway:
        return
    base = _UNIQUED.fullmatch(spelled)
    for name in ((base.group(1),) if base else ()) + (spelled,):
        if _probe(name, counters.conflict, scope)[0] == spelled:
            arg.location = NameLoc(StringAttr(name), NoneAttr())  # loc("name")
            return


def _set_name(value: SSAValue, name: str | None, counters: _Counters, scope: _Scope,
              table: NameTable) -> str:
    if name:
        text = _unique(name, counters, scope)
    else:
        text = str(counters.value)
        counters.value += 1
    table.values[value] = text
    return text


__all__ = ["NameTable", "assign_names", "restore_argument_name_locs",
           "sanitize_identifier"]
