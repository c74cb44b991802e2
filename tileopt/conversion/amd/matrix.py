"""MFMA (CDNA3) and WMMA (RDNA3): the AMD matrix emitters of ``#amd_mfma``/``#amd_wmma`` dots.

Fragments, from AMD's CDNA3 ISA ("Dependent arithmetic / matrix fused multiply add") and the
RDNA3 ISA ("Wave matrix multiply accumulate"), written as linear layouts for the shared
tiling of ``tt.dot`` (``triton_gpu_to_llvm/dot.py``):

- MFMA ``D x D x K`` (one block, D = 32 or 16, waves of 64): each lane holds ``kpl``
  consecutive K elements of one row of A and one column of B: lane ``l`` has
  ``A[l % D][kpl * (l // D) + i]`` and ``B[kpl * (l // D) + i][l % D]``; accumulator item
  ``v`` is ``D[v % 4 + 4 * (l // D) + 4 * (64 / D) * (v // 4)][l % D]``.
- WMMA ``16x16x16`` (waves of 32): lane ``l`` holds row ``l % 16`` of A and column
  ``l % 16`` of B, all 16 K elements, lanes 16-31 the same as lanes 0-15; accumulator
  item ``v`` is ``D[2v + l // 16][l % 16]``: an f32 or i32 accumulator has 8 registers;
  an f16/bf16 one 16 halves of which (``opsel`` 0) the even ones are the 8 items; i8
  operands travel 4 to a 32-bit word, signed.

A dot operand with ``kWidth`` a multiple ``r`` of ``kpl`` holds ``kWidth`` consecutive K
per lane: the tile is then ``r`` instructions deep, the j-th taking elements
``j*kpl .. (j+1)*kpl - 1`` of every lane (a permutation of K that A and B share, so the sum
is the same). A transposed accumulator (``isTransposed``/``isTranspose``, what Triton's AMD
passes pick) holds ``D^T``: the instruction runs as ``B^T x A^T``, i.e. with the A and B
registers swapped (their fragments are mirror images) and the accumulator fragment
transposed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float16Type,
    Float32Type,
    IntegerType,
    VectorType,
    i16,
    i32,
)
from xdsl.ir import Attribute, SSAValue

from tileopt.conversion.llvm_builder import LLVMBuilder
from tileopt.conversion.target_hooks import DotOperands, MatrixEmitter, MatrixInstruction
from tileopt.conversion.type_converter import bit_width
from tileopt.dialects.rocdl_llvm import MATRIX_OPS
from tileopt.layouts.encodings import AmdMfma, AmdWmma
from tileopt.layouts.linear_layout import LinearLayout

_MATRIX = {cls.name: cls for cls in MATRIX_OPS}


def _bits(count: int, step: tuple[int, int]) -> list[tuple[int, int]]:
    """Bases of ``count`` (a power of two) steps of ``step``, doubling."""
    out, size = [], 1
    while size < count:
        out.append((step[0] * size, step[1] * size))
        size *= 2
    return out


def _layout(registers, lanes, shape) -> LinearLayout:
    return LinearLayout({"register": registers, "lane": lanes},
                        [("dim0", shape[0]), ("dim1", shape[1])])


def _swap(bases):
    return [(c, r) for r, c in bases]


@dataclass(frozen=True)
class AmdMatrixInstruction(MatrixInstruction):
    """``repeat`` issues of the intrinsic ``name`` on ``kpl`` elements per lane each."""

    name: str = ""
    kpl: int = 1
    repeat: int = 1
    operand: Attribute | None = None   # element type the intrinsic takes (i16 for bf16)
    wmma: bool = False
    transposed: bool = False


# MFMA per (A element kind, non-K size): (intrinsic, K elements per lane).
_MFMA = {
    ("f16", 32): ("f32.32x32x8f16", 4), ("f16", 16): ("f32.16x16x16f16", 4),
    ("bf16", 32): ("f32.32x32x8bf16.1k", 4), ("bf16", 16): ("f32.16x16x16bf16.1k", 4),
    ("xf32", 32): ("f32.32x32x4.xf32", 2), ("xf32", 16): ("f32.16x16x8.xf32", 2),
    ("f32", 32): ("f32.32x32x2f32", 1), ("f32", 16): ("f32.16x16x4f32", 1),
    ("i8", 32): ("i32.32x32x16.i8", 8), ("i8", 16): ("i32.16x16x32.i8", 8),
    ("f8", 32): ("f32.32x32x16.{}.{}", 8), ("f8", 16): ("f32.16x16x32.{}.{}", 8),
}
# gfx942's fp8 formats (the FNUZ ones) by the intrinsic's name for them.
_FP8 = {Float8E4M3FNUZType: "fp8", Float8E5M2FNUZType: "bf8"}
# WMMA per (A element kind, accumulator): the intrinsic.
_WMMA = {("f16", "f32"): "f32.16x16x16.f16", ("bf16", "f32"): "f32.16x16x16.bf16",
         ("f16", "f16"): "f16.16x16x16.f16", ("bf16", "bf16"): "bf16.16x16x16.bf16",
         ("i8", "i32"): "i32.16x16x16.iu8"}


def _fp8(operands: DotOperands) -> tuple[str, str] | None:
    """The intrinsic's names of A's and B's fp8 formats, None unless both are fp8."""
    kinds = [_FP8.get(type(t)) for t in (operands.a_element, operands.b_element)]
    return None if None in kinds else (kinds[0], kinds[1])


