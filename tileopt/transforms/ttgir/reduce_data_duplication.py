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

from tileopt.dialects.ttg import ConvertLayoutOp, LocalAllocOp, LocalLoadOp
from tileopt.dialects.ttg_attrs import (
    DotOperandEncodingAttr,
    SharedMemorySpaceAttr,
    SwizzledSharedEncodingAttr,
    int_array,
)
from tileopt.dialects.ttg_types import MemDescType
from tileopt.layouts.mma_choice import dot_operand_swizzle
from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.builder import located
from tileopt.transforms.utils.tensor_layouts import (
    conversion_needs_shared_memory,
    order_for_memory,
)


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
                              cta=None, need_trans: bool = False) -> SwizzledSharedEncodingAttr:
    """The swizzled shared layout a dot operand is read from without bank conflicts
    (``mma_choice.dot_operand_swizzle``), as an attribute."""
    vec, per_phase, max_phase = dot_operand_swizzle(dot.to_encoding(), shape, order,
                                                    element_bits, need_trans)
    return _swizzled(vec, per_phase, max_phase, order, cta)


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
    alloc = located(LocalAllocOp(buffer_type, convert.src), convert.location)
    load = located(LocalLoadOp(alloc.result, dst), convert.location)
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
