"""Canonicalization folders of the AMD ``amdg`` dialect (Triton 3.6's
``third_party/amd/lib/Dialect/TritonAMDGPU/IR/Dialect.cpp``). Importing this module
attaches them to the ops, as ``ttg_canonicalize`` does for ``ttg``.

folders
  concat(x) -> x                          (a single source of the result's type)
  extract_slice(concat(x0, ..., xn)) -> xi (the slice is exactly one source's tile: the
                                            sources tile the result in row-major order)
"""

from __future__ import annotations

from tileopt.dialects import amdgpu
from tileopt.dialects.canonicalization import FoldResult, add_folder
from tileopt.dialects.ttg import tensor_shape


def fold_concat(op: amdgpu.ConcatOp) -> FoldResult:
    if len(op.sources) == 1 and op.sources[0].type == op.result.type:
        return [op.sources[0]]
    return None


def fold_extract_slice(op: amdgpu.ExtractSliceOp) -> FoldResult:
    concat = op.source.owner
    if not isinstance(concat, amdgpu.ConcatOp):
        return None
    whole, tile = tensor_shape(op.source.type), tensor_shape(op.result.type)
    if whole is None or tile is None:
        return None
    if any(source.type != op.result.type for source in concat.sources):
        return None
    offsets = op.static_offsets.get_values()
    if any(off % size for off, size in zip(offsets, tile)):
        return None  # straddles two sources
    index = 0
    for off, size, total in zip(offsets, tile, whole):
        index = index * (total // size) + off // size
    return [concat.sources[index]]


add_folder(amdgpu.ConcatOp, fold_concat)
add_folder(amdgpu.ExtractSliceOp, fold_extract_slice)
