"""Draw a layout as a PNG: the tensor as a grid, each element coloured by who holds it.

For a register layout each cell is coloured by warp (a hue per warp, lanes alternating
in lightness so neighbouring threads stand apart) and labelled with the thread and register
(``T5:2``; ``+n`` when n more threads hold copies). For a shared-memory layout each cell is
coloured by the 4-byte bank its element lands in and labelled with its offset. A legend
row names the colours: the warps that own an element (first holder) each, and, in one
entry, the warps that only hold copies of others' elements. Row and column indices run
along the left and top of the grid (every k-th where they would not fit). Tensors of
rank > 2 are drawn as a stack of 2-d slices, each with its leading coordinates.

Pillow is imported only when a picture is drawn, so the rest of the package works without
it.
"""

from __future__ import annotations

import colorsys
from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil, prod

from tileopt.layouts.linear_layout import LinearLayout
from tileopt.layouts.views import element_holders, element_offsets, is_shared_layout

MAX_SIDE = 8000  # pixels; labels are shortened, then dropped, to stay under this


class PictureError(RuntimeError):
    """The picture cannot be drawn (Pillow missing, or the tensor too large)."""


@dataclass(frozen=True)
class Drawn:
    """What a picture shows besides its cells: the legend's entries and the row and
    column indices written along the grid."""

    legend: list[str]
    row_labels: list[int]
    col_labels: list[int]


def _warp_legend(holders: dict, warps: int) -> tuple[list[int], list[int]]:
    """(warps that own an element, warps that only hold copies of others' elements)."""
    owners = sorted({first.warp for first, *_ in holders.values()})
    copies_only = [w for w in range(warps) if w not in owners]
    return owners, copies_only


def _indices(count: int, cell: int, widest: int) -> list[int]:
    """The indices to write along a side of ``count`` cells of ``cell`` pixels, labels
    up to ``widest`` pixels wide: every k-th, k the least that keeps them apart."""
    step = max(1, ceil((widest + 4) / max(cell, 1)))
    return list(range(0, count, step))


def _pillow():
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise PictureError("drawing a PNG needs the Pillow package (pip install pillow)") from None
    return Image, ImageDraw, ImageFont


def _colour(index: int, count: int, light: bool) -> tuple[int, int, int]:
    hue = (index * 0.61803398875) % 1.0 if count > 12 else index / max(count, 1)
    r, g, b = colorsys.hls_to_rgb(hue, 0.80 if light else 0.68, 0.55)
    return int(r * 255), int(g * 255), int(b * 255)


def _grid_shape(shape: Sequence[int]) -> tuple[int, int, int]:
    """(slices, rows, cols) for drawing: leading dims stacked, last two as the grid."""
    if len(shape) == 1:
        return 1, 1, shape[0]
    return prod(shape[:-2]), shape[-2], shape[-1]


def _coord_of(slice_index: int, row: int, col: int, shape: Sequence[int]) -> tuple[int, ...]:
    if len(shape) == 1:
        return (col,)
    lead = []
    for size in reversed(shape[:-2]):
        lead.append(slice_index % size)
        slice_index //= size
    return tuple(reversed(lead)) + (row, col)


