"""Text views of a layout: who holds each tensor element, and what each thread holds.

The two views of Triton's ``triton-tensor-layout`` tool:

- the *tensor view* prints the tensor row by row; each element shows the threads that hold
  it as ``T<thread>:<register>`` (thread numbered across the CTA, ``lane + warp *
  threadsPerWarp``; ``B<block>:`` in front when there are several CTAs), copies joined by
  ``|``. For a shared-memory layout each element shows the offset it is stored at;
- the *hardware view* lists, warp by warp and register by register, the coordinates every
  lane holds; for shared memory, the element stored at each offset.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from tileopt.layouts.linear_layout import LinearLayout

REGISTER, LANE, WARP, BLOCK, OFFSET = "register", "lane", "warp", "block", "offset"


def _width(count: int) -> int:
    return len(str(max(count - 1, 0)))


def _pad(value: int, count: int) -> str:
    return str(value).rjust(_width(count))


@dataclass(frozen=True)
class Holder:
    """One copy of an element in registers: which block, thread, register (and warp, lane)."""

    block: int
    warp: int
    lane: int
    register: int
    threads_per_warp: int

    @property
    def thread(self) -> int:
        return self.lane + self.warp * self.threads_per_warp


def is_shared_layout(layout: LinearLayout) -> bool:
    return layout.has_in_dim(OFFSET)


def element_holders(layout: LinearLayout) -> dict[tuple[int, ...], list[Holder]]:
    """For every tensor coordinate, the (block, warp, lane, register) holding it, in order."""
    holders: dict[tuple[int, ...], list[Holder]] = {}
    sizes = {d: layout.in_dim_size(d) if layout.has_in_dim(d) else 1 for d in (REGISTER, LANE, WARP, BLOCK)}
    for block, warp, lane, register in itertools.product(
        range(sizes[BLOCK]), range(sizes[WARP]), range(sizes[LANE]), range(sizes[REGISTER])
    ):
        inputs = {REGISTER: register, LANE: lane, WARP: warp, BLOCK: block}
        coord = tuple(layout.apply({d: inputs[d] for d in layout.in_dims}).values())
        holders.setdefault(coord, []).append(Holder(block, warp, lane, register, sizes[LANE]))
    return holders


def element_offsets(layout: LinearLayout) -> dict[tuple[int, ...], list[tuple[int, int]]]:
    """For a shared layout: every coordinate's (block, offset) places in memory."""
    places: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    blocks = layout.in_dim_size(BLOCK) if layout.has_in_dim(BLOCK) else 1
    for block in range(blocks):
        for offset in range(layout.in_dim_size(OFFSET)):
            inputs = {OFFSET: offset, BLOCK: block}
            coord = tuple(layout.apply({d: inputs[d] for d in layout.in_dims}).values())
            places.setdefault(coord, []).append((block, offset))
    return places


def _row_major(index: int, shape: Sequence[int]) -> list[int]:
    coords = []
    for size in reversed(shape):
        coords.append(index % size)
        index //= size
    return coords[::-1]


def _tensor_grid(shape: Sequence[int], cell) -> str:
    """Print a tensor row by row with nested brackets; ``cell(coord)`` is an element's text.

    A ``[`` opens for every dim whose index just wrapped to 0, a ``]`` closes for every dim
    about to wrap, and each innermost row is one line (as triton-tensor-layout prints).
    """
    rank = len(shape)
    total = prod(shape)
    out: list[str] = []
    new_line = True
    for index in range(total):
        coord = _row_major(index, shape)
        nxt = _row_major(index + 1, shape)  # wraps to all zeros after the last element
        opening = 0
        for d in range(rank - 1, -1, -1):
            if coord[d] != 0:
                break
            opening += 1
        if new_line:
            out.append(" " * (rank - opening))
            new_line = False
        out.append("[" * opening + cell(tuple(coord)))
        for d in range(rank - 1, -1, -1):
            if nxt[d] != 0:
                break
            out.append("]")
        if nxt[-1] == 0:
            out.append("\n")
            new_line = True
        else:
            out.append(", ")
    return "".join(out)


