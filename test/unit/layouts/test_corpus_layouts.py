"""Every layout Triton 3.6 chose in the corpus, with the tensor shapes it was used for.

Each (layout, shape) pair read from the corpus ``.ttgir`` files must convert to a linear
layout that matches its hardware definition (``layout_definitions``), uses exactly the
module's ``ttg.num-warps`` and ``ttg.threads-per-warp``, and covers the whole tensor.
The per-pass dumps also hold two ``#ttg.linear`` layouts that Triton computed itself
(the result of ``amdg.in_thread_transpose`` on a blocked tensor); those are checked
against our blocked layout with the in-thread transpose applied.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import layout_definitions as ref
from test_encodings import assert_matches
from tileopt.dialects.layout_of import encoding_of, layout_attr_of, linear_layout_of
from tileopt.ir import parse_module
from tileopt.layout_cli import LayoutReader, element_bit_width
from tileopt.layouts import encodings as enc
from tileopt.layouts.encodings import is_distributed, to_linear_layout
from tileopt.layouts.linear_layout import LinearLayout
from tileopt.layouts.tiling import identity_standard_nd

def value_types(module):
    """The type of every value (op result, block argument) of a parsed module."""
    for op in module.walk():
        yield from (result.type for result in op.results)
        yield from (arg.type for region in op.regions for block in region.blocks for arg in block.args)


def reference_for(encoding, shape, bits):
    """The brute-force definition for an (encoding, shape), where one is written."""
    if isinstance(encoding, enc.Blocked):
        return ref.blocked(encoding.size_per_thread, encoding.threads_per_warp, encoding.warps_per_cta,
                           encoding.order, shape)
    if isinstance(encoding, enc.Slice):
        parent_shape = list(shape)
        parent_shape.insert(encoding.dim, 1)
        parent = reference_for(encoding.parent, parent_shape, bits)
        return None if parent is None else ref.slice_of(parent, encoding.dim)
    if isinstance(encoding, enc.NvidiaMma):
        if encoding.is_ampere:
            return ref.ampere_mma(encoding.warps_per_cta, shape)
        return ref.hopper_mma(encoding.warps_per_cta, encoding.instr_shape[1], shape)
    if isinstance(encoding, enc.AmdMfma):
        return ref.amd_mfma(tuple(encoding.instr_shape[:2]), encoding.is_transposed, encoding.warps_per_cta,
                            shape, encoding.tiles, encoding.element_bit_width)
    if isinstance(encoding, enc.AmdWmma):
        return ref.amd_wmma(encoding.version, encoding.is_transposed, encoding.warps_per_cta, shape)
    if isinstance(encoding, enc.DotOperand):
        parent = encoding.parent
        if isinstance(parent, enc.NvidiaMma) and parent.is_ampere:
            return ref.ampere_dot_operand(encoding.op_idx, encoding.k_width, parent.warps_per_cta, shape)
        if isinstance(parent, enc.AmdMfma):
            return ref.amd_mfma_operand(encoding.op_idx, encoding.k_width, tuple(parent.instr_shape[:2]),
                                        parent.warps_per_cta, shape, parent.tiles)
        if isinstance(parent, enc.AmdWmma):
            return ref.amd_wmma_operand(parent.version, encoding.op_idx, encoding.k_width,
                                        parent.warps_per_cta, shape, parent.instr_shape[2])
        return None
    if isinstance(encoding, (enc.SwizzledShared, enc.AmdRotatingShared)):
        return ref.swizzled_shared(encoding.vec, encoding.per_phase, encoding.max_phase, encoding.order,
                                   shape, rotating=isinstance(encoding, enc.AmdRotatingShared))
    if isinstance(encoding, enc.NvmmaShared):
        return ref.nvmma_shared(encoding.swizzling_byte_width, encoding.transposed,
                                encoding.element_bit_width or bits, shape)
    return None


def corpus_layout_uses(corpus: Path):
    """{(target, layout attribute, shape, bits): (type, num_warps, threads_per_warp)} for
    the types of every value in the corpus modules, read by the dialect's parser."""
    uses = {}
    for path in sorted(corpus.glob("*/*.ttgir")):
        text = path.read_text()
        module = parse_module(text, str(path))
        warps = int(re.search(r'"ttg.num-warps" = (\d+)', text).group(1))
        threads = int(re.search(r'"ttg.threads-per-warp" = (\d+)', text).group(1))
        for ty in set(value_types(module)):
            layout = layout_attr_of(ty)
            if layout is None:
                continue
            encoding = encoding_of(ty)
            shape = tuple(ty.get_shape())
            if encoding.rank is not None and encoding.rank != len(shape):
                continue  # a multi-buffered allocation: the leading dim indexes buffers
            key = (path.parent.name, layout, shape, element_bit_width(ty.get_element_type()))
            uses.setdefault(key, (ty, warps, threads))
    return uses


