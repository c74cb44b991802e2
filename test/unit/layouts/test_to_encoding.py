"""``to_encoding()`` / ``encoding_of``: IR layout attributes to the encoding dataclasses."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import IntAttr, NoneAttr, TensorType, f16, f32

from tileopt.dialects import ttg_attrs as ttg
from tileopt.dialects.layout_of import encoding_of, linear_layout_of
from tileopt.dialects.ttg_types import MemDescType
from tileopt.layout_cli import LayoutReader
from tileopt.layouts import encodings as enc
from tileopt.layouts.encodings import to_linear_layout
from tileopt.layouts.linear_layout import LayoutError


def test_plain_values():
    attr = ttg.BlockedEncodingAttr.get([1, 4], [8, 4], [4, 1], [1, 0])
    assert attr.to_encoding() == enc.Blocked([1, 4], [8, 4], [4, 1], [1, 0])
    cta = ttg.BlockedEncodingAttr.get([1, 4], [8, 4], [4, 1], [1, 0], [2, 1], [2, 1], [1, 0])
    assert cta.to_encoding() == enc.Blocked([1, 4], [8, 4], [4, 1], [1, 0], ctas_per_cga=[2, 1], cta_split_num=[2, 1], cta_order=[1, 0])


def test_parents_recurse():
    mma = ttg.NvidiaMmaEncodingAttr.get(2, 0, [2, 2], [16, 8])
    dot = ttg.DotOperandEncodingAttr.get(0, mma, 2)
    assert dot.to_encoding() == enc.DotOperand(0, enc.NvidiaMma(2, 0, [2, 2], [16, 8]), 2)
    sliced = ttg.SliceEncodingAttr.get(1, mma)
    assert sliced.to_encoding() == enc.Slice(1, enc.NvidiaMma(2, 0, [2, 2], [16, 8]))
    nested = ttg.SliceEncodingAttr.get(0, ttg.SliceEncodingAttr.get(2, ttg.BlockedEncodingAttr.get(
        [1, 1, 4], [1, 32, 1], [2, 2, 1], [2, 1, 0])))
    assert nested.to_encoding() == enc.Slice(0, enc.Slice(2, enc.Blocked([1, 1, 4], [1, 32, 1], [2, 2, 1], [2, 1, 0])))


def test_booleans_stored_as_ints_and_bases():
    assert ttg.AMDWmmaEncodingAttr.get(1, True, [2, 2]).to_encoding() == enc.AmdWmma(1, True, [2, 2])
    linear = ttg.LinearEncodingAttr.get([[0, 1]], [[1, 0]], [])
    assert linear.to_encoding() == enc.Linear([[0, 1]], [[1, 0]], [])
    shared = ttg.NVMMASharedEncodingAttr.get(128, False, 16)
    assert shared.to_encoding() == enc.NvmmaShared(128, False, 16)


def test_encoding_of_types_and_layouts():
    blocked = ttg.BlockedEncodingAttr.get([1, 4], [8, 4], [4, 1], [1, 0])
    tensor = TensorType(f32, [16, 16], blocked)
    assert encoding_of(tensor) == encoding_of(blocked) == blocked.to_encoding()
    assert linear_layout_of(tensor) == to_linear_layout(blocked.to_encoding(), [16, 16])
    assert linear_layout_of(tensor) is linear_layout_of(TensorType(f32, [16, 16], blocked))  # cached
    shared = ttg.SwizzledSharedEncodingAttr.get(8, 1, 8, [1, 0])
    memdesc = MemDescType.get([64, 32], f16, shared, ttg.SharedMemorySpaceAttr())
    assert linear_layout_of(memdesc) == to_linear_layout(enc.SwizzledShared(8, 1, 8, [1, 0]), [64, 32])


def test_errors():
    with pytest.raises(LayoutError, match="has no TritonGPU layout"):
        encoding_of(IntAttr(42))
    with pytest.raises(LayoutError, match="has no TritonGPU layout"):
        linear_layout_of(TensorType(f32, [16], NoneAttr()))
    with pytest.raises(LayoutError, match="not supported"):  # a layout the math does not know yet
        ttg.NvidiaMmaEncodingAttr.get(1, 0, [2, 2], []).to_encoding()


@pytest.mark.parametrize("order", [[1, 0], [0, 1]])
def test_padded_shared_is_the_identity_in_order(order):
    padded = f"#ttg.padded_shared<[32:+4] {{order = {order}, shape = [16, 64]}}>"
    reader = LayoutReader("#smem = #ttg.shared_memory\n")
    memdesc = reader.tensor_type(f"!ttg.memdesc<16x64xf16, {padded}, #smem, mutable>")
    assert isinstance(memdesc.encoding, ttg.PaddedSharedEncodingAttr)
    layout = linear_layout_of(memdesc)
    # Offsets before padding walk the fastest dim of `order` first.
    for offset in range(16 * 64):
        row, col = (offset // 64, offset % 64) if order == [1, 0] else (offset % 16, offset // 16)
        assert layout.apply({"offset": offset, "block": 0}) == {"dim0": row, "dim1": col}


def test_ir_attributes_of_a_corpus_file(corpus):
    """Every layout alias of a TritonGPU file is used in the parsed module and converts."""
    from tileopt.ir import parse_module

    path = corpus / "hip-gfx942" / "matmul.ttgir"
    text = path.read_text()
    module = parse_module(text, str(path))
    reader = LayoutReader(text)
    from_text = {encoding_of(reader.layout(f"#{n}")) for n in reader.layout_aliases()}
    found = set()
    for op in module.walk():
        for value in list(op.results) + [a for r in op.regions for b in r.blocks for a in b.args]:
            if isinstance(value.type, (TensorType, MemDescType)) and not isinstance(value.type.encoding, NoneAttr):
                found.add(encoding_of(value.type))
    assert from_text and from_text <= found
