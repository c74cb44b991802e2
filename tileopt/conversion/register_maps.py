"""When an op moves elements only between the registers of one thread, which ones.

``broadcast``, ``expand_dims``, ``reshape``, ``trans`` and many ``convert_layout``s
change a tensor's shape or layout without any element changing thread: each register of
the result is some register of the source. With linear layouts that is decidable on the
bases alone. Let ``f`` be the (linear) map from result coordinates to source coordinates
-- a dim permutation for ``trans``, dropping a size-1 dim for ``expand_dims``, zeroing
the broadcast dims for ``broadcast``, re-linearising the bits for ``reshape``. If ``f``
of every lane and warp basis of the result layout equals the source's basis, then the
element in result register ``r`` of *every* thread is the source element in the register
whose coordinates are ``f(result(r))``. Pure Python; no IR here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tileopt.conversion.indexing import register_coordinates
from tileopt.layouts.linear_layout import LinearLayout, xor_columns

Coords = tuple[int, ...]
CoordMap = Callable[[Coords], Coords]

THREAD_DIMS = ("lane", "warp", "block")


def identity(coords: Coords) -> Coords:
    return coords


def register_map(src: LinearLayout, dst: LinearLayout,
                 dst_to_src: CoordMap = identity) -> list[int] | None:
    """For each register of ``dst``, the register of ``src`` holding the same element in
    the same thread; None if some element would have to change threads."""
    for dim in THREAD_DIMS:
        dst_bases = dst.get_bases(dim) if dst.has_in_dim(dim) else ()
        src_bases = src.get_bases(dim) if src.has_in_dim(dim) else ()
        if len(dst_bases) != len(src_bases):
            return None
        if any(dst_to_src(d) != s for d, s in zip(dst_bases, src_bases)):
            return None
    where: dict[Coords, int] = {}
    for index, coords in enumerate(register_coordinates(src)):
        where.setdefault(coords, index)
    result = []
    for coords in register_coordinates(dst):
        found = where.get(dst_to_src(coords))
        if found is None:
            return None
        result.append(found)
    return result


@dataclass(frozen=True)
class WarpTransfer:
    """A conversion that keeps every element inside its warp, as selects and at most one
    shuffle per result register (Triton's warp-shuffle case, planned differently).

    Result register ``i`` of the thread with lane ``l`` is what lane
    ``lane_map(l) ^ lane_offset[i]`` offers: the source register ``base[i]`` XOR the mask
    of each ``(dim, bit, mask)`` term whose bit is set in the *offering* thread's lane or
    warp id. ``lane_map`` holds, per lane bit, the lane bits it sets (None: identity);
    where the read lane is the reader's own, no shuffle is emitted, so a conversion with no
    ``lane_map`` and no offsets is selects only."""

    base: tuple[int, ...]
    terms: tuple[tuple[str, int, int], ...]
    lane_map: tuple[int, ...] | None
    lane_offset: tuple[int, ...]

    def reads_own_lane(self, register: int) -> bool:
        return self.lane_map is None and not self.lane_offset[register]


# Each term doubles the candidates an offering thread selects among (2**k - 1 selects per
# result register); past this many, shared memory is cheaper.
MAX_SELECT_TERMS = 2


def warp_transfer(src: LinearLayout, dst: LinearLayout) -> WarpTransfer | None:
    """The :class:`WarpTransfer` of a src -> dst conversion, or None when an element must
    change warp, the lanes cannot be matched this way, or it needs more than
    ``MAX_SELECT_TERMS`` select levels.

    Over GF(2), with ``R``/``L``/``W`` the register/lane/warp parts of a layout: a thread
    offering its register ``H(l) ^ c`` provides ``E(l) = src_L(l) ^ src_R(H(l))``. Each
    result lane bit ``j`` is matched to a lane vector ``T_j`` with ``E(T_j) = dst_L(j)``:
    ``j`` itself where the source already has it there (or where the source broadcasts
    along ``j`` and a register holds it), else the source lanes holding it, else a source
    lane bit the source broadcasts along, repurposed to say which register to offer. The
    plan is checked element by element before it is returned.
    """
    if src.in_dims != dst.in_dims or src.out_dim_sizes() != dst.out_dim_sizes():
        return None
    if any(src.in_dim_size(d) != dst.in_dim_size(d) for d in src.in_dims if d != "register"):
        return None
    if src.has_in_dim("block") and src.get_bases("block") != dst.get_bases("block"):
        return None
    nreg = src.in_dim_size_log2("register")
    nlane = src.in_dim_size_log2("lane") if src.has_in_dim("lane") else 0
    src_reg = [src.apply_flat({"register": 1 << i}) for i in range(nreg)]
    src_lane = [src.apply_flat({"lane": 1 << k}) for k in range(nlane)]
    dst_lane = [dst.apply_flat({"lane": 1 << j}) for j in range(nlane)]
    in_registers = _span_solver(src_reg)
    moving = [k for k in range(nlane) if src_lane[k]]
    in_warp = _span_solver(src_reg + [src_lane[k] for k in moving])

    def split(value: int) -> tuple[int, int] | None:
        """value = src_R(x) ^ src_L(y) -> (x, y), y as lane bits."""
        combo = in_warp(value)
        if combo is None:
            return None
        lanes = sum(1 << k for i, k in enumerate(moving) if combo >> (nreg + i) & 1)
        return combo & ((1 << nreg) - 1), lanes

    # First the lane bits that can stay where they are, so that repurposing a broadcast
    # bit below never takes one of those.
    lane_map: list[int | None] = [None] * nlane
    offers: list[tuple[int, int]] = []  # (lane vector, register mask) that H must satisfy
    for j in range(nlane):
        registers = 0 if dst_lane[j] == src_lane[j] else (
            None if src_lane[j] else in_registers(dst_lane[j]))
        if registers is not None:
            lane_map[j] = 1 << j
            offers.append((1 << j, registers))
    free = [k for k in range(nlane) if not src_lane[k] and lane_map[k] is None]
    for j in range(nlane):
        if lane_map[j] is not None:
            continue
        parts = split(dst_lane[j])
        if parts is None:
            return None
        registers, lanes = parts
        if not lanes and registers:
            if not free:
                return None  # a register bit must trade places with a lane bit
            lanes = 1 << free.pop(0)
        lane_map[j] = lanes
        if lanes:
            offers.append((lanes, registers))
    offer_of = _linear_map(offers, nlane)
    if offer_of is None:
        return None
    terms = [("lane", k, mask) for k, mask in enumerate(offer_of) if mask]
    if src.has_in_dim("warp"):
        for bit in range(src.in_dim_size_log2("warp")):
            delta = src.apply_flat({"warp": 1 << bit}) ^ dst.apply_flat({"warp": 1 << bit})
            mask = in_registers(delta) if delta else 0
            if mask is None:
                return None
            if mask:
                terms.append(("warp", bit, mask))
    if len(terms) > MAX_SELECT_TERMS:
        return None
    base, offsets = [], []
    for r in range(dst.in_dim_size("register")):
        parts = split(dst.apply_flat({"register": r}))
        if parts is None:
            return None
        registers, lanes = parts
        base.append(registers ^ xor_columns(offer_of, lanes))
        offsets.append(lanes)
    identity = all(t == 1 << j for j, t in enumerate(lane_map))
    plan = WarpTransfer(tuple(base), tuple(terms), None if identity else tuple(lane_map),
                        tuple(offsets))
    return plan if _transfers_correctly(plan, src, dst) else None


@dataclass(frozen=True)
class WarpPlan:
    """A :class:`WarpTransfer`, then where a register bit and a lane bit trade places
    (Triton's mixed transpositions) a swap stage ``after = (i, j)``: each thread whose
    lane bit ``j`` is set swaps its result registers ``r`` and ``r ^ (1 << i)`` (one
    select per register). The matching stage before the transfer is folded into the
    transfer's offer terms."""

    transfer: WarpTransfer
    after: tuple[int, int] | None


@functools.lru_cache(maxsize=256)
def warp_plan(src: LinearLayout, dst: LinearLayout) -> WarpPlan | None:
    """How a conversion that keeps elements inside their warp is done without shared
    memory, or None. A plain :func:`warp_transfer` where one exists; else one swap stage
    before it (``src`` with lane basis ``j`` XOR register basis ``i``) and one after it
    (the inverse on ``dst``), tried for the register bits whose data must reach a lane
    and the lane bits whose data sits in registers."""
    transfer = warp_transfer(src, dst)
    if transfer is not None:
        return WarpPlan(transfer, None)
    if not (src.has_in_dim("lane") and src.in_dims == dst.in_dims):
        return None
    nlane = src.in_dim_size_log2("lane")
    # Swap stages keep the span of a warp's elements: where the result's warp 0 holds an
    # element the source's does not, no plan exists (most cross-warp conversions; this
    # saves their search).
    in_src_warp = _span_solver([src.apply_flat({d: 1 << i}) for d in ("register", "lane")
                                for i in range(src.in_dim_size_log2(d))])
    if any(in_src_warp(dst.apply_flat({d: 1 << i})) is None for d in ("register", "lane")
           for i in range(dst.in_dim_size_log2(d))):
        return None
    in_dst_registers = _span_solver([dst.apply_flat({"register": 1 << i})
                                     for i in range(dst.in_dim_size_log2("register"))])
    in_src_registers = _span_solver([src.apply_flat({"register": 1 << i})
                                     for i in range(src.in_dim_size_log2("register"))])
    leaving = [i for i in range(src.in_dim_size_log2("register"))
               if (v := src.apply_flat({"register": 1 << i})) and in_dst_registers(v) is None]
    arriving = [j for j in range(nlane)
                if (v := dst.apply_flat({"lane": 1 << j})) and in_src_registers(v) is not None
                and v != src.apply_flat({"lane": 1 << j})]
    for i in leaving:
        for j in range(nlane):
            before = _swapped(src, i, j)
            for j2 in arriving:
                for i2 in range(dst.in_dim_size_log2("register")):
                    if not dst.apply_flat({"register": 1 << i2}):
                        continue
                    transfer = warp_transfer(before, _swapped(dst, i2, j2))
                    if transfer is None:
                        continue
                    transfer = _offer_swapped(transfer, i, j)
                    if (len(transfer.terms) <= MAX_SELECT_TERMS
                            and _transfers_correctly(transfer, src, dst, (i2, j2))):
                        return WarpPlan(transfer, (i2, j2))
    return None


def _offer_swapped(transfer: WarpTransfer, register_bit: int, lane_bit: int) -> WarpTransfer:
    """``transfer`` reading the registers as they were before a swap stage: the stage's
    XOR joins the offering thread's terms (terms on one bit merge; a zero one goes)."""
    masks: dict[tuple[str, int], int] = {(dim, bit): mask for dim, bit, mask in transfer.terms}
    masks[("lane", lane_bit)] = masks.get(("lane", lane_bit), 0) ^ (1 << register_bit)
    terms = tuple((dim, bit, mask) for (dim, bit), mask in masks.items() if mask)
    return WarpTransfer(transfer.base, terms, transfer.lane_map, transfer.lane_offset)


def _swapped(layout: LinearLayout, register_bit: int, lane_bit: int) -> LinearLayout:
    """The layout after a swap stage ``(register_bit, lane_bit)``: lane basis ``lane_bit``
    XOR register basis ``register_bit``."""
    bases = layout.bases
    lane, register = bases["lane"][lane_bit], bases["register"][register_bit]
    bases["lane"][lane_bit] = [a ^ b for a, b in zip(lane, register)]
    return LinearLayout(bases, layout.out_dim_sizes())


def _linear_map(pairs: Sequence[tuple[int, int]], nbits: int) -> list[int] | None:
    """Per input bit, the image of a linear map with ``f(key) = value`` for each pair (0
    on what the keys do not span); None if the pairs contradict each other."""
    keys = [key for key, _ in pairs]
    solve = _span_solver(keys)
    for k in range(nbits):
        if solve(1 << k) is None:
            keys.append(1 << k)
            pairs = [*pairs, (1 << k, 0)]
            solve = _span_solver(keys)
    values = [value for _, value in pairs]
    images = [xor_columns(values, solve(1 << k)) for k in range(nbits)]
    if any(xor_columns(images, key) != value for key, value in pairs):
        return None
    return images


def _transfers_correctly(plan: WarpTransfer, src: LinearLayout, dst: LinearLayout,
                         after: tuple[int, int] | None = None) -> bool:
    """Every element of every thread read from where the plan says (with the swap stage
    ``after`` on the reading thread's registers)."""
    nlane = src.in_dim_size("lane") if src.has_in_dim("lane") else 1
    warps = src.in_dim_size("warp") if src.has_in_dim("warp") else 1
    for warp in range(warps):
        for lane in range(nlane):
            read = xor_columns(plan.lane_map, lane) if plan.lane_map is not None else lane
            for r in range(len(plan.base)):
                moved = r ^ (1 << after[0]) if after and lane >> after[1] & 1 else r
                base, sender = plan.base[moved], read ^ plan.lane_offset[moved]
                ids = {"lane": sender, "warp": warp}
                register = base
                for dim, bit, mask in plan.terms:
                    if ids[dim] >> bit & 1:
                        register ^= mask
                where = {"register": register, "lane": sender, "warp": warp}
                want = {"register": r, "lane": lane, "warp": warp}
                dims = [d for d in src.in_dims if d in where]
                if (src.apply_flat({d: where[d] for d in dims})
                        != dst.apply_flat({d: want[d] for d in dims})):
                    return False
    return True


def _span_solver(columns: Sequence[int]) -> Callable[[int], int | None]:
    """``solve(v)``: a bit set ``x`` with the XOR of ``columns[i]`` for ``i`` in ``x``
    equal to ``v``, or None if ``v`` is outside their span (Gaussian elimination)."""
    pivots: dict[int, tuple[int, int]] = {}  # lowest set bit -> (vector, combination)
    for i, column in enumerate(columns):
        vector, combo = column, 1 << i
        for low, (pv, pc) in sorted(pivots.items()):
            if vector >> low & 1:
                vector, combo = vector ^ pv, combo ^ pc
        if vector:
            pivots[(vector & -vector).bit_length() - 1] = (vector, combo)

    def solve(value: int) -> int | None:
        combo = 0
        for low, (pv, pc) in sorted(pivots.items()):
            if value >> low & 1:
                value, combo = value ^ pv, combo ^ pc
        return None if value else combo

    return solve


def permute_dims(order: Sequence[int]) -> CoordMap:
    """``trans``: result dim ``i`` is source dim ``order[i]``; back to source coordinates."""
    inverse = [0] * len(order)
    for i, o in enumerate(order):
        inverse[o] = i

    def f(coords: Coords) -> Coords:
        return tuple(coords[inverse[d]] for d in range(len(order)))

    return f


def drop_dim(axis: int) -> CoordMap:
    """``expand_dims``: the result has a size-1 dim at ``axis`` the source lacks."""
    return lambda coords: coords[:axis] + coords[axis + 1:]


def zero_dims(dims: Sequence[int]) -> CoordMap:
    """``broadcast``: source dims of size 1 read coordinate 0."""
    zeroed = set(dims)
    return lambda coords: tuple(0 if d in zeroed else c for d, c in enumerate(coords))


def reshape(dst_shape: Sequence[int], src_shape: Sequence[int]) -> CoordMap:
    """``reshape``: same row-major linear index in both shapes."""

    def f(coords: Coords) -> Coords:
        index = 0
        for c, size in zip(coords, dst_shape):
            index = index * size + c
        out = []
        for size in reversed(src_shape):
            out.append(index % size)
            index //= size
        return tuple(reversed(out))

    return f