def test_corpus_layouts_match_their_definitions(corpus):
    uses = corpus_layout_uses(corpus)
    kinds = {type(encoding_of(ty)).__name__ for ty, _, _ in uses.values()}
    # The corpus exercises every layout family Triton 3.6 emits for these targets.
    assert {"Blocked", "Slice", "DotOperand", "NvidiaMma", "AmdMfma", "AmdWmma",
            "SwizzledShared", "AmdRotatingShared", "NvmmaShared"} <= kinds
    checked, skipped, done = 0, 0, set()
    for (target, text, shape, bits), (ty, warps, threads) in uses.items():
        encoding = encoding_of(ty)
        if (encoding, shape, bits) in done:
            checked += 1
            continue
        done.add((encoding, shape, bits))
        layout = linear_layout_of(ty)
        assert layout.is_surjective(), (target, text, shape)
        if is_distributed(encoding):
            assert layout.in_dim_size("lane") == threads, (target, text, shape)
            assert layout.in_dim_size("warp") == warps, (target, text, shape)
        reference = reference_for(encoding, shape, bits)
        if reference is not None:
            assert_matches(layout, reference)
            checked += 1
        else:
            assert isinstance(encoding, enc.Linear)  # checked by the in-thread-transpose test
            skipped += 1
    assert checked + skipped == len(uses)


def in_thread_transposed(layout: LinearLayout, blocked: enc.Blocked) -> LinearLayout:
    """AMD's in-thread transpose: each thread's sizePerThread block is walked with the two
    fastest dims of ``order`` exchanged; lanes, warps and repeats stay as they are."""
    order = list(blocked.order)
    order[-2], order[-1] = order[-1], order[-2]
    tile = identity_standard_nd("register", blocked.size_per_thread, order).transpose_outs(layout.out_dims)
    bases = layout.bases
    for i, basis in enumerate(tile.get_bases("register")):
        bases["register"][i] = list(basis)
    return LinearLayout(bases, layout.out_dims)


def test_triton_linear_layouts_from_in_thread_transpose(passes_root):
    op = re.compile(
        r"amdg\.in_thread_transpose %\S+ : tensor<([0-9x]+)x\w+, #(\w+)> -> tensor<[0-9x]+x\w+, #(\w+)>"
    )
    seen = set()
    for path in sorted(passes_root.glob("*/passes/*/*.mlir")):
        text = path.read_text()
        if "amdg.in_thread_transpose" not in text:
            continue
        reader = LayoutReader(text)
        for match in op.finditer(text):
            shape = tuple(int(s) for s in match.group(1).split("x"))
            src_attr, dst_attr = reader.layout(f"#{match.group(2)}"), reader.layout(f"#{match.group(3)}")
            src, dst = encoding_of(src_attr), encoding_of(dst_attr)
            assert isinstance(src, enc.Blocked) and isinstance(dst, enc.Linear)
            expected = in_thread_transposed(to_linear_layout(src, shape), src)
            assert to_linear_layout(dst, shape) == expected, path
            seen.add((dst_attr, shape))
    # Both #ttg.linear layouts of the corpus come from here.
    assert len(seen) == 2
    # Where a thread's block is one row, the transpose changes nothing: Triton's linear
    # layout is then exactly our blocked layout.
    one_row = enc.Blocked([1, 4], [64, 1], [1, 4], [0, 1])
    linear_attrs = {attr for attr, _ in seen}
    assert any(
        to_linear_layout(encoding_of(a), (64, 32)) == to_linear_layout(one_row, (64, 32))
        for a in linear_attrs
    )
