"""``tritongpu-optimize-thread-locality``: keep reductions inside threads (Triton 3.6's
``OptimizeThreadLocality.cpp``).

Three rewrites:

- A ``tt.gather`` gets a layout that keeps each gathered column inside one warp.
- A ``tt.reshape`` that may reorder elements and feeds reductions along one axis gets a
  blocked layout with that axis last in its order and one element per thread, so the
  reduction needs no exchange between threads; a conversion gives users the old layout.
- A loop that accumulates ``acc = acc + reduce(load(...), axis=last)`` (add, mul, min or
  max over floats), where each thread holds several elements along the reduced axis, is
  rewritten to reduce only within each thread: the loaded tile ``[..., N]`` is viewed as
  ``[..., N/k, k]`` with the ``k`` elements of a thread along the new last axis, the loop
  carries a partial accumulator ``[..., N/k]`` (initialised with the reduction's neutral
  element), and a single cross-thread reduction runs after the loop. The old reduction and
  update stay in the loop, dead, for the next clean-up to remove, as in Triton.
"""

from __future__ import annotations

import math

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, TensorType, UnitAttr, i32
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.dialects.arith import TruncIOp
from tileopt.dialects import tt
from tileopt.dialects.layout_of import encoding_of
from tileopt.dialects.ttg import ConvertLayoutOp, num_ctas, num_warps, threads_per_warp
from tileopt.dialects.ttg_attrs import BlockedEncodingAttr, SliceEncodingAttr
from tileopt.layouts.encodings import get_order, get_thread_order, get_warp_order
from tileopt.passes import Pass, register_pass
from tileopt.dialects.triton_version import is_version_39
from tileopt.dialects.tt_canonicalize import dense_splat
from tileopt.ir.locations import value_location
from tileopt.transforms.utils.builder import located
from tileopt.transforms.utils.blocked_layouts import blocked_for_shape, make_blocked
from tileopt.transforms.canonicalization.convert_layout_patterns import is_expensive_view
from tileopt.transforms.utils.greedy_rewrite import apply_patterns_greedily
from tileopt.transforms.utils.layout_propagation import transposed_layout
from tileopt.transforms.utils.reshape_layouts import reshape_encoding
from tileopt.transforms.utils.scf_rewrites import replace_for_with_new_signature
from tileopt.transforms.utils.tensor_layouts import (
    elems_per_thread,
    retype,
    tensor_type,
    with_encoding,
)

# Combiners handled, with their neutral element.
_NEUTRAL = {
    "arith.addf": 0.0,
    "arith.mulf": 1.0,
    "arith.maximumf": -math.inf,
    "arith.maxnumf": -math.inf,
    "arith.minimumf": math.inf,
    "arith.minnumf": math.inf,
}


