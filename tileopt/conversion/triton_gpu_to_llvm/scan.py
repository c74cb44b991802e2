"""``tt.scan``: inclusive prefix combine along one axis.

The axis position of an element is spelled by single bits of the hardware indices: with
blocked-style layouts, from least to most significant, ``a`` register bits (elements a
thread holds contiguously), ``l`` lane bits, ``w`` warp bits, then ``h`` more register bits
(repetitions: *chunks*). The scan follows that structure (as Triton's ScanOpToLLVM does):

1. each thread scans its contiguous elements of each chunk in registers;
2. lanes: a Hillis-Steele scan of the chunk totals with ``shfl.sync.up`` by 1, 2, 4...
   positions; one more shuffle gives each lane the total of the lanes before it, which it
   combines into its elements;
3. when warps or chunks remain, the last lane of every (chunk, warp) block writes the
   block total to shared memory, a barrier, and every thread reads the totals of its key,
   combines those of the blocks before its own (chunk-major, then warp), and combines
   that prefix into its elements.

Reverse scans, and layouts whose axis bits are not single bits in that order, are
rejected with a message.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from tileopt.conversion.indexing import apply_bits, element_coordinates, linear_index, \
    register_coordinates
from tileopt.conversion.shared_memory import scratch_rule
from tileopt.conversion.triton_gpu_to_llvm.lowering import (
    FunctionLowering,
    lowers,
    operand_arrays,
    operand_scratch,
)
from tileopt.conversion.type_converter import bit_width
from tileopt.dialects.layout_of import linear_layout_of
from tileopt.layouts.linear_layout import LinearLayout


class ScanShape:
    """Which hardware bits spell the axis position (see the module docstring)."""

    def __init__(self, layout: LinearLayout, axis: int):
        sources: dict[int, tuple[str, int]] = {}  # axis bit -> (in dim, bit)
        for dim in ("register", "lane", "warp"):
            for i, basis in enumerate(layout.get_bases(dim)):
                if not basis[axis]:
                    continue
                value = basis[axis]
                if value & (value - 1) or any(v for d, v in enumerate(basis) if d != axis):
                    raise ValueError(f"{dim} basis {basis} is not a single step along the "
                                     "scan axis")
                bit = value.bit_length() - 1
                if bit in sources:
                    raise ValueError("the layout repeats an axis position")
                sources[bit] = (dim, i)
        order = [sources[b] for b in sorted(sources)]
        dims = [d for d, _ in order]
        groups: list[tuple[str, list[int]]] = []
        for dim, i in order:
            if groups and groups[-1][0] == dim:
                groups[-1][1].append(i)
            else:
                groups.append((dim, [i]))
        names = [g[0] for g in groups]
        expected = ["register", "lane", "warp", "register"]
        # names must be a subsequence of the expected pattern, in order
        pos = 0
        for name in names:
            while pos < len(expected) and expected[pos] != name:
                pos += 1
            if pos == len(expected):
                raise ValueError(f"axis bits come from {dims}, not registers, lanes, warps, "
                                 "registers in that order")
            pos += 1
        self.inner: list[int] = []   # register bits inside a chunk
        self.lanes: list[int] = []
        self.warps: list[int] = []
        self.outer: list[int] = []   # register bits numbering chunks
        seen_threads = False
        for dim, bits in groups:
            if dim == "register":
                (self.outer if seen_threads else self.inner).extend(bits)
            elif dim == "lane":
                self.lanes = bits
                seen_threads = True
            else:
                self.warps = bits
                seen_threads = True
        if self.lanes and self.lanes != list(range(self.lanes[0], self.lanes[0] + len(self.lanes))):
            raise ValueError("the lanes along the scan axis are not consecutive lane bits")

    def chunk_of(self, register: int) -> int:
        return sum(((register >> bit) & 1) << j for j, bit in enumerate(self.outer))

    def inner_position(self, register: int) -> int:
        return sum(((register >> bit) & 1) << j for j, bit in enumerate(self.inner))


def _combine(fl: FunctionLowering, op: Operation, a: list[SSAValue], b: list[SSAValue]):
    return fl.inline_region(op.regions[0], [*a, *b], "tt.scan.return")


def _select(fl: FunctionLowering, cond: SSAValue, a: list[SSAValue], b: list[SSAValue]):
    return [fl.b.select(cond, x, y) for x, y in zip(a, b)]



def load_run(fl: FunctionLowering, ptr: SSAValue, ty, count: int) -> list[SSAValue]:
    """``count`` consecutive elements from shared memory, in vectors of up to 128 bits."""
    bits = bit_width(ty)
    per_vector = max(1, min(count, 128 // bits))
    values: list[SSAValue] = []
    for start in range(0, count, per_vector):
        at = fl.b.gep(ptr, fl.b.i32(start), ty)
        values += fl.hooks.load_shared(fl.b, at, ty, per_vector, None)
    return values


@lowers("tt.scan")
def _scan(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    axis = op.axis.value.data
    if op.reverse.value.data:
        raise fl.error(op, "reverse scans are not supported yet")
    src_type: TensorType = op.operands[0].type
    layout = fl.layouts.of(src_type)
    try:
        shape = ScanShape(layout, axis)
    except ValueError as err:
        raise fl.error(op, f"cannot scan this layout: {err}") from None
    operands = [fl.get(v) for v in op.operands]
    count = len(operands[0])
    coords = register_coordinates(layout)

    # Registers by (key, chunk), in axis order within the chunk.
    groups: dict[tuple[tuple[int, ...], int], list[int]] = {}
    zero_bits = sum(1 << i for i, basis in enumerate(layout.get_bases("register"))
                    if not any(basis))
    for r in range(count):
        if r & zero_bits:
            continue
        key = coords[r][:axis] + coords[r][axis + 1:]
        groups.setdefault((key, shape.chunk_of(r)), []).append(r)
    for regs in groups.values():
        regs.sort(key=shape.inner_position)

    # 1. In registers.
    result: dict[int, list[SSAValue]] = {}
    for regs in groups.values():
        acc = None
        for r in regs:
            cur = [values[r] for values in operands]
            acc = cur if acc is None else _combine(fl, op, acc, cur)
            result[r] = acc

    # 2. Across lanes: Hillis-Steele on chunk totals, then the exclusive lane prefix.
    lane_axis = None
    if shape.lanes:
        first = shape.lanes[0]
        lane_axis = b.and_(b.lshr(fl.ids.lane, b.i32(first)), b.i32((1 << len(shape.lanes)) - 1))
        for regs in groups.values():
            total = result[regs[-1]]
            for step in range(len(shape.lanes)):
                distance = 1 << step
                moved = [fl.hooks.shuffle_up(b, v, distance << first) for v in total]
                combined = _combine(fl, op, moved, total)
                valid = b.icmp("uge", lane_axis, b.i32(distance))
                total = _select(fl, valid, combined, total)
            before = [fl.hooks.shuffle_up(b, v, 1 << first) for v in total]
            not_first = b.icmp("ne", lane_axis, b.i32(0))
            for r in regs:
                result[r] = _select(fl, not_first, _combine(fl, op, before, result[r]), result[r])

    # 3. Across warps and chunks, through shared memory.
    if shape.warps or shape.outer:
        _blocks(fl, op, layout, axis, shape, groups, result, lane_axis)

    for i, res in enumerate(op.results):
        fl.set(res, [result[_canonical(r, zero_bits)][i] for r in range(count)])


def _canonical(register: int, zero_bits: int) -> int:
    return register & ~zero_bits


def block_totals_count(op: Operation, shape: ScanShape) -> int:
    """Elements of each operand's scratch array: one total per scan line and block (chunk
    of registers times warp along the axis)."""
    axis = op.axis.value.data
    keys = 1
    for d, s in enumerate(op.operands[0].type.get_shape()):
        if d != axis:
            keys *= s
    return keys << (len(shape.outer) + len(shape.warps))


@scratch_rule("tt.scan")
def scan_scratch(op: Operation) -> int:
    """The bytes :func:`_blocks` lays out (0 when one warp and one chunk hold each line)."""
    try:
        shape = ScanShape(linear_layout_of(op.operands[0].type), op.axis.value.data)
    except ValueError:
        return 0  # the pattern reports it
    if not (shape.warps or shape.outer):
        return 0
    return operand_arrays(op, block_totals_count(op, shape))[1]


def _blocks(fl: FunctionLowering, op: Operation, layout: LinearLayout, axis: int,
            shape: ScanShape, groups, result, lane_axis) -> None:
    b = fl.b
    src_type: TensorType = op.operands[0].type
    out_shape = [s for d, s in enumerate(src_type.get_shape()) if d != axis] or [1]
    warps = 1 << len(shape.warps)
    blocks = warps << len(shape.outer)
    types = [fl.llvm_type(v.type) for v in op.operands]
    slot = operand_scratch(fl, op, block_totals_count(op, shape))

    column = [0] * len(layout.get_bases("warp"))
    for j, bit in enumerate(shape.warps):
        column[bit] = 1 << j
    warp_pos = apply_bits(b, fl.ids.warp, column) if shape.warps else b.i32(0)
    coords = element_coordinates(b, fl.ids, layout)
    key_index: dict[tuple[int, ...], SSAValue] = {}
    for (key, _), regs in groups.items():
        if key not in key_index:
            dims = coords[regs[0]][:axis] + coords[regs[0]][axis + 1:]
            key_index[key] = linear_index(b, dims, out_shape) if dims else b.i32(0)

    # The last lane along the axis holds each block's total.
    last_lane = None
    if lane_axis is not None:
        last_lane = b.icmp("eq", lane_axis, b.i32((1 << len(shape.lanes)) - 1))
    free_lanes = layout.get_free_variable_masks().get("lane", 0)
    if free_lanes:
        unique = b.icmp("eq", b.and_(fl.ids.lane, b.i32(free_lanes)), b.i32(0))
        last_lane = unique if last_lane is None else b.and_(last_lane, unique)
    for (key, chunk), regs in groups.items():
        index = b.add(b.mul(key_index[key], b.i32(blocks)),
                      b.add(b.i32(chunk * warps), warp_pos))
        for i, value in enumerate(result[regs[-1]]):
            fl.hooks.store_shared(b, slot(index, i), [value], last_lane)
    fl.hooks.barrier(b)

    totals: dict[tuple[int, ...], list[list[SSAValue]]] = {}
    for key in key_index:
        first = b.mul(key_index[key], b.i32(blocks))
        runs = [load_run(fl, slot(first, i), t, blocks) for i, t in enumerate(types)]
        totals[key] = [[run[j] for run in runs] for j in range(blocks)]
    for (key, chunk), regs in groups.items():
        block_totals = totals[key]
        # prefix of whole chunks before this one
        chunk_prefix = None
        for j in range(chunk * warps):
            chunk_prefix = block_totals[j] if chunk_prefix is None else \
                _combine(fl, op, chunk_prefix, block_totals[j])
        # then the warps before this warp in this chunk: one candidate per warp position
        prefix = chunk_prefix  # for warp position 0
        candidates = [prefix]
        running = chunk_prefix
        for w in range(1, warps):
            blk = block_totals[chunk * warps + w - 1]
            running = blk if running is None else _combine(fl, op, running, blk)
            candidates.append(running)
        if warps > 1:
            chosen = candidates[-1]
            for w in range(warps - 2, -1, -1):
                if candidates[w] is None:
                    continue
                is_w = b.icmp("eq", warp_pos, b.i32(w))
                chosen = _select(fl, is_w, candidates[w], chosen)
            has_prefix = None if chunk else b.icmp("ne", warp_pos, b.i32(0))
        else:
            chosen = candidates[0]
            has_prefix = None
        if chosen is None:
            continue
        for r in regs:
            combined = _combine(fl, op, chosen, result[r])
            result[r] = combined if has_prefix is None else \
                _select(fl, has_prefix, combined, result[r])