def draw_layout(layout: LinearLayout, shape: Sequence[int], path: str,
                element_bit_width: int = 32) -> Drawn:
    """Write ``path``: the tensor grid coloured by warp (registers) or bank (shared memory);
    returns the legend and indices drawn."""
    Image, ImageDraw, ImageFont = _pillow()
    shared = is_shared_layout(layout)
    cells: dict[tuple[int, ...], tuple[str, str, tuple[int, int, int]]] = {}
    legend: list[tuple[str, tuple[int, int, int]]] = []
    if shared:
        for coord, places in element_offsets(layout).items():
            _, offset = places[0]
            bank = offset * element_bit_width // 32 % 32
            cells[coord] = (f"{offset}", str(offset), _colour(bank, 32, False))
        legend = [(f"bank {b}", _colour(b, 32, False)) for b in range(0, 32, 4)]
        title = f"offset of each element, coloured by bank ({element_bit_width}-bit elements)"
    else:
        warps = layout.in_dim_size("warp")
        all_holders = element_holders(layout)
        for coord, holders in all_holders.items():
            first = holders[0]
            more = f"+{len(holders) - 1}" if len(holders) > 1 else ""
            full = f"T{first.thread}:{first.register}{more}"
            cells[coord] = (full, str(first.thread), _colour(first.warp, warps, first.lane % 2 == 0))
        owners, copies_only = _warp_legend(all_holders, warps)
        legend = [(f"warp {w}", _colour(w, warps, True)) for w in owners]
        if copies_only:
            legend.append((f"warp{'s' if len(copies_only) > 1 else ''} "
                           f"{', '.join(map(str, copies_only))}: copies only", (255, 255, 255)))
        title = "thread:register of each element, coloured by warp (+n: n more copies)"

    font = ImageFont.load_default()
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))

    def text_width(text: str) -> int:
        left, _, right, _ = probe.textbbox((0, 0), text, font=font)
        return right - left

    slices, rows, cols = _grid_shape(shape)
    line_height = probe.textbbox((0, 0), "Tg:0", font=font)[3] + 2
    label_kind = 0  # 0: full label, 1: short label, 2: colour only
    cell_w = max(text_width(full) for full, _, _ in cells.values()) + 6
    if cols * cell_w > MAX_SIDE:
        label_kind, cell_w = 1, max(text_width(short) for _, short, _ in cells.values()) + 4
    if cols * cell_w > MAX_SIDE:
        label_kind, cell_w = 2, max(2, MAX_SIDE // cols)
    cell_h = line_height + 4 if label_kind < 2 else cell_w
    gap = cell_h // 2
    header = 2 * line_height + 8
    # Indices: rows down the left margin, columns along a line above each slice's grid.
    left = max(text_width(str(rows - 1)), text_width(_slice_label(slices - 1, shape))) + 8
    index_h = line_height + 2
    row_labels = _indices(rows, cell_h, line_height - 4)
    col_labels = _indices(cols, cell_w, text_width(str(cols - 1)))
    width = max(left + cols * cell_w + 2, text_width(title) + 8)
    height = header + slices * (index_h + rows * cell_h + gap)
    if width > MAX_SIDE * 2 or height > MAX_SIDE * 2:
        raise PictureError(f"a {'x'.join(map(str, shape))} tensor is too large to draw")

    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.text((4, 2), title, fill="black", font=font)
    x = 4
    for name, colour in legend:
        w = text_width(name) + 8
        draw.rectangle([x, line_height + 4, x + w, 2 * line_height + 4], fill=colour, outline="black")
        draw.text((x + 4, line_height + 5), name, fill="black", font=font)
        x += w + 4
    for s in range(slices):
        top = header + s * (index_h + rows * cell_h + gap) + index_h
        draw.text((2, top - index_h), _slice_label(s, shape), fill="black", font=font)
        for col in col_labels:
            draw.text((left + col * cell_w + 3, top - index_h), str(col), fill=(90, 90, 90),
                      font=font)
        for row in row_labels:
            draw.text((2, top + row * cell_h + 2), str(row), fill=(90, 90, 90), font=font)
        for row in range(rows):
            for col in range(cols):
                coord = _coord_of(s, row, col, shape)
                full, short, colour = cells.get(coord, ("", "", (255, 255, 255)))
                x0, y0 = left + col * cell_w, top + row * cell_h
                draw.rectangle([x0, y0, x0 + cell_w, y0 + cell_h], fill=colour, outline=(120, 120, 120))
                label = (full, short, "")[label_kind]
                if label:
                    draw.text((x0 + 3, y0 + 2), label, fill="black", font=font)
    image.save(path, "PNG")
    return Drawn([name for name, _ in legend], row_labels, col_labels)


def _slice_label(slice_index: int, shape: Sequence[int]) -> str:
    """The leading coordinates of a 2-d slice of a rank > 2 tensor (``[1, 0]``), else ""."""
    if len(shape) <= 2:
        return ""
    return "[" + ", ".join(map(str, _coord_of(slice_index, 0, 0, shape)[:-2])) + "]"
