"""The layout of a ``tt.reshape`` result given its operand's (Triton 3.6's
``inferReshapeOpEncoding``), so layouts can travel through a reshape that keeps elements in
place (no ``allow_reorder``).

The wanted layout leaves every thread with the elements it had, only renamed. For a blocked
operand Triton first looks for a blocked result (its legacy rule, below); where no blocked
layout can say it, the result is the operand's linear layout with its outputs reshaped
(``#ttg.linear``). The rule is symmetric, so it also gives the operand layout a result
layout needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import TensorType, i32
from xdsl.ir import Attribute

from tileopt.dialects.layout_of import linear_layout_of
from tileopt.dialects.ttg_attrs import BlockedEncodingAttr, LinearEncodingAttr, SliceEncodingAttr
from tileopt.layouts.linear_layout import LayoutError, LinearLayout
from tileopt.layouts.tiling import reshape_layout
from tileopt.transforms.utils.blocked_layouts import default_blocked_encoding, make_blocked

Groups = list[tuple[list[int], list[int]]]


def reshape_groups(src_shape: Sequence[int], dst_shape: Sequence[int]) -> Groups:
    """Runs of consecutive source dims and destination dims with equal element counts
    (Triton's ``getReshapeDecomposition``); size-1 dims join the run being built."""
    groups: Groups = []
    if not src_shape:
        return groups
    groups.append(([], []))
    s = d = 0
    s_count = d_count = 1
    while s < len(src_shape) or d < len(dst_shape):
        if s_count < d_count or (s < len(src_shape)
                                 and (s_count == 1 or src_shape[s] == 1)):
            s_count *= src_shape[s]
            groups[-1][0].append(s)
            s += 1
        elif d_count < s_count or (d < len(dst_shape) and dst_shape[d] == 1):
            d_count *= dst_shape[d]
            groups[-1][1].append(d)
            d += 1
        else:
            groups.append(([], []))
            s_count = d_count = 1
    return groups


def _inverse(order: Sequence[int]) -> list[int]:
    inverse = [0] * len(order)
    for position, dim in enumerate(order):
        inverse[dim] = position
    return inverse


def _fits_group(shape: list[int], dims: list[int], sub: Sequence[int]) -> bool:
    """Within one merged run, a level (per-thread, per-warp, per-CTA) may only spread into a
    more major dim once the more minor ones are used up, and may exceed the shape only in
    the run's most major dim. ``shape`` (remaining sizes of the run) is updated."""
    for i in reversed(range(len(dims))):
        size = sub[dims[i]]
        if size == 1:
            continue
        if any(shape[j] != 1 for j in range(i + 1, len(dims))):
            return False
        shape[i] = shape[i] // size if shape[i] >= size else 0
        if shape[i] == 0 and i != 0:
            return False
    return True


def _blocked_reshape(src_shape: Sequence[int], src: BlockedEncodingAttr,
                     dst_shape: Sequence[int]) -> BlockedEncodingAttr | None:
    """A blocked result layout holding each thread's elements, or None if none exists."""
    if list(src_shape) == list(dst_shape):
        return src
    d = src.as_dict()
    spt, tpw, wpc = d["sizePerThread"], d["threadsPerWarp"], d["warpsPerCTA"]
    warps, lanes = prod(wpc), prod(tpw)
    ctas = prod(d["CTAsPerCGA"])
    if src == default_blocked_encoding(src_shape, warps, lanes, ctas):
        return default_blocked_encoding(dst_shape, warps, lanes, ctas)
    if any(v != 1 for v in d["CTAsPerCGA"]) or any(v != 1 for v in d["CTASplitNum"]):
        return None
    for sub in (spt, tpw, wpc):
        if any(size >= s and size % s for size, s in zip(src_shape, sub)):
            return None
    groups = reshape_groups(src_shape, dst_shape)
    src_rank = _inverse(d["order"])  # 0 = most minor
    for src_dims, _ in groups:
        ranks = [src_rank[dim] for dim in reversed(src_dims)]
        if any(b != a + 1 for a, b in zip(ranks, ranks[1:])):
            return None  # merged dims must be consecutive in the layout, major first
    for src_dims, _ in groups:
        remaining = [src_shape[dim] for dim in src_dims]
        if not all(_fits_group(remaining, src_dims, sub) for sub in (spt, tpw, wpc)):
            return None

    dst_remaining = list(dst_shape)

    def spread(sub: Sequence[int]) -> list[int]:
        # fill the destination dims of each run from the most minor one
        out = [1] * len(dst_shape)
        for src_dims, dst_dims in groups:
            left = prod(sub[dim] for dim in src_dims)
            for dim in reversed(dst_dims):
                out[dim] = min(left, dst_remaining[dim])
                left //= out[dim]
                dst_remaining[dim] //= out[dim]
            out[dst_dims[0]] *= left  # a level larger than the shape: the most major dim
        return out

    dst_spt, dst_tpw, dst_wpc = spread(spt), spread(tpw), spread(wpc)
    # the runs keep their source order, most minor first; so do the dims inside a run
    groups.sort(key=lambda group: src_rank[group[0][0]])
    dst_rank = [0] * len(dst_shape)
    position = 0
    for _, dst_dims in groups:
        for dim in reversed(dst_dims):
            dst_rank[dim] = position
            position += 1
    order = sorted(range(len(dst_shape)), key=lambda dim: dst_rank[dim])
    rank = len(dst_shape)
    return make_blocked(dst_spt, dst_tpw, dst_wpc, order, [1] * rank, [1] * rank,
                        list(range(rank)))


def reshape_encoding(src_shape: Sequence[int], src: Attribute, dst_shape: Sequence[int],
                     slices: bool = False, hint: Attribute | None = None) -> Attribute | None:
    """The result layout of reshaping a ``src_shape`` tensor in layout ``src`` to
    ``dst_shape`` with no element moving between threads; None if it cannot be told.

    ``slices`` (Triton 3.9): a reshape that only drops a unit dim gives the slice of the
    layout along it, and one that only adds the unit dim a slice took away gives the
    slice's parent, where that places every element as the reshape does; a ``hint`` (the
    result's present layout) placing them so too is kept."""
    if prod(src_shape) != prod(dst_shape):
        return None
    if slices:
        try:
            reshaped = reshape_layout(linear_layout_of(TensorType(i32, src_shape, src)),
                                      dst_shape)
        except LayoutError:
            return None
        for candidate in (hint, _unit_dim_view(src_shape, src, dst_shape)):
            if candidate is not None and _places_as(candidate, dst_shape, reshaped):
                return candidate
    if isinstance(src, BlockedEncodingAttr):
        blocked = _blocked_reshape(src_shape, src, dst_shape)
        if blocked is not None:
            return blocked
    try:
        layout = linear_layout_of(TensorType(i32, src_shape, src))
        reshaped = reshape_layout(layout, dst_shape)
    except LayoutError:
        return None
    return LinearEncodingAttr.get(*(reshaped.get_bases(dim) if reshaped.has_in_dim(dim) else ()
                                    for dim in ("register", "lane", "warp", "block")))


def _unit_dim_view(src_shape: Sequence[int], src: Attribute,
                   dst_shape: Sequence[int]) -> Attribute | None:
    """The slice of ``src`` (or the parent of slice ``src``) for a reshape that only drops
    (or adds) one unit dim."""
    if isinstance(src, LinearEncodingAttr):
        return None
    src_shape, dst_shape = list(src_shape), list(dst_shape)
    if len(src_shape) == len(dst_shape) + 1:
        for dim, size in enumerate(src_shape):
            if size == 1 and src_shape[:dim] + src_shape[dim + 1:] == dst_shape:
                return SliceEncodingAttr.get(dim, src)
    if len(dst_shape) == len(src_shape) + 1 and isinstance(src, SliceEncodingAttr):
        dim = src.dim.data
        if dst_shape[dim] == 1 and dst_shape[:dim] + dst_shape[dim + 1:] == src_shape:
            return src.parent
    return None


def _places_as(layout: Attribute, shape: Sequence[int], wanted: LinearLayout) -> bool:
    """``layout`` holds each element where ``wanted`` does. Registers that only repeat an
    element (a unit dim's share of a blocked layout) are not counted where the slice's
    parent is blocked, and are elsewhere: in Triton 3.9's corpus a 128x1 blocked tile
    with 8 such registers reshapes to its slice, an MFMA tile with 16 to a linear layout."""
    try:
        have = linear_layout_of(TensorType(i32, shape, layout))
    except LayoutError:
        return False
    parent = layout.parent if isinstance(layout, SliceEncodingAttr) else layout
    if isinstance(parent, BlockedEncodingAttr):
        have = have.remove_zero_bases_along_dim("register")
        wanted = wanted.remove_zero_bases_along_dim("register")
    return have == wanted
