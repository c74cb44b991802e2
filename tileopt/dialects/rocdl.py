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
from tileopt.dialects.triton_version import note_spelling, prints_39


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


# The instruction kinds a sched barrier lets the scheduler move across it (LLVM's
# ``llvm.amdgcn.sched.barrier`` mask bits), as the ROCDL dialect of Triton 3.9's LLVM
# names them; 3.6's LLVM writes the number.
SCHED_GROUP_MASKS = {"non_mem_non_sideeffect": 0x1, "valu": 0x2, "salu": 0x4,
                     "mfma_wmma": 0x8, "all_vmem": 0x10, "vmem_read": 0x20,
                     "vmem_write": 0x40, "all_ds": 0x80, "ds_read": 0x100, "ds_write": 0x200,
                     "transcendental": 0x400, "ldsdma": 0x800}


@irdl_op_definition
class SchedBarrierOp(_ImmediateOp):
    """``rocdl.sched.barrier MASK``: which instruction kinds may be scheduled across it
    (``rocdl.sched.barrier 0`` in Triton 3.6, ``rocdl.sched.barrier none`` or
    ``valu|salu`` in 3.9)."""

    name = "rocdl.sched.barrier"
    IMMEDIATE: ClassVar[str] = "mask"

    mask = prop_def(IntegerAttr)
    traits = traits_def(Synchronizes())

    def __init__(self, mask: int):
        super().__init__(properties={"mask": IntegerAttr(mask, i32)})

    @classmethod
    def parse(cls, parser: Parser):
        if (value := parser.parse_optional_integer(allow_boolean=False)) is None:
            note_spelling("3.9")
            value = 0
            while True:
                start = parser.pos
                word = parser.parse_identifier()
                if word != "none" and word not in SCHED_GROUP_MASKS:
                    parser.raise_error(f"rocdl.sched.barrier: unknown mask '{word}' (none, "
                                       f"{', '.join(SCHED_GROUP_MASKS)} or a number)",
                                       start, parser.pos)
                value |= SCHED_GROUP_MASKS.get(word, 0)
                if parser.parse_optional_punctuation("|") is None:
                    break
        props, attrs = parse_attr_dict_split(parser, cls)
        props["mask"] = IntegerAttr(value, i32)
        return cls.build(properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        mask = self.mask.value.data
        named = [w for w, bit in SCHED_GROUP_MASKS.items() if mask & bit]
        if not prints_39() or sum(SCHED_GROUP_MASKS[w] for w in named) != mask:
            super().print(printer)
            return
        printer.print_string(" " + ("|".join(named) or "none"))
        print_attr_dict(printer, self, elide=["mask"])


ROCDL_OPS = [SetPrioOp, SchedBarrierOp]

# The LLVM-level ops (thread ids, barriers, cross-lane moves, buffer and matrix ops) that
# Triton's convert-triton-amdgpu-to-llvm prints live in rocdl_llvm.py.
ROCDL = Dialect("rocdl", [*ROCDL_OPS, *ROCDL_LLVM_OPS], [])

__all__ = ["ROCDL", "ROCDL_OPS", "SetPrioOp", "SchedBarrierOp"]
