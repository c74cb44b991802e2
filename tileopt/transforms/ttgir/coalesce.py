"""``tritongpu-coalesce``: layouts that make global memory accesses coalesce and vectorise.

For every load, store, atomic and async copy through a tensor of pointers, pick a blocked
layout in which each thread accesses a contiguous, aligned vector and neighbouring threads
access neighbouring vectors (Triton's ``Coalesce.cpp`` and ``buildCoalescedEncoding``):

- the order puts the dims with the longest runs of consecutive addresses first (axis info
  contiguity; ties in dim order, as Triton 3.6 does);
- along the fastest dim each thread gets as many elements as the pointer alignment and the
  contiguity allow, at most 128 bits; loads and stores of the same shape and order that are
  connected to this one through def-use chains may raise a load's width to theirs (their
  accesses will be converted to one layout anyway), stores and atomics never exceed their
  own limit (gaps in a warp's write are expensive);
- never more elements per thread than the tensor has per thread, so all threads work;
- lanes and warps then fill the dims fastest first (``blocked_for_shape``).

The memory op is rebuilt in that layout: every tensor operand goes through a
``ttg.convert_layout`` to it, and every tensor result comes back to the old layout through
another, for ``tritongpu-remove-layout-conversions`` to clean up later. Descriptor loads
and stores get a layout with up to 16 bytes per thread along the last dim, since it shapes
the shared-memory traffic they generate.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.analysis.axis_info import AxisInfoAnalysis, element_bit_width
from tileopt.dialects.tt_types import PointerType
from tileopt.dialects import ttg
from tileopt.dialects.ttg import ConvertLayoutOp
from tileopt.dialects.ttg_attrs import BlockedEncodingAttr, ints_of
from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.blocked_layouts import blocked_for_shape

MAX_VECTOR_BITS = 128
"""The widest global access a thread issues (ld/st.global.v4.b32, buffer_load_dwordx4)."""


def mem_access_ptr(op: Operation) -> SSAValue | None:
    """The pointer operand of a global memory access (Triton's ``getMemAccessPtr``)."""
    if op.name in ("tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas"):
        return op.operands[0]
    if op.name == "ttg.async_copy_global_to_local":
        return op.operands[0]
    return None


def order_from_contiguity(contiguity: Sequence[int]) -> list[int]:
    """Dims by decreasing contiguity, ties in dim order (Triton 3.6's ``argSort``; later
    Triton breaks ties the other way, towards row-major)."""
    return sorted(range(len(contiguity)), key=lambda d: -contiguity[d])  # stable


def _cta_layout(ty: TensorType) -> tuple[list[int], list[int], list[int]] | None:
    encoding = ty.encoding
    if isinstance(encoding, BlockedEncodingAttr):
        return (list(ints_of(encoding.CTAsPerCGA)), list(ints_of(encoding.CTASplitNum)),
                list(ints_of(encoding.CTAOrder)))
    return None


def _shape_per_cta(ty: TensorType) -> list[int]:
    shape = list(ty.get_shape())
    cta = _cta_layout(ty)
    if cta is None:
        return shape
    return [max(1, s // max(1, min(split, s))) for s, split in zip(shape, cta[1])]


def _product(values: Sequence[int]) -> int:
    result = 1
    for v in values:
        result *= v
    return result


# --------------------------------------------------------------------------- slices


class _Slices:
    """MLIR's ``getSlice``: ops connected to one op through def-use chains.

    The closure of backward slices (the ops defining operands, and the op owning a block
    argument used, never crossing a function boundary) and forward slices (users of results
    and every op nested in the op's regions), taken from every op found.
    """

    @staticmethod
    def _backward(op: Operation) -> list[Operation]:
        found = []
        for value in op.operands:
            if isinstance(value, BlockArgument):
                parent = value.block.parent_op()
                if parent is not None and parent.name not in ("tt.func", "builtin.module"):
                    found.append(parent)
            else:
                found.append(value.owner)
        return found

    @staticmethod
    def _forward(op: Operation) -> list[Operation]:
        found = [use.operation for result in op.results for use in result.uses]
        for region in op.regions:
            for block in region.blocks:
                found.extend(block.ops)
        return found

    def connected(self, op: Operation) -> list[Operation]:
        seen = {op}
        order = [op]
        i = 0
        while i < len(order):
            current = order[i]
            i += 1
            for neighbour in (*self._backward(current), *self._forward(current)):
                if neighbour not in seen:
                    seen.add(neighbour)
                    order.append(neighbour)
        return order


# --------------------------------------------------------------------------- layouts


def elements_per_access(op: Operation, order: Sequence[int], axis_info: AxisInfoAnalysis,
                        shape_per_cta: Sequence[int]) -> int:
    """Elements one thread can move in one aligned access along ``order[0]``
    (Triton's ``getNumElementsPerThread``)."""
    ptr = mem_access_ptr(op)
    info = axis_info[ptr]
    bits = element_bit_width(ptr.type)
    elem_bytes = max(bits // 8, 1)
    fastest = order[0]
    max_multiple = max(info.divisibility[fastest] // elem_bytes, 1)
    max_contig = min(info.contiguity[fastest], shape_per_cta[fastest])
    alignment = min(max_multiple, max_contig)
    return min(alignment, max(MAX_VECTOR_BITS // bits, 1))


def coalesced_encoding(op: Operation, axis_info: AxisInfoAnalysis, num_warps: int,
                       threads_per_warp: int, slices: _Slices) -> BlockedEncodingAttr:
    """Triton's ``buildCoalescedEncoding`` for the memory op ``op``."""
    ptr = mem_access_ptr(op)
    ty: TensorType = ptr.type
    shape = list(ty.get_shape())
    order = order_from_contiguity(axis_info[ptr].contiguity)

    same_order = [op]
    if not isinstance(ptr, BlockArgument):
        for other in slices.connected(op):
            other_ptr = mem_access_ptr(other)
            if (other is op or other_ptr is None or not isinstance(other_ptr.type, TensorType)
                    or list(other_ptr.type.get_shape()) != shape):
                continue
            if order_from_contiguity(axis_info[other_ptr].contiguity) == order:
                same_order.append(other)

    shape_per_cta = _shape_per_cta(ty)
    num_elements = _product(shape_per_cta)
    num_threads = num_warps * threads_per_warp
    own = elements_per_access(op, order, axis_info, shape_per_cta)
    per_thread = max([own] + [elements_per_access(o, order, axis_info, shape_per_cta)
                              for o in same_order[1:]])
    per_thread = min(per_thread, max(num_elements // num_threads, 1))
    if op.name != "tt.load":
        # A write wider than one access per thread leaves gaps in the warp's write.
        per_thread = min(per_thread, own)
    size_per_thread = [1] * len(shape)
    size_per_thread[order[0]] = per_thread
    return blocked_for_shape(shape, size_per_thread, order, num_warps, threads_per_warp,
                             cta_layout=_cta_layout(ty))


def descriptor_encoding(ty: TensorType, num_warps: int, threads_per_warp: int
                        ) -> BlockedEncodingAttr:
    """Up to 16 bytes per thread along the last dim, row-major (for TMA-style accesses)."""
    shape = list(ty.get_shape())
    per_thread = max(_product(_shape_per_cta(ty)) // (num_warps * threads_per_warp), 1)
    vector = min(per_thread, MAX_VECTOR_BITS // element_bit_width(ty))
    size_per_thread = [1] * len(shape)
    size_per_thread[-1] = vector
    order = list(reversed(range(len(shape))))
    return blocked_for_shape(shape, size_per_thread, order, num_warps, threads_per_warp,
                             cta_layout=_cta_layout(ty))


# --------------------------------------------------------------------------- rewriting


def _with_encoding(ty: TensorType, encoding: Attribute) -> TensorType:
    return TensorType(ty.element_type, list(ty.get_shape()), encoding)


def convert_op_encoding(op: Operation, encoding: Attribute) -> Operation:
    """Rebuild ``op`` with every tensor operand and result in ``encoding``, converting
    operands into it and results back (Triton's ``convertDistributedOpEncoding``)."""
    location = op.location
    operands = []
    for value in op.operands:
        if isinstance(value.type, TensorType):
            convert = ConvertLayoutOp(value, _with_encoding(value.type, encoding))
            convert.location = location
            Rewriter.insert_op(convert, InsertPoint.before(op))
            value = convert.result
        operands.append(value)
    keep_results = op.name == "ttg.async_copy_global_to_local"
    result_types = [r.type if keep_results or not isinstance(r.type, TensorType)
                    else _with_encoding(r.type, encoding) for r in op.results]
    new_op = type(op).create(operands=operands, result_types=result_types,
                             properties=dict(op.properties), attributes=dict(op.attributes))
    new_op.location = location
    Rewriter.insert_op(new_op, InsertPoint.before(op))
    replacements = []
    for old, new in zip(op.results, new_op.results):
        if new.type != old.type:
            back = ConvertLayoutOp(new, old.type)
            back.location = location
            Rewriter.insert_op(back, InsertPoint.after(new_op) if not replacements
                               else InsertPoint.after(replacements[-1].owner))
            replacements.append(back.result)
        else:
            replacements.append(new)
    Rewriter.replace_op(op, [], replacements)
    return new_op


@register_pass
class Coalesce(Pass):
    """Give global memory accesses blocked layouts that coalesce and vectorise them."""

    name = "tritongpu-coalesce"

    def apply(self, ctx: Context, op: Operation) -> None:
        axis_info = AxisInfoAnalysis(op)
        threads_per_warp = ttg.threads_per_warp(op)
        slices = _Slices()
        layouts: dict[Operation, Attribute] = {}
        for current in op.walk():
            ptr = mem_access_ptr(current)
            if ptr is None:
                continue
            if not (isinstance(ptr.type, TensorType)
                    and isinstance(ptr.type.element_type, PointerType)):
                continue  # scalar or block pointers: nothing to lay out
            layouts[current] = coalesced_encoding(current, axis_info, ttg.num_warps(current),
                                                  threads_per_warp, slices)
        for current in op.walk():
            ty = None
            if current.name == "tt.descriptor_load" and len(current.results) == 1:
                ty = current.results[0].type
            elif current.name == "tt.descriptor_store":
                ty = current.operands[1].type
            if isinstance(ty, TensorType):
                layouts[current] = descriptor_encoding(ty, ttg.num_warps(current),
                                                       threads_per_warp)
        for memory_op, encoding in layouts.items():
            convert_op_encoding(memory_op, encoding)
