"""``ttg.convert_layout``: the same tensor in another layout, by the cheapest route.

Derived from the two linear layouts (``register_maps``, ``shared_layouts``):

- every thread already holds what it needs (equal layouts, or only the register order
  differs): pick registers, no instruction at all;
- otherwise through shared memory: each thread writes its distinct registers, a barrier,
  each thread reads the elements of its new registers. The offset map is chosen for vector
  accesses on both sides where possible and bank-conflict-free transactions, xor-swizzled
  over GF(2) (``shared_layouts.plan_transfer``); 16- and 32-bit sides of 8x8-matrix shape
  move with ``ldmatrix``/``stmatrix`` where the target has them (``shared_access.matrix_plan``).

The scratch buffer comes from ``allocate-shared-memory`` (``allocation.offset``) or the
stand-in of ``shared_memory.py``. Where the allocator set aside less than the whole tensor
(it sizes one round of Triton's swizzled layout), the conversion goes in rounds
(:func:`split_rounds`): coordinate bits that both layouts keep in registers are walked one
value at a time, each round storing and loading only its elements through a buffer
``2^bits`` times smaller, with a barrier between a round's loads and the next one's stores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from xdsl.dialects.builtin import NoneAttr, TensorType, i8
from xdsl.ir import Attribute, Operation, SSAValue

from tileopt.conversion import register_maps
from tileopt.conversion.indexing import apply_bits
from tileopt.conversion.shared_layouts import plan_transfer
from tileopt.conversion.shared_memory import scratch_rule
from tileopt.conversion.triton_gpu_to_llvm.load_store import unique_registers
from tileopt.conversion.triton_gpu_to_llvm.lowering import (
    FunctionLowering,
    lowers,
    shared_memory_base,
)
from tileopt.conversion.triton_gpu_to_llvm.shared_access import (
    Access,
    load_matrices,
    load_registers,
    matrix_plan,
    storage_bytes,
    storage_type,
    store_matrices,
    store_registers,
)
from tileopt.conversion.type_converter import convert_scalar_type
from tileopt.dialects.layout_of import linear_layout_of
from tileopt.layouts.linear_layout import LinearLayout


@scratch_rule("ttg.convert_layout")
def convert_scratch(op: Operation) -> int:
    """The fewest bytes :func:`convert_through_shared` can work in: the whole tensor split
    into as many rounds as the layouts allow (:func:`split_rounds`), or none when registers
    suffice. The allocator gives the larger of this and Triton's size, and the lowering
    splits the conversion until it fits what it was given (Triton may need less than this
    where it converts with warp shuffles)."""
    src_type, dst_type = op.operands[0].type, op.results[0].type
    if not all(isinstance(t, TensorType) and not isinstance(t.encoding, NoneAttr)
               for t in (src_type, dst_type)):
        return 0  # not a TritonGPU conversion: the pattern reports it
    return _convert_scratch(src_type, dst_type)


@lru_cache(maxsize=1024)
def _convert_scratch(src_type: TensorType, dst_type: TensorType) -> int:
    # Remembered per types: both allocations and the lowering's checks ask again.
    src, dst = linear_layout_of(src_type), linear_layout_of(dst_type)
    if (register_maps.register_map(src, dst) is not None
            or register_maps.warp_plan(src, dst) is not None):
        return 0
    size = storage_bytes(convert_scalar_type(src_type.element_type))
    for extent in src_type.get_shape():
        size *= extent
    return size >> len(round_candidates(src, dst))


@dataclass(frozen=True)
class Rounds:
    """A conversion split into ``count`` rounds: ``src``/``dst`` are the layouts of one
    round (the round bits squeezed out of the coordinates), ``shape`` its tensor; round
    ``v``'s register ``i`` is the full layouts' register ``src_register(i, v)``
    (``dst_register``)."""

    src: LinearLayout
    dst: LinearLayout
    shape: list[int]
    src_positions: tuple[int, ...]  # register bit of each round bit, in src
    dst_positions: tuple[int, ...]

    @property
    def count(self) -> int:
        return 1 << len(self.src_positions)

    @staticmethod
    def _register(i: int, v: int, positions: Sequence[int]) -> int:
        for t, position in sorted(enumerate(positions), key=lambda tp: tp[1]):
            low = i & ((1 << position) - 1)
            i = low | ((v >> t & 1) << position) | ((i >> position) << (position + 1))
        return i

    def src_register(self, i: int, v: int) -> int:
        return self._register(i, v, self.src_positions)

    def dst_register(self, i: int, v: int) -> int:
        return self._register(i, v, self.dst_positions)


def _squeeze(layout: LinearLayout, drop: Sequence[int], bits: Sequence[tuple[int, int]],
             sizes: list[int]) -> LinearLayout:
    """``layout`` without the register bases at positions ``drop`` and with the
    coordinate bits ``bits`` ((dim, bit), none of which another basis uses) removed."""
    def squeeze(basis):
        out = list(basis)
        for dim, bit in sorted(bits, key=lambda db: -db[1]):
            c = out[dim]
            out[dim] = (c & ((1 << bit) - 1)) | ((c >> (bit + 1)) << bit)
        return out
    bases = {d: [squeeze(b) for k, b in enumerate(layout.get_bases(d))
                 if d != "register" or k not in drop] for d in layout.in_dims}
    return LinearLayout(bases, list(zip(layout.out_dims, sizes)))


def round_candidates(src: LinearLayout, dst: LinearLayout) -> list[tuple[int, int, int, int]]:
    """(src register bit, dst register bit, dim, coordinate bit) of each coordinate bit
    both layouts hold in one register basis that no other basis touches: outermost
    (last src register) first."""
    found = []
    for i, basis in enumerate(src.get_bases("register")):
        nonzero = [(d, c) for d, c in enumerate(basis) if c]
        if len(nonzero) != 1 or nonzero[0][1] & (nonzero[0][1] - 1):
            continue
        dim, value = nonzero[0]
        others = [b for layout in (src, dst) for d in layout.in_dims
                  for b in layout.get_bases(d) if b[dim] & value]
        dst_regs = [k for k, b in enumerate(dst.get_bases("register")) if tuple(b) == tuple(basis)]
        if len(others) == 2 and len(dst_regs) == 1:
            found.append((i, dst_regs[0], dim, value.bit_length() - 1))
    return found[::-1]


def split_rounds(src: LinearLayout, dst: LinearLayout, shape: Sequence[int],
                 count_log2: int) -> Rounds:
    """The conversion in ``2^count_log2`` rounds (see the module docstring)."""
    if count_log2 == 0:
        return Rounds(src, dst, list(shape), (), ())
    chosen = round_candidates(src, dst)[:count_log2]
    if len(chosen) < count_log2:
        raise ValueError(f"cannot split the conversion into {1 << count_log2} rounds: "
                         f"only {len(chosen)} coordinate bits are in registers on both sides")
    sizes = list(shape)
    for _, _, dim, _ in chosen:
        sizes[dim] //= 2
    bits = [(dim, bit) for _, _, dim, bit in chosen]
    return Rounds(_squeeze(src, [c[0] for c in chosen], bits, sizes),
                  _squeeze(dst, [c[1] for c in chosen], bits, sizes), sizes,
                  tuple(c[0] for c in chosen), tuple(c[1] for c in chosen))


def convert_through_shared(fl: FunctionLowering, op: Operation, values: list[SSAValue],
                           src: LinearLayout, dst: LinearLayout, shape: list[int],
                           element_type: Attribute) -> list[SSAValue]:
    b = fl.b
    storage = storage_type(element_type)
    element_bytes = storage_bytes(element_type)
    allotted = fl.module.shared.allotted_bytes(op)
    matrix_load, matrix_store = fl.hooks.matrix_moves()
    rounds = split_rounds(src, dst, shape, 0)
    while True:
        src_unique, _ = unique_registers(rounds.src)
        dst_unique, dst_canonical = unique_registers(rounds.dst)
        plan = plan_transfer(rounds.src, rounds.dst, rounds.shape, element_bytes,
                             len(src_unique), len(dst_unique), fl.hooks.shared_memory_banks,
                             matrix_store, matrix_load)
        if allotted is None or plan.bytes <= allotted \
                or len(rounds.src_positions) == len(round_candidates(src, dst)):
            break  # fits (or cannot be split further: offset() reports it)
        rounds = split_rounds(src, dst, shape, len(rounds.src_positions) + 1)
    base_offset = fl.module.shared.offset(op, plan.bytes)
    fl.begin_shared_memory_use(op)
    base = b.gep(shared_memory_base(fl), b.i32(base_offset), i8)

    store = Access(base, plan.hardware_offsets(rounds.src, plan.element_bytes), plan.store)
    load = Access(base, plan.hardware_offsets(rounds.dst, plan.element_bytes), plan.load)
    # A side whose offsets have the shape of 8x8 matrices moves them whole (the target
    # permitting), as Triton's ldmatrix/stmatrix do: both sides then access 16 bytes.
    store_matrix = matrix_plan(store, plan.element_bytes) if plan.store.matrix is not None \
        else None
    load_matrix = matrix_plan(load, plan.element_bytes) if plan.load.matrix is not None \
        else None
    dst_count = rounds.dst.in_dim_size("register")
    result: list[SSAValue | None] = [None] * dst.in_dim_size("register")
    for v in range(rounds.count):
        if v:  # the previous round's loads are done before this one overwrites them
            fl.hooks.barrier(b)
        part = [values[rounds.src_register(i, v)]
                for i in range(rounds.src.in_dim_size("register"))]
        if store_matrix is None or not store_matrices(fl, store, store_matrix, part):
            store_registers(fl, store, src_unique, part, storage)
        fl.hooks.barrier(b)
        loaded = None
        if load_matrix is not None:
            loaded = load_matrices(fl, load, load_matrix, dst_count, element_type)
        if loaded is None:
            loaded = load_registers(fl, load, dst_unique, storage, element_type)
        for i, canonical in enumerate(dst_canonical):
            result[rounds.dst_register(i, v)] = loaded[canonical]
    return result


def _id_bit_set(fl: FunctionLowering, dim: str, bit: int) -> SSAValue:
    """i1: bit ``bit`` of this thread's lane or warp id is set."""
    b = fl.b
    ident = fl.ids.lane if dim == "lane" else fl.ids.warp
    return b.icmp("ne", b.and_(ident, b.i32(1 << bit)), b.i32(0))


