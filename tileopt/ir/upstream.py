"""MLIR's exact syntax for the upstream ops that xDSL prints slightly differently.

xDSL's ops for ``arith``, ``math``, ``cf``, ``scf``, ``ub`` and ``func`` print the same
text as MLIR except where listed here. The printer applies these by op class, so ops
built by passes through xDSL's own constructors print right too.

- ``scf.for``: MLIR writes two spaces before the induction variable type
  (``-> (f32)  : i32 {``, ``step %c1_i32  : i32 {``): ``ForOp::print`` emits ``' '``
  and then ``" : " << type << ' '``.
- ``scf.if``: its attribute dictionary follows the last region after a space
  (``} {tt.divisible}``; xDSL writes ``}{...}``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Operation
from xdsl.printer import Printer

if TYPE_CHECKING:
    from xdsl.dialects import scf


def print_scf_for(op: scf.ForOp, printer: Printer) -> None:
    indvar, *iter_args = op.body.block.args
    printer.print_string(" ")
    printer.print_ssa_value(indvar)
    printer.print_string(" = ")
    printer.print_ssa_value(op.lb)
    printer.print_string(" to ")
    printer.print_ssa_value(op.ub)
    printer.print_string(" step ")
    printer.print_ssa_value(op.step)
    if iter_args:
        printer.print_string(" iter_args(")
        for index, (arg, init) in enumerate(zip(iter_args, op.iter_args)):
            if index:
                printer.print_string(", ")
            printer.print_block_argument(arg, print_type=False)
            printer.print_string(" = ")
            printer.print_ssa_value(init)
        printer.print_string(") -> (")
        printer.print_list((arg.type for arg in iter_args), printer.print_attribute)
        printer.print_string(")")
    printer.print_string(" ")
    if not isinstance(indvar.type, IndexType):
        printer.print_string(" : ")
        printer.print_attribute(indvar.type)
        printer.print_string(" ")
    printer.print_region(op.body, print_entry_block_args=False, print_empty_block=False,
                         print_block_terminators=bool(op.iter_args))
    printer.print_op_attributes(op.attributes)


def print_scf_if(op: scf.IfOp, printer: Printer) -> None:
    printer.print_string(" ")
    printer.print_operand(op.cond)
    terminators = bool(op.output)
    if terminators:
        printer.print_string(" -> (")
        printer.print_list(op.output.types, printer.print_attribute)
        printer.print_string(")")
    printer.print_string(" ")
    printer.print_region(op.true_region, print_entry_block_args=False,
                         print_block_terminators=terminators)
    if op.false_region.blocks:
        printer.print_string(" else ")
        printer.print_region(op.false_region, print_entry_block_args=False,
                             print_block_terminators=terminators)
    printer.print_op_attributes(op.attributes)


# op class -> printer of its custom syntax (after the op name)
UPSTREAM_PRINTERS: dict[type[Operation], Callable[[Operation, Printer], None]] = {}


def upstream_printer_of(op_class: type[Operation]
                        ) -> Callable[[Operation, Printer], None] | None:
    if not UPSTREAM_PRINTERS:
        if "xdsl.dialects.scf" not in sys.modules:
            return None  # a file without scf ops: no class derives from scf's yet
        from xdsl.dialects import scf

        UPSTREAM_PRINTERS.update({scf.ForOp: print_scf_for, scf.IfOp: print_scf_if})
    for cls in op_class.__mro__:
        found = UPSTREAM_PRINTERS.get(cls)
        if found is not None:
            return found
    return None
