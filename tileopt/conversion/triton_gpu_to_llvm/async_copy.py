"""Asynchronous copies into shared memory: ``ttg.async_copy_global_to_local``,
``ttg.async_commit_group``, ``ttg.async_wait`` (hooks ``async_copy``/``async_commit``/
``async_wait``; NVIDIA: ``cp.async``). Tokens carry no data (``shared_view.token``); the
barrier that makes other threads' copies visible after a wait is the barrier analysis'
(``analysis/membar.py`` puts one after every ``ttg.async_wait``)."""

from __future__ import annotations

from dataclasses import replace

from xdsl.ir import Operation

from tileopt.conversion.shared_layouts import Side
from tileopt.conversion.triton_gpu_to_llvm.load_store import unique_registers, vector_width
from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers
from tileopt.conversion.triton_gpu_to_llvm.shared_access import access_of_view
from tileopt.conversion.triton_gpu_to_llvm.shared_view import token, view_of
from tileopt.dialects.tt_canonicalize import is_zero_constant


@lowers("ttg.async_commit_group")
def _commit(fl: FunctionLowering, op: Operation) -> None:
    fl.hooks.async_commit(fl.b)
    fl.set(op.results[0], [token(fl)])


@lowers("ttg.async_wait")
def _wait(fl: FunctionLowering, op: Operation) -> None:
    fl.hooks.async_wait(fl.b, op.num.value.data)
    fl.set(op.results[0], [token(fl)])


@lowers("ttg.async_copy_global_to_local")
def _async_copy(fl: FunctionLowering, op: Operation) -> None:
    """Each thread copies its registers' elements, one ``async_copy`` per vector: as many
    elements as are contiguous and aligned in global memory (axis info, or the
    pipeliner's ``contiguity``), share one mask bit and are consecutive in the buffer.
    Masked-off vectors read 0 bytes, which zero-fills them."""
    b = fl.b
    src, mask, other = op.src, op.mask, op.other
    if other is not None and not is_zero_constant(other):
        raise fl.error(op, "async copies fill masked-off elements with zeros only")
    view = view_of(fl, op.result)
    eb = view.element_bytes
    layout = fl.layouts.of(src.type)
    unique, _ = unique_registers(layout)
    contiguity = vector_width(fl, src, mask, eb * 8, unique)
    hint = op.contiguity.value.data if op.contiguity is not None else 1
    if hint > contiguity and mask is not None:
        hint = min(hint, fl.axis.mask_alignment(mask))
    contiguity = max(contiguity, hint)
    access = access_of_view(fl, layout, view, max_vector_bytes=min(16, contiguity * eb))
    bits = access.side.vector_bits
    count = next((n for n in range(len(bits), -1, -1) if bits[:n] == tuple(range(n))), 0)
    access = replace(access, side=Side(bits[:count], 1, 0))
    size = eb << count
    if size not in (4, 8, 16):
        raise fl.error(op, f"async copies move 4, 8 or 16 bytes; the layouts give {size}-byte "
                           "vectors")
    ptrs = fl.get(src)
    masks = fl.get(mask) if mask is not None else None
    address, constants = access.addresses(fl)
    for r in unique:
        if not access.side.starts(r):
            continue
        src_size = None
        if masks is not None:
            src_size = b.select(masks[r], b.i32(size), b.i32(0))
        fl.hooks.async_copy(b, address(constants[r]), ptrs[r], size, src_size)
    fl.set(op.results[0], [token(fl)])
