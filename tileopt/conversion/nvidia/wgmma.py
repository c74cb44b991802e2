"""wgmma (sm_90a): ``ttng.warp_group_dot``, ``ttng.warp_group_dot_wait`` and
``ttng.fence_async_shared``.

A warp group (4 consecutive warps) issues ``wgmma.mma_async`` on an ``m64 x n x k`` tile:
D (and C) in registers, A and B read from shared memory through 64-bit *matrix
descriptors*. The register fragment of D is, from the PTX ISA ("Register fragments and
shared memory matrix layouts", wgmma ``.m64nNk16`` D): with ``g = lane >> 2``,
``t = lane % 4`` and ``w`` the warp in the group, element ``i`` (``N / 2`` of them) is at
row ``16w + g + 8 * (i >> 1 & 1)``, column ``8 * (i >> 2) + 2t + (i & 1)``. The tiling of
the accumulator over a thread's registers is the shared one of ``dot.py``.

Descriptors (PTX ISA "Matrix Descriptor Format"): bits 0-13 the start address >> 4, 16-29
the leading-dimension byte offset (LBO) >> 4, 32-45 the stride-dimension byte offset
(SBO) >> 4, 62-63 the swizzle mode (128 B: 1, 64 B: 2, 32 B: 3). In the swizzled
canonical layouts an operand is made of atoms of 8 rows of ``swizzle`` bytes, 16-byte
chunks of row ``r`` xor-ed with ``r`` (128 B), ``r >> 1`` (64 B) or ``r >> 2`` (32 B) on
the absolute address:

- K-major (K contiguous): element ``(mn, k)`` at ``(mn // 8) * SBO + (mn % 8) * swizzle
  + k * bytes`` from the start (an instruction's K fits one atom row; LBO unused, 0);
- MN-major: ``(mn * bytes // swizzle) * LBO + (k // 8) * SBO + (k % 8) * swizzle +
  (mn * bytes) % swizzle`` (LBO 0 when the tile's MN fits one atom).

LBO and SBO are read off the operand's ``nvmma_shared`` linear layout (the offsets of
the coordinates one atom away), and every element of every instruction tile is checked
against the formula above before a descriptor is used: a layout wgmma cannot read is an
error, never a wrong result. Fences and commit groups are ``nvvm`` ops; the instruction
and the wait are inline PTX, the wait taking every accumulator register (and the memdesc
operands' fields) as tied in/out operands so that nothing reads them before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from operator import add, and_, eq, lshift, mul, rshift, xor

from xdsl.dialects import llvm
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type
from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType, i1, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue

from tileopt.conversion.indexing import apply_bits
from tileopt.conversion.nvidia.mma import pack_registers
from tileopt.conversion.triton_gpu_to_llvm.dot import TilingError, tile_operand
from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers
from tileopt.conversion.triton_gpu_to_llvm.shared_view import SharedView, view_of
from tileopt.dialects import nvvm
from tileopt.dialects.layout_of import encoding_of
from tileopt.dialects.ttg_types import MemDescType
from tileopt.layouts.encodings import OFFSET, NvidiaMma, NvmmaShared
from tileopt.layouts.linear_layout import LinearLayout

SWIZZLE_MODES = {128: 1, 64: 2, 32: 3}
WARPS_PER_GROUP = 4


# ---------------------------------------------------------------------- descriptors (pure)

@dataclass(frozen=True)
class OperandDescriptor:
    """The fixed fields of one operand's matrix descriptors (byte offsets)."""

    swizzle: int      # bytes: 128, 64 or 32
    mn_major: bool    # M (A) or N (B) contiguous, else K
    lbo: int
    sbo: int

    def bits(self) -> int:
        """The descriptor without its start address."""
        return (self.lbo >> 4) << 16 | (self.sbo >> 4) << 32 | SWIZZLE_MODES[self.swizzle] << 62


