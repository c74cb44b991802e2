"""How Triton fills in a ``#ttg.blocked`` layout from a shape and a thread budget.

Triton builds most blocked layouts with one rule (``BlockedEncodingAttr::get`` with a shape,
``lib/Dialect/TritonGPU/IR/Dialect.cpp``): given each thread's ``sizePerThread`` tile and
the dim ``order`` (fastest first), walk the dims from the fastest and give each as many
lanes, then warps, as it has tiles left, until the warp's lanes and the CTA's warps are
used up; whatever remains goes to the slowest dim (so small tensors are held several
times over rather than leaving threads idle). The layout passes share it:

- ``convert-triton-to-tritongpu`` gives every tensor the *default* layout of its shape:
  one element per thread, the last dim fastest;
- ``tritongpu-coalesce`` calls it with the vector width and order it derived from axis
  info.
"""

from __future__ import annotations

from collections.abc import Sequence

from tileopt.dialects.ttg_attrs import BlockedEncodingAttr, ints_of


def make_blocked(size_per_thread: Sequence[int], threads_per_warp: Sequence[int],
                 warps_per_cta: Sequence[int], order: Sequence[int],
                 ctas_per_cga: Sequence[int] | None = None,
                 cta_split_num: Sequence[int] | None = None,
                 cta_order: Sequence[int] | None = None) -> BlockedEncodingAttr:
    """A blocked layout; with a single CTA the CTA fields are Triton's defaults (in
    Triton 3.6 a one-CTA layout has no CTA order to speak of, and prints none)."""
    single = all(v == 1 for v in (*(ctas_per_cga or ()), *(cta_split_num or ())))
    if single:
        ctas_per_cga = cta_split_num = cta_order = None
    return BlockedEncodingAttr.get(size_per_thread, threads_per_warp, warps_per_cta, order,
                                   ctas_per_cga, cta_split_num, cta_order)


def split_blocked(encoding: BlockedEncodingAttr) -> BlockedEncodingAttr | None:
    """The layout of ``tt.split``'s results from a blocked source: the last dimension
    dropped. None unless that dimension is each thread's innermost pair (what the split
    needs)."""
    rank = len(ints_of(encoding.order))
    if ints_of(encoding.sizePerThread)[-1] != 2 or ints_of(encoding.order)[0] != rank - 1:
        return None
    return make_blocked(
        ints_of(encoding.sizePerThread)[:-1], ints_of(encoding.threadsPerWarp)[:-1],
        ints_of(encoding.warpsPerCTA)[:-1], ints_of(encoding.order)[1:],
        ints_of(encoding.CTAsPerCGA)[:-1], ints_of(encoding.CTASplitNum)[:-1],
        [o for o in ints_of(encoding.CTAOrder) if o != rank - 1])


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(value, high))


def cta_layout_for_shape(shape: Sequence[int], size_per_thread: Sequence[int],
                         order: Sequence[int], num_ctas: int
                         ) -> tuple[list[int], list[int], list[int]]:
    """``(CTAsPerCGA, CTASplitNum, CTAOrder)`` spreading ``num_ctas`` from the slowest dim."""
    rank = len(shape)
    per_cga = [1] * rank
    split = [1] * rank
    remaining = num_ctas
    for d in reversed(range(rank)):
        i = order[d]
        per_cga[i] = _clamp(remaining, 1, max(1, shape[i] // size_per_thread[i]))
        split[i] = per_cga[i]
        remaining //= per_cga[i]
    per_cga[rank - 1] *= remaining  # more CTAs than tiles: they hold copies
    return per_cga, split, list(order)


def blocked_for_shape(
    shape: Sequence[int],
    size_per_thread: Sequence[int],
    order: Sequence[int],
    num_warps: int,
    threads_per_warp: int,
    num_ctas: int = 1,
    cta_layout: tuple[Sequence[int], Sequence[int], Sequence[int]] | None = None,
) -> BlockedEncodingAttr:
    """Triton's ``BlockedEncodingAttr::get(shape, sizePerThread, order, numWarps,
    threadsPerWarp, CTA layout)``: lanes and warps placed fastest dim first.

    ``cta_layout`` (CTAsPerCGA, CTASplitNum, CTAOrder) is used as given; without it one is
    made for ``num_ctas`` as Triton's ``numCTAs`` overload does.
    """
    rank = len(shape)
    if cta_layout is None:
        cta_layout = cta_layout_for_shape(shape, size_per_thread, order, num_ctas)
    per_cga, split, cta_order = (list(v) for v in cta_layout)
    shape_per_cta = [max(1, shape[i] // max(1, min(split[i], shape[i]))) for i in range(rank)]

    threads = [1] * rank
    warps = [1] * rank
    remaining_lanes = threads_per_warp
    remaining_threads = num_warps * threads_per_warp
    remaining_warps = num_warps
    prev_lanes = prev_warps = 1
    for d in range(rank - 1):
        i = order[d]
        threads_per_cta = _clamp(remaining_threads, 1,
                                 max(1, shape_per_cta[i] // size_per_thread[i]))
        threads[i] = _clamp(threads_per_cta, 1, remaining_lanes)
        warps[i] = _clamp(threads_per_cta // threads[i], 1, remaining_warps)
        remaining_warps //= warps[i]
        remaining_lanes //= threads[i]
        remaining_threads //= threads_per_cta
        prev_lanes *= threads[i]
        prev_warps *= warps[i]
    # The slowest dim takes every lane and warp left over.
    threads[order[rank - 1]] = threads_per_warp // prev_lanes
    warps[order[rank - 1]] = num_warps // prev_warps
    return make_blocked(size_per_thread, threads, warps, order, per_cga, split, cta_order)


def default_blocked_encoding(shape: Sequence[int], num_warps: int, threads_per_warp: int,
                             num_ctas: int = 1) -> BlockedEncodingAttr:
    """Triton's ``getDefaultBlockedEncoding``: one element per thread, last dim fastest."""
    rank = len(shape)
    order = list(reversed(range(rank)))
    return blocked_for_shape(shape, [1] * rank, order, num_warps, threads_per_warp, num_ctas)
