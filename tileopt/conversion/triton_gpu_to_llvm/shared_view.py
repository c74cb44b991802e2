"""How a ``!ttg.memdesc`` (and a ``!ttg.async.token``) lives in the lowering.

The contract every pattern that touches shared memory relies on
-----------------------------------------------------------------

A memdesc value is a :class:`SharedView`: a window of one shared-memory allocation.

- ``base``: an ``!llvm.ptr<3>`` (the hooks' ``shared_address_space``), the byte address of
  the *frame*: the allocation, or after ``memdesc_index`` the one buffer it picked;
- ``type``: the view's ``MemDescType``. Its ``allocShape`` is the frame's shape, its
  encoding says where each element of the frame lives: :func:`shared_layout` gives the
  linear layout ``offset -> frame coordinates`` (``dim0``...; element offsets from
  ``base``; dims past the encoding's rank are buffers, outermost);
- ``offsets``: one i32 SSA value per dim, where the view starts in the frame (non-zero
  after ``memdesc_subslice``). Each is a multiple of the view's size in its dim (the ops'
  verifiers demand it), so frame coordinates are ``view coordinates | offsets`` and, the
  layout being linear, an element's offset is ``L^-1(coords) ^ L^-1(offsets)``
  (:meth:`SharedView.offset_xor`). ``SharedView.static_offsets`` gives them as ints
  when they are constants (they are, except after a block boundary).

In the value map (``FunctionLowering.values``) a memdesc is the flat list
``[base, offset_0, ..., offset_{rank-1}]``; a token is ``[i32 0]`` (Triton lowers it to an
i32 too, it carries no data). Control flow needs nothing more: ``scf.for``/``cf.br``
carry both as block arguments, one per list element (``type_converter.boundary_types``).
Patterns never index the list: they call :func:`view_of` / :func:`set_view`.

Buffers: ``ttg.local_alloc`` starts its frame at ``@global_smem + allocation.offset``
(``allocate-shared-memory(-nv)`` must have run, as in Triton); ``local_dealloc`` emits
nothing; the views (``memdesc_index``/``subslice``/``trans``/``reshape``) emit at most one
``getelementptr`` and some i32 arithmetic. Reading and writing through a view (local_load,
local_store, ldmatrix, cp.async, wgmma descriptors) is done from :meth:`SharedView.layout`
and the offsets, never from per-encoding formulas.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects.builtin import i8
from xdsl.ir import Attribute, Operation, SSAValue

from tileopt.conversion.triton_gpu_to_llvm.lowering import (
    FunctionLowering,
    lowers,
    shared_memory_base,
)
from tileopt.conversion.type_converter import bit_width, convert_scalar_type
from tileopt.dialects.layout_of import encoding_of
from tileopt.dialects.ttg_types import MemDescType
from tileopt.layouts.encodings import OFFSET, to_linear_layout
from tileopt.layouts.linear_layout import LayoutError, LinearLayout
from tileopt.layouts.tiling import standard_out_dim_names


def shared_layout(ty: MemDescType) -> LinearLayout:
    """``offset -> frame coordinates`` of a memdesc type (its ``allocShape``).

    A frame of higher rank than the encoding (``2x128x64`` with a rank-2
    ``swizzled_shared``: the pipeliner's buffers) stacks whole encoded tiles along the
    leading dims, the first dim outermost.
    """
    return _shared_layout(encoding_of(ty), tuple(_ints(ty.allocShape)),
                          bit_width(ty.get_element_type()))


def _ints(array) -> list[int]:
    return [a.data for a in array.data]


def _shared_layout(encoding, frame: tuple[int, ...], bits: int) -> LinearLayout:
    rank = len(frame)
    enc_rank = getattr(encoding, "rank", rank)
    if enc_rank > rank:
        raise LayoutError(f"{encoding.name} of rank {enc_rank} on a memdesc of rank {rank}")
    lead = rank - enc_rank
    tile = to_linear_layout(encoding, frame[lead:], bits)
    names = standard_out_dim_names(rank)
    if not lead:
        return tile.transpose_outs(names)
    layout = _permute_outs(tile.transpose_outs(standard_out_dim_names(enc_rank)),
                           list(range(enc_rank)), names[lead:])
    for d in range(lead - 1, -1, -1):
        layout = layout * LinearLayout.identity_1d(frame[d], OFFSET, names[d])
    return layout.transpose_outs(names)


def _permute_outs(layout: LinearLayout, order: list[int],
                  names: list[str] | None = None) -> LinearLayout:
    """Output dim ``i`` of the result is ``layout``'s dim ``order[i]``, named ``names[i]``
    (default: the old names, in place)."""
    old = layout.out_dims
    names = names or old
    return LinearLayout(
        {d: [[basis[o] for o in order] for basis in layout.get_bases(d)] for d in layout.in_dims},
        [(names[i], layout.out_dim_size(old[o])) for i, o in enumerate(order)])


@dataclass(frozen=True)
class SharedView:
    """A memdesc value in the lowering (see the module docstring)."""

    base: SSAValue
    offsets: tuple[SSAValue, ...]
    type: MemDescType

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.type.get_shape())

    @property
    def frame(self) -> tuple[int, ...]:
        """The allocation shape the offsets and the layout refer to."""
        return tuple(_ints(self.type.allocShape))

    @property
    def encoding(self):
        return encoding_of(self.type)

    @property
    def element_type(self) -> Attribute:
        """LLVM type of one element (i1 is kept as i8 in memory by the accesses)."""
        return convert_scalar_type(self.type.get_element_type())

    @property
    def element_bytes(self) -> int:
        return max(1, bit_width(self.type.get_element_type()) // 8)

    def layout(self) -> LinearLayout:
        """``offset -> frame coordinates`` (:func:`shared_layout`)."""
        return shared_layout(self.type)

    def static_offsets(self, fl: FunctionLowering) -> tuple[int, ...] | None:
        """The offsets as ints when all are constants (else None)."""
        known = [fl.b.known(o) for o in self.offsets]
        return None if any(k is None for k in known) else tuple(known)

    def is_whole_frame(self) -> bool:
        """Whether the view spans its frame in every dim, so that its offsets are 0
        whatever values carry them (a memdesc parameter): an offset is a multiple of the
        view's size inside the frame."""
        return self.shape == self.frame[len(self.frame) - len(self.shape):]

    def offset_xor(self, fl: FunctionLowering) -> int | SSAValue:
        """``L^-1(offsets)``: the element offset every element of the view xors in; an int
        when the offsets are constants, else an i32 computed here."""
        from tileopt.conversion.indexing import apply_layout

        inverse = self.layout().invert()
        static = self.static_offsets(fl)
        if static is not None:
            return inverse.apply(dict(zip(inverse.in_dims, static)))[OFFSET]
        # The inverse also yields the block (CTA) coordinate: only the offset is wanted.
        values = apply_layout(fl.b, inverse, dict(zip(inverse.in_dims, self.offsets)))
        return values[list(inverse.out_dims).index(OFFSET)]

    def offset_xor_bits(self) -> int:
        """Element-offset bits :meth:`offset_xor` may set when the offsets are unknown:
        the images of the frame coordinates outside the view (an access vector must not
        straddle them)."""
        inverse = self.layout().invert()
        bits = 0
        for d, (dim, size) in enumerate(zip(inverse.in_dims, self.shape)):
            for i, basis in enumerate(inverse.get_bases(dim)):
                if 1 << i >= size:
                    bits |= basis[0]
        return bits


def view_of(fl: FunctionLowering, value: SSAValue) -> SharedView:
    """The :class:`SharedView` of a lowered memdesc value."""
    ty = value.type
    if not isinstance(ty, MemDescType):
        raise TypeError(f"{value} is not a memdesc")
    base, *offsets = fl.get(value)
    return SharedView(base, tuple(offsets), ty)


def set_view(fl: FunctionLowering, result: SSAValue, base: SSAValue,
             offsets: list[SSAValue | int] | None = None) -> None:
    """Record ``result`` (a memdesc) as the view at ``base`` with ``offsets`` (ints are
    made constants; None: all zero)."""
    rank = len(result.type.get_shape())
    offsets = offsets if offsets is not None else [0] * rank
    assert len(offsets) == rank, (offsets, result.type)
    fl.set(result, [base, *(fl.b.i32(o) if isinstance(o, int) else o for o in offsets)])


def token(fl: FunctionLowering) -> SSAValue:
    """The value of every ``!ttg.async.token``."""
    return fl.b.i32(0)


def frame_base(fl: FunctionLowering, op: Operation) -> SSAValue:
    """``@global_smem + allocation.offset`` of a ``ttg.local_alloc`` (made once)."""
    offset = fl.module.shared.buffer_offset(op)
    return fl.b.prologue_value(f"smem+{offset}", lambda b: b.gep(
        shared_memory_base(fl), b.i32(offset), i8))


# ------------------------------------------------------------------ patterns


@lowers("ttg.local_dealloc")
def _local_dealloc(fl: FunctionLowering, op: Operation) -> None:
    """The allocator already ended the buffer's life; nothing to emit."""


@lowers("ttg.memdesc_index")
def _memdesc_index(fl: FunctionLowering, op: Operation) -> None:
    """Buffer ``i`` along dim 0: dim 0 must be outermost in the layout (always so for
    the pipeliner's buffer dims, which may number 3), so the buffer is a contiguous block
    and the view's frame starts at ``base + i * block``."""
    src = view_of(fl, op.operands[0])
    block = prod(src.frame[1:])
    if len(src.frame) <= getattr(src.encoding, "rank", len(src.frame)):
        # dim 0 belongs to the encoding: it must still be the layout's outermost.
        inverse = src.layout().invert()
        dims = inverse.in_dims
        outermost = all(basis[0] == block << i
                        for i, basis in enumerate(inverse.get_bases(dims[0])))
        inner = all(basis[0] < block for d in dims[1:] for basis in inverse.get_bases(d))
        if not (outermost and inner):
            raise fl.error(op, f"memdesc_index over a dim that is not outermost in {src.type}")
    b = fl.b
    index = b.add(fl.scalar(op.operands[1]), src.offsets[0])
    base = b.gep(src.base, b.mul(index, b.i32(block * src.element_bytes)), i8)
    set_view(fl, op.results[0], base, list(src.offsets[1:]))


@lowers("ttg.memdesc_subslice")
def _memdesc_subslice(fl: FunctionLowering, op: Operation) -> None:
    src = view_of(fl, op.operands[0])
    b = fl.b
    shape = op.results[0].type.get_shape()
    static = op.offsets.get_values()
    for off, size in zip(static, shape):
        if off % size:
            raise fl.error(op, f"subslice offset {off} is not a multiple of its size {size}")
    offsets = [b.add(o, b.i32(s)) if s else o for o, s in zip(src.offsets, static)]
    set_view(fl, op.results[0], src.base, offsets)


def _same_layout(fl: FunctionLowering, op: Operation, expected: LinearLayout,
                 result: MemDescType) -> None:
    if expected != shared_layout(result):
        raise fl.error(op, f"the result type {result} does not describe the same bytes "
                           "as the source view")


@lowers("ttg.memdesc_trans")
def _memdesc_trans(fl: FunctionLowering, op: Operation) -> None:
    """The same bytes, dims permuted: the result type's layout must be the source's with
    its output dims permuted (checked), the offsets are permuted."""
    src = view_of(fl, op.operands[0])
    order = list(op.order.get_values())
    _same_layout(fl, op, _permute_outs(src.layout(), order), op.results[0].type)
    set_view(fl, op.results[0], src.base, [src.offsets[o] for o in order])


@lowers("ttg.memdesc_reshape")
def _memdesc_reshape(fl: FunctionLowering, op: Operation) -> None:
    """The same bytes under a new shape (row-major reinterpretation of the coordinates);
    only whole-frame views (offsets zero) can be reshaped."""
    src = view_of(fl, op.operands[0])
    if src.static_offsets(fl) != (0,) * len(src.shape) or src.frame != src.shape:
        raise fl.error(op, "memdesc_reshape of a sub-view is not supported")
    result = op.results[0].type
    layout = src.layout()
    new_names = standard_out_dim_names(len(result.get_shape()))
    flat = layout.transpose_outs(list(reversed(layout.out_dims))).reshape_outs(
        [("flat", prod(src.shape))])
    reshaped = flat.reshape_outs(list(zip(reversed(new_names), reversed(result.get_shape()))))
    _same_layout(fl, op, reshaped.transpose_outs(new_names), result)
    set_view(fl, op.results[0], src.base)


__all__ = ["SharedView", "shared_layout", "view_of", "set_view", "token", "frame_base"]
