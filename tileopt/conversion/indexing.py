"""Which tensor element a thread's register holds, as i32 arithmetic on the thread id.

A distributed layout is a linear layout ``L`` over GF(2) from ``(register, lane, warp,
block)`` to tensor coordinates (``tileopt.layouts``). Because ``L`` is linear, the
coordinates of register ``r`` of the thread with lane ``l`` and warp ``w`` are

    L(r, l, w) = L(r, 0, 0) ^ L(0, l, w)

so a thread computes the lane/warp part once, with shifts, masks and xors read off the
layout's bases (Triton's ``applyLinearLayout``), and each register adds a compile-time
constant. Bits of an input that land on output bits with the same shift are handled by
one ``(x & mask) << shift``; the terms are combined with xor, since two input bits may
map to the same output bit (swizzled layouts).

The thread-dependent parts are built in the function prologue and shared by every op
that asks for the same layout, so index math costs a few ops per kernel, not per op.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from xdsl.ir import SSAValue

from tileopt.conversion.llvm_builder import LLVMBuilder
from tileopt.conversion.target_hooks import TargetHooks
from tileopt.layouts.linear_layout import LinearLayout

HW_DIMS = ("lane", "warp")


class HardwareIds:
    """Lane and warp of the current thread, built once per function in its prologue."""

    def __init__(self, b: LLVMBuilder, hooks: TargetHooks, num_warps: int):
        self.b = b
        self.hooks = hooks
        self.num_warps = num_warps
        self.warp_size = hooks.warp_size

    def _thread(self, b: LLVMBuilder) -> SSAValue:
        tid = self.hooks.thread_id(b)
        # Masking with the block size tells LLVM the id's range, so later ors are disjoint.
        return b.and_(tid, b.i32(self.num_warps * self.warp_size - 1))

    @property
    def thread(self) -> SSAValue:
        return self.b.prologue_value("thread", self._thread)

    @property
    def lane(self) -> SSAValue:
        return self.b.prologue_value(
            "lane", lambda b: b.and_(self.thread, b.i32(self.warp_size - 1)))

    @property
    def warp(self) -> SSAValue:
        def make(b: LLVMBuilder) -> SSAValue:
            shift = self.warp_size.bit_length() - 1
            return self.hooks.uniform(b, b.lshr(self.thread, b.i32(shift)))

        return self.b.prologue_value("warp", make)

    def apply(self, b: LLVMBuilder, layout: LinearLayout) -> list[SSAValue]:
        """``layout`` (in-dims among lane, warp, block) at this thread, one i32 per out-dim.

        Where it spans every lane and warp and the warp id needs no ``uniform`` hint, lane
        and warp are the low and high bits of one thread id, so a bit group that crosses
        from lane to warp is one mask and shift of the id (Triton's shape), not three
        pieces. Fewer distinct pieces of the id stay live across a dot loop: ptxas merges
        equal ones and does not rematerialise them (matmul_small on sm_80: 93 registers
        with the split, 80 with this, as Triton). Used for element coordinates and
        ldmatrix rows; the shared offsets of a conversion keep the split (measured: the
        whole form there raises the sm_90a dot kernels).
        """
        whole = (set(layout.in_dims) <= {"lane", "warp", "block"}
                 and not (layout.has_in_dim("block") and layout.get_bases("block"))
                 and layout.has_in_dim("lane") and layout.has_in_dim("warp")
                 and layout.in_dim_size("lane") == self.warp_size
                 and layout.in_dim_size("warp") == self.num_warps
                 and type(self.hooks).uniform is TargetHooks.uniform)
        if not whole:
            return apply_layout(b, layout, {d: self.value(d) for d in layout.in_dims})
        bases = layout.get_bases("lane") + layout.get_bases("warp")
        out = []
        for d, _ in enumerate(layout.out_dims):
            term = apply_bits(b, self.thread, [basis[d] for basis in bases])
            out.append(b.i32(0) if term is None else term)
        return out

    def value(self, dim: str) -> SSAValue | int:
        if dim == "lane":
            return self.lane
        if dim == "warp":
            return self.warp
        if dim == "block":
            return 0
        raise ValueError(f"no hardware id for input dimension '{dim}'")


def _groups(column: Sequence[int]) -> dict[int, int]:
    """Input bits of one in-dim grouped by how far they move: {shift: input mask}.

    ``column[i]`` is the output coordinate basis ``i`` contributes (one output dim).
    """
    groups: dict[int, int] = {}
    for i, value in enumerate(column):
        j = 0
        while value:
            if value & 1:
                groups[j - i] = groups.get(j - i, 0) | (1 << i)
            value >>= 1
            j += 1
    return groups


def apply_bits(b: LLVMBuilder, x: SSAValue, column: Sequence[int]) -> SSAValue | None:
    """XOR over the set bits ``i`` of ``x`` of ``column[i]``, emitted; None when all zero.

    ``x`` must be below ``2**len(column)`` (its unused high bits are not masked off).
    """
    full = (1 << len(column)) - 1
    result: SSAValue | None = None
    for shift, mask in sorted(_groups(column).items()):
        term = x if mask == full else b.and_(x, b.i32(mask))
        if shift > 0:
            term = b.shl(term, b.i32(shift))
        elif shift < 0:
            term = b.lshr(term, b.i32(-shift))
        result = term if result is None else b.xor(result, term)
    return result


def apply_layout(b: LLVMBuilder, layout: LinearLayout,
                 inputs: Mapping[str, SSAValue | int]) -> list[SSAValue]:
    """``layout`` applied to ``inputs`` (SSA i32 values or ints), one i32 per output dim.

    In-dims missing from ``inputs`` count as 0.
    """
    out: list[SSAValue] = []
    for d, _ in enumerate(layout.out_dims):
        constant = 0
        value: SSAValue | None = None
        for in_dim in layout.in_dims:
            x = inputs.get(in_dim, 0)
            column = [basis[d] for basis in layout.get_bases(in_dim)]
            if isinstance(x, int):
                for i, c in enumerate(column):
                    if x >> i & 1:
                        constant ^= c
                continue
            term = apply_bits(b, x, column)
            if term is not None:
                value = term if value is None else b.xor(value, term)
        if value is None:
            out.append(b.i32(constant))
        else:
            out.append(b.xor(value, b.i32(constant)))
    return out


@lru_cache(maxsize=1024)
def register_coordinates(layout: LinearLayout) -> tuple[tuple[int, ...], ...]:
    """The coordinates of each register of lane 0, warp 0 (the per-register constants;
    remembered: every elementwise op asks for its layout's)."""
    bases = layout.get_bases("register")
    rank = len(layout.out_dims)
    coords = [(0,) * rank]
    for basis in bases:
        coords = coords + [tuple(c ^ v for c, v in zip(prev, basis)) for prev in coords]
    return tuple(coords)


def thread_coordinates(b: LLVMBuilder, ids: HardwareIds, layout: LinearLayout) -> list[SSAValue]:
    """``L(0, lane, warp)`` per output dim, built once per layout in the prologue."""
    lane_warp = tuple(tuple(layout.get_bases(d)) for d in HW_DIMS if layout.has_in_dim(d))
    key = f"coords:{lane_warp}"

    def make(pb: LLVMBuilder) -> list[SSAValue]:
        thread_only = layout.sublayout([d for d in HW_DIMS if layout.has_in_dim(d)],
                                       layout.out_dims)
        return ids.apply(pb, thread_only)

    return b.prologue_value(key, make)


def element_coordinates(b: LLVMBuilder, ids: HardwareIds,
                        layout: LinearLayout) -> list[list[SSAValue]]:
    """For each register, the i32 coordinates (one per dim) of the element it holds.

    They depend on the thread id alone, so they are built once per layout, in the
    prologue, and shared by every op that asks.
    """
    _check_single_block(layout)
    key = f"elements:{tuple(tuple(layout.get_bases(d)) for d in layout.in_dims)}"

    def make(pb: LLVMBuilder) -> list[list[SSAValue]]:
        thread = thread_coordinates(pb, ids, layout)
        return [[pb.xor(t, pb.i32(c)) if c else t for t, c in zip(thread, coords)]
                for coords in register_coordinates(layout)]

    return b.prologue_value(key, make)


def linear_index(b: LLVMBuilder, coords: Sequence[SSAValue], shape: Sequence[int]) -> SSAValue:
    """Row-major index of ``coords`` in a tensor of ``shape`` (powers of two: shifts and ors)."""
    index = coords[0]
    for coord, size in zip(coords[1:], shape[1:]):
        index = b.or_(b.shl(index, b.i32(size.bit_length() - 1)), coord)
    return index


def _check_single_block(layout: LinearLayout) -> None:
    if layout.has_in_dim("block") and layout.in_dim_size("block") > 1:
        raise ValueError("layouts spread over several CTAs (num-ctas > 1) are not supported")


__all__ = ["HardwareIds", "apply_bits", "apply_layout", "register_coordinates",
           "thread_coordinates", "element_coordinates", "linear_index"]