class OptimizeReshapeLayout(RewritePattern):
    """Give a reordering reshape feeding reductions a layout where each thread holds whole
    rows along the reduced axis."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "tt.reshape" or "allow_reorder" not in op.properties:
            return
        axes = {use.operation.properties["axis"].value.data for use in op.results[0].uses
                if use.operation.name == "tt.reduce"}
        if len(axes) != 1:
            return
        axis = axes.pop()
        ty = op.results[0].type
        assert isinstance(ty, TensorType)
        layout = ty.encoding
        if isinstance(layout, BlockedEncodingAttr):
            d = layout.as_dict()
            if d["threadsPerWarp"][axis] == 1 and d["warpsPerCTA"][axis] == 1 and (
                    d["CTAsPerCGA"][axis] == 1):
                return  # already thread-local along the axis
        shape = list(ty.get_shape())
        order = [i for i in get_order(encoding_of(layout), shape) if i != axis] + [axis]
        new_layout = blocked_for_shape(shape, [1] * len(shape), order, num_warps(op),
                                       threads_per_warp(op), num_ctas(op))
        if new_layout == layout:
            return
        new_type = with_encoding(ty, new_layout)
        if is_expensive_view(op.operands[0].type, new_type):
            return
        result = op.results[0]
        users = [use for use in result.uses]
        retype(result, new_type)
        op.properties["efficient_layout"] = UnitAttr()
        convert = ConvertLayoutOp(result, ty)
        rewriter.insert(convert, InsertPoint.after(op))
        for use in users:
            use.operation.operands[use.index] = convert.result
        rewriter.handle_operation_modification(op)


class OptimizeGatherLayout(RewritePattern):
    """Give a gather (without an optimised layout yet) a layout where each warp holds whole
    columns along the gather axis, so the gather needs only shuffles within warps: as many
    lanes as possible along the axis (one warp there), the rest spread over the other dims
    in thread order, warps over the other dims in warp order. Source and indices are
    converted to it, the result converted back."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name != "tt.gather" or "efficient_layout" in op.properties:
            return
        src, idx = op.operands[0].type, op.operands[1].type
        assert isinstance(src, TensorType) and isinstance(idx, TensorType)
        axis = op.properties["axis"].value.data
        shape, rank = list(src.get_shape()), len(src.get_shape())
        if rank == 1:
            return
        lanes, warps = threads_per_warp(op), num_warps(op)
        layout = encoding_of(src.encoding)
        threads = [0] * rank
        warps_per_cta = [0] * rank
        threads[axis] = min(shape[axis], lanes)
        threads_left = lanes // threads[axis]
        order = [axis]
        for dim in get_thread_order(layout, shape):
            if dim == axis:
                continue
            order.append(dim)
            threads[dim] = min(shape[dim], threads_left)
            threads_left //= threads[dim]
        warps_per_cta[axis] = 1
        warps_left = warps
        for dim in get_warp_order(layout, shape):
            if dim == axis:
                continue
            warps_per_cta[dim] = min(shape[dim] // threads[dim], warps_left)
            warps_left //= warps_per_cta[dim]
        size = [1] * rank
        size[axis] = max(shape[axis], idx.get_shape()[axis]) // threads[axis]
        threads[axis] *= threads_left  # what is left over broadcasts along the axis
        warps_per_cta[axis] *= warps_left
        d = src.encoding.as_dict() if hasattr(src.encoding, "as_dict") else {}
        new_layout = make_blocked(size, threads, warps_per_cta, order, d.get("CTAsPerCGA"),
                                  d.get("CTASplitNum"), d.get("CTAOrder"))
        indices = op.operands[1]
        if getattr(idx.element_type, "bitwidth", 32) > 32:
            # indices become i32 in lowering anyway: do not move wider ones through memory
            narrowed = TruncIOp(indices, TensorType(i32, idx.get_shape(), idx.encoding))
            rewriter.insert(narrowed, InsertPoint.before(op))
            indices = narrowed.results[0]
        src_cvt = ConvertLayoutOp(op.operands[0], with_encoding(src, new_layout))
        idx_cvt = ConvertLayoutOp(indices, with_encoding(indices.type, new_layout))
        rewriter.insert(src_cvt, InsertPoint.before(op))
        rewriter.insert(idx_cvt, InsertPoint.before(op))
        result = op.results[0]
        old_type = result.type
        users = list(result.uses)
        out_cvt = ConvertLayoutOp(result, old_type)
        rewriter.insert(out_cvt, InsertPoint.after(op))
        for use in users:
            use.operation.operands[use.index] = out_cvt.result
        op.operands[0] = src_cvt.result
        op.operands[1] = idx_cvt.result
        retype(result, with_encoding(old_type, new_layout))
        op.properties["efficient_layout"] = UnitAttr()
        rewriter.handle_operation_modification(op)


def _combiner(reduce: Operation) -> Operation | None:
    """The single op combining two elements in ``reduce``'s body, if there is just one."""
    body = reduce.regions[0]
    if len(body.blocks) != 1:
        return None
    ops = list(body.block.ops)
    return ops[0] if len(ops) == 2 else None


def _single_use(op: Operation):
    uses = [use for result in op.results for use in result.uses]
    return uses[0] if len(uses) == 1 else None


class _Candidate:
    """A loop-carried reduction the pass can make thread-local."""

    def __init__(self, reduce: Operation, update: Operation, update_index: int,
                 loop: scf.ForOp, carried: int):
        self.reduce, self.update, self.update_index = reduce, update, update_index
        self.loop, self.carried = loop, carried


def find_candidate(reduce: Operation) -> _Candidate | None:
    """Triton's conditions: a float add/mul/min/max reduction of loads along the last axis
    of a blocked tensor with several elements per thread on that axis, whose only use is
    the update ``acc' = f(acc, r)`` of a loop-carried accumulator initialised by a
    constant and used nowhere else in the loop."""
    combiner = _combiner(reduce)
    if combiner is None or combiner.name not in _NEUTRAL:
        return None
    src = tensor_type(reduce.operands[0])
    if src is None or not isinstance(src.encoding, BlockedEncodingAttr):
        return None
    rank = len(src.get_shape())
    axis = reduce.properties["axis"].value.data
    if rank <= 1 or axis != rank - 1:
        return None
    if any(not isinstance(v, OpResult) or v.op.name != "tt.load" for v in reduce.operands):
        return None
    if elems_per_thread(src)[axis] == 1:
        return None
    use = _single_use(reduce)
    if use is None:
        return None
    update = use.operation
    if len(update.operands) != 2:
        return None
    update_use = _single_use(update)
    if update_use is None or not isinstance(update_use.operation, scf.YieldOp):
        return None
    loop = update_use.operation.parent_op()
    if not isinstance(loop, scf.ForOp) or reduce.parent_block() is not loop.body.block:
        return None
    carried = update_use.index
    init = loop.iter_args[carried]
    if not isinstance(init, OpResult) or init.op.name != "arith.constant":
        return None
    if not loop.body.block.args[carried + 1].has_one_use():
        return None
    return _Candidate(reduce, update, use.index, loop, carried)


def _insert(value: list, index: int, item) -> list:
    return [*value[:index], item, *value[index:]]


def thread_local_layout(src: TensorType, axis: int) -> BlockedEncodingAttr:
    """The rank+1 blocked layout where a thread's elements along ``axis`` move to a new
    last dim (fastest in order) and ``axis`` keeps one element per thread."""
    d = src.encoding.as_dict()
    rank = len(src.get_shape())
    size = _insert(list(d["sizePerThread"]), rank, d["sizePerThread"][axis])
    size[axis] = 1
    return make_blocked(
        size,
        _insert(list(d["threadsPerWarp"]), rank, 1),
        _insert(list(d["warpsPerCTA"]), rank, 1),
        _insert(list(d["order"]), 0, rank),
        _insert(list(d["CTAsPerCGA"]), rank, 1),
        _insert(list(d["CTASplitNum"]), rank, 1),
        _insert(list(d["CTAOrder"]), rank, rank),
    )


def thread_local_shape(src: TensorType, axis: int) -> list[int]:
    per_thread = elems_per_thread(src)[axis]
    shape = _insert(list(src.get_shape()), len(src.get_shape()), per_thread)
    shape[axis] //= per_thread
    return shape


def _set_reduce_types(reduce: Operation) -> None:
    """Re-infer a reduction's result types from its operands and axis."""
    axis = reduce.properties["axis"].value.data
    for operand, result in zip(reduce.operands, reduce.results):
        ty = operand.type
        shape = [s for i, s in enumerate(ty.get_shape()) if i != axis]
        if shape:
            retype(result, TensorType(ty.element_type, shape,
                                      SliceEncodingAttr.get(axis, ty.encoding)))
        else:
            retype(result, ty.element_type)


def _clone_with_inferred_type(op: Operation, mapping: dict[SSAValue, SSAValue],
                              point: InsertPoint) -> Operation:
    """Clone ``op`` on mapped operands with result types inferred from them (Triton's
    ``cloneWithInferType``): an elementwise update takes its first operand's shape and
    layout, a reduction the slice of its operand's layout."""
    clone = op.clone(value_mapper=dict(mapping))
    Rewriter.insert_op(clone, point)
    if clone.name == "tt.reduce":
        _set_reduce_types(clone)
        return clone
    first = tensor_type(clone.operands[0]) if clone.operands else None
    for result in clone.results:
        ty = tensor_type(result)
        if ty is None or first is None:
            continue
        if ty.element_type == first.element_type:
            retype(result, first)  # the update keeps its operands' type (arith's inference)
        else:
            retype(result, TensorType(ty.element_type, first.get_shape(), first.encoding))
    return clone


def _exact_views(operand: SSAValue, axis: int, view_shape: list[int],
                 layout3d: BlockedEncodingAttr) -> list[Operation] | None:
    """Triton 3.9's way to the ``[..., N/k, k]`` view: no reshape that may reorder, but
    reshape ``N`` to ``[N/(T*k), T, k]`` (``T`` threads along the axis; every element
    stays where it is), transpose the threads before the repetitions, drop the size-1
    repetition dim (a slice of the 4-D layout) and convert to the thread-local layout.
    Only where the threads cover the axis once (``N == T * k`` with ``k`` consecutive
    elements per thread, as in every corpus kernel); None elsewhere (the 3.6 reshape is
    used: how 3.9 views repeated tiles is not in its corpus)."""
    src = operand.type
    d = src.encoding.as_dict()
    per_thread = view_shape[-1]
    threads = d["threadsPerWarp"][axis] * d["warpsPerCTA"][axis]
    if (axis != len(src.get_shape()) - 1 or d["sizePerThread"][axis] != per_thread
            or src.get_shape()[axis] != threads * per_thread):
        return None  # a thread meets the axis more than once
    element = src.element_type
    split = [*src.get_shape()[:axis], 1, threads, per_thread]
    split_layout = reshape_encoding(src.get_shape(), src.encoding, split)
    order = list(range(len(split)))
    order[axis], order[axis + 1] = axis + 1, axis
    swapped_layout = (transposed_layout(split_layout, order)
                      if split_layout is not None else None)
    if swapped_layout is None:
        return None
    split_op = tt.ReshapeOp(operand, TensorType(element, split, split_layout))
    swap = tt.TransOp(split_op, order, TensorType(element, [split[o] for o in order],
                                                  swapped_layout))
    squeeze = tt.ReshapeOp(swap, TensorType(element, view_shape,
                                            SliceEncodingAttr.get(axis + 1, swapped_layout)),
                           efficient_layout=True)
    convert = ConvertLayoutOp(squeeze, TensorType(element, view_shape, layout3d))
    return [split_op, swap, squeeze, convert]


def make_thread_local(c: _Candidate) -> None:
    reduce, update, loop = c.reduce, c.update, c.loop
    src = tensor_type(reduce.operands[0])
    axis = reduce.properties["axis"].value.data
    rank = len(src.get_shape())
    layout3d = thread_local_layout(src, axis)
    view_shape = thread_local_shape(src, axis)
    slice2d = SliceEncodingAttr.get(rank, layout3d)

    old_accum = loop.iter_args[c.carried]
    accum_type = TensorType(src.element_type, view_shape[:-1], slice2d)
    neutral = _NEUTRAL[_combiner(reduce).name]
    new_accum = located(arith.ConstantOp(dense_splat(accum_type, neutral)),
                        value_location(old_accum))
    Rewriter.insert_op(new_accum, InsertPoint.after(old_accum.op))

    old_yield = loop.body.block.last_op
    new_loop = replace_for_with_new_signature(loop, [new_accum.result])
    block = new_loop.body.block
    new_arg = block.args[-1]

    # reduce each thread's elements: reshape to [..., N/k, k], reduce the last axis
    mapping: dict[SSAValue, SSAValue] = {}
    point = InsertPoint.after(reduce)
    for operand in reduce.operands:
        views = (_exact_views(operand, axis, view_shape, layout3d) if is_version_39(loop)
                 else None)
        if views is None:
            views = [tt.ReshapeOp(operand, TensorType(operand.type.element_type, view_shape,
                                                      layout3d),
                                  allow_reorder=True, efficient_layout=True)]
        for view in views:
            Rewriter.insert_op(located(view, reduce.location), point)
            point = InsertPoint.after(view)
        mapping[operand] = views[-1].results[0]
    local = reduce.clone(value_mapper=mapping)
    local.properties["axis"] = IntegerAttr(rank, i32)
    Rewriter.insert_op(local, point)
    _set_reduce_types(local)

    new_update = _clone_with_inferred_type(
        update, {update.operands[0]: new_arg, update.operands[1]: local.results[0]},
        InsertPoint.after(local))
    operands = list(old_yield.operands)
    operands[c.carried] = block.args[c.carried + 1]
    operands.append(new_update.results[0])
    Rewriter.insert_op(located(scf.YieldOp(*operands), old_yield.location),
                       InsertPoint.before(old_yield))

    # one reduction across threads after the loop, back in the accumulator's layout
    final_reduce = _clone_with_inferred_type(
        reduce, {reduce.operands[0]: new_loop.results[-1]}, InsertPoint.after(new_loop))
    result = new_loop.results[c.carried]
    convert = located(ConvertLayoutOp(final_reduce.results[0], result.type),
                      final_reduce.location)
    Rewriter.insert_op(convert, InsertPoint.after(final_reduce))
    final = _clone_with_inferred_type(
        update, {update.operands[0]: old_accum, update.operands[1]: convert.result},
        InsertPoint.after(convert))
    result.replace_all_uses_with(final.results[0])

    Rewriter.erase_op(old_yield)
    Rewriter.erase_op(loop, safe_erase=False)


# One list for every run (the patterns are stateless): the greedy driver keeps its plans.
_PATTERNS = [OptimizeReshapeLayout(), OptimizeGatherLayout()]


@register_pass
class OptimizeThreadLocality(Pass):
    """Make reductions thread-local: reshape layouts along the reduced axis, and loop
    accumulations of reductions reduced once after the loop."""

    name = "tritongpu-optimize-thread-locality"

    def apply(self, ctx: Context, op: Operation) -> None:
        apply_patterns_greedily(ctx, op, _PATTERNS)
        candidates = [c for r in op.walk() if r.name == "tt.reduce"
                      if (c := find_candidate(r)) is not None]
        for candidate in candidates:
            make_thread_local(candidate)

