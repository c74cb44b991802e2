"""``tritongpu-coalesce-async-copy``: keep a ``cp.async`` copy's global reads coalesced
(Triton 3.6's ``CoalesceAsyncCopy.cpp``).

``ttg.async_copy_global_to_local`` moves each thread's registers straight into shared
memory, one instruction per run of elements that is contiguous on both sides. When the
source's blocked layout gives a thread more contiguous elements than the shared layout
keeps together (an operand loaded narrow and widened later: its buffer's ``vec`` is
smaller than the loaded run), each run is split into several copies and the warp's reads
stop being coalesced. The pass then re-lays the copy's pointers (and mask and other)
out with ``sizePerThread`` along the contiguous dim clipped to the run the copy can make,
through ``ttg.convert_layout``s, lanes and warps spread as Triton's blocked-layout builder
does. Copies into non-swizzled-shared buffers, and from non-blocked layouts, are left
alone. (Later Triton versions also re-coalesce small copies and update ``contiguity``.)
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.dialects.layout_of import encoding_of
from tileopt.dialects.ttg import AsyncCopyGlobalToLocalOp, ConvertLayoutOp, num_warps, threads_per_warp
from tileopt.dialects.ttg_attrs import BlockedEncodingAttr, SwizzledSharedEncodingAttr, ints_of
from tileopt.layouts.encodings import get_contig_per_thread
from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.async_loads import copy_vector_bytes
from tileopt.transforms.utils.blocked_layouts import blocked_for_shape
from tileopt.transforms.utils.tensor_layouts import with_encoding


def _copy_run(src: TensorType, buffer_type) -> int:
    """Elements a thread copies in one instruction: registers landing in consecutive
    shared offsets."""
    element = buffer_type.get_element_type()
    values = TensorType(element, src.get_shape(), src.encoding)
    return copy_vector_bytes(values, buffer_type.encoding) * 8 // element.bitwidth


def clip_size_per_thread(copy: AsyncCopyGlobalToLocalOp) -> bool:
    """Rewrite one copy whose per-thread run is longer than one copy instruction."""
    src_type = copy.src.type
    layout = src_type.encoding
    buffer_type = copy.result.type
    if not isinstance(layout, BlockedEncodingAttr):
        return False
    if not isinstance(buffer_type.encoding, SwizzledSharedEncodingAttr):
        return False
    run = _copy_run(src_type, buffer_type)
    shape = list(src_type.get_shape())
    contig = get_contig_per_thread(encoding_of(src_type), shape)
    order = list(ints_of(layout.order))
    if contig[order[0]] <= run:
        return False
    contig[order[0]] = run
    cta = None if layout.cta_is_default() else (
        ints_of(layout.CTAsPerCGA), ints_of(layout.CTASplitNum), ints_of(layout.CTAOrder))
    clipped = blocked_for_shape(shape, contig, order, num_warps(copy), threads_per_warp(copy),
                                cta_layout=cta)
    for index, value in enumerate(copy.operands):
        if index == 1 or not isinstance(value.type, TensorType):
            continue  # the buffer
        convert = ConvertLayoutOp(value, with_encoding(value.type, clipped))
        convert.location = copy.location
        Rewriter.insert_op(convert, InsertPoint.before(copy))
        copy.operands[index] = convert.results[0]
    return True


@register_pass
class CoalesceAsyncCopy(Pass):
    """Clip the per-thread run of cp.async copies' sources to what one copy can move, so
    their global reads stay coalesced."""

    name = "tritongpu-coalesce-async-copy"

    def apply(self, ctx: Context, op: Operation) -> None:
        for copy in [o for o in op.walk() if isinstance(o, AsyncCopyGlobalToLocalOp)]:
            clip_size_per_thread(copy)

