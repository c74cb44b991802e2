"""``tritongpu-reduce-data-duplication``: convert to dot operands through an explicit
shared-memory buffer (Triton 3.6's ``ReduceDataDuplication.cpp``).

A ``ttg.convert_layout`` from a register layout to a ``#ttg.dot_op`` layout that has to go
through shared memory becomes ``ttg.local_alloc`` + ``ttg.local_load``. The buffer gets the
swizzled shared layout the dot operand reads without bank conflicts (``dot_operand_shared_
layout``): the reads of an MMA/MFMA operand then touch each bank once, and later passes
(pipelining, allocation) see the buffer.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.dialects.layout_of import encoding_of
from tileopt.dialects.ttg import ConvertLayoutOp, LocalAllocOp, LocalLoadOp
from tileopt.dialects.ttg_attrs import (
    AMDMfmaEncodingAttr,
    AMDWmmaEncodingAttr,
    DotOperandEncodingAttr,
    NvidiaMmaEncodingAttr,
    SharedMemorySpaceAttr,
    SwizzledSharedEncodingAttr,
    int_array,
    ints_of,
)
from tileopt.dialects.ttg_types import MemDescType
from tileopt.layouts.encodings import get_elems_per_thread, get_order, get_thread_order
from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.tensor_layouts import conversion_needs_shared_memory


def order_for_memory(ty: TensorType) -> list[int]:
    """Dim order of a shared buffer holding a register tensor (Triton's
    ``getOrderForMemory``): the element order, unless each thread holds a single element
    along the lanes' fastest dim, in which case the lanes' order is the better guide."""
    layout, shape = encoding_of(ty.encoding), list(ty.get_shape())
    order = get_order(layout, shape)
    thread_order = get_thread_order(layout, shape)
    if order == thread_order:
        return order
    if get_elems_per_thread(layout, shape)[thread_order[0]] == 1:
        return thread_order
    return order


def _bits(element: Attribute) -> int:
    width = getattr(element, "bitwidth", None)
    return width if isinstance(width, int) else 32


def _swizzled(vec: int, per_phase: int, max_phase: int, order: list[int],
              cta: tuple[list[int], list[int], list[int]] | None) -> SwizzledSharedEncodingAttr:
    layout = SwizzledSharedEncodingAttr.get(vec, per_phase, max_phase, order)
    if cta is None:
        return layout
    return SwizzledSharedEncodingAttr(layout.vec, layout.perPhase, layout.maxPhase,
                                      layout.order, *(int_array(v) for v in cta))


def dot_operand_shared_layout(dot: DotOperandEncodingAttr, shape: list[int],
                              order: list[int], element_bits: int,
                              cta=None) -> SwizzledSharedEncodingAttr:
    """The swizzled shared layout a dot operand is read from without bank conflicts
    (Triton's ``SwizzledSharedEncodingAttr::get`` for a dot operand, no transposition)."""
    op_idx, k_width = dot.opIdx.data, dot.kWidth.data
    parent = dot.parent
    if isinstance(parent, (AMDMfmaEncodingAttr, AMDWmmaEncodingAttr)):
        k_dim = 1 if op_idx == 0 else 0
        is_mfma = isinstance(parent, AMDMfmaEncodingAttr)
        gfx950 = is_mfma and parent.version.data == 4
        if order[0] != k_dim and not (gfx950 and element_bits in (8, 16)):
            return _swizzled(1, 1, 1, order, cta)  # k not contiguous: no bank conflicts
        banks = 64 if gfx950 else 32
        inner = shape[order[0]]
        per_phase = max(1, banks * 32 // element_bits // inner)
        max_phase = max(min(16 // per_phase, inner // k_width), 1)
        if is_mfma and ints_of(parent.instrShape)[0] == 4:
            max_phase = 4
        return _swizzled(k_width, per_phase, max_phase, order, cta)
    if not isinstance(parent, NvidiaMmaEncodingAttr) or parent.versionMajor.data not in (2, 3):
        return _swizzled(1, 1, 1, order, cta)
    rank = len(order)
    per_phase = max(128 // (shape[order[0]] * 4 // k_width), 1)
    mat_m, mat_n, mat_k = 8, 8, 4 * k_width
    inner = 0 if op_idx == 0 else 1
    if 32 // element_bits != k_width and order[0] == inner:
        per_phase = max(per_phase, 2 * (32 // element_bits))
    row_major = order[0] == rank - 1
    if op_idx == 0:
        vec, stride = (mat_k, mat_m) if row_major else (mat_m, mat_k)
    else:
        vec, stride = (mat_n, mat_k) if row_major else (mat_k, mat_n)
    return _swizzled(vec, per_phase, max(stride // per_phase, 1), order, cta)


def _cta_fields(layout: Attribute):
    d = layout.as_dict() if hasattr(layout, "as_dict") else {}
    if all(key in d for key in ("CTAsPerCGA", "CTASplitNum", "CTAOrder")):
        fields = (list(d["CTAsPerCGA"]), list(d["CTASplitNum"]), list(d["CTAOrder"]))
        if any(v != 1 for v in (*fields[0], *fields[1])):
            return fields
    return None


def convert_through_shared_memory(convert: ConvertLayoutOp) -> bool:
    src, dst = convert.src.type, convert.result.type
    assert isinstance(src, TensorType) and isinstance(dst, TensorType)
    dot = dst.encoding
    if not isinstance(dot, DotOperandEncodingAttr):
        return False
    if not conversion_needs_shared_memory(src, dst):
        return False
    shape = list(src.get_shape())
    shared = dot_operand_shared_layout(dot, shape, order_for_memory(src),
                                       _bits(src.element_type), _cta_fields(src.encoding))
    buffer_type = MemDescType.get(shape, src.element_type, shared, SharedMemorySpaceAttr())
    alloc = LocalAllocOp(buffer_type, convert.src)
    load = LocalLoadOp(alloc.result, dst)
    Rewriter.insert_op(alloc, InsertPoint.before(convert))
    Rewriter.insert_op(load, InsertPoint.before(convert))
    convert.result.replace_all_uses_with(load.result)
    Rewriter.erase_op(convert)
    return True


@register_pass
class ReduceDataDuplication(Pass):
    """Turn conversions to dot operands that need shared memory into local_alloc +
    local_load through a bank-conflict-free swizzled buffer."""

    name = "tritongpu-reduce-data-duplication"

    def apply(self, ctx: Context, op: Operation) -> None:
        for convert in [o for o in op.walk() if isinstance(o, ConvertLayoutOp)]:
            convert_through_shared_memory(convert)