def tensor_view(layout: LinearLayout, shape: Sequence[int]) -> str:
    """The tensor view: for each element, who holds it (or where it is stored)."""
    if is_shared_layout(layout):
        places = element_offsets(layout)
        total = layout.in_dim_size(OFFSET)
        blocks = layout.in_dim_size(BLOCK) if layout.has_in_dim(BLOCK) else 1

        def cell(coord):
            return "|".join(
                " " * (_width(total) - len(str(o))) + (f"B{b}:" if blocks > 1 else "") + f"O{o}"
                for b, o in places.get(coord, [])
            )

        return _tensor_grid(shape, cell)
    holders = element_holders(layout)
    threads = layout.in_dim_size(LANE) * layout.in_dim_size(WARP)
    regs = layout.in_dim_size(REGISTER)
    blocks = layout.in_dim_size(BLOCK)

    def cell(coord):
        parts = []
        for h in holders.get(coord, []):
            # Pad in front, so every entry has the same width (as Triton's tool does).
            padding = sum(
                _width(count) - len(str(value))
                for value, count in ((h.block, blocks), (h.thread, threads), (h.register, regs))
            )
            prefix = f"B{h.block}:" if blocks > 1 else ""
            parts.append(" " * padding + f"{prefix}T{h.thread}:{h.register}")
        return "|".join(parts)

    return _tensor_grid(shape, cell)


def _coord_text(coord: Sequence[int], shape: Sequence[int]) -> str:
    return "(" + ",".join(_pad(c, s) for c, s in zip(coord, shape)) + ")"


def hardware_view(layout: LinearLayout, shape: Sequence[int]) -> str:
    """The hardware view: per warp and register, the element of every lane (or per offset)."""
    out: list[str] = []
    if is_shared_layout(layout):
        blocks = layout.in_dim_size(BLOCK) if layout.has_in_dim(BLOCK) else 1
        total = layout.in_dim_size(OFFSET)
        for block in range(blocks):
            if blocks > 1:
                out.append(f"Block{block}:")
            for offset in range(total):
                inputs = {OFFSET: offset, BLOCK: block}
                coord = tuple(layout.apply({d: inputs[d] for d in layout.in_dims}).values())
                out.append(f"Offset {_pad(offset, total)}: {_coord_text(coord, shape)}")
        return "\n".join(out) + "\n"
    blocks = layout.in_dim_size(BLOCK)
    for block in range(blocks):
        if blocks > 1:
            out.append(f"Block{block}:")
        for warp in range(layout.in_dim_size(WARP)):
            out.append(f"Warp{warp}:")
            for register in range(layout.in_dim_size(REGISTER)):
                cells = []
                for lane in range(layout.in_dim_size(LANE)):
                    coord = layout.apply({REGISTER: register, LANE: lane, WARP: warp, BLOCK: block})
                    cells.append(_coord_text(tuple(coord.values()), shape))
                out.append(", ".join(cells))
    return "\n".join(out) + "\n"


def summary(layout: LinearLayout, shape: Sequence[int]) -> str:
    """One line of sizes: registers, lanes, warps, blocks (or offsets), and copies."""
    if is_shared_layout(layout):
        return f"offsets: {layout.in_dim_size(OFFSET)}, elements: {prod(shape)}"
    copies = layout.total_in_dim_size() // prod(shape)
    parts = [
        f"registers per thread: {layout.in_dim_size(REGISTER)}",
        f"threads per warp: {layout.in_dim_size(LANE)}",
        f"warps: {layout.in_dim_size(WARP)}",
    ]
    if layout.in_dim_size(BLOCK) > 1:
        parts.append(f"CTAs: {layout.in_dim_size(BLOCK)}")
    parts.append(f"copies of each element: {copies}")
    return ", ".join(parts)
