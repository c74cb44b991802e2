"""``triton-nvidia-optimize-descriptor-encoding``: give each tensor descriptor the shared
encoding its TMA copies will write (Triton's ``OptimizeDescriptorEncoding.cpp``), so that
``triton-nvidia-tma-lowering`` and the pipeliner's TMA copies agree on one layout.

A descriptor made in the kernel (``tt.make_tensor_descriptor``) or passed in as an
argument, whose type has no encoding yet, gets:

- the ``#ttg.nvmma_shared`` encoding of the ``ttg.local_alloc`` ops its loads' results
  feed, when they all use one (desc_matmul's A and B: the wgmma operands' buffers);
- otherwise Triton's default for the block: the NVMMA encoding of a row-major buffer of its
  shape (the swizzle the contiguous dimension allows, not transposed).

The descriptor's type changes in place (and the function's signature for an argument), so
its loads and stores see the new type. A descriptor that flows anywhere but into
``tt.descriptor_load`` / ``tt.descriptor_store`` (through a loop, into a call) is left as
it is. Checked against Triton 3.9's desc_matmul dumps and Triton 3.6's own pass (run
through its Python bindings) on the same input.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import FunctionType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from tileopt.dialects import tt
from tileopt.dialects.tt_types import TensorDescType
from tileopt.dialects.ttg import LocalAllocOp
from tileopt.dialects.ttg_attrs import NVMMASharedEncodingAttr
from tileopt.layouts import mma_choice
from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.tensor_layouts import retype

_USES = (tt.DescriptorLoadOp, tt.DescriptorStoreOp)


def _encoding_from_uses(desc: SSAValue) -> NVMMASharedEncodingAttr | None:
    """The one NVMMA encoding the buffers the descriptor's loads fill use, if any."""
    found: set[Attribute] = set()
    for use in desc.uses:
        if isinstance(use.operation, tt.DescriptorLoadOp):
            for load_use in use.operation.result.uses:
                user = load_use.operation
                if isinstance(user, LocalAllocOp) and isinstance(
                        user.result.type.encoding, NVMMASharedEncodingAttr):
                    found.add(user.result.type.encoding)
    return found.pop() if len(found) == 1 else None


def _default_encoding(block: TensorType) -> NVMMASharedEncodingAttr:
    shape = list(block.get_shape())
    bits = block.element_type.bitwidth
    order = list(range(len(shape) - 1, -1, -1))  # row-major
    return NVMMASharedEncodingAttr.get(
        swizzlingByteWidth=mma_choice.nvmma_swizzle_bytes(shape, order, bits),
        transposed=mma_choice.nvmma_transposed(order), elementBitWidth=bits)


def _encoded_type(desc: SSAValue) -> TensorDescType | None:
    """The descriptor's type with its encoding, None where it keeps its type."""
    ty = desc.type
    if not isinstance(ty, TensorDescType) or isinstance(ty.block_type.encoding,
                                                        NVMMASharedEncodingAttr):
        return None
    if not desc.uses or any(not isinstance(use.operation, _USES) or use.index != 0
                            for use in desc.uses):
        return None
    block = ty.block_type
    encoding = _encoding_from_uses(desc) or _default_encoding(block)
    return TensorDescType(TensorType(block.element_type, block.get_shape(), encoding))


@register_pass
class OptimizeDescriptorEncoding(Pass):
    """Give tensor descriptors the shared encoding of the buffers their TMA copies fill."""

    name = "triton-nvidia-optimize-descriptor-encoding"

    def apply(self, ctx: Context, op: Operation) -> None:
        for inner in list(op.walk()):
            if isinstance(inner, tt.MakeTensorDescOp):
                if (new := _encoded_type(inner.result)) is not None:
                    retype(inner.result, new)
            elif isinstance(inner, tt.FuncOp) and inner.body.blocks.first is not None:
                block = inner.body.blocks.first
                inputs = list(inner.function_type.inputs.data)
                for index, arg in enumerate(block.args):
                    if (new := _encoded_type(arg)) is not None:
                        retype(arg, new)
                        inputs[index] = new
                inner.function_type = FunctionType.from_lists(
                    inputs, list(inner.function_type.outputs.data))
