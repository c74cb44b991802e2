"""``tt.dot``: the product tiled into matrix instructions over the registers of a thread.

A dot's operands and result are distributed tensors; each thread holds some elements of
A (M x K), B (K x N) and C (M x N) in its registers, in the order of their linear layouts'
``register`` index. A matrix instruction (``mma.sync``, MFMA, ...) reads a *fragment* of
each operand: a fixed map from (fragment register, lane) to an element of its small tile
(``MatrixInstruction``). Tiling is done by coordinates, never by per-encoding formulas:

- the lane (and warp, for instructions a group of warps issues) bases of the thread's
  layout must equal the fragment's: lane ``l`` then holds the element the instruction
  expects from it in every tile (asserted, so a layout that disagrees is an error, not a
  wrong result);
- every other lane/warp basis moves whole tiles, and A and C (B and C) must move them
  alike along M (N), with no step along K: all threads then agree which A tile meets which
  B tile;
- with lane 0 of warp 0 as reference, the register that holds fragment element ``f`` of
  the tile at ``origin`` is the one whose coordinates are ``origin + fragment(f)``.

The tiles are then multiplied k-step by k-step (k outermost, then M, then N, as Triton
orders them), each through the target's emitter. The emitter is chosen by the result's
encoding (``hooks.matrix_emitter``); a ``#blocked`` result is the FMA dot every target
shares: an instruction of shape 1 x 1 x 1 whose fragments use no lane, so the same tiling
gives each ``fmuladd`` its three registers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Operation, SSAValue

from tileopt.conversion.indexing import register_coordinates
from tileopt.conversion.llvm_builder import LLVMBuilder
from tileopt.conversion.target_hooks import DotOperands, MatrixInstruction
from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers
from tileopt.dialects.layout_of import encoding_of
from tileopt.layouts.encodings import Blocked
from tileopt.layouts.linear_layout import LinearLayout

Coords = tuple[int, ...]
HARDWARE_DIMS = ("lane", "warp", "block")


class TilingError(ValueError):
    """A layout that does not hold whole instruction fragments (the message says why)."""


@dataclass(frozen=True)
class OperandTiles:
    """Where one operand's fragments sit in a thread's registers.

    ``tiles`` maps each tile origin (row, col), as seen by lane 0 of warp 0, to the
    registers holding its fragment elements in fragment order. ``outer`` are the lane/warp
    bases the fragment does not cover, per dim: each moves whole tiles. ``holder`` gives,
    for each register, the first register holding the same element (itself, unless the
    layout repeats elements).
    """

    tiles: dict[Coords, list[int]]
    outer: dict[str, tuple[Coords, ...]]
    holder: list[int]


def tile_operand(layout: LinearLayout, fragment: LinearLayout, tile: Coords,
                 what: str) -> OperandTiles:
    """The fragments of ``layout`` (a thread's registers of one operand) for an
    instruction whose fragment over its ``tile`` shape is ``fragment``."""
    if len(layout.out_dims) != 2:
        raise TilingError(f"{what}: only 2-d dots are supported (got rank "
                          f"{len(layout.out_dims)})")
    outer: dict[str, tuple[Coords, ...]] = {}
    for dim in HARDWARE_DIMS:
        mine = layout.get_bases(dim) if layout.has_in_dim(dim) else ()
        theirs = fragment.get_bases(dim) if fragment.has_in_dim(dim) else ()
        if tuple(mine[:len(theirs)]) != tuple(theirs):
            raise TilingError(f"{what}: the {dim} bases {list(mine)} do not hold the "
                              f"instruction's fragment, whose {dim} bases are {list(theirs)}")
        rest = tuple(mine[len(theirs):])
        if any(c % t for basis in rest for c, t in zip(basis, tile)):
            raise TilingError(f"{what}: the {dim} bases {list(rest)} split a "
                              f"{tile[0]}x{tile[1]} instruction tile")
        outer[dim] = rest
    where: dict[Coords, int] = {}
    holder = [where.setdefault(coords, index)
              for index, coords in enumerate(register_coordinates(layout))]
    origins = sorted({tuple(c - c % t for c, t in zip(coords, tile)) for coords in where})
    elements = register_coordinates(fragment)
    tiles: dict[Coords, list[int]] = {}
    for origin in origins:
        registers = []
        for element in elements:
            found = where.get(tuple(o + e for o, e in zip(origin, element)))
            if found is None:
                raise TilingError(f"{what}: no register holds element {list(element)} of "
                                  f"the tile at {list(origin)}")
            registers.append(found)
        tiles[origin] = registers
    if len(origins) * len(elements) != len(where):
        raise TilingError(f"{what}: the registers are not whole instruction tiles")
    return OperandTiles(tiles, outer, holder)


def _check_outer(a: OperandTiles, b: OperandTiles, c: OperandTiles) -> None:
    """A and C move tiles alike along M, B and C along N, and none moves along K."""
    for dim in HARDWARE_DIMS:
        if not len(a.outer[dim]) == len(b.outer[dim]) == len(c.outer[dim]):
            raise TilingError(f"the operands spread over different numbers of {dim}s")
        for (am, ak), (bk, bn), (cm, cn) in zip(a.outer[dim], b.outer[dim], c.outer[dim]):
            if ak or bk or am != cm or bn != cn:
                raise TilingError(f"a {dim} holds A at ({am}, {ak}), B at ({bk}, {bn}) "
                                  f"and C at ({cm}, {cn}): not the same rows and columns")


@dataclass(frozen=True)
class DotTiling:
    """The instruction tiles of one dot: ``steps`` lists (A registers, B registers, C
    tile origin) in issue order; ``c`` gives each C tile's registers."""

    steps: list[tuple[list[int], list[int], Coords]]
    c: OperandTiles


def tile_dot(a_layout: LinearLayout, b_layout: LinearLayout, c_layout: LinearLayout,
             instruction: MatrixInstruction) -> DotTiling:
    """Tile ``A x B + C`` given the three layouts into ``instruction``s."""
    m, n, k = instruction.m, instruction.n, instruction.k
    a = tile_operand(a_layout, instruction.a, (m, k), "operand A")
    b = tile_operand(b_layout, instruction.b, (k, n), "operand B")
    c = tile_operand(c_layout, instruction.c, (m, n), "the accumulator")
    _check_outer(a, b, c)
    rows = sorted({o[0] for o in c.tiles})
    cols = sorted({o[1] for o in c.tiles})
    ks = sorted({o[1] for o in a.tiles})
    if sorted({o[0] for o in a.tiles}) != rows or sorted({o[1] for o in b.tiles}) != cols \
            or sorted({o[0] for o in b.tiles}) != ks or len(c.tiles) != len(rows) * len(cols):
        raise TilingError("the tiles of A, B and the accumulator do not match up")
    steps = [(a.tiles[(row, kk)], b.tiles[(kk, col)], (row, col))
             for kk in ks for row in rows for col in cols]
    return DotTiling(steps, c)


def run_tiles(tiling: DotTiling, a: Sequence[SSAValue], b: Sequence[SSAValue],
              c: Sequence[SSAValue],
              multiply: Callable[[list[SSAValue], list[SSAValue], list[SSAValue]],
                                 list[SSAValue]]) -> list[SSAValue]:
    """Issue every step of ``tiling`` with ``multiply(a, b, acc) -> acc`` (fragment
    order); the result registers in the accumulator's register order."""
    acc = {origin: [c[r] for r in regs] for origin, regs in tiling.c.tiles.items()}
    for a_regs, b_regs, origin in tiling.steps:
        acc[origin] = multiply([a[r] for r in a_regs], [b[r] for r in b_regs], acc[origin])
    by_register: dict[int, SSAValue] = {}
    for origin, regs in tiling.c.tiles.items():
        by_register.update(zip(regs, acc[origin]))
    return [by_register[tiling.c.holder[r]] for r in range(len(c))]


# ---------------------------------------------------------------------- the FMA dot

# One element, held by the thread itself: no register, lane or warp bases.
_ONE_ELEMENT = LinearLayout({"register": []}, [("dim0", 1), ("dim1", 1)])
FMA = MatrixInstruction(1, 1, 1, _ONE_ELEMENT, _ONE_ELEMENT, _ONE_ELEMENT)


def _fma(b: LLVMBuilder, a: list[SSAValue], bv: list[SSAValue],
         c: list[SSAValue]) -> list[SSAValue]:
    [x], [y], [acc] = a, bv, c
    if isinstance(acc.type, IntegerType):
        return [b.int_op("add", b.int_op("mul", x, y), acc)]
    return [b.intrinsic_op("fmuladd", [x, y, acc], acc.type)]


@lowers("tt.dot")
def _dot(fl: FunctionLowering, op: Operation) -> None:
    a_type: TensorType = op.operands[0].type
    b_type: TensorType = op.operands[1].type
    c_type: TensorType = op.operands[2].type
    layouts = [fl.layouts.of(t) for t in (a_type, b_type, c_type)]
    parent = encoding_of(c_type)
    a_elem, b_elem, c_elem = (fl.llvm_type(t) for t in (a_type, b_type, c_type))
    try:
        if isinstance(parent, Blocked):
            if not a_elem == b_elem == c_elem:
                raise ValueError(f"the FMA dot needs A, B and C of one element type, got "
                                 f"{a_elem}, {b_elem} and {c_elem} (accelerate-matmul "
                                 "promotes the operands)")
            instruction = FMA
            multiply = lambda x, y, acc: _fma(fl.b, x, y, acc)  # noqa: E731
        else:
            emitter = fl.hooks.matrix_emitter(parent)
            if emitter is None:
                raise ValueError(f"the target has no matrix instruction for {c_type}")
            instruction = emitter.instruction(a_elem, b_elem, c_elem,
                                              str(op.input_precision), DotOperands(
                                                  getattr(encoding_of(a_type), "k_width", 0),
                                                  a_type.element_type, b_type.element_type))
            multiply = lambda x, y, acc: emitter.emit(fl.b, instruction, x, y, acc)  # noqa: E731
        tiling = tile_dot(*layouts, instruction)
    except ValueError as err:
        raise fl.error(op, f"cannot lower tt.dot: {err}") from None
    fl.set(op.results[0], run_tiles(tiling, fl.get(op.operands[0]), fl.get(op.operands[1]),
                                    fl.get(op.operands[2]), multiply))


__all__ = ["DotTiling", "OperandTiles", "TilingError", "tile_dot", "tile_operand",
           "run_tiles", "FMA"]
