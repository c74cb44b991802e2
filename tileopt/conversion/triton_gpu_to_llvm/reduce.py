"""``tt.reduce``: combine along one axis, in registers, then across lanes, then warps.

The source layout says where the axis lives. Along it:

1. registers: a thread combines, in register order, the registers whose elements differ
   only in the axis coordinate (one accumulator per remaining coordinate, its *key*);
2. lanes: for each lane bit whose basis moves along the axis, highest first, a butterfly
   shuffle (``shfl.sync.bfly``) and a combine; then every such lane holds the warp's
   partial result;
3. warps: when warp bits move along the axis too, Triton's two rounds through shared
   memory: one lane per warp writes its partials at ``key * W + warp position`` (W warps
   along the axis); a barrier; thread ``t`` reads slot ``t`` (``t + T``, ... for more
   slots than threads), a butterfly over W neighbouring lanes combines each key's W
   partials, and the key's first lane writes the result back to slot ``key * W``; a
   barrier; every thread reads its keys' results. Each key costs a thread log2(W)
   combines at most, not W - 1, which matters for costly combiners (Welford's), and the
   rounding is Triton's.

Lane or warp bits that do not move along the axis either keep keys apart or repeat data
(zero bases); repeated registers are combined once. The result layout is the slice of the
source layout along the axis, so each result register is the accumulator of its key.
The combiner region is inlined at every combine.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from tileopt.conversion.indexing import apply_bits, element_coordinates, linear_index, \
    register_coordinates
from tileopt.conversion.triton_gpu_to_llvm.load_store import and_predicates, unique_registers
from tileopt.conversion.shared_memory import scratch_rule
from tileopt.conversion.triton_gpu_to_llvm.lowering import (
    FunctionLowering,
    lowers,
    operand_arrays,
    operand_scratch,
)
from tileopt.dialects.layout_of import linear_layout_of
from tileopt.layouts.linear_layout import LinearLayout

Key = tuple[int, ...]


def axis_bits(layout: LinearLayout, in_dim: str, axis: int) -> list[int]:
    """Bits of ``in_dim`` whose basis moves along ``axis`` (and only along it)."""
    bits = []
    for i, basis in enumerate(layout.get_bases(in_dim)):
        if basis[axis]:
            if any(v for d, v in enumerate(basis) if d != axis):
                raise ValueError(f"a {in_dim} basis {basis} moves along the reduction axis "
                                 "and another dim at once")
            bits.append(i)
    return bits


def _drop(coords: tuple[int, ...], axis: int) -> Key:
    return coords[:axis] + coords[axis + 1:]


def _combine(fl: FunctionLowering, op: Operation, acc: list[SSAValue],
             cur: list[SSAValue]) -> list[SSAValue]:
    return fl.inline_region(op.regions[0], [*acc, *cur], "tt.reduce.return")


def within_thread(fl: FunctionLowering, op: Operation, layout: LinearLayout, axis: int,
                  operands: list[list[SSAValue]]) -> dict[Key, list[SSAValue]]:
    """Step 1: {key: accumulators (one per operand)} over this thread's registers."""
    unique, _ = unique_registers(layout)
    coords = register_coordinates(layout)
    accs: dict[Key, list[SSAValue]] = {}
    for r in unique:
        key = _drop(coords[r], axis)
        cur = [values[r] for values in operands]
        accs[key] = cur if key not in accs else _combine(fl, op, accs[key], cur)
    return accs


def within_warp(fl: FunctionLowering, op: Operation, lane_bits: list[int],
                accs: dict[Key, list[SSAValue]]) -> None:
    """Step 2: butterfly over the lane bits along the axis, highest first; a reduction of
    one operand over the whole warp goes to the target's ``reduce_warp`` first."""
    if len(lane_bits) == fl.warp_size.bit_length() - 1 and len(op.operands) == 1:
        def combine(x: SSAValue, y: SSAValue) -> SSAValue:
            return _combine(fl, op, [x], [y])[0]
        reduced = {key: fl.hooks.reduce_warp(fl.b, acc[0], combine)
                   for key, acc in accs.items()}
        if all(value is not None for value in reduced.values()):
            accs.update({key: [value] for key, value in reduced.items()})
            return
    for bit in sorted(lane_bits, reverse=True):
        for key, acc in accs.items():
            other = [fl.hooks.shuffle_xor(fl.b, v, 1 << bit) for v in acc]
            accs[key] = _combine(fl, op, acc, other)


def partials_count(op: Operation, warp_bits: list[int]) -> int:
    """Elements of each operand's scratch array: every result element's partial from each
    of the ``2 ** len(warp_bits)`` warps along the axis."""
    axis = op.axis.value.data
    out_elems = 1
    for d, s in enumerate(op.operands[0].type.get_shape()):
        if d != axis:
            out_elems *= s
    return out_elems << len(warp_bits)


@scratch_rule("tt.reduce")
def reduce_scratch(op: Operation) -> int:
    """The bytes :func:`across_warps` lays out (0 when one warp holds the axis)."""
    try:
        warp_bits = axis_bits(linear_layout_of(op.operands[0].type), "warp", op.axis.value.data)
    except ValueError:
        return 0  # the pattern reports it
    return operand_arrays(op, partials_count(op, warp_bits))[1] if warp_bits else 0


