"""``tritongpu-optimize-dot-operands``: fold a transposed dot operand into how it is read
from shared memory (Triton 3.6's ``OptimizeDotOperands.cpp``, NVIDIA patterns).

After canonicalizing the module:

- ``convert_layout(tt.trans(x))`` to an operand of ``tt.dot`` (its only use) becomes
  ``local_load(memdesc_trans(local_alloc(x)))``: ``x`` is stored once, in the swizzled
  layout the operand is read from through the transposed view (``need_trans``), and the
  transposition costs nothing;
- ``local_alloc(tt.trans(x))`` read only by a ``warp_group_dot`` becomes
  ``memdesc_trans(local_alloc(x))`` with ``x`` in ``#nvmma_shared`` of its own order (wgmma
  reads either major-ness for f16/bf16; other types keep K-major);

then ``convert_layout`` ops left between equal types fold, as canonicalize does. Not
done: the reshape of an ``nvmma_shared`` allocation (``ReshapeMemDesc``) and Blackwell's
scale copies; multi-CTA layouts are left alone.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, TensorType, bf16, f16, i32
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.dialects.tt import TransOp
from tileopt.dialects.ttg import ConvertLayoutOp, LocalAllocOp, LocalLoadOp, MemDescTransOp
from tileopt.dialects.ttg_attrs import (
    DotOperandEncodingAttr,
    NVMMASharedEncodingAttr,
    SharedMemorySpaceAttr,
    SwizzledSharedEncodingAttr,
)
from tileopt.dialects.ttg_types import MemDescType
from tileopt.layouts import mma_choice
from tileopt.passes import Pass, option, register_pass
from tileopt.passes.registry import get_pass
from tileopt.transforms.ttgir.reduce_data_duplication import dot_operand_shared_layout
from tileopt.transforms.utils.tensor_layouts import order_for_memory

_TRANSPOSE = (1, 0)


def _single_user(value: SSAValue) -> Operation | None:
    uses = list(value.uses)
    return uses[0].operation if len(uses) == 1 else None


def _transpose_of(value: SSAValue) -> TransOp | None:
    owner = value.owner if isinstance(value, OpResult) else None
    if isinstance(owner, TransOp) and owner.permutation == _TRANSPOSE:
        return owner
    return None


def _single_cta(ty: Attribute) -> bool:
    layout = ty.encoding
    return not hasattr(layout, "cta_is_default") or layout.cta_is_default()


def transposed_shared(layout: Attribute) -> Attribute:
    """The layout of a ``memdesc_trans`` (order [1, 0]) view of a 2-d buffer."""
    if isinstance(layout, NVMMASharedEncodingAttr):
        d = layout.as_dict()
        return NVMMASharedEncodingAttr.get(d["swizzlingByteWidth"], not d["transposed"],
                                           d["elementBitWidth"], d["fp4Padded"])
    assert isinstance(layout, SwizzledSharedEncodingAttr)
    d = layout.as_dict()
    return SwizzledSharedEncodingAttr.get(d["vec"], d["perPhase"], d["maxPhase"],
                                          [1 - o for o in d["order"]])


def _trans_view(buffer: SSAValue) -> MemDescTransOp:
    ty = buffer.type
    shape = list(ty.get_shape())[::-1]
    view_type = MemDescType.get(shape, ty.get_element_type(), transposed_shared(ty.encoding),
                                ty.memorySpace)
    return MemDescTransOp.build(operands=[buffer], result_types=[view_type],
                                properties={"order": DenseArrayBase.from_list(i32, _TRANSPOSE)})


def _insert(op: Operation, where: InsertPoint, location) -> SSAValue:
    op.location = location
    Rewriter.insert_op(op, where)
    return op.results[0]


def swizzle_transposed_operand(convert: ConvertLayoutOp) -> bool:
    """``convert(trans(x))`` to a ``tt.dot`` operand -> ``local_load(memdesc_trans(
    local_alloc(x)))`` in the swizzle the transposed read wants."""
    user = _single_user(convert.result)
    if user is None or user.name != "tt.dot":
        return False
    trans = _transpose_of(convert.src)
    dot_layout = convert.result.type.encoding
    if trans is None or not isinstance(dot_layout, DotOperandEncodingAttr):
        return False
    source = trans.operands[0]
    layout_source = source
    if isinstance(source, OpResult) and isinstance(source.owner, ConvertLayoutOp):
        layout_source = source.owner.src  # the order of the data before that convert
    src_type = layout_source.type
    if not _single_cta(src_type):
        return False
    shared = dot_operand_shared_layout(dot_layout, list(src_type.get_shape()),
                                       order_for_memory(src_type),
                                       src_type.get_element_type().bitwidth, need_trans=True)
    value_type = source.type
    before = InsertPoint.before(trans)
    alloc = _insert(LocalAllocOp(MemDescType.get(list(value_type.get_shape()),
                                                 value_type.get_element_type(), shared,
                                                 SharedMemorySpaceAttr()), source),
                    before, trans.location)
    view = _insert(_trans_view(alloc), before, trans.location)
    loaded = _insert(LocalLoadOp(view, convert.result.type), before, trans.location)
    convert.operands[0] = loaded
    return True


def fuse_transpose_into_wgmma_buffer(alloc: LocalAllocOp) -> bool:
    """``local_alloc(trans(x))`` read by a ``warp_group_dot`` -> ``memdesc_trans(
    local_alloc(x))``."""
    if not alloc.operands:
        return False
    dot = _single_user(alloc.results[0])
    if dot is None or dot.name != "ttng.warp_group_dot":
        return False
    trans = _transpose_of(alloc.operands[0])
    layout = alloc.results[0].type.encoding
    if trans is None or not isinstance(layout, NVMMASharedEncodingAttr):
        return False
    source = trans.operands[0]
    src_type: TensorType = source.type
    order_source = source
    if isinstance(source, OpResult) and isinstance(source.owner, ConvertLayoutOp):
        order_source = source.owner.src
    if not _single_cta(src_type) or not layout.cta_is_default():
        return False
    order = order_for_memory(order_source.type)
    element = src_type.get_element_type()
    if element not in (f16, bf16):  # other types only K-major, after the transposition
        order = [0, 1] if dot.operands[0] is alloc.results[0] else [1, 0]
    shape = list(src_type.get_shape())
    inner = NVMMASharedEncodingAttr.get(
        mma_choice.nvmma_swizzle_bytes(shape, order, element.bitwidth),
        mma_choice.nvmma_transposed(order), element.bitwidth, bool(layout.fp4Padded.data))
    before = InsertPoint.before(alloc)
    new_alloc = _insert(LocalAllocOp(MemDescType.get(shape, element, inner,
                                                     alloc.results[0].type.memorySpace),
                                     source), before, alloc.location)
    view = _insert(_trans_view(new_alloc), before, alloc.location)
    alloc.results[0].replace_all_uses_with(view)
    Rewriter.erase_op(alloc)
    return True


@register_pass
class OptimizeDotOperands(Pass):
    """Fold transposed dot operands into transposed shared-memory views (canonicalizing
    before and after)."""

    name = "tritongpu-optimize-dot-operands"
    hoist_layout_conversion: bool = option(True, "hoist layout conversions of dot operands "
                                           "out of loops (accepted)")

    def apply(self, ctx: Context, op: Operation) -> None:
        canonicalize = get_pass("canonicalize")
        canonicalize.from_options({}).apply(ctx, op)
        changed = False
        for convert in [o for o in op.walk() if isinstance(o, ConvertLayoutOp)]:
            changed |= swizzle_transposed_operand(convert)
        for alloc in [o for o in op.walk() if isinstance(o, LocalAllocOp)]:
            changed |= fuse_transpose_into_wgmma_buffer(alloc)
        if changed:  # fold the identity converts and drop the dead transposes
            canonicalize.from_options({}).apply(ctx, op)

