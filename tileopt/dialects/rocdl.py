"""The ``rocdl`` dialect: AMD GCN intrinsics as MLIR ops.

At TritonGPU level Triton's AMD passes (block ping-pong, scheduling) already emit two of
them: ``rocdl.s.setprio N`` (wave priority) and ``rocdl.sched.barrier MASK`` (a fence for
the instruction scheduler). Both print as in MLIR's ROCDL dialect: the immediate follows the
op name. The LLVM-level ops (``rocdl.workitem.id.x``, ``rocdl.mfma.*``, buffer intrinsics,
...) that lowering needs can be added to ``ROCDL_OPS`` beside them.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, IntegerType, i16, i32
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from tileopt.dialects.rocdl_llvm import ROCDL_LLVM_OPS
from tileopt.dialects.assembly import parse_attr_dict_split, print_attr_dict
from tileopt.dialects.effects import Synchronizes


class _ImmediateOp(IRDLOperation):
    """An op whose only content is one integer immediate: ``rocdl.<name> N {attrs}``."""

    IMMEDIATE: ClassVar[str] = ""
    IMMEDIATE_TYPE: ClassVar[IntegerType] = i32

    @classmethod
    def parse(cls, parser: Parser):
        value = parser.parse_integer(allow_boolean=False)
        props, attrs = parse_attr_dict_split(parser, cls)
        props[cls.IMMEDIATE] = IntegerAttr(value, cls.IMMEDIATE_TYPE)
        return cls.build(properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        value = self.properties[self.IMMEDIATE]
        assert isinstance(value, IntegerAttr)
        printer.print_string(f" {value.value.data}")
        print_attr_dict(printer, self, elide=[self.IMMEDIATE])


@irdl_op_definition

class SetPrioOp(_ImmediateOp):
    """``rocdl.s.setprio N``: s_setprio, raise or lower this wave's issue priority."""

    name = "rocdl.s.setprio"
    IMMEDIATE: ClassVar[str] = "priority"
    IMMEDIATE_TYPE: ClassVar[IntegerType] = i16

    priority = prop_def(IntegerAttr)
    # Moving priority changes across memory ops or matrix ops defeats their purpose.
    traits = traits_def(Synchronizes())

    def __init__(self, priority: int):
        super().__init__(properties={"priority": IntegerAttr(priority, i16)})


@irdl_op_definition
class SchedBarrierOp(_ImmediateOp):
    """``rocdl.sched.barrier MASK``: which instruction kinds may be scheduled across it."""

    name = "rocdl.sched.barrier"
    IMMEDIATE: ClassVar[str] = "mask"

    mask = prop_def(IntegerAttr)
    traits = traits_def(Synchronizes())

    def __init__(self, mask: int):
        super().__init__(properties={"mask": IntegerAttr(mask, i32)})


ROCDL_OPS = [SetPrioOp, SchedBarrierOp]

# The LLVM-level ops (thread ids, barriers, cross-lane moves, buffer and matrix ops) that
# Triton's convert-triton-amdgpu-to-llvm prints live in rocdl_llvm.py.
ROCDL = Dialect("rocdl", [*ROCDL_OPS, *ROCDL_LLVM_OPS], [])

__all__ = ["ROCDL", "ROCDL_OPS", "SetPrioOp", "SchedBarrierOp"]
