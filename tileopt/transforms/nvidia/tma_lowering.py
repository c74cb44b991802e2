"""``triton-nvidia-tma-lowering``: device-side tensor descriptors and their stores become
the TMA ops (Triton 3.9's ``TMALowering.cpp``; the 3.9 sm90 pipeline runs it after the
pipeliner, which has already turned the pipelined loads into TMA copies).

- ``tt.make_tensor_descriptor %base, [sizes], [strides]`` (its type carrying the NVMMA shared
  encoding ``triton-nvidia-optimize-descriptor-encoding`` gives it) becomes 128 bytes of
  per-program global scratch that ``ttng.tensormap_create`` fills, innermost dimension
  first: the box (the block's shape, its inner extent cut to the swizzle span, as TMA
  requires of swizzled boxes), the sizes, the byte strides of all but the innermost
  dimension (``stride * element bytes``), unit element strides; the element type, swizzle
  mode (0/32/64/128-byte swizzle -> 0..3) and fill mode (NaN padding -> 1) as properties.
  ``ttng.tensormap_fenceproxy_acquire`` publishes it to the TMA unit and
  ``ttng.reinterpret_tensor_descriptor`` gives the descriptor value back.
- ``tt.descriptor_store %d[i, j], %v`` becomes ``ttg.local_alloc %v`` (the descriptor's
  shared encoding), ``ttng.fence_async_shared`` (the TMA reads through the async proxy what
  threads wrote), ``ttng.async_tma_copy_local_to_global`` and ``ttng.async_tma_store_wait
  {pendings = 0}``.

New constants go to the start of the function, reusing one of equal value there, and
constants the rewritten ops no longer use are erased, as Triton's rewrite driver leaves
them. Checked against Triton 3.9's per-pass dumps of desc_matmul on sm90. A
``tt.descriptor_load`` the pipeliner left (a load outside a pipelined loop) is not lowered
yet: an error names it.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, \
    IntegerAttr, IntegerType, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.dialects import tt
from tileopt.dialects.tt_types import PADDING_OPTION, PaddingOption, PointerType, TensorDescType
from tileopt.dialects.ttg import GlobalScratchAllocOp, LocalAllocOp
from tileopt.dialects.ttg_attrs import NVMMASharedEncodingAttr, SharedMemorySpaceAttr
from tileopt.dialects.ttg_types import MemDescType
from tileopt.dialects.ttng import FenceAsyncSharedOp
from tileopt.dialects.ttng_tma import (
    AsyncTMACopyLocalToGlobalOp,
    AsyncTMAStoreWaitOp,
    ReinterpretTensorDescOp,
    TensormapCreateOp,
    TensormapFenceproxyAcquireOp,
)
from tileopt.passes import Pass, PassFailure, register_pass
from tileopt.transforms.utils.builder import OpBuilder

DESCRIPTOR_BYTES = 128  # a CUtensorMap
# CUtensorMapDataType of the element types (CUDA driver API)
_ELEMENT_TYPES = ((Float16Type, 6), (Float32Type, 7), (Float64Type, 8), (BFloat16Type, 9))
_SWIZZLE_MODES = {0: 0, 32: 1, 64: 2, 128: 3}
_FILL_NAN = 1


def _element_code(op: Operation, element) -> int:
    for kind, code in _ELEMENT_TYPES:
        if isinstance(element, kind):
            return code
    raise PassFailure(op, f"triton-nvidia-tma-lowering: {element} descriptors are not "
                          "supported yet (f16, bf16, f32, f64 are)")


def _shared_encoding(op: Operation, desc_type: TensorDescType) -> NVMMASharedEncodingAttr:
    encoding = desc_type.block_type.encoding
    if not isinstance(encoding, NVMMASharedEncodingAttr):
        raise PassFailure(op, "triton-nvidia-tma-lowering: the descriptor has no NVMMA shared "
                              "encoding (triton-nvidia-optimize-descriptor-encoding gives one)")
    if encoding.transposed.data:
        raise PassFailure(op, "triton-nvidia-tma-lowering: transposed descriptor encodings "
                              "are not supported yet")
    return encoding


def tma_box(block, encoding: NVMMASharedEncodingAttr) -> list[int]:
    """The TMA box of a descriptor's block, innermost dimension first: the block's shape,
    its inner extent cut to the swizzle span (a swizzled box may not be wider). The
    lowering of the copies splits a block into boxes along that dimension."""
    box = list(block.get_shape())[::-1]
    swizzle = encoding.swizzlingByteWidth.data
    if swizzle:
        box[0] = min(box[0], swizzle * 8 // block.element_type.bitwidth)
    return box


class _Constants:
    """i32/i64 constants at the start of the function, one per value."""

    def __init__(self, func: Operation):
        self.block = func.regions[0].blocks.first
        self.known: dict[tuple[int, int], SSAValue] = {}
        for op in self.block.ops:
            if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr) \
                    and isinstance(op.result.type, IntegerType):
                self.known.setdefault((op.value.value.data, op.result.type.width.data),
                                      op.result)

    def get(self, value: int, ty: IntegerType) -> SSAValue:
        key = (value, ty.width.data)
        if key not in self.known:
            const = arith.ConstantOp(IntegerAttr(value, ty))
            Rewriter.insert_op(const, InsertPoint.at_start(self.block))
            self.known[key] = const.result
        return self.known[key]


def _erase_if_unused_constants(values: list[SSAValue]) -> None:
    for value in values:
        owner = value.owner
        if isinstance(owner, arith.ConstantOp) and not owner.result.uses:
            Rewriter.erase_op(owner)


def _lower_make(make: tt.MakeTensorDescOp, constants: _Constants) -> None:
    desc_type = make.result.type
    encoding = _shared_encoding(make, desc_type)
    block = desc_type.block_type
    element = block.element_type
    box = tma_box(block, encoding)
    b = OpBuilder(make)
    scratch = b.add(GlobalScratchAllocOp.build(
        properties={"alignment": IntegerAttr(DESCRIPTOR_BYTES, i32),
                    "nbytes": IntegerAttr(DESCRIPTOR_BYTES, i32)},
        result_types=[PointerType(IntegerType(8))]))
    elem_bytes = constants.get(element.bitwidth // 8, i64)
    byte_strides = [b.add(arith.MuliOp(stride, elem_bytes))
                    for stride in reversed(list(make.strides)[:-1])]
    nan = (make.padding is not None
           and PADDING_OPTION.value_of(make.padding) == PaddingOption.PAD_NAN)
    b.add(TensormapCreateOp.build(
        operands=[scratch, make.base, [constants.get(n, i32) for n in box],
                  list(make.shape)[::-1], byte_strides,
                  [constants.get(1, i32) for _ in box]],
        properties={"elem_type": IntegerAttr(_element_code(make, element), i32),
                    "fill_mode": IntegerAttr(_FILL_NAN if nan else 0, i32),
                    "interleave_layout": IntegerAttr(0, i32),
                    "swizzle_mode": IntegerAttr(
                        _SWIZZLE_MODES[encoding.swizzlingByteWidth.data], i32)}))
    b.add(TensormapFenceproxyAcquireOp.build(operands=[scratch]))
    desc = b.add(ReinterpretTensorDescOp.build(operands=[scratch], result_types=[desc_type]))
    make.result.replace_all_uses_with(desc)
    strides = list(make.strides)
    Rewriter.erase_op(make)
    _erase_if_unused_constants(strides)


def _lower_store(store: tt.DescriptorStoreOp) -> None:
    desc_type = store.desc.type
    encoding = _shared_encoding(store, desc_type)
    block = desc_type.block_type
    b = OpBuilder(store)
    buffer = b.add(LocalAllocOp(MemDescType.get(block.get_shape(), block.element_type,
                                                encoding, SharedMemorySpaceAttr()),
                                store.src))
    b.add(FenceAsyncSharedOp(False))
    b.add(AsyncTMACopyLocalToGlobalOp.build(operands=[store.desc, list(store.indices),
                                                      buffer]))
    b.add(AsyncTMAStoreWaitOp.build(properties={"pendings": IntegerAttr(0, i32)}))
    Rewriter.erase_op(store)


@register_pass
class TMALowering(Pass):
    """Lower device-side tensor descriptors and descriptor stores to TMA ops (sm90+)."""

    name = "triton-nvidia-tma-lowering"

    def apply(self, ctx: Context, op: Operation) -> None:
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            if func.body.blocks.first is None:
                continue
            constants = _Constants(func)
            for inner in list(func.walk()):
                if isinstance(inner, tt.MakeTensorDescOp):
                    _lower_make(inner, constants)
                elif isinstance(inner, tt.DescriptorStoreOp):
                    _lower_store(inner)
                elif isinstance(inner, tt.DescriptorLoadOp):
                    raise PassFailure(inner, "triton-nvidia-tma-lowering: a tt.descriptor_load "
                                             "outside a pipelined loop is not lowered yet")
