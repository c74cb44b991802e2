"""The shared-memory addresses ``local_load``/``local_store`` emit, run on the CPU.

For a register layout and a memdesc view (encoding, frame, subslice offsets), the i32 and
getelementptr arithmetic the lowering emits is evaluated for every thread; each
register's address must be where the *encoding's* linear layout puts that element
(found by enumerating the layout forwards, offset -> coordinates, not through the
inverse the lowering uses), every vector access must cover consecutive bytes, and an
``ldmatrix``-shaped access must give each lane the start of the row the instruction
defines for it.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from xdsl.dialects.builtin import i32
from xdsl.ir import Block
from xdsl.parser import Parser

from tileopt.conversion.indexing import HardwareIds
from tileopt.conversion.llvm_builder import LLVMBuilder, ptr_type
from tileopt.conversion.triton_gpu_to_llvm.shared_access import (
    access_of_view,
    matrix_addresses,
    matrix_plan,
)
from tileopt.conversion.triton_gpu_to_llvm.shared_view import SharedView
from tileopt.dialects.layout_of import encoding_of
from tileopt.ir.context import make_context
from tileopt.layouts.encodings import Blocked, DotOperand, NvidiaMma, to_linear_layout

from .llvm_eval import evaluate
from .test_indexing import ThreadIdHooks

SWIZZLED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
SWIZZLED_T = "#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]}>"
NVMMA128 = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"
MMA = NvidiaMma(2, 0, (2, 4), (16, 8))
MMA_2X2 = NvidiaMma(2, 0, (2, 2), (16, 8))
FLAT = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"

# (register encoding, memdesc type, subslice offsets, warps, expected vector, ldmatrix?)
CASES = [
    (Blocked((1, 8), (4, 8), (8, 1), (1, 0)), f"128x64xf16, {SWIZZLED}", (0, 0), 8, 8, None),
    (Blocked((1, 8), (2, 16), (8, 1), (1, 0)), f"64x128xf16, {SWIZZLED}", (0, 0), 8, 8, None),
    (Blocked((1, 4), (4, 8), (4, 1), (1, 0)), f"64x32xf32, {SWIZZLED}", (0, 0), 4, 4, None),
    # a subslice: the right half of a 128x64 buffer
    (Blocked((1, 8), (8, 4), (4, 1), (1, 0)), f"128x32xf16, {SWIZZLED}, #smem, 128x64",
     (0, 32), 4, 8, None),
    (Blocked((8, 1), (8, 4), (1, 4), (0, 1)), f"64x64xf16, {SWIZZLED_T}", (0, 0), 4, 8, None),
    (Blocked((1, 8), (4, 8), (4, 1), (1, 0)), f"64x64xf16, {NVMMA128}", (0, 0), 4, 8, None),
    # dot operands from the sm80 matmul: ldmatrix (A), ldmatrix.trans (B)
    (DotOperand(0, MMA, 2), f"128x64xf16, {SWIZZLED}", (0, 0), 8, 2, False),
    (DotOperand(1, MMA, 2), f"64x128xf16, {SWIZZLED}", (0, 0), 8, 1, True),
    (DotOperand(0, MMA, 2), f"128x32xf16, {SWIZZLED}, #smem, 128x64", (0, 32), 8, 2, False),
    # the tf32 operands of benchmarks/gpu's dot_tf32_64x64x32: kWidth 1, an unswizzled
    # buffer; A's 32-bit elements along k are two 16-bit columns each: ldmatrix (Triton's
    # PTX of it on sm_80 has 8 ldmatrix.x4 for A), B's would need 32-bit transposes
    (DotOperand(0, MMA_2X2, 1), f"64x32xf32, {FLAT}", (0, 0), 4, 1, False),
    (DotOperand(1, MMA_2X2, 1), f"32x64xf32, {FLAT}", (0, 0), 4, 1, None),
]


def _memdesc(text: str):
    if "#smem" not in text:
        text += ", #smem"
    text = text.replace("#smem", "#ttg.shared_memory, mutable")
    return Parser(make_context(), f"!ttg.memdesc<{text}>").parse_type()


def _expected_offsets(ty) -> dict[tuple[int, ...], int]:
    """coordinates -> element offset, by running the encoding's layout forwards."""
    frame = [a.data for a in ty.allocShape.data]
    layout = to_linear_layout(encoding_of(ty), frame, 16)
    names = layout.out_dims
    found = {}
    for offset in range(layout.in_dim_size("offset")):
        out = layout.apply({"offset": offset, "block": 0})
        found[tuple(out[f"dim{d}"] for d in range(len(names)))] = offset
    return found