def _kind(a: Attribute, b: Attribute, c: Attribute, precision: str, what: str,
          same_acc: bool = False) -> str:
    """The operands' kind; ``same_acc``: an accumulator of the operands' type is allowed."""
    if a != b:
        raise ValueError(f"{what} needs A and B of one type, got {a} and {b}")
    if isinstance(a, Float16Type) and (isinstance(c, Float32Type) or same_acc and c == a):
        return "f16"
    if isinstance(a, BFloat16Type) and (isinstance(c, Float32Type) or same_acc and c == a):
        return "bf16"
    if isinstance(a, Float32Type) and isinstance(c, Float32Type):
        return "xf32" if precision == "tf32" else "f32"
    if a == IntegerType(8) and c == i32:
        return "i8"
    raise ValueError(f"no {what} for {a} x {b} -> {c}")


def mfma_instruction(encoding: AmdMfma, a: Attribute, b: Attribute, c: Attribute,
                     precision: str, operands: DotOperands) -> AmdMatrixInstruction:
    """The MFMA of a CDNA3 dot (f16, bf16, f32 with or without xf32, i8, fp8/bf8)."""
    size = encoding.instr_shape[0]
    if tuple(encoding.instr_shape[:2]) not in ((32, 32), (16, 16)):
        raise ValueError(f"MFMA instrShape {list(encoding.instr_shape)} is not lowered "
                         "(32x32 and 16x16 are)")
    fp8 = _fp8(operands)
    if fp8 is not None and isinstance(c, Float32Type):
        kind = "f8"
    else:
        kind = _kind(a, b, c, precision, "MFMA")
    if kind == "xf32" and encoding.version != 3:
        kind = "f32"
    name, kpl = _MFMA[(kind, size)]
    if fp8 is not None:
        # The intrinsic names its first operand's format first: B's when transposed.
        name = name.format(*(reversed(fp8) if encoding.is_transposed else fp8))
    groups = 64 // size
    if encoding.instr_shape[2] not in (0, kpl * groups):
        raise ValueError(f"instrShape {list(encoding.instr_shape)} does not fit "
                         f"mfma.{name} (K = {kpl * groups})")
    k_width = operands.k_width or kpl
    if k_width % kpl:
        raise ValueError(f"kWidth {k_width} is not a multiple of mfma.{name}'s {kpl} "
                         "elements per lane")
    k = k_width * groups
    rows = _bits(size, (1, 0))
    a_frag = _layout(_bits(k_width, (0, 1)), rows + _bits(groups, (0, k_width)), (size, k))
    b_frag = _layout(_swap(a_frag.get_bases("register")), _swap(a_frag.get_bases("lane")),
                     (k, size))
    c_regs = [(1, 0), (2, 0)] + _bits(size // (4 * groups), (4 * groups, 0))
    c_lanes = _bits(size, (0, 1)) + _bits(groups, (4, 0))
    if encoding.is_transposed:
        c_regs, c_lanes = _swap(c_regs), _swap(c_lanes)
    operand = i16 if kind == "bf16" else IntegerType(64) if kpl == 8 else a
    return AmdMatrixInstruction(size, size, k, a_frag, b_frag,
                                _layout(c_regs, c_lanes, (size, size)), name=name, kpl=kpl,
                                repeat=k_width // kpl, operand=operand,
                                transposed=encoding.is_transposed)


def wmma_instruction(encoding: AmdWmma, a: Attribute, b: Attribute, c: Attribute,
                     precision: str, operands: DotOperands) -> AmdMatrixInstruction:
    """The WMMA of an RDNA3 (version 1) dot: f16 or bf16 into f32 or their own type, i8
    into i32."""
    if encoding.version != 1:
        raise ValueError(f"amd_wmma version {encoding.version} is not lowered (1 is)")
    kind = _kind(a, b, c, precision, "WMMA", same_acc=True)
    acc = "f32" if isinstance(c, Float32Type) else "i32" if c == i32 else kind
    if (kind, acc) not in _WMMA:
        raise ValueError(f"no WMMA for {a} -> {c} on RDNA3 (f16 and bf16 into f32 or "
                         "themselves, i8 into i32)")
    if operands.k_width not in (0, 16):
        raise ValueError(f"a WMMA operand holds all 16 K per lane, not kWidth "
                         f"{operands.k_width}")
    rows = _bits(16, (1, 0))
    a_frag = _layout(_bits(16, (0, 1)), rows + [(0, 0)], (16, 16))
    b_frag = _layout(_bits(16, (1, 0)), _bits(16, (0, 1)) + [(0, 0)], (16, 16))
    c_regs, c_lanes = _bits(8, (2, 0)), _bits(16, (0, 1)) + [(1, 0)]
    if encoding.is_transposed:
        c_regs, c_lanes = _swap(c_regs), _swap(c_lanes)
    return AmdMatrixInstruction(16, 16, 16, a_frag, b_frag,
                                _layout(c_regs, c_lanes, (16, 16)), name=_WMMA[(kind, acc)],
                                kpl=16, operand=i16 if kind == "bf16" else
                                VectorType(i32, [4]) if kind == "i8" else a, wmma=True,
                                transposed=encoding.is_transposed)


class AmdMatrixEmitter(MatrixEmitter):
    """``rocdl.mfma.*`` for ``#amd_mfma`` and ``rocdl.wmma.*`` for ``#amd_wmma`` results."""

    def __init__(self, encoding: AmdMfma | AmdWmma):
        self.encoding = encoding
        # Within one tt.dot (an emitter is made per dot), as Triton does: an operand tile
        # is packed once for all the products that read it, and a product's accumulator
        # is the previous product's vector itself, not its elements packed again.
        # Keyed by the values (SSA values compare by identity); every entry was emitted
        # earlier in the same block, so it dominates the later products that use it.
        self._packed: dict[tuple[SSAValue, ...], SSAValue] = {}

    def instruction(self, a_type: Attribute, b_type: Attribute, c_type: Attribute,
                    input_precision: str,
                    operands: DotOperands | None = None) -> MatrixInstruction:
        pick = wmma_instruction if isinstance(self.encoding, AmdWmma) else mfma_instruction
        return pick(self.encoding, a_type, b_type, c_type, input_precision,
                    operands or DotOperands())

    def emit(self, b: LLVMBuilder, instruction: MatrixInstruction, a: Sequence[SSAValue],
             b_values: Sequence[SSAValue], c: Sequence[SSAValue]) -> list[SSAValue]:
        assert isinstance(instruction, AmdMatrixInstruction)
        ins = instruction
        if ins.transposed:
            a, b_values = b_values, a
        halves = ins.wmma and bit_width(c[0].type) == 16   # f16/bf16 WMMA accumulator
        acc = self._packed.pop(tuple(c), None) if not halves else None
        if acc is None:
            acc = self._accumulator(b, c, halves)
        else:  # the previous product's elements, unpacked for nothing
            for value in c:
                if value.first_use is None:
                    value.owner.parent.erase_op(value.owner)
        op = _MATRIX[("rocdl.wmma." if ins.wmma else "rocdl.mfma.") + ins.name]
        for j in range(ins.repeat):
            window = slice(j * ins.kpl, (j + 1) * ins.kpl)
            x, y = (self._packed_operand(b, ins, values[window]) for values in (a, b_values))
            if not ins.wmma:
                operands = [x, y, acc, *[b.i32(0)] * 3]   # cbsz, abid, blgp: no broadcast
            elif ins.name.endswith("iu8"):
                operands = [b.i1(True), x, b.i1(True), y, acc, b.i1(False)]  # signed, no clamp
            elif halves:
                operands = [x, y, acc, b.i1(False)]       # opsel 0: the even halves
            else:
                operands = [x, y, acc]
            acc = b.emit(op.create(operands=operands, result_types=[acc.type]))
        if not halves:
            elements = b.unpack_vector(acc)
            self._packed[tuple(elements)] = acc
            return elements
        out = [b.extract_element(acc, 2 * i) for i in range(len(c))]
        return [v if v.type == c[0].type else b.bitcast(v, c[0].type) for v in out]

    @staticmethod
    def _accumulator(b: LLVMBuilder, c: Sequence[SSAValue], halves: bool) -> SSAValue:
        if not halves:
            return b.pack_vector(list(c))
        # 16-bit items sit in the low halves of 8 words: i16 lanes (bf16 travels as i16).
        words = [b.bitcast(v, i16) if v.type != Float16Type() else v for v in c]
        zero = b.constant(words[0].type, 0)
        return b.pack_vector([w for item in words for w in (item, zero)])

    def _packed_operand(self, b: LLVMBuilder, ins: AmdMatrixInstruction,
                        values: Sequence[SSAValue]) -> SSAValue:
        key = tuple(values)
        packed = self._packed.get(key)
        if packed is None:
            packed = self._packed[key] = self._operand(b, ins, values)
        return packed

    @staticmethod
    def _operand(b: LLVMBuilder, ins: AmdMatrixInstruction,
                 values: Sequence[SSAValue]) -> SSAValue:
        if len(values) == 1:
            return values[0]
        vector = b.pack_vector(list(values))
        if isinstance(ins.operand, VectorType) or ins.operand == IntegerType(64):
            return b.bitcast(vector, ins.operand)   # bytes (i8, fp8) packed into words
        if ins.operand is not None and ins.operand != values[0].type:
            return b.bitcast(vector, VectorType(ins.operand, [len(values)]))
        return vector


__all__ = ["AmdMatrixEmitter", "AmdMatrixInstruction", "mfma_instruction", "wmma_instruction"]
