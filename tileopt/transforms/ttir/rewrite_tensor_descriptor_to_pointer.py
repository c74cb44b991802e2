"""``triton-rewrite-tensor-descriptor-to-pointer``: tensor descriptors become pointers
(Triton's ``RewriteTensorDescriptorToPointer.cpp``), for targets without TMA hardware.

A ``!tt.tensordesc<BxT>`` stands for a base pointer, the tensor's shape, its strides and
whether out-of-bounds elements read NaN (``padding = nan``) or 0. As in Triton, each
descriptor becomes those values:

- a descriptor argument becomes ``1 + 2 * rank + 1`` arguments, in place: ``!tt.ptr<T>``,
  ``rank`` i64 sizes, ``rank`` i64 strides, an i1 NaN-padding flag (what Triton's launcher
  passes for a host-side descriptor);
- a ``tt.make_tensor_descriptor`` (a descriptor made in the kernel, Triton 3.7+'s
  ``tl.make_tensor_descriptor``) becomes its base and strides, its i32 sizes widened to
  i64 where it stood, and the padding flag as a constant (Triton 3.9 also writes a second
  ``false`` constant there, which nothing reads);

and its uses are rewritten:

- ``descriptor_load %d[i, j]`` -> ``load(ptrs, mask, other)``: ``ptrs`` is
  ``splat(base) + sum_k broadcast(view(splat(i_k) + range(B_k)) * stride_k)``, the mask
  keeps ``0 <= index < size`` in every dimension, and ``other`` (what a TMA load returns
  out of bounds) is ``select(nan_flag, NaN, 0)`` for floats, 0 for integers;
- ``descriptor_store %d[i, j], %v`` -> ``store(ptrs, %v, mask)``.

``view`` makes each index range rank-``B``: ``tt.expand_dims`` in Triton 3.6, a
``tt.reshape`` in 3.9 (both checked against Triton: 3.6 run through its own Python
bindings, 3.9 against its per-pass dumps of desc_matmul). Cache and eviction hints carry
over. Indices are widened to i64 first. As in Triton, the pointer and the mask each build
their own index ranges (CSE merges them). A descriptor used any other way (passed to a
call, carried by a loop) is reported as an error.
"""

from __future__ import annotations

import math
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
from tileopt.dialects.triton_version import is_version_39
from tileopt.dialects.tt_types import PADDING_OPTION, PaddingOption, PointerType, TensorDescType
from tileopt.passes import Pass, PassFailure, register_pass
from tileopt.transforms.utils.builder import OpBuilder


@dataclass
class Descriptor:
    base: SSAValue
    shape: list[SSAValue]
    strides: list[SSAValue]
    nan_padding: SSAValue
    reshape: bool  # index ranges take their rank by tt.reshape (3.9), not expand_dims


def _offset_ranges(b: OpBuilder, desc: Descriptor, block: tuple[int, ...],
                   indices: list[SSAValue]) -> list[SSAValue]:
    """``splat(index_k) + range(B_k)`` per dimension, brought to the block's rank."""
    ranges = []
    for dim, index in enumerate(indices):
        n = block[dim]
        row = TensorType(i64, [n])
        value = b.add(arith.AddiOp(
            b.add(tt.SplatOp(index, row)),
            b.add(tensor_arith.ExtSIOp(b.add(tt.MakeRangeOp(0, n, TensorType(i32, [n]))), row))))
        if desc.reshape and len(block) > 1:
            shape = [n if axis == dim else 1 for axis in range(len(block))]
            value = b.add(tt.ReshapeOp(value, TensorType(i64, shape)))
            ranges.append(value)
            continue
        shape = [n]
        for axis in range(len(block)):
            if axis != dim:
                shape.insert(axis, 1)
                value = b.add(tt.ExpandDimsOp(value, axis, TensorType(i64, list(shape))))
        ranges.append(value)
    return ranges


def _pointers(b: OpBuilder, desc: Descriptor, block: tuple[int, ...],
              indices: list[SSAValue]) -> SSAValue:
    ranges = _offset_ranges(b, desc, block, indices)
    ptr = b.add(tt.SplatOp(desc.base, TensorType(desc.base.type, list(block))))
    for dim, offsets in enumerate(ranges):
        stride = b.add(tt.SplatOp(desc.strides[dim], offsets.type))
        scaled = b.add(arith.MuliOp(offsets, stride))
        ptr = b.add(tt.AddPtrOp(ptr, b.add(tt.BroadcastOp(scaled, TensorType(i64, list(block))))))
    return ptr