def _lower(case):
    encoding, text, offsets, warps, _, _ = case
    ty = _memdesc(text)
    shape = list(ty.get_shape())
    layout = to_linear_layout(encoding, shape)
    block = Block(arg_types=[i32, ptr_type(3)])
    b = LLVMBuilder(block)
    fl = SimpleNamespace(b=b, ids=HardwareIds(b, ThreadIdHooks(32, block.args[0]), warps))
    view = SharedView(block.args[1], tuple(b.i32(o) for o in offsets), ty)
    return fl, ty, layout, view, block


def _ids(case):
    encoding, text, offsets, warps, _, _ = case
    return f"{type(encoding).__name__}-{text.split(',')[0]}-{text.split('<')[0].split(', #')[-1]}" \
        f"-off{offsets[1]}"


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_register_addresses_follow_the_encoding(case):
    _, _, offsets, warps, vector, _ = case
    fl, ty, layout, view, block = _lower(case)
    access = access_of_view(fl, layout, view)
    assert access.side.vector == vector
    address, constants = access.addresses(fl)
    registers = layout.in_dim_size("register")
    ptrs = {r: address(constants[r]) for r in range(registers) if access.side.starts(r)}
    expected = _expected_offsets(ty)
    base = 1 << 20
    for thread in range(warps * 32):
        env = evaluate(block, {block.args[0]: thread, block.args[1]: base})
        lane, warp = thread % 32, thread // 32
        for start, ptr in ptrs.items():
            for k, r in enumerate(access.side.group(start)):
                out = layout.apply({"register": r, "lane": lane, "warp": warp, "block": 0})
                coords = tuple(out[f"dim{d}"] + offsets[d] for d in range(len(offsets)))
                eb = view.element_bytes
                assert env[ptr] + k * eb - base == expected[coords] * eb, (thread, r)


@pytest.mark.parametrize("case", [c for c in CASES if c[5] is not None],
                         ids=[_ids(c) for c in CASES if c[5] is not None])
def test_matrix_rows(case):
    """Lane ``8 i + j`` gives the address of row ``j`` of matrix ``i``; a row starts at
    the element a lane receives first: (row j, columns 0-1) of matrix i, so the lane
    ``4 j`` (``.trans``: the one holding rows j and j+1 of column 0 in the halves of its
    word) and register ``start | matrix bits``."""
    _, _, offsets, warps, _, transpose = case
    fl, ty, layout, view, block = _lower(case)
    access = access_of_view(fl, layout, view)
    plan = matrix_plan(access, view.element_bytes)
    assert plan is not None and plan.transpose == transpose and plan.count == 4
    eb = view.element_bytes
    address, constants = matrix_addresses(fl, access, plan)
    registers = layout.in_dim_size("register")
    ptrs = {r: address(constants[r]) for r in range(registers) if plan.starts(r)}
    expected = _expected_offsets(ty)
    base = 1 << 20
    for thread in range(warps * 32):
        env = evaluate(block, {block.args[0]: thread, block.args[1]: base})
        lane, warp = thread % 32, thread // 32
        i, j = lane // 8, lane % 8
        for start, ptr in ptrs.items():
            word = plan.words(start)[i]
            if transpose:
                register, holder = word[j & 1], (j >> 1)
            else:
                register, holder = word[0], 4 * j
            out = layout.apply({"register": register, "lane": holder, "warp": warp, "block": 0})
            coords = tuple(out[f"dim{d}"] + offsets[d] for d in range(len(offsets)))
            assert env[ptr] - base == expected[coords] * eb, (thread, start)
