"""``triton-rewrite-tensor-descriptor-to-pointer``: tensor descriptors become pointers
(Triton's ``RewriteTensorDescriptorToPointer.cpp``), for targets without TMA hardware.

A ``!tt.tensordesc<tensor<BxT>>`` stands for a base pointer, the tensor's shape and its
strides. As in Triton's type conversion, each descriptor becomes ``1 + 2 * rank`` values:
``!tt.ptr<T>``, ``rank`` i64 sizes and ``rank`` i64 strides. In the ``tt`` dialect tileopt
reads, descriptors come in as function arguments (Triton's ``tt.make_tensor_descriptor``
is not part of it), so a descriptor argument is replaced by those ``1 + 2 * rank``
arguments, in place, and its uses are rewritten:

- ``descriptor_load %d[i, j]`` -> ``load(ptrs, mask, zeros)``: ``ptrs`` is
  ``splat(base) + sum_k broadcast(expand(splat(i_k) + range(B_k)) * stride_k)``, the mask
  keeps ``0 <= index < size`` in every dimension and out-of-bounds elements read 0, which
  is what a TMA load returns there;
- ``descriptor_store %d[i, j], %v`` -> ``store(ptrs, %v, mask)``.

Cache and eviction hints carry over. Indices are widened to i64 first. As in Triton, the
pointer and the mask each build their own index ranges (CSE merges them). A descriptor
used any other way (passed to a call, carried by a loop) is reported as an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue

from tileopt.dialects import arith as tensor_arith
from tileopt.dialects import tt
from tileopt.dialects.tt_types import PointerType, TensorDescType
from tileopt.ir import TileoptError
from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.builder import OpBuilder


@dataclass
class Descriptor:
    base: SSAValue
    shape: list[SSAValue]
    strides: list[SSAValue]


def _offset_ranges(b: OpBuilder, block: tuple[int, ...], indices: list[SSAValue]) -> list[SSAValue]:
    """``splat(index_k) + range(B_k)`` per dimension, expanded to the block's rank."""
    ranges = []
    for dim, index in enumerate(indices):
        n = block[dim]
        row = TensorType(i64, [n])
        value = b.add(arith.AddiOp(
            b.add(tt.SplatOp(index, row)),
            b.add(tensor_arith.ExtSIOp(b.add(tt.MakeRangeOp(0, n, TensorType(i32, [n]))), row))))
        shape = [n]
        for axis in range(len(block)):
            if axis != dim:
                shape.insert(axis, 1)
                value = b.add(tt.ExpandDimsOp(value, axis, TensorType(i64, list(shape))))
        ranges.append(value)
    return ranges


def _pointers(b: OpBuilder, desc: Descriptor, block: tuple[int, ...],
              indices: list[SSAValue]) -> SSAValue:
    ptr = b.add(tt.SplatOp(desc.base, TensorType(desc.base.type, list(block))))
    for dim, offsets in enumerate(_offset_ranges(b, block, indices)):
        stride = b.add(tt.SplatOp(desc.strides[dim], offsets.type))
        scaled = b.add(arith.MuliOp(offsets, stride))
        ptr = b.add(tt.AddPtrOp(ptr, b.add(tt.BroadcastOp(scaled, TensorType(i64, list(block))))))
    return ptr


def _mask(b: OpBuilder, desc: Descriptor, block: tuple[int, ...],
          indices: list[SSAValue]) -> SSAValue:
    mask = None
    for dim, offsets in enumerate(_offset_ranges(b, block, indices)):
        zero = b.add(arith.ConstantOp(IntegerAttr(0, i64)))
        above = b.add(tensor_arith.CmpiOp(offsets, b.add(tt.SplatOp(zero, offsets.type)), "sge"))
        below = b.add(tensor_arith.CmpiOp(
            offsets, b.add(tt.SplatOp(desc.shape[dim], offsets.type)), "slt"))
        inside = b.add(tt.BroadcastOp(b.add(arith.AndIOp(above, below)),
                                      TensorType(i1, list(block))))
        mask = inside if mask is None else b.add(arith.AndIOp(mask, inside))
    assert mask is not None
    return mask