def _mask(b: OpBuilder, desc: Descriptor, block: tuple[int, ...],
          indices: list[SSAValue]) -> SSAValue:
    mask = None
    for dim, offsets in enumerate(_offset_ranges(b, desc, block, indices)):
        zero = b.add(arith.ConstantOp(IntegerAttr(0, i64)))
        above = b.add(tensor_arith.CmpiOp(offsets, b.add(tt.SplatOp(zero, offsets.type)), "sge"))
        below = b.add(tensor_arith.CmpiOp(
            offsets, b.add(tt.SplatOp(desc.shape[dim], offsets.type)), "slt"))
        inside = b.add(tt.BroadcastOp(b.add(arith.AndIOp(above, below)),
                                      TensorType(i1, list(block))))
        mask = inside if mask is None else b.add(arith.AndIOp(mask, inside))
    assert mask is not None
    return mask


def _padding(b: OpBuilder, desc: Descriptor, block: tuple[int, ...], element) -> SSAValue:
    """What a load reads out of bounds: 0, or NaN where the descriptor says so."""
    ty = TensorType(element, list(block))
    if isinstance(element, IntegerType):
        return b.add(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(ty, [0])))
    nan = b.add(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(ty, [math.nan])))
    zero = b.add(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(ty, [0.0])))
    return b.add(arith.SelectOp(desc.nan_padding, nan, zero))


def _rewrite_use(op: Operation, desc: Descriptor, desc_type: TensorDescType) -> None:
    block = tuple(desc_type.block_type.get_shape())
    element = desc_type.block_type.element_type
    b = OpBuilder(op)
    if isinstance(op, tt.DescriptorLoadOp):
        indices = [b.add(tensor_arith.ExtSIOp(i, i64)) for i in op.indices]
        other = _padding(b, desc, block, element)
        load = tt.LoadOp(_pointers(b, desc, block, indices), _mask(b, desc, block, indices),
                         other, attributes=dict(op.attributes))
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
        raise PassFailure(op, f"{op.name} on a tensor descriptor cannot be rewritten to "
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
        types = [PointerType(element)] + [i64] * (2 * rank) + [i1]
        new_args = [block.insert_arg(ty, index + 1 + k) for k, ty in enumerate(types)]
        desc = Descriptor(new_args[0], new_args[1:1 + rank], new_args[1 + rank:1 + 2 * rank],
                          new_args[-1], is_version_39(func))
        for use in list(old.uses):
            _rewrite_use(use.operation, desc, desc_type)
        block.erase_arg(old)
        inputs[index:index + 1] = types
        # the pointer keeps the descriptor's attributes (tt.divisibility), as in Triton
        arg_attrs[index:index + 1] = [arg_attrs[index]] + [DictionaryAttr({}) for _ in types[1:]]
    func.function_type = FunctionType.from_lists(inputs, list(func.function_type.outputs.data))
    if func.arg_attrs is not None or any(a.data for a in arg_attrs):
        func.arg_attrs = ArrayAttr(arg_attrs)


def _rewrite_made(make: tt.MakeTensorDescOp) -> None:
    """A descriptor made in the kernel: its values where it stood, then its uses."""
    b = OpBuilder(make)
    version_39 = is_version_39(make)
    shape = [b.add(tensor_arith.ExtSIOp(size, i64)) for size in make.shape]
    nan = (make.padding is not None
           and PADDING_OPTION.value_of(make.padding) == PaddingOption.PAD_NAN)
    flags = [b.add(arith.ConstantOp(IntegerAttr(int(nan), i1)))
             for _ in range(2 if version_39 else 1)]
    desc = Descriptor(make.base, shape, list(make.strides), flags[0], version_39)
    for use in list(make.result.uses):
        _rewrite_use(use.operation, desc, make.result.type)
    make.detach()
    make.erase()


@register_pass
class RewriteTensorDescriptorToPointer(Pass):
    """Rewrite tensor descriptors (arguments and tt.make_tensor_descriptor) and their
    loads/stores into pointer arithmetic."""

    name = "triton-rewrite-tensor-descriptor-to-pointer"

    def apply(self, ctx: Context, op: Operation) -> None:
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            if any(isinstance(t, TensorDescType) for t in func.function_type.inputs.data):
                _expand_arguments(func)
        for make in [o for o in op.walk() if isinstance(o, tt.MakeTensorDescOp)]:
            _rewrite_made(make)
        for inner in op.walk():
            if isinstance(inner, tt.FuncOp):
                continue
            if any(isinstance(v.type, TensorDescType) for v in (*inner.operands, *inner.results)):
                raise PassFailure(inner, f"{inner.name}: a tensor descriptor used other than "
                                  "by tt.descriptor_load / tt.descriptor_store cannot be "
                                  "rewritten to pointers")