def transfer_in_warp(fl: FunctionLowering, plan: register_maps.WarpTransfer,
                     values: list[SSAValue]) -> list[SSAValue]:
    """A conversion inside each warp: every thread picks the register it offers with a
    tree of selects on its lane/warp bits (one level per term, shared between result
    registers whose candidates coincide), then reads another lane's offer with one shuffle
    per result register (none where it reads its own)."""
    b = fl.b
    bit_set = [_id_bit_set(fl, dim, bit) for dim, bit, _ in plan.terms]
    picked: dict[tuple[int, int], SSAValue] = {}

    def pick(register: int, level: int) -> SSAValue:
        if level == len(plan.terms):
            return values[register]
        key = (register, level)
        if key not in picked:
            mask = plan.terms[level][2]
            picked[key] = b.select(bit_set[level], pick(register ^ mask, level + 1),
                                   pick(register, level + 1))
        return picked[key]

    read_lane = None
    if plan.lane_map is not None:
        read_lane = apply_bits(b, fl.ids.lane, plan.lane_map)
        read_lane = b.i32(0) if read_lane is None else read_lane
    received: dict[tuple[int, int], SSAValue] = {}
    out = []
    for r, base in enumerate(plan.base):
        offset = plan.lane_offset[r]
        if (base, offset) not in received:
            offered = pick(base, 0)
            if plan.reads_own_lane(r):
                value = offered
            elif read_lane is None:
                value = fl.hooks.shuffle_xor(b, offered, offset)
            else:
                lane = b.xor(read_lane, b.i32(offset)) if offset else read_lane
                value = fl.hooks.shuffle_idx(b, offered, lane)
            received[(base, offset)] = value
        out.append(received[(base, offset)])
    return out


@lowers("ttg.convert_layout")
def _convert_layout(fl: FunctionLowering, op: Operation) -> None:
    src_type: TensorType = op.operands[0].type
    dst_type: TensorType = op.results[0].type
    src = fl.layouts.of(src_type)
    dst = fl.layouts.of(dst_type)
    values = fl.get(op.operands[0])
    mapping = register_maps.register_map(src, dst)
    if mapping is not None:
        fl.set(op.results[0], [values[i] for i in mapping])
        return
    plan = register_maps.warp_plan(src, dst)
    if plan is not None:
        received = transfer_in_warp(fl, plan.transfer, values)
        if plan.after is not None:
            register_bit, lane_bit = plan.after
            swap = _id_bit_set(fl, "lane", lane_bit)
            received = [fl.b.select(swap, received[r ^ (1 << register_bit)], value)
                        for r, value in enumerate(received)]
        fl.set(op.results[0], received)
        return
    element_type = fl.llvm_type(src_type)
    fl.set(op.results[0], convert_through_shared(fl, op, values, src, dst,
                                                 list(src_type.get_shape()), element_type))


__all__ = ["Rounds", "convert_through_shared", "round_candidates", "split_rounds"]