def _zeros(b: OpBuilder, block: tuple[int, ...], element) -> SSAValue:
    value = 0 if isinstance(element, IntegerType) else 0.0
    return b.add(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(
        TensorType(element, list(block)), [value])))


def _rewrite_use(op: Operation, desc: Descriptor, desc_type: TensorDescType) -> None:
    block = tuple(desc_type.block_type.get_shape())
    element = desc_type.block_type.element_type
    b = OpBuilder(op)
    if isinstance(op, tt.DescriptorLoadOp):
        indices = [b.add(tensor_arith.ExtSIOp(i, i64)) for i in op.indices]
        load = tt.LoadOp(_pointers(b, desc, block, indices), _mask(b, desc, block, indices),
                         _zeros(b, block, element), attributes=dict(op.attributes))
        load.properties["cache"] = op.cache
        load.properties["evict"] = op.evict
        value = b.add(load)
        if value.type != op.result.type:
            value = b.add(tt.ReshapeOp(value, op.result.type))
        op.result.replace_all_uses_with(value)
    elif isinstance(op, tt.DescriptorStoreOp):
        indices = [b.add(tensor_arith.ExtSIOp(i, i64)) for i in op.indices]
        value = op.src
        if value.type != TensorType(element, list(block)):
            value = b.add(tt.ReshapeOp(value, TensorType(element, list(block))))
        b.add(tt.StoreOp(_pointers(b, desc, block, indices), value,
                         _mask(b, desc, block, indices), attributes=dict(op.attributes)))
    else:
        raise TileoptError(f"{op.name} on a tensor descriptor cannot be rewritten to "
                           "pointers (only tt.descriptor_load and tt.descriptor_store can)")
    op.detach()
    op.erase()


def _expand_arguments(func: tt.FuncOp) -> None:
    block = func.body.blocks.first
    if block is None:
        return
    inputs = list(func.function_type.inputs.data)
    arg_attrs = (list(func.arg_attrs.data) if func.arg_attrs is not None
                 else [DictionaryAttr({}) for _ in inputs])
    for index in reversed(range(len(inputs))):
        desc_type = inputs[index]
        if not isinstance(desc_type, TensorDescType):
            continue
        old = block.args[index]
        rank = len(desc_type.block_type.get_shape())
        element = desc_type.block_type.element_type
        types = [PointerType(element)] + [i64] * (2 * rank)
        new_args = [block.insert_arg(ty, index + 1 + k) for k, ty in enumerate(types)]
        desc = Descriptor(new_args[0], new_args[1:1 + rank], new_args[1 + rank:])
        for use in list(old.uses):
            _rewrite_use(use.operation, desc, desc_type)
        block.erase_arg(old)
        inputs[index:index + 1] = types
        arg_attrs[index:index + 1] = [DictionaryAttr({}) for _ in types]
    func.function_type = FunctionType.from_lists(inputs, list(func.function_type.outputs.data))
    if func.arg_attrs is not None or any(a.data for a in arg_attrs):
        func.arg_attrs = ArrayAttr(arg_attrs)


@register_pass
class RewriteTensorDescriptorToPointer(Pass):
    """Rewrite tensor descriptor arguments and their loads/stores into pointer arithmetic."""

    name = "triton-rewrite-tensor-descriptor-to-pointer"

    def apply(self, ctx: Context, op: Operation) -> None:
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            if any(isinstance(t, TensorDescType) for t in func.function_type.inputs.data):
                _expand_arguments(func)
        for inner in op.walk():
            if isinstance(inner, tt.FuncOp):
                continue
            if any(isinstance(v.type, TensorDescType) for v in (*inner.operands, *inner.results)):
                raise TileoptError(f"{inner.name}: tensor descriptors that are not function "
                                   "arguments are not supported")
