"""``mma.sync`` (sm_80 on): the NVIDIA matrix emitter of ``#nvidia_mma`` v2 dots.

Each instruction's operand fragments are written down as linear layouts, from the PTX ISA's
description of the warp-level ``mma`` fragments ("Matrix Fragments for mma.m16n8k16",
"... m16n8k8", "... m16n8k32"): with ``g = lane >> 2`` and ``t = lane % 4``,

- f16/bf16 ``m16n8k16``: A element ``i`` (8 per thread) at row ``g + 8 * (i >> 1 & 1)``,
  column ``2t + (i & 1) + 8 * (i >> 2)``; B element ``i`` (4) at row ``2t + (i & 1) +
  8 * (i >> 1)``, column ``g``;
- tf32 ``m16n8k8``: A ``i`` (4) at row ``g + 8 * (i & 1)``, column ``t + 4 * (i >> 1)``;
  B ``i`` (2) at row ``t + 4i``, column ``g``;
- s8 ``m16n8k32``: A ``i`` (16) at row ``g + 8 * (i >> 2 & 1)``, column ``4t + (i & 3) +
  16 * (i >> 3)``; B ``i`` (8) at row ``4t + (i & 3) + 16 * (i >> 2)``, column ``g``;
- C/D of all three (4 per thread, f32 or s32; for f16 ``m16n8k16`` the same 4 elements
  packed in two f16x2 registers): row ``g + 8 * (i >> 1)``, column ``2t + (i & 1)``.

Elements are packed into 32-bit registers in fragment order, the lower index in the lower
bits, and the instruction is inline PTX with the accumulator registers tied to D, as
Triton's ``MMAv2`` lowering emits it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntegerType,
    i32,
)
from xdsl.ir import Attribute, SSAValue

from tileopt.conversion.llvm_builder import LLVMBuilder, vector_type
from tileopt.conversion.target_hooks import MatrixEmitter, MatrixInstruction
from tileopt.layouts.linear_layout import LinearLayout

# Lane bits 2-4 are the group id g: one step down the rows (A, C) or across the columns (B).
_G_ROWS = [(1, 0), (2, 0), (4, 0)]
_G_COLS = [(0, 1), (0, 2), (0, 4)]


def _fragment(registers, lanes, rows: int, cols: int) -> LinearLayout:
    return LinearLayout({"register": registers, "lane": lanes}, [("dim0", rows), ("dim1", cols)])


# C/D of every m16n8 shape: t picks the column pair, g the row, register 1 the row half.
_C = _fragment([(0, 1), (8, 0)], [(0, 2), (0, 4)] + _G_ROWS, 16, 8)


@dataclass(frozen=True)
class MmaInstruction(MatrixInstruction):
    """A ``mma.sync`` shape and its PTX type suffixes."""

    name: str = ""        # e.g. "m16n8k16.row.col.f32.f16.f16.f32"
    per_register: int = 1  # A/B elements packed in one 32-bit register
    integer: bool = False  # s32 accumulator
    packed_acc: bool = False  # f16 accumulator: C/D elements in pairs (f16x2 registers)


M16N8K16 = dict(
    m=16, n=8, k=16,
    a=_fragment([(0, 1), (8, 0), (0, 8)], [(0, 2), (0, 4)] + _G_ROWS, 16, 16),
    b=_fragment([(1, 0), (8, 0)], [(2, 0), (4, 0)] + _G_COLS, 16, 8),
    c=_C, per_register=2)
M16N8K8_TF32 = dict(
    m=16, n=8, k=8,
    a=_fragment([(8, 0), (0, 4)], [(0, 1), (0, 2)] + _G_ROWS, 16, 8),
    b=_fragment([(4, 0)], [(1, 0), (2, 0)] + _G_COLS, 8, 8),
    c=_C, per_register=1)
M16N8K32_S8 = dict(
    m=16, n=8, k=32,
    a=_fragment([(0, 1), (0, 2), (8, 0), (0, 16)], [(0, 4), (0, 8)] + _G_ROWS, 16, 32),
    b=_fragment([(1, 0), (2, 0), (16, 0)], [(4, 0), (8, 0)] + _G_COLS, 32, 8),
    c=_C, per_register=4, integer=True)


def instruction_for(a_type: Attribute, b_type: Attribute, c_type: Attribute,
                    input_precision: str) -> MmaInstruction:
    """The ``mma.sync`` of a v2 dot with these element types (LLVM types)."""
    if type(a_type) is not type(b_type) or a_type != b_type:
        raise ValueError(f"mma.sync needs A and B of one type, got {a_type} and {b_type}")
    if isinstance(a_type, (Float16Type, BFloat16Type)) and isinstance(c_type, Float32Type):
        ab = "f16" if isinstance(a_type, Float16Type) else "bf16"
        return MmaInstruction(**M16N8K16, name=f"m16n8k16.row.col.f32.{ab}.{ab}.f32")
    if isinstance(a_type, Float16Type) and isinstance(c_type, Float16Type):
        return MmaInstruction(**M16N8K16, name="m16n8k16.row.col.f16.f16.f16.f16",
                              packed_acc=True)
    if isinstance(a_type, Float32Type) and isinstance(c_type, Float32Type):
        if input_precision != "tf32":
            raise ValueError(f"an f32 mma.sync dot needs inputPrecision = tf32, not "
                             f"{input_precision}")
        return MmaInstruction(**M16N8K8_TF32, name="m16n8k8.row.col.f32.tf32.tf32.f32")
    if a_type == IntegerType(8) and c_type == i32:
        return MmaInstruction(**M16N8K32_S8, name="m16n8k32.row.col.satfinite.s32.s8.s8.s32")
    raise ValueError(f"no mma.sync for {a_type} x {b_type} -> {c_type}")


def pack_registers(b: LLVMBuilder, values: Sequence[SSAValue], per_register: int) -> list[SSAValue]:
    """Fragment elements as 32-bit registers, lower index in the lower bits."""
    registers = []
    for start in range(0, len(values), per_register):
        group = list(values[start:start + per_register])
        word = group[0] if per_register == 1 else b.pack_vector(group)
        registers.append(b.bitcast(word, i32))
    return registers


class MmaV2Emitter(MatrixEmitter):
    """``mma.sync.aligned`` for ``#nvidia_mma`` v2 accumulators."""

    def instruction(self, a_type: Attribute, b_type: Attribute, c_type: Attribute,
                    input_precision: str, operands=None) -> MatrixInstruction:
        return instruction_for(a_type, b_type, c_type, input_precision)

    def emit(self, b: LLVMBuilder, instruction: MatrixInstruction, a: Sequence[SSAValue],
             b_values: Sequence[SSAValue], c: Sequence[SSAValue]) -> list[SSAValue]:
        assert isinstance(instruction, MmaInstruction)
        a_regs = pack_registers(b, a, instruction.per_register)
        b_regs = pack_registers(b, b_values, instruction.per_register)
        elements, acc_type = len(c), c[0].type
        if instruction.packed_acc:
            c = pack_registers(b, c, 2)
        d = len(c)
        names = iter(range(2 * d + len(a_regs) + len(b_regs)))
        d_ops = [next(names) for _ in c]
        c_ops = [next(names) for _ in c]
        a_ops = [next(names) for _ in a_regs]
        b_ops = [next(names) for _ in b_regs]

        def group(indices):
            return "{ " + ", ".join(f"${i}" for i in indices) + " }"

        asm = (f"mma.sync.aligned.{instruction.name} {group(d_ops)}, {group(a_ops)}, "
               f"{group(b_ops)}, {group(c_ops)};")
        kind = "r" if instruction.integer or instruction.packed_acc else "f"
        constraints = ",".join([f"={kind}"] * d + [str(i) for i in range(d)]
                               + ["r"] * (len(a_regs) + len(b_regs)))
        reg_type = c[0].type
        result = b.inline_asm(asm, constraints, [*c, *a_regs, *b_regs],
                              llvm.LLVMStructType.from_type_list([reg_type] * d))
        out = [b.extract_value(result, i, reg_type) for i in range(d)]
        if instruction.packed_acc:
            out = [v for word in out
                   for v in b.unpack_vector(b.bitcast(word, vector_type(acc_type, 2)))]
        assert len(out) == elements
        return out


__all__ = ["MmaV2Emitter", "MmaInstruction", "instruction_for", "pack_registers", "M16N8K16", "M16N8K8_TF32",
           "M16N8K32_S8"]
