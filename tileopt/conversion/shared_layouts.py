"""Where elements go in shared memory when a layout conversion passes through it.

A ``convert_layout`` that moves elements between warps writes the tensor to shared memory
from the source layout and reads it back in the destination layout. What decides its
speed is the *offset map* ``O`` from tensor coordinates to element offsets: each side
wants its registers to land on consecutive offsets (vector accesses of up to 16 bytes),
and the lanes of one memory transaction to hit different banks (no conflicts).

Everything here is linear over GF(2) (Triton's "optimal swizzling" works the same way):
coordinates and offsets are bit vectors, ``O`` is an invertible bit matrix. A candidate
is built from one side's point of view -- its vector register bases become the lowest
offset bits, the lanes of one transaction the next ones, everything else above -- and then
*swizzled* for the other side: high offset bits are xor-ed into the bank bits until the
other side's lanes also hit distinct banks. Both orientations are built, each side's vector
width measured, bank conflicts counted exactly by enumerating the lanes of a warp, and the
cheaper plan kept. Where the target moves 8x8 matrices of 16-bit elements
(``ldmatrix``/``stmatrix``, ``TargetHooks.matrix_moves``), maps that give a side that
shape are built too (the coordinates that pick a row's columns at the lowest offsets; a
32-bit element takes two columns), and a side of that shape is counted as matrix
instructions when they are cheaper: the other side keeps its 16-byte vectors or, where
the lowest offsets suit both, moves matrices too, as in Triton's lowering. The banks
(how many, how wide) are the vendor's (``TargetHooks.shared_memory_banks``). Pure
Python, tested exhaustively (test/unit/conversion).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tileopt.layouts.linear_layout import LinearLayout, log2_exact
from tileopt.layouts.linear_layout import xor_columns

MAX_VECTOR_BYTES = 16
ISSUE_COST = 4
ADDRESS_COST = 2
# The reads come after the barrier, on every thread's critical path: they count double.
LOAD_WEIGHT = 2


# --------------------------------------------------------------------------- banks


@dataclass(frozen=True)
class SharedMemoryBanks:
    """How shared memory serves a warp: ``count`` banks of ``width`` bytes each serve
    one transaction; a bank holding two different words in one transaction serves them
    one after the other (a bank conflict)."""

    count: int
    width: int

    def phase_lanes(self, vector_bytes: int) -> int:
        """How many lanes share one shared-memory transaction."""
        return max(1, self.count * self.width // max(vector_bytes, self.width))

    def phases(self, vector_bytes: int) -> int:
        """Transactions one conflict-free warp-wide access of ``vector_bytes`` takes."""
        return self.count // self.phase_lanes(vector_bytes)

    def conflict_ways(self, byte_addresses: Sequence[int], vector_bytes: int) -> int:
        """Worst number of distinct words one bank serves in one transaction of a warp."""
        words = max(1, vector_bytes // self.width)
        phase = self.phase_lanes(vector_bytes)
        width, count = self.width, self.count
        worst = 1
        for start in range(0, len(byte_addresses), phase):
            distinct = {address // width + w for address in byte_addresses[start:start + phase]
                        for w in range(words)}
            worst = max(worst, max(Counter(word % count for word in distinct).values()))
        return worst


# --------------------------------------------------------------------------- 8x8 matrices


MATRIX_ROW_BYTES = 16
# Element widths moved as 8x8 matrices of 16-bit elements: a 32-bit element is two
# adjacent 16-bit columns (one word of a lane).
MATRIX_ELEMENT_BYTES = (2, 4)


@dataclass(frozen=True)
class MatrixShape:
    """How a warp's registers move as 8x8 matrices of 16-bit elements
    (``ldmatrix``/``stmatrix``): ``transpose`` the ``.trans`` form; ``pair`` the register
    bit whose two 16-bit values share a lane's 32-bit word (None for 32-bit elements,
    one per word); ``rows`` the byte offsets of row bits 0-2 of a matrix; ``selectors``
    the register bits that pick the matrix (word) of one instruction (up to two: x1, x2,
    x4); the other register bits are further instructions."""

    transpose: bool
    pair: int | None
    rows: tuple[int, ...]
    selectors: tuple[int, ...]

    @property
    def registers_per_instruction(self) -> int:
        return (1 if self.pair is None else 2) << len(self.selectors)


def matrix_shape(registers: Sequence[int], lanes: Sequence[int], others: Sequence[int],
                 element_bytes: int) -> MatrixShape | None:
    """The :class:`MatrixShape` of a warp's registers whose byte offsets are
    ``registers``/``lanes`` (``others``: warps, a constant xor), or None.

    Lane ``l`` holds the word at row ``l // 4``, bytes ``4 * (l % 4)`` of a matrix: lane
    bits 0-1 must move 4 and 8 bytes (lane bits 2-4 then pick rows). 16-bit elements
    fill the word with a register pair (some register bit moving 2 bytes); transposed,
    lane bits 2-4 move 2, 4, 8 bytes and the pair's register bit and lane bits 0-1 pick
    rows. Rows, the other registers and ``others`` must keep rows 16-byte aligned.
    """
    if len(lanes) != 5 or element_bytes not in MATRIX_ELEMENT_BYTES:
        return None
    lanes = list(lanes)
    pair: int | None = None
    if element_bytes == 4:
        transpose, rows = False, lanes[2:5]
        if lanes[:2] != [4, 8]:
            return None
    elif lanes[:2] == [4, 8] and 2 in registers:
        pair = list(registers).index(2)
        transpose, rows = False, lanes[2:5]
    elif lanes[2:5] == [2, 4, 8] and registers:
        pair = 0
        transpose, rows = True, [registers[0]] + lanes[:2]
    else:
        return None
    rest = [i for i in range(len(registers)) if i != pair]
    if any(v % MATRIX_ROW_BYTES for v in rows + [registers[i] for i in rest] + list(others)):
        return None
    return MatrixShape(transpose, pair, tuple(rows), tuple(rest[:2]))


# --------------------------------------------------------------------------- GF(2) helpers


class CoordPacking:
    """Tensor coordinates <-> one integer of bits (dim 0's bits lowest)."""

    def __init__(self, shape: Sequence[int]):
        self.shape = list(shape)
        self.widths = [log2_exact(s) for s in shape]
        self.shifts = []
        total = 0
        for w in self.widths:
            self.shifts.append(total)
            total += w
        self.bits = total
        self._packed: dict[tuple[LinearLayout, str], tuple[int, ...]] = {}

    def pack(self, coords: Sequence[int]) -> int:
        return sum(c << s for c, s in zip(coords, self.shifts))

    def packed_bases(self, layout: LinearLayout, dim: str) -> tuple[int, ...]:
        """``layout``'s bases of in-dim ``dim``, packed (none if it has no such dim); kept:
        plan_transfer measures every candidate against the same two layouts (a layout
        remembers its hash, and a lookup of the same object compares it by identity)."""
        key = (layout, dim)
        bases = self._packed.get(key)
        if bases is None:
            bases = self._packed[key] = tuple(self.pack(b) for b in layout.get_bases(dim)) \
                if layout.has_in_dim(dim) else ()
        return bases

    def unpack(self, value: int) -> tuple[int, ...]:
        return tuple((value >> s) & ((1 << w) - 1) for s, w in zip(self.shifts, self.widths))


def _reduce(value: int, basis: dict[int, int]) -> int:
    """``value`` minus its component in the span of ``basis`` ({pivot bit: row})."""
    for pivot, row in basis.items():
        if value >> pivot & 1:
            value ^= row
    return value


def _insert(value: int, basis: dict[int, int]) -> bool:
    """Add ``value`` to an echelon ``basis``; False if it was already in the span."""
    value = _reduce(value, basis)
    if not value:
        return False
    pivot = value.bit_length() - 1
    for p in list(basis):
        if basis[p] >> pivot & 1:
            basis[p] ^= value
    basis[pivot] = value
    return True


def invert(columns: Sequence[int], bits: int) -> list[int]:
    """The inverse of the bit matrix whose column ``i`` is ``columns[i]`` (images of 2**i)."""
    # Gauss-Jordan on rows [M | I], rows indexed by output bit.
    rows = []
    for r in range(bits):
        row = 0
        for i, col in enumerate(columns):
            if col >> r & 1:
                row |= 1 << i
        rows.append((row, 1 << r))
    for c in range(bits):
        pivot = next(i for i in range(c, bits) if rows[i][0] >> c & 1)
        rows[c], rows[pivot] = rows[pivot], rows[c]
        for i in range(bits):
            if i != c and rows[i][0] >> c & 1:
                rows[i] = (rows[i][0] ^ rows[c][0], rows[i][1] ^ rows[c][1])
    # rows[c] = (e_c, inverse row c): inverse maps input bit r to output bits {c: row_c has r}
    inverse = []
    for r in range(bits):
        col = 0
        for c in range(bits):
            if rows[c][1] >> r & 1:
                col |= 1 << c
        inverse.append(col)
    return inverse


# --------------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class Side:
    """How one layout accesses shared memory under a plan.

    A vector access covers the registers that differ only in ``vector_bits`` (register
    index bits; the one in position ``j`` moves by ``2**j`` elements in shared memory).
    """

    vector_bits: tuple[int, ...]
    ways: int            # worst bank conflict of one access (1: conflict-free)
    accesses: int        # accesses per thread
    phases: int = 1      # transactions of one conflict-free warp-wide access
    # Distinct addresses a thread computes (an xor each); an access whose constant
    # offset shares no bit with the thread's part adds it as an immediate instead.
    address_registers: int = 1
    # Moved as 8x8 matrices (``matrix_shape``): None, or whether transposed.
    matrix: bool | None = None

    @property
    def vector(self) -> int:
        return 1 << len(self.vector_bits)

    def group(self, register: int) -> list[int]:
        """The registers of the vector access starting at ``register``."""
        out = []
        for j in range(self.vector):
            r = register
            for t, bit in enumerate(self.vector_bits):
                if j >> t & 1:
                    r |= 1 << bit
            out.append(r)
        return out

    def starts(self, register: int) -> bool:
        """Whether ``register`` begins a vector access (its vector bits are zero)."""
        return not any(register >> bit & 1 for bit in self.vector_bits)

    @property
    def cost(self) -> int:
        """Shared-memory wavefronts plus the issue cost of each instruction.

        Measured on an H200 (transpose 8192x8192): the MIO queue, not the banks, limits
        these copies, so an instruction costs as much as ``ISSUE_COST`` wavefronts.
        """
        return self.accesses * (self.ways * self.phases + ISSUE_COST) \
            + ADDRESS_COST * self.address_registers


@dataclass(frozen=True)
class TransferPlan:
    """An offset map for a conversion through shared memory and what it costs."""

    shape: tuple[int, ...]
    element_bytes: int
    offset_columns: tuple[int, ...]   # O: image (an element offset) of each coordinate bit
    store: Side
    load: Side

    def offset(self, coords: Sequence[int]) -> int:
        return xor_columns(self.offset_columns, CoordPacking(self.shape).pack(coords))

    def hardware_offsets(self, layout: LinearLayout, scale: int = 1) -> LinearLayout:
        """``O`` composed with ``layout``: (register, lane, warp, block) -> element offset
        (times ``scale``, a power of two: ``element_bytes`` gives byte offsets)."""
        packing = CoordPacking(self.shape)
        bases = {}
        for dim in layout.in_dims:
            bases[dim] = [[xor_columns(self.offset_columns, packing.pack(b)) * scale]
                          for b in layout.get_bases(dim)]
        return LinearLayout(bases, {"offset": (1 << packing.bits) * scale})

    @property
    def bytes(self) -> int:
        size = self.element_bytes
        for s in self.shape:
            size *= s
        return size


def _bases(layout: LinearLayout, packing: CoordPacking, dim: str) -> list[int]:
    return list(packing.packed_bases(layout, dim))


def _vector_bases(layout: LinearLayout, packing: CoordPacking, element_bytes: int) -> list[int]:
    """The leading register bases usable as one vector (nonzero, independent, <= 16 bytes)."""
    result: list[int] = []
    basis: dict[int, int] = {}
    for b in _bases(layout, packing, "register"):
        if (element_bytes << (len(result) + 1)) > MAX_VECTOR_BYTES:
            break
        if not b or not _insert(b, basis):
            break
        result.append(b)
    return result


def _measure_matrix(layout: LinearLayout, columns: Sequence[int], packing: CoordPacking,
                    element_bytes: int, banks: SharedMemoryBanks) -> Side | None:
    """The :class:`Side` of ``layout`` moved as 8x8 matrices under ``columns`` (one
    instruction per up to four words), or None if not that shape."""
    def images(dim: str) -> list[int]:
        return [xor_columns(columns, b) * element_bytes for b in _bases(layout, packing, dim)]

    registers = images("register")
    shape = matrix_shape(registers, images("lane"), images("warp"), element_bytes)
    if shape is None:
        return None
    addresses = [_xor_sum(shape.rows, row) for row in range(8)]  # one matrix's rows
    moved = (8 * MATRIX_ROW_BYTES) << len(shape.selectors)  # bytes of one instruction
    return Side((), banks.conflict_ways(addresses, MATRIX_ROW_BYTES),
                max(1, (1 << len(registers)) // shape.registers_per_instruction),
                max(1, moved // (banks.count * banks.width)), 1, shape.transpose)


def _xor_sum(values: Sequence[int], selector: int) -> int:
    out = 0
    for i, v in enumerate(values):
        if selector >> i & 1:
            out ^= v
    return out


def _measure(layout: LinearLayout, columns: Sequence[int], packing: CoordPacking,
             element_bytes: int, unique_registers: int, banks: SharedMemoryBanks,
             matrix: bool = False) -> Side:
    """Vector, worst conflict and access count of ``layout`` under offset map ``columns``
    (``matrix``: the target moves 8x8 matrices of 16-bit elements; used where cheaper)."""
    side = _measure_vectors(layout, columns, packing, element_bytes, unique_registers, banks)
    if matrix and element_bytes in MATRIX_ELEMENT_BYTES:
        moved = _measure_matrix(layout, columns, packing, element_bytes, banks)
        if moved is not None and moved.cost < side.cost:
            return moved
    return side


def _measure_vectors(layout: LinearLayout, columns: Sequence[int], packing: CoordPacking,
                     element_bytes: int, unique_registers: int,
                     banks: SharedMemoryBanks) -> Side:
    images: dict[int, int] = {}
    for i, basis in enumerate(_bases(layout, packing, "register")):
        if basis:
            images.setdefault(xor_columns(columns, basis), i)
    vector_bits: list[int] = []
    while (element_bytes << (len(vector_bits) + 1)) <= MAX_VECTOR_BYTES \
            and (1 << len(vector_bits)) in images:
        vector_bits.append(images[1 << len(vector_bits)])
    elements = 1 << len(vector_bits)
    # The offset map is linear: lane l's offset is the xor of its set bits' images.
    addresses = [0]
    for b in _bases(layout, packing, "lane"):
        image = xor_columns(columns, b)
        addresses += [a ^ image for a in addresses]
    vector_bytes = elements * element_bytes
    ways = banks.conflict_ways([a * element_bytes for a in addresses], vector_bytes)
    thread_bits = 0
    for dim in ("lane", "warp"):
        for b in _bases(layout, packing, dim):
            thread_bits |= xor_columns(columns, b)
    # The registers starting an access are the span of the non-vector register bits, so
    # their distinct thread parts (offset & thread_bits, linear too) number 2**rank.
    basis: dict[int, int] = {}
    for i, b in enumerate(_bases(layout, packing, "register")):
        if i not in vector_bits:
            _insert(xor_columns(columns, b) & thread_bits, basis)
    return Side(tuple(vector_bits), ways, max(1, unique_registers // elements),
                banks.phases(vector_bytes), 1 << len(basis))


def _complete(order: list[int], bits: int) -> list[int]:
    """``order`` filtered to independent vectors, then unit vectors until ``bits`` of them."""
    basis: dict[int, int] = {}
    chosen = []
    for v in order:
        if v and _insert(v, basis):
            chosen.append(v)
    for i in range(bits):
        if len(chosen) == bits:
            break
        if _insert(1 << i, basis):
            chosen.append(1 << i)
    return chosen


def _swizzle(columns: list[int], other: LinearLayout, packing: CoordPacking,
             element_bytes: int, other_vector: int, keep_low: int, banks: SharedMemoryBanks,
             prefer: frozenset[int] = frozenset()) -> list[int]:
    """Xor high offset bits into the bank bits so ``other``'s lanes stop conflicting.

    ``keep_low`` offset bits (the first side's vector) are left alone; the first side's
    transaction lanes only vary bits below the bank field's top, so xor-ing in functions
    of bits above it keeps them conflict-free.
    """
    vector_bytes = other_vector * element_bytes
    e_bits = log2_exact(element_bytes)
    lo = max(log2_exact(max(vector_bytes, banks.width)) - e_bits, 0)
    hi = min(max(log2_exact(banks.count * banks.width) - e_bits, lo), packing.bits)
    outputs = [b for b in range(max(lo, keep_low), hi)]
    if not outputs:
        return columns
    phase_bits = log2_exact(banks.phase_lanes(vector_bytes))
    lanes = [xor_columns(columns, b) for b in _bases(other, packing, "lane")[:phase_bits]]
    field = sum(1 << b for b in range(lo, hi))
    high_mask = ~((1 << hi) - 1)
    m: dict[int, int] = {}  # input offset bit -> output offset bit(s) to xor in

    def swizzled(offset: int) -> int:
        extra = 0
        for bit, out in m.items():
            if offset >> bit & 1:
                extra ^= out
        return offset ^ extra

    seen_full: dict[int, int] = {}
    seen_bank: dict[int, int] = {}
    high_bits = sorted(range(hi, packing.bits), key=lambda b: b not in prefer)
    for i, u in enumerate(lanes):
        if not _insert(u, seen_full):
            continue  # same address as a combination of earlier lanes: a broadcast
        if _insert(swizzled(u) & field, seen_bank):
            continue
        fixed = False
        earlier = lanes[:i]
        for bit in high_bits:
            if not (u & high_mask) >> bit & 1 or bit in m:
                continue
            if any(v >> bit & 1 for v in earlier):
                continue
            for out in outputs:
                trial = dict(seen_bank)
                if _insert((swizzled(u) ^ (1 << out)) & field, trial):
                    m[bit] = 1 << out
                    seen_bank = trial
                    fixed = True
                    break
            if fixed:
                break
    return [swizzled(c) for c in columns]


def _vector_candidates(first: LinearLayout, second: LinearLayout, packing: CoordPacking,
                       element_bytes: int) -> list[list[int]]:
    """Coordinate vectors to put at the lowest offsets: register bases of ``first``, the
    leading ones or those ``second`` also has (then both sides access vectors), and every
    shorter prefix of those (fewer vector bits leave more bank bits to swizzle)."""
    seconds = set(_bases(second, packing, "register"))
    leading = _vector_bases(first, packing, element_bytes)
    common: list[int] = []
    basis: dict[int, int] = {}
    for b in _bases(first, packing, "register"):
        if (element_bytes << (len(common) + 1)) > MAX_VECTOR_BYTES:
            break
        if b and b in seconds and _insert(b, basis):
            common.append(b)
    found: list[list[int]] = []
    for full in (common, leading):
        for width in range(len(full), -1, -1):
            if full[:width] not in found:
                found.append(full[:width])
    return found


def _matrix_columns(layout: LinearLayout, packing: CoordPacking,
                    element_bytes: int) -> list[list[int]]:
    """The coordinate vectors ``layout`` needs at the lowest element offsets to move
    8x8 matrices (``matrix_shape``): 32-bit, lane bits 0-1; 16-bit, lane bits 2-4
    (transposed) or a register bit and lane bits 0-1 (any register bit: one that the
    other side's lane bits 2-4 also hold gives matrices on both sides)."""
    lanes = _bases(layout, packing, "lane")
    if len(lanes) != 5:
        return []
    if element_bytes == 4:
        return [lanes[:2]]
    registers = [r for r in _bases(layout, packing, "register") if r]
    return [lanes[2:5]] * bool(registers) + [[r] + lanes[:2] for r in registers]


def plan_transfer(src: LinearLayout, dst: LinearLayout, shape: Sequence[int],
                  element_bytes: int, src_registers: int, dst_registers: int,
                  banks: SharedMemoryBanks, matrix_store: bool = False,
                  matrix_load: bool = False) -> TransferPlan:
    """The cheapest offset map found for writing in ``src`` and reading in ``dst``.

    ``*_registers``: distinct registers each side accesses per thread; ``banks``: the
    target's shared-memory banks; ``matrix_*``: the target moves 8x8 matrices of 16-bit
    elements (then maps that give a side that shape are tried too, for 16- and 32-bit
    elements, as Triton does).
    """
    packing = CoordPacking(shape)
    bits = packing.bits
    candidates = []
    for first, second in ((src, dst), (dst, src)):
        lanes = _bases(first, packing, "lane")
        other = _vector_bases(second, packing, element_bytes)
        vecs = _vector_candidates(first, second, packing, element_bytes)
        if element_bytes in MATRIX_ELEMENT_BYTES:
            for side, allowed in ((src, matrix_store), (dst, matrix_load)):
                if allowed:
                    vecs += [v for v in _matrix_columns(side, packing, element_bytes)
                             if v not in vecs]
        for vec in vecs:
            phase_bits = log2_exact(banks.phase_lanes(element_bytes << len(vec)))
            order = vec + lanes[:phase_bits] + _bases(first, packing, "register") \
                + lanes[phase_bits:] + _bases(first, packing, "warp")
            inverse_columns = _complete(order, bits)  # offset bit i -> coordinates
            columns = invert(inverse_columns, bits)   # coordinate bit -> offset
            for other_vector in _powers_down(max(1 << len(other), 1 << len(vec))):
                candidates.append(_swizzle(columns, second, packing, element_bytes,
                                           other_vector, keep_low=len(vec), banks=banks))
    best = None
    measured: set[tuple[int, ...]] = set()
    for columns in candidates:
        # Half the candidates repeat an earlier one: measuring it again cannot win (the
        # first of equal rank is kept).
        if tuple(columns) in measured:
            continue
        measured.add(tuple(columns))
        store = _measure(src, columns, packing, element_bytes, src_registers, banks,
                         matrix_store)
        load = _measure(dst, columns, packing, element_bytes, dst_registers, banks,
                        matrix_load)
        plan = TransferPlan(tuple(shape), element_bytes, tuple(columns), store, load)
        if best is None or _rank(plan) < _rank(best):
            best = plan
    assert best is not None
    return best


def _cost(plan: TransferPlan) -> int:
    return plan.store.cost + LOAD_WEIGHT * plan.load.cost


def _rank(plan: TransferPlan) -> tuple[int, int]:
    """Cost, then fewer matrix sides: at equal cost a matrix side only adds the rows'
    address arithmetic (ptxas: two more registers on Inductor's 16xf32 reductions)."""
    return _cost(plan), (plan.store.matrix is not None) + (plan.load.matrix is not None)


def _powers_down(n: int) -> list[int]:
    out = []
    while n >= 1:
        out.append(n)
        n //= 2
    return out
