"""Fitting a layout tile to a tensor shape.

A layout attribute such as ``#ttg.blocked`` describes one *tile*: what the registers, lanes
and warps of one CTA cover. A tensor may be larger than the tile (the tile repeats, in more
registers) or smaller (some lanes or warps hold copies of the same element). These helpers,
the counterparts of Triton's ``LayoutUtils.cpp`` and ``combineCtaCgaWithShape``, turn a tile
into the layout of a whole tensor:

- :func:`identity_standard_nd` -- an N-d identity over ``dim0..dimN-1`` walked in a
  minor-to-major ``order`` (how sizePerThread / threadsPerWarp / warpsPerCTA are laid out);
- :func:`ensure_layout_not_smaller_than` -- repeat the tile along the first input dim
  (``register`` or ``offset``), output dims in the layout's order (minor to major);
- :func:`ensure_layout_not_larger_than` -- zero the largest bases so that the image fits,
  which makes those inputs broadcast;
- :func:`combine_cta_cga_with_shape` -- both of the above for the CTA, times the CGA layout
  (input dim ``block``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tileopt.layouts.linear_layout import LayoutError, LinearLayout, log2_exact


def standard_out_dim_names(rank: int) -> list[str]:
    """``["dim0", "dim1", ...]``."""
    return [f"dim{i}" for i in range(rank)]


def identity_standard_nd(in_dim: str, shape: Sequence[int], order: Sequence[int]) -> LinearLayout:
    """A 1-d -> N-d identity: ``in_dim`` walks ``dim{order[0]}`` fastest, then ``order[1]``...

    The output dims come out in ``order`` (minor to major), which later products and
    :func:`ensure_layout_not_smaller_than` rely on.
    """
    if len(shape) != len(order):
        raise LayoutError(f"shape {list(shape)} and order {list(order)} differ in rank")
    names = standard_out_dim_names(len(shape))
    layout = LinearLayout.empty()
    for dim in order:
        layout = layout * LinearLayout.identity_1d(shape[dim], in_dim, names[dim])
    return layout


def ensure_layout_not_larger_than(
    layout: LinearLayout, shape: Mapping[str, int], broadcast_registers: bool = True
) -> LinearLayout:
    """Shrink each output dim to ``shape[dim]`` without changing the inputs.

    The largest coordinates along a too-large dim are set to 0, largest first, so those
    input bits now repeat data (broadcast). With ``broadcast_registers=False`` register bases
    are removed instead of zeroed, so a thread does not hold the same element twice.
    """
    bases = layout.bases
    dropped_registers: set[int] = set()
    for k, out_dim in enumerate(layout.out_dims):
        actual = layout.out_dim_size(out_dim)
        desired = shape[out_dim]
        if actual <= desired:
            continue
        if actual % desired:
            raise LayoutError(f"cannot shrink '{out_dim}' from {actual} to {desired}")
        candidates = []
        for in_dim, in_bases in bases.items():
            for idx, basis in enumerate(in_bases):
                if basis[k]:
                    log2_exact(basis[k])
                    candidates.append((in_dim, idx, basis[k]))
        # Largest value first; among equal values keep the input dims' own order.
        candidates.sort(key=lambda c: -c[2])
        for in_dim, idx, _ in candidates:
            if actual <= desired:
                break
            if not broadcast_registers and in_dim == "register":
                dropped_registers.add(idx)
            else:
                bases[in_dim][idx][k] = 0
            actual >>= 1
    if not broadcast_registers and "register" in bases:
        bases["register"] = [
            b for i, b in enumerate(bases["register"]) if i not in dropped_registers
        ]
    return LinearLayout(bases, layout.out_dims)


def ensure_layout_not_smaller_than(layout: LinearLayout, shape: Mapping[str, int]) -> LinearLayout:
    """Grow each output dim to ``shape[dim]`` by repeating along the first input dim.

    Output dims are visited in the layout's order, so that order must be minor to major.
    """
    if not shape:
        return layout
    first_in = layout.in_dims[0]
    result = layout
    for out_dim in layout.out_dims:
        actual = layout.out_dim_size(out_dim)
        desired = shape[out_dim]
        if desired > actual:
            if desired % actual:
                raise LayoutError(f"cannot grow '{out_dim}' from {actual} to {desired}")
            result = result * LinearLayout.identity_1d(desired // actual, first_in, out_dim)
    return result


def make_cga_layout(
    ctas_per_cga: Sequence[int], cta_split_num: Sequence[int], cta_order: Sequence[int]
) -> LinearLayout:
    """The ``block`` -> tensor map: split CTAs own distinct pieces, the others broadcast."""
    rank = len(cta_order)
    names = standard_out_dim_names(rank)
    layout = LinearLayout.empty()
    for dim in cta_order:
        split, ctas = cta_split_num[dim], ctas_per_cga[dim]
        if ctas % split:
            raise LayoutError(f"CTAsPerCGA {list(ctas_per_cga)} is not a multiple of CTASplitNum")
        layout = (
            layout
            * LinearLayout.identity_1d(split, "block", names[dim])
            * LinearLayout.zeros_1d(ctas // split, "block", names[dim])
        )
    return layout.transpose_outs(names)


def combine_cta_cga_with_shape(
    cta_layout: LinearLayout,
    shape: Sequence[int],
    ctas_per_cga: Sequence[int] | None = None,
    cta_split_num: Sequence[int] | None = None,
    cta_order: Sequence[int] | None = None,
) -> LinearLayout:
    """The whole-tensor layout: the CTA tile fitted to ``shape`` per CTA, times the CGA layout.

    ``cta_layout``'s output dims must be ``dim0..`` in minor-to-major order; the result's are
    in standard order ``dim0, dim1, ...`` with exactly the sizes of ``shape``.
    """
    rank = len(shape)
    if cta_layout.num_out_dims() != rank:
        raise LayoutError(
            f"layout of rank {cta_layout.num_out_dims()} used with a tensor of rank {rank}"
        )
    for size in shape:
        log2_exact(size)
    names = standard_out_dim_names(rank)
    ctas_per_cga = list(ctas_per_cga) if ctas_per_cga is not None else [1] * rank
    cta_split_num = list(cta_split_num) if cta_split_num is not None else [1] * rank
    cta_order = list(cta_order) if cta_order is not None else list(range(rank - 1, -1, -1))
    labeled = dict(zip(names, shape))
    cga = ensure_layout_not_larger_than(
        make_cga_layout(ctas_per_cga, cta_split_num, cta_order), labeled
    ).transpose_outs(cta_layout.out_dims)
    cta_shape = {d: max(1, labeled[d] // cga.out_dim_size(d)) for d in cta_layout.out_dims}
    cta = ensure_layout_not_smaller_than(cta_layout, cta_shape)
    cta = ensure_layout_not_larger_than(cta, cta_shape)
    result = (cta * cga).transpose_outs(names)
    for d in names:
        if result.out_dim_size(d) != labeled[d]:
            raise LayoutError(
                f"layout covers {result.out_dim_size(d)} along {d} but the shape has {labeled[d]}"
            )
    return result


def reshape_layout(layout: LinearLayout, shape: Sequence[int]) -> LinearLayout:
    """Reshape the outputs to ``shape`` with row-major (last dim fastest) flattening."""
    src = list(reversed(layout.out_dims))
    names = standard_out_dim_names(len(shape))
    new = list(reversed(list(zip(names, shape))))
    return layout.transpose_outs(src).reshape_outs(new).transpose_outs(names)


def transpose_linear_layout(layout: LinearLayout, order: Sequence[int]) -> LinearLayout:
    """Permute each basis's coordinates: new coordinate ``j`` is old coordinate ``order[j]``.

    The output names stay in place, so this relabels which tensor dim each coordinate is.
    """
    bases = {
        d: [tuple(b[i] for i in order) for b in layout.get_bases(d)] for d in layout.in_dims
    }
    return LinearLayout(bases, layout.out_dims)
