"""``encoding_from_attr``: IR layout attributes to encodings, by Triton's parameter names."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tileopt.layouts.encodings import AmdWmma, Blocked, DotOperand, Linear, NvidiaMma, NvmmaShared, Slice
from tileopt.layouts.from_attr import encoding_from_attr
from tileopt.layouts.linear_layout import LayoutError
from tileopt.layouts.parse_text import parse_alias_definitions, parse_layout


@dataclass
class Wrapped:
    """Stands for xDSL's IntAttr / ArrayAttr: the value sits in ``.data``."""

    data: object


@dataclass
class IntegerLike:
    """Stands for xDSL's IntegerAttr: ``.value.data``."""

    value: Wrapped


class FakeAttr:
    def __init__(self, name, **params):
        self.name = name
        for key, value in params.items():
            setattr(self, key, value)


def wrap_ints(values):
    return Wrapped(tuple(Wrapped(v) for v in values))


def test_plain_values():
    attr = FakeAttr("ttg.blocked", sizePerThread=[1, 4], threadsPerWarp=[8, 4], warpsPerCTA=[4, 1], order=[1, 0])
    assert encoding_from_attr(attr) == Blocked([1, 4], [8, 4], [4, 1], [1, 0])


def test_wrapped_values_and_parents():
    mma = FakeAttr(
        "ttg.nvidia_mma",
        versionMajor=IntegerLike(Wrapped(2)),
        versionMinor=Wrapped(0),
        warpsPerCTA=wrap_ints([2, 2]),
        instrShape=wrap_ints([16, 8]),
        CTAsPerCGA=wrap_ints([1, 1]),
        CTASplitNum=wrap_ints([1, 1]),
        CTAOrder=wrap_ints([1, 0]),
    )
    dot = FakeAttr("ttg.dot_op", opIdx=Wrapped(0), parent=mma, kWidth=Wrapped(2))
    assert encoding_from_attr(dot) == DotOperand(0, NvidiaMma(2, 0, [2, 2], [16, 8]), 2)
    sliced = FakeAttr("ttg.slice", dim=Wrapped(1), parent=mma)
    assert encoding_from_attr(sliced) == Slice(1, NvidiaMma(2, 0, [2, 2], [16, 8]))


def test_booleans_stored_as_ints_and_bases():
    wmma = FakeAttr("ttg.amd_wmma", version=Wrapped(1), isTranspose=Wrapped(1), warpsPerCTA=wrap_ints([2, 2]))
    assert encoding_from_attr(wmma) == AmdWmma(1, True, [2, 2])
    linear = FakeAttr(
        "ttg.linear",
        register=Wrapped((wrap_ints([0, 1]),)),
        lane=Wrapped((wrap_ints([1, 0]),)),
        warp=Wrapped(()),
        block=Wrapped(()),
    )
    assert encoding_from_attr(linear) == Linear([[0, 1]], [[1, 0]], [])
    shared = FakeAttr("ttg.nvmma_shared", swizzlingByteWidth=128, transposed=False, elementBitWidth=16)
    assert encoding_from_attr(shared) == NvmmaShared(128, False, 16)


def test_as_dict_is_preferred():
    class WithDict:
        name = "ttg.blocked"

        def as_dict(self):
            return {"sizePerThread": (4,), "threadsPerWarp": (32,), "warpsPerCTA": (4,), "order": (0,)}

    assert encoding_from_attr(WithDict()) == Blocked([4], [32], [4], [0])


def test_errors():
    with pytest.raises(LayoutError, match="no name"):
        encoding_from_attr(42)
    with pytest.raises(LayoutError, match="no 'order' parameter"):
        encoding_from_attr(FakeAttr("ttg.blocked", sizePerThread=[1], threadsPerWarp=[32], warpsPerCTA=[4]))
    with pytest.raises(LayoutError, match="no linear-layout conversion"):
        encoding_from_attr(FakeAttr("ttg.padded_shared"))


def test_ir_attributes_of_a_corpus_file(corpus):
    """Every layout in a parsed TritonGPU module converts to what the text reader gives."""
    ir = pytest.importorskip("tileopt.ir")
    path = corpus / "hip-gfx942" / "matmul.ttgir"
    text = path.read_text()
    try:
        module = ir.parse_module(text, str(path))
    except ir.TileoptError as exc:  # the dialects are another helper's work in progress
        pytest.skip(f"the IR layer cannot read the corpus file yet: {exc}")
    from_text = {parse_layout(f"#{n}", parse_alias_definitions(text)) for n in parse_alias_definitions(text)}
    found = set()
    for op in module.walk():
        for value in list(op.results) + [a for r in op.regions for b in r.blocks for a in b.args]:
            encoding = getattr(value.type, "encoding", None)
            name = getattr(encoding, "name", "")
            if name.startswith("ttg.") and name != "ttg.shared_memory":
                found.add(encoding_from_attr(encoding))
    assert from_text <= found
