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

from collections.abc import Callable, Sequence

from tileopt.conversion.indexing import register_coordinates
from tileopt.layouts.linear_layout import LinearLayout

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
