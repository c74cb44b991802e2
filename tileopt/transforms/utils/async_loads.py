"""Whether a ``tt.load`` can become an asynchronous copy into shared memory.

The software pipeliner turns a load into ``cp.async`` copies into a shared buffer; which
loads qualify is asked twice, when latencies are assigned and when loops are lowered
(Triton 3.6's ``PipeliningUtility.cpp`` and ``getSharedEncIfAllUsersAreDotEnc``):

- the copy moves at least 32 bits per thread and vector (``cp.async`` copies 4, 8 or 16
  bytes): ``async_copy_bits``;
- the registers a thread holds land in consecutive shared offsets for at least 4 bytes:
  ``copy_vector_bytes``;
- the users that read it back as dot operands agree on one buffer layout:
  ``dot_operand_buffer_layout``.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from tileopt.analysis.axis_info import AxisInfoAnalysis, element_bit_width
from tileopt.dialects.layout_of import linear_layout_of
from tileopt.dialects.ttg_attrs import DotOperandEncodingAttr, SharedMemorySpaceAttr
from tileopt.dialects.ttg_types import MemDescType
from tileopt.transforms.ttgir.reduce_data_duplication import _cta_fields, dot_operand_shared_layout
from tileopt.transforms.utils.tensor_layouts import order_for_memory


def async_copy_bits(load: Operation, axis_info: AxisInfoAnalysis) -> int:
    """Bits one thread can copy at once for ``load``: the pointer's contiguity, capped by
    how many elements share a mask bit, times the element size."""
    ptr = load.operands[0]
    if not isinstance(ptr.type, TensorType):
        return element_bit_width(ptr.type)
    vector = axis_info.contiguity(ptr)
    mask = load.operands[1] if len(load.operands) > 1 else None
    if mask is not None:
        vector = min(vector, axis_info.mask_alignment(mask))
    return vector * element_bit_width(ptr.type)


def copy_vector_bytes(ty: TensorType, shared: Attribute) -> int:
    """Bytes a thread can copy at once between ``ty``'s registers and a buffer of layout
    ``shared``: registers that land in consecutive shared offsets."""
    buffer = MemDescType.get(list(ty.get_shape()), ty.element_type, shared,
                             SharedMemorySpaceAttr())
    regs_to_shared = linear_layout_of(ty).invert_and_compose(linear_layout_of(buffer))
    return regs_to_shared.get_num_consecutive_in_out() * element_bit_width(ty.element_type) // 8


def dot_operand_buffer_layout(value: SSAValue) -> tuple[Attribute | None, bool]:
    """``(layout, incompatible)``: the swizzled buffer layout in which every user reads
    ``value`` as a dot operand (through ``convert_layout``/``local_load``, or buffers that
    are only read so); None where some user is not such a read. ``incompatible``: two
    users want different layouts."""
    layout = None
    for use in value.uses:
        user = use.operation
        if len(user.results) != 1:
            return None, False
        result_type = user.results[0].type
        if isinstance(result_type, MemDescType):
            wanted = result_type.encoding
            inner, incompatible = dot_operand_buffer_layout(user.results[0])
            if inner is None:
                return None, incompatible
        else:
            dot = result_type.encoding if isinstance(result_type, TensorType) else None
            if (user.name not in ("ttg.local_load", "ttg.convert_layout")
                    or not isinstance(dot, DotOperandEncodingAttr)):
                return None, False
            ty = value.type
            order = order_for_memory(ty)
            if len(order) == 3:  # the batch dim slowest, as dot-operand reads expect
                order = [d for d in order if d != 0] + [0]
            wanted = dot_operand_shared_layout(dot, list(ty.get_shape()), order,
                                               element_bit_width(ty.get_element_type()),
                                               _cta_fields(ty.encoding))
        if layout is not None and layout != wanted:
            return None, True
        layout = wanted
    return layout, False