def across_warps(fl: FunctionLowering, op: Operation, layout: LinearLayout, axis: int,
                 lane_bits: list[int], warp_bits: list[int],
                 accs: dict[Key, list[SSAValue]]) -> None:
    """Step 3: exchange warp partials through shared memory (see the module docstring)."""
    b = fl.b
    src_type: TensorType = op.operands[0].type
    out_shape = [s for d, s in enumerate(src_type.get_shape()) if d != axis]
    warps = 1 << len(warp_bits)
    types = [fl.llvm_type(v.type) for v in op.operands]
    slot = operand_scratch(fl, op, partials_count(op, warp_bits))

    # Where each key of this thread lives: its row-major index in the result shape.
    coords = element_coordinates(b, fl.ids, layout)
    unique, _ = unique_registers(layout)
    key_index: dict[Key, SSAValue] = {}
    reg_coords = register_coordinates(layout)
    for r in unique:
        key = _drop(reg_coords[r], axis)
        if key not in key_index:
            dims = _drop(tuple(coords[r]), axis)
            key_index[key] = linear_index(b, list(dims), out_shape) if dims else b.i32(0)
    column = [0] * len(layout.get_bases("warp"))
    for j, bit in enumerate(warp_bits):
        column[bit] = 1 << j
    warp_pos = apply_bits(b, fl.ids.warp, column)
    lane_mask = sum(1 << bit for bit in lane_bits)
    lane_mask |= layout.get_free_variable_masks().get("lane", 0)
    writer = b.icmp("eq", b.and_(fl.ids.lane, b.i32(lane_mask)), b.i32(0)) if lane_mask else None

    for key, acc in accs.items():
        index = b.add(b.mul(key_index[key], b.i32(warps)), warp_pos)
        for i, value in enumerate(acc):
            fl.hooks.store_shared(b, slot(index, i), [value], writer)
    fl.hooks.barrier(b)
    _reduce_slots(fl, op, slot, types, partials_count(op, warp_bits), warps)
    fl.hooks.barrier(b)
    for key in accs:
        first = b.mul(key_index[key], b.i32(warps))
        accs[key] = [fl.hooks.load_shared(b, slot(first, i), ty, 1, None)[0]
                     for i, ty in enumerate(types)]


def _reduce_slots(fl: FunctionLowering, op: Operation, slot, types: list, slots: int,
                  warps: int) -> None:
    """Combine each run of ``warps`` consecutive slots into its first: thread ``t`` takes
    slots ``t``, ``t + T``, ... (T threads), and a butterfly over ``warps`` lanes, the
    higher distance first, combines them as Triton's accumulatePartialReductions does."""
    b = fl.b
    threads = fl.num_warps * fl.warp_size
    thread = fl.ids.thread
    needed = b.icmp("ult", thread, b.i32(slots)) if slots < threads else None
    first_of_run = b.icmp("eq", b.and_(fl.ids.lane, b.i32(warps - 1)), b.i32(0))
    writer = and_predicates(b, needed, first_of_run)
    for start in range(0, max(slots, threads), threads):  # slots and threads: powers of 2
        index = b.add(thread, b.i32(start)) if start else thread
        acc = [fl.hooks.load_shared(b, slot(index, i), ty, 1, needed)[0]
               for i, ty in enumerate(types)]
        distance = warps // 2
        while distance:
            other = [fl.hooks.shuffle_xor(b, v, distance) for v in acc]
            acc = _combine(fl, op, acc, other)
            distance //= 2
        for i, value in enumerate(acc):
            fl.hooks.store_shared(b, slot(index, i), [value], writer)


@lowers("tt.reduce")
def _reduce(fl: FunctionLowering, op: Operation) -> None:
    axis = op.axis.value.data
    src_type = op.operands[0].type
    layout = fl.layouts.of(src_type)
    try:
        lane_bits = axis_bits(layout, "lane", axis)
        warp_bits = axis_bits(layout, "warp", axis)
    except ValueError as err:
        raise fl.error(op, str(err)) from None
    operands = [fl.get(v) for v in op.operands]
    accs = within_thread(fl, op, layout, axis, operands)
    within_warp(fl, op, lane_bits, accs)
    if warp_bits:
        across_warps(fl, op, layout, axis, lane_bits, warp_bits, accs)
    for i, result in enumerate(op.results):
        if not isinstance(result.type, TensorType):
            [acc] = accs.values()
            fl.set(result, [acc[i]])
            continue
        out_layout = fl.layouts.of(result.type)
        _check_result_layout(fl, op, layout, out_layout, axis)
        values = []
        for coords in register_coordinates(out_layout):
            acc = accs.get(coords)
            if acc is None:
                raise fl.error(op, f"result layout holds element {coords}, which this thread "
                                   "did not reduce")
            values.append(acc[i])
        fl.set(result, values)


def _check_result_layout(fl: FunctionLowering, op: Operation, src: LinearLayout,
                         dst: LinearLayout, axis: int) -> None:
    for dim in ("lane", "warp"):
        for s, d in zip(src.get_bases(dim), dst.get_bases(dim)):
            expected = (0,) * len(d) if s[axis] else _drop(s, axis)
            if tuple(d) != expected:
                raise fl.error(op, "the result layout is not the slice of the source layout "
                                   "along the reduction axis")


__all__ = ["axis_bits", "within_thread", "within_warp", "across_warps"]