def canonical_offset(d: OperandDescriptor, mn: int, k: int, element_bytes: int) -> int:
    """Byte offset of element ``(mn, k)`` of a tile from its start, before swizzling."""
    if d.mn_major:
        along = mn * element_bytes
        return (along // d.swizzle) * d.lbo + (k // 8) * d.sbo + (k % 8) * d.swizzle \
            + along % d.swizzle
    return (mn // 8) * d.sbo + (mn % 8) * d.swizzle + k * element_bytes


# swizzle bytes -> the address bits (of 128-byte rows) xor-ed into the 16-byte chunk
_ROW_BITS = {128: 7, 64: 3, 32: 1}


def swizzled(address: int, swizzle: int) -> int:
    """The bank-swizzled byte address the hardware reads for ``address``."""
    return address ^ (((address >> 7) & _ROW_BITS[swizzle]) << 4)


class SharedOperand:
    """An operand of wgmma in shared memory: its layout's inverse and descriptor fields.

    ``layout`` maps element offsets to (dim0, dim1) of the operand (A: M x K, B: K x N);
    ``index`` is 0 for A, 1 for B.
    """

    def __init__(self, layout: LinearLayout, index: int, element_bytes: int, swizzle: int,
                 tile_mn: int, tile_k: int):
        if swizzle not in SWIZZLE_MODES:
            raise ValueError(f"wgmma needs a swizzled nvmma_shared operand (128, 64 or 32 "
                             f"bytes), not {swizzle}")
        self.inverse = layout.invert()
        # The inverse is linear over GF(2): offset(c0, c1) = offset(c0, 0) ^ offset(0, c1).
        # Each coordinate's part is computed once (check_tile asks for every element of
        # every tile), through apply, so an out-of-range coordinate fails as it did.
        self._parts: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self._checked: dict[tuple[int, int], int] = {}
        self.index, self.bytes, self.swizzle = index, element_bytes, swizzle
        self.tile_mn, self.tile_k = tile_mn, tile_k
        contiguous = layout.get_bases(OFFSET)[0]
        self.mn_major = contiguous[self._mn_dim] != 0
        atom = swizzle // element_bytes
        if self.mn_major:
            lbo = self.offset(atom, 0) * element_bytes if tile_mn > atom else 0
            sbo = self.offset(0, 8) * element_bytes
        else:
            lbo, sbo = 0, self.offset(8, 0) * element_bytes
        self.descriptor = OperandDescriptor(swizzle, self.mn_major, lbo, sbo)

    @property
    def _mn_dim(self) -> int:
        return 0 if self.index == 0 else 1

    def coords(self, mn: int, k: int) -> tuple[int, int]:
        return (mn, k) if self.index == 0 else (k, mn)

    def offset(self, mn: int, k: int) -> int:
        """Element offset of ``(mn, k)``."""
        offset = 0
        for axis, value in enumerate(self.coords(mn, k)):
            part = self._parts[axis].get(value)
            if part is None:
                point = dict.fromkeys(self.inverse.in_dims, 0)
                point[self.inverse.in_dims[axis]] = value
                part = self._parts[axis][value] = self.inverse.apply(point)[OFFSET]
            offset ^= part
        return offset

    def check_tile(self, mn0: int, k0: int) -> int:
        """The byte offset of the tile at ``(mn0, k0)``, after checking that each of its
        elements is where the descriptor says (buffers are 1024-byte aligned). A tile
        that passed is not checked again (the A tile of a row is read by every column)."""
        start = self._checked.get((mn0, k0))
        if start is not None:
            return start
        start = self.offset(mn0, k0) * self.bytes
        if not self._tile_matches(start, mn0, k0):
            self._check_elements(start, mn0, k0)  # raises at the first wrong element
        self._checked[mn0, k0] = start
        return start

    def _tile_matches(self, start: int, mn0: int, k0: int) -> bool:
        """Whether every element of the tile is where the descriptor says: the element
        loop's test over whole rows of C-level ``map``s (~16,000 elements a kernel).
        False when any element (or coordinate) fails: the loop then names it."""
        d, size, tile_mn, tile_k = self.descriptor, self.bytes, self.tile_mn, self.tile_k
        rows, ks = self._parts[self._mn_dim], self._parts[1 - self._mn_dim]
        try:
            # the parts, computed in the element loop's order (the first row asks for
            # every K part, the other rows for their row part)
            for k in range(tile_k):
                if rows.get(mn0) is None or ks.get(k0 + k) is None:
                    self.offset(mn0, k0 + k)
            for mn in range(1, tile_mn):
                if rows.get(mn0 + mn) is None:
                    self.offset(mn0 + mn, k0)
        except Exception:  # noqa: BLE001 - the element loop raises it where it did
            return False
        k_canonical = [canonical_offset(d, 0, k, size) for k in range(tile_k)]
        bases = [start + canonical_offset(d, mn, 0, size) for mn in range(tile_mn)]
        row_parts = [rows[mn0 + mn] for mn in range(tile_mn)]
        k_parts = [ks[k0 + k] for k in range(tile_k)]
        per_row = repeat(tile_k)
        address = list(map(add, chain.from_iterable(map(repeat, bases, per_row)),
                           k_canonical * tile_mn))
        row_bits = _ROW_BITS[self.swizzle]
        got = map(xor, address, map(lshift, map(and_, map(rshift, address, repeat(7)),
                                                repeat(row_bits)), repeat(4)))
        want = map(mul, map(xor, chain.from_iterable(map(repeat, row_parts, per_row)),
                            k_parts * tile_mn), repeat(size))
        return all(map(eq, got, want))

    def _check_elements(self, start: int, mn0: int, k0: int) -> None:
        # Both sides split by axis: the offset is an xor of a row part and a K part, the
        # canonical offset a sum of them; each part is asked for in the same order as
        # element by element, so a coordinate out of range fails at the same element.
        d, size, rows, ks = self.descriptor, self.bytes, self._parts[self._mn_dim], \
            self._parts[1 - self._mn_dim]
        k_canonical = [canonical_offset(d, 0, k, size) for k in range(self.tile_k)]
        for mn in range(self.tile_mn):
            row_part = rows.get(mn0 + mn)
            base = start + canonical_offset(d, mn, 0, size)
            for k in range(self.tile_k):
                k_part = ks.get(k0 + k)
                if row_part is None or k_part is None:
                    self.offset(mn0 + mn, k0 + k)
                    row_part, k_part = rows[mn0 + mn], ks[k0 + k]
                got = swizzled(base + k_canonical[k], self.swizzle)
                want = (row_part ^ k_part) * size
                if got != want:
                    raise ValueError(
                        f"the shared layout of operand {'AB'[self.index]} puts element "
                        f"{list(self.coords(mn0 + mn, k0 + k))} at byte {want}, where a "
                        f"wgmma descriptor (LBO {self.descriptor.lbo}, SBO "
                        f"{self.descriptor.sbo}, {self.swizzle}-byte swizzle) reads byte {got}")


# ---------------------------------------------------------------------- the instruction

@dataclass(frozen=True)
class WgmmaShape:
    n: int
    k: int
    types: str        # ".f32.f16.f16"
    integer: bool
    transposable: bool  # f16/bf16 take the imm-trans operands


def wgmma_shape(a_type: Attribute, b_type: Attribute, c_type: Attribute, n: int) -> WgmmaShape:
    if a_type != b_type:
        raise ValueError(f"wgmma needs A and B of one type, got {a_type} and {b_type}")
    if isinstance(c_type, Float32Type):
        if isinstance(a_type, Float16Type):
            return WgmmaShape(n, 16, ".f32.f16.f16", False, True)
        if isinstance(a_type, BFloat16Type):
            return WgmmaShape(n, 16, ".f32.bf16.bf16", False, True)
        if isinstance(a_type, Float32Type):
            return WgmmaShape(n, 8, ".f32.tf32.tf32", False, False)
    if c_type == i32 and a_type == IntegerType(8):
        return WgmmaShape(n, 32, ".s32.s8.s8", True, False)
    raise ValueError(f"no wgmma for {a_type} x {b_type} -> {c_type}")


def accumulator_fragment(n: int) -> LinearLayout:
    """D of ``m64nNk*``: (register, lane, warp in the group) -> (row, col)."""
    registers = [(0, 1), (8, 0)] + [(0, 8 << i) for i in range((n // 8).bit_length() - 1)]
    lanes = [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)]
    return LinearLayout({"register": registers, "lane": lanes, "warp": [(16, 0), (32, 0)]},
                        [("dim0", 64), ("dim1", n)])


def register_a_fragment() -> LinearLayout:
    """A of ``m64nNk16`` from registers (16-bit types): each warp of the group holds its 16
    rows as ``mma.sync`` m16n8k16 holds A (``mma.py``)."""
    return LinearLayout({"register": [(0, 1), (8, 0), (0, 8)],
                         "lane": [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)],
                         "warp": [(16, 0), (32, 0)]}, [("dim0", 64), ("dim1", 16)])


class _RegisterA:
    """Operand A in registers (``dot_op`` of a v3 accumulator): 4 b32 registers a step."""

    def __init__(self, fl: FunctionLowering, value: SSAValue, shape: WgmmaShape,
                 c_outer: dict):
        if shape.k != 16 or shape.integer:
            raise ValueError("wgmma with A from registers is supported for f16/bf16 only")
        self.tiles = tile_operand(fl.layouts.of(value.type), register_a_fragment(), (64, 16),
                                  "operand A")
        for dim in ("lane", "warp", "block"):
            mine, theirs = self.tiles.outer[dim], c_outer[dim]
            if len(mine) != len(theirs) or any(k or m != cm for (m, k), (cm, _) in
                                               zip(mine, theirs)):
                raise ValueError(f"operand A's {dim}s hold other rows than the accumulator's")
        self.values = fl.get(value)

    def operands(self, b, m0: int, k0: int) -> list[SSAValue]:
        regs = self.tiles.tiles.get((m0, k0))
        if regs is None:
            raise ValueError(f"no registers of A hold the tile at ({m0}, {k0})")
        return pack_registers(b, [self.values[r] for r in regs], 2)


def _operand(fl: FunctionLowering, op: Operation, value: SSAValue, index: int,
             tile_mn: int, tile_k: int) -> tuple[SharedView, SharedOperand]:
    ty = value.type
    if not isinstance(ty, MemDescType):
        raise ValueError(f"operand {'AB'[index]} in registers (wgmma with A from "
                         "registers) is not supported yet")
    encoding = encoding_of(ty)
    if not isinstance(encoding, NvmmaShared):
        raise ValueError(f"operand {'AB'[index]} must be in an nvmma_shared buffer, not {ty}")
    view = view_of(fl, value)
    layout = view.layout()
    if len(layout.out_dims) != 2:
        raise ValueError(f"operand {'AB'[index]} views a buffer of rank "
                         f"{len(layout.out_dims)}")
    return view, SharedOperand(layout, index, view.element_bytes,
                               encoding.swizzling_byte_width, tile_mn, tile_k)


def _start_field(fl: FunctionLowering, view: SharedView, operand: SharedOperand,
                 group_columns: list[int], static_bits: int) -> tuple[SSAValue, bool]:
    """``(address >> 4) & 0x3FFF`` of the thread's part of an operand (its view and
    warp group), as i64, and whether static offsets may simply be added to it."""
    b = fl.b
    dynamic: SSAValue | None = None
    maybe = 0
    xor = view.offset_xor(fl)
    if isinstance(xor, int):
        if xor:
            dynamic = b.i32(xor)
            maybe |= xor
    else:
        dynamic = xor
        maybe |= view.offset_xor_bits()
    if any(group_columns):
        # The warp id read here through a shuffle from lane 0, as Triton's LLVM IR reads it
        # at each dot: a convergent value LLVM keeps in the loop, so ptxas recomputes the
        # descriptors per iteration instead of holding every stage's in registers.
        warp = fl.hooks.shuffle_idx(b, fl.ids.warp, b.i32(0))
        group = b.lshr(warp, b.i32(WARPS_PER_GROUP.bit_length() - 1))
        part = apply_bits(b, group, group_columns)
        dynamic = part if dynamic is None else b.xor(dynamic, part)
        for column in group_columns:
            maybe |= column
    address = b.cast("ptrtoint", view.base, i32)
    if dynamic is not None:
        address = b.add(address, b.mul(dynamic, b.i32(operand.bytes)))
    field = b.and_(b.lshr(address, b.i32(4)), b.i32(0x3FFF))
    return b.int_cast(field, i64, signed=False), not (maybe & static_bits)


def _group_moves(c_outer: Sequence[tuple[int, ...]]) -> list[tuple[int, int]]:
    """Where each warp group's part of the accumulator starts (group 0 first)."""
    moves = [(0, 0)]
    for basis in c_outer:
        moves += [(m ^ basis[0], n ^ basis[1]) for m, n in moves]
    return moves


def _group_columns(c_outer: Sequence[tuple[int, ...]], operand: SharedOperand) -> list[int]:
    """Offsets (elements) the warp-group bits move the operand's tile by."""
    columns = []
    for basis in c_outer:
        mn = basis[operand._mn_dim]
        columns.append(operand.offset(mn, 0) if mn else 0)
    return columns


@lowers("ttng.warp_group_dot")
def _warp_group_dot(fl: FunctionLowering, op: Operation) -> None:
    try:
        _lower_warp_group_dot(fl, op)
    except (ValueError, TilingError) as err:
        raise fl.error(op, f"cannot lower ttng.warp_group_dot: {err}") from None


def _lower_warp_group_dot(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    c_type: TensorType = op.operands[2].type
    mma = encoding_of(c_type)
    if not (isinstance(mma, NvidiaMma) and mma.is_hopper):
        raise ValueError(f"the accumulator must be an nvidia_mma v3 layout, not {c_type}")
    n = mma.instr_shape[1]
    shape = wgmma_shape(fl.llvm_type(op.operands[0].type), fl.llvm_type(op.operands[1].type),
                        fl.llvm_type(c_type), n)
    fragment = accumulator_fragment(n)
    c = tile_operand(fl.layouts.of(c_type), fragment, (64, n), "the accumulator")
    if c.outer["lane"] or c.outer["block"]:
        raise ValueError("the accumulator's lanes do not match the wgmma fragment")
    k_total = op.operands[0].type.get_shape()[1]
    in_registers = isinstance(op.operands[0].type, TensorType)
    if in_registers:
        a_regs = _RegisterA(fl, op.operands[0], shape, c.outer)
    else:
        a_view, a = _operand(fl, op, op.operands[0], 0, 64, shape.k)
    b_view, bo = _operand(fl, op, op.operands[1], 1, n, shape.k)
    if not shape.transposable and ((not in_registers and a.mn_major) or bo.mn_major):
        raise ValueError(f"wgmma{shape.types} reads K-major operands only")
    steps = []
    groups = _group_moves(c.outer["warp"])
    for k0 in range(0, k_total, shape.k):
        for origin in sorted(c.tiles):
            a_start = k0 if in_registers else a.check_tile(origin[0], k0)
            steps.append((a_start, bo.check_tile(origin[1], k0), origin))
            # The other warp groups read their tiles from their own start (checked too).
            for dm in {m for m, _ in groups[1:]} if not in_registers else ():
                a.check_tile(origin[0] + dm, k0)
            for dn in {n for _, n in groups[1:]}:
                bo.check_tile(origin[1] + dn, k0)
    a_add = True
    if not in_registers:
        a_field, a_add = _start_field(fl, a_view, a, _group_columns(c.outer["warp"], a),
                                      _bits_of([s[0] // a.bytes for s in steps]))
    b_field, b_add = _start_field(fl, b_view, bo, _group_columns(c.outer["warp"], bo),
                                  _bits_of([s[1] // bo.bytes for s in steps]))
    if not (a_add and b_add):
        raise ValueError("the view offsets and the warp groups overlap the tiles' offsets")

    use_c = op.operands[3] if len(op.operands) > 3 else None
    scale_d = fl.scalar(use_c) if use_c is not None else b.constant(i1, 1)
    acc_values = fl.get(op.operands[2])
    acc = {origin: [acc_values[r] for r in regs] for origin, regs in c.tiles.items()}
    b.insert(nvvm.WgmmaFenceAlignedOp())
    for a_start, b_start, origin in steps:
        if in_registers:
            a_operands, a_mn_major = a_regs.operands(b, origin[0], a_start), None
        else:
            a_operands = [b.add(a_field, b.i64(a.descriptor.bits() + (a_start >> 4)))]
            a_mn_major = a.mn_major
        desc_b = b.add(b_field, b.i64(bo.descriptor.bits() + (b_start >> 4)))
        acc[origin] = _emit_wgmma(b, shape, a_mn_major, bo.mn_major, acc[origin],
                                  a_operands, desc_b, scale_d)
    b.insert(nvvm.WgmmaGroupSyncAlignedOp())
    by_register: dict[int, SSAValue] = {}
    for origin, regs in c.tiles.items():
        by_register.update(zip(regs, acc[origin]))
    result = [by_register[c.holder[r]] for r in range(len(acc_values))]
    if not _is_async(op):
        result = _wait(b, 0, [result])[0]
    fl.set(op.results[0], result)


def _bits_of(offsets: Sequence[int]) -> int:
    """Every bit the static tile offsets set: a dynamic part with none of them adds to
    each offset as it xors (a layout composes offsets by xor)."""
    bits = 0
    for offset in offsets:
        bits |= offset
    return bits


def _is_async(op: Operation) -> bool:
    attr = op.properties.get("isAsync")
    return isinstance(attr, IntegerAttr) and bool(attr.value.data)


def _emit_wgmma(b, shape: WgmmaShape, a_mn_major: bool | None, b_mn_major: bool,
                acc: list[SSAValue], a: list[SSAValue], desc_b: SSAValue,
                scale_d: SSAValue) -> list[SSAValue]:
    """One wgmma; ``a`` is A's descriptor, or its 4 registers (``a_mn_major`` None)."""
    d = len(acc)

    def group(first: int, count: int) -> str:
        return "{" + ",".join(f"${i}" for i in range(first, first + count)) + "}"

    a_text = f"${2 * d}" if len(a) == 1 else group(2 * d, len(a))
    after_a = 2 * d + len(a)
    operands = f"{group(0, d)}, {a_text}, ${after_a}, ${after_a + 1}"
    if not shape.integer:
        operands += ", 1, 1"
        if shape.transposable:
            # imm-trans-a/b: 1 reads A M-major / B N-major (the default is K-major); A from
            # registers has no imm-trans-a.
            trans_a = "" if a_mn_major is None else f"{int(a_mn_major)}, "
            operands += f", {trans_a}{int(b_mn_major)}"
    asm = f"wgmma.mma_async.sync.aligned.m64n{shape.n}k{shape.k}{shape.types} {operands};"
    kind = "r" if shape.integer else "f"
    a_kind = ["l"] if len(a) == 1 else ["r"] * len(a)
    constraints = ",".join([f"={kind}"] * d + [str(i) for i in range(d)] + a_kind + ["l", "b"])
    acc_type = acc[0].type
    result = b.inline_asm(asm, constraints, [*acc, *a, desc_b, scale_d],
                          llvm.LLVMStructType.from_type_list([acc_type] * d))
    return [b.extract_value(result, i, acc_type) for i in range(d)]


# ---------------------------------------------------------------------- waits and fences

def _constraint(ty: Attribute) -> str:
    if isinstance(ty, llvm.LLVMPointerType) or ty == i64:
        return "l"
    if isinstance(ty, Float32Type):
        return "f"
    if isinstance(ty, Float64Type):
        return "d"
    if isinstance(ty, IntegerType) and ty.width.data in (16, 32):
        return "h" if ty.width.data == 16 else "r"
    raise ValueError(f"cannot pass {ty} through the wgmma wait")


def _wait(b, pendings: int, groups: list[list[SSAValue]]) -> list[list[SSAValue]]:
    """``wgmma.wait_group pendings`` with ``groups`` tied through it (new values out)."""
    flat = [v for group in groups for v in group]
    if not flat:
        b.insert(nvvm.WgmmaWaitGroupSyncOp.create(
            properties={"group": IntegerAttr(pendings, i64)}))
        return groups
    names = ",".join(f"${i}" for i in range(len(flat)))
    asm = f"// wait for regs: {names}\n\twgmma.wait_group.sync.aligned {pendings};"
    kinds = [_constraint(v.type) for v in flat]
    constraints = ",".join([f"={k}" for k in kinds] + [str(i) for i in range(len(flat))])
    types = [v.type for v in flat]
    result = b.inline_asm(asm, constraints, flat, llvm.LLVMStructType.from_type_list(types)
                          if len(flat) > 1 else types[0])
    out = [b.extract_value(result, i, t) for i, t in enumerate(types)] if len(flat) > 1 \
        else [result]
    regrouped, start = [], 0
    for group in groups:
        regrouped.append(out[start:start + len(group)])
        start += len(group)
    return regrouped


@lowers("ttng.warp_group_dot_wait")
def _warp_group_dot_wait(fl: FunctionLowering, op: Operation) -> None:
    pendings = op.properties["pendings"].value.data
    groups = [fl.get(v) for v in op.operands]
    try:
        waited = _wait(fl.b, pendings, groups)
    except ValueError as err:
        raise fl.error(op, f"cannot lower ttng.warp_group_dot_wait: {err}") from None
    for result, values in zip(op.results, waited):
        fl.set(result, values)


@lowers("ttng.fence_async_shared")
def _fence_async_shared(fl: FunctionLowering, op: Operation) -> None:
    cluster = op.properties.get("bCluster")
    space = "cluster" if isinstance(cluster, IntegerAttr) and cluster.value.data else "cta"
    fl.b.insert(nvvm.FenceProxyOp.create(properties={
        "kind": nvvm.ProxyKindAttr(nvvm.ProxyKind.ASYNC_SHARED),
        "space": nvvm.SharedSpaceAttr(nvvm.SharedSpace(space))}))


__all__ = ["OperandDescriptor", "SharedOperand", "canonical_offset", "swizzled",
           "accumulator_fragment", "wgmma_shape"]
