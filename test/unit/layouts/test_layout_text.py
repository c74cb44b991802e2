"""Reading Triton's layout attribute text, aliases and tensor types with the dialect's parser
(what ``tileopt-layout`` does), and printing layouts back as Triton prints them."""

from __future__ import annotations

import pytest

from tileopt.dialects.layout_of import encoding_of
from tileopt.dialects.ttg_attrs import AMDMfmaEncodingAttr, BlockedEncodingAttr, LinearEncodingAttr
from tileopt.layout_cli import LayoutReader, LayoutTextError, element_bit_width, encoding_text
from tileopt.layouts import encodings as enc
from tileopt.layouts.encodings import to_linear_layout


def definitions(aliases: dict[str, str]) -> str:
    return "".join(f"#{name} = {body}\n" for name, body in aliases.items())


def parse_layout(text: str, aliases: dict[str, str] | None = None):
    """The encoding of ``text`` read by the dialect, ``#alias`` uses from ``aliases``."""
    return encoding_of(LayoutReader(definitions(aliases or {})).layout(text))

BLOCKED_TEXT = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"


@pytest.mark.parametrize(
    "text,expected",
    [
        (BLOCKED_TEXT, enc.Blocked([1, 4], [8, 4], [4, 1], [1, 0])),
        (
            "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
            "order = [1, 0], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>",
            enc.Blocked([1, 4], [8, 4], [4, 1], [1, 0], ctas_per_cga=[2, 1], cta_split_num=[2, 1], cta_order=[1, 0]),
        ),
        (
            "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>",
            enc.NvidiaMma(3, 0, [8, 1], [16, 128, 16]),
        ),
        (
            "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [32, 32, 8], isTransposed = true}>",
            enc.AmdMfma(3, [2, 4], [32, 32, 8], True),
        ),
        (
            "#ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = false, "
            "tilesPerWarp = [2, 2], elementBitWidth = 64}>",
            enc.AmdMfma(4, [4, 1], [16, 16, 32], False, tiles_per_warp=[2, 2], element_bit_width=64),
        ),
        ("#ttg.amd_wmma<{version = 1, isTranspose = true, warpsPerCTA = [2, 4]}>", enc.AmdWmma(1, True, [2, 4])),
        (
            "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0]], warp = [], block = []}>",
            enc.Linear([[0, 1], [0, 2]], [[1, 0]], []),
        ),
        (
            "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
            enc.SwizzledShared(8, 1, 8, [1, 0]),
        ),
        (
            "#ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>",
            enc.AmdRotatingShared(4, 2, 8, [1, 0]),
        ),
        (
            "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>",
            enc.NvmmaShared(64, True, 16),
        ),
        (
            "#triton_gpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
            enc.Blocked([4], [32], [4], [0]),
        ),
        # Explicit integer types and default CTA layouts are accepted and normalised.
        (
            "#ttg.swizzled_shared<{vec = 8 : i32, perPhase = 1, maxPhase = 8, order = [1, 0], "
            "CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]}>",
            enc.SwizzledShared(8, 1, 8, [1, 0]),
        ),
    ],
)
def test_parse_layouts(text, expected):
    assert parse_layout(text) == expected


def test_nested_parents_and_aliases():
    aliases = {
        "blocked": "#ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>",
        "mma": "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>",
    }
    parsed = parse_layout("#ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked}>}>", aliases)
    assert parsed == enc.Slice(1, enc.Slice(2, enc.Blocked([1, 1, 4], [1, 32, 1], [2, 2, 1], [2, 1, 0])))
    dot = parse_layout("#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>", aliases)
    assert dot == enc.DotOperand(1, enc.NvidiaMma(2, 0, [2, 2], [16, 8]), 4)
    assert parse_layout("#mma", aliases) == enc.NvidiaMma(2, 0, [2, 2], [16, 8])


def test_alias_definitions_from_a_file(corpus):
    reader = LayoutReader((corpus / "cuda-sm80" / "matmul.ttgir").read_text())
    aliases = reader.layout_aliases()
    assert "mma" in aliases and "blocked" in aliases and "shared" in aliases
    assert "smem" not in aliases and not any(name.startswith("loc") for name in aliases)
    for name in aliases:
        encoding_of(reader.layout(f"#{name}"))


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "empty"),
        ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1]}>", "needs 'order'"),
        ("#ttg.blocked<{sizePerThread = [1, 4] threadsPerWarp = [8, 4]}>", "'}' expected"),
        ("#ttg.foo<{}>", "unknown layout '#ttg.foo'"),
        ("#mma", "undefined layout alias '#mma'"),
        ("#arith.overflow<nsw>", "not a TritonGPU layout"),
        (BLOCKED_TEXT.replace("sizePerThread = [1, 4]", "sizePerThread = 4"), "expected an array of integers"),
        (BLOCKED_TEXT.replace("order = [1, 0]", "order = [1, 0], bogus = 1"), "unexpected key 'bogus'"),
        (BLOCKED_TEXT.replace("[8, 4]", "[8, 3]"), "power of two"),
        (BLOCKED_TEXT.replace("order = [1, 0]", "order = [1, 1]"), "permutation"),
        (BLOCKED_TEXT + " extra", "unexpected text"),
        ("#ttg.slice<{dim = 2, parent = " + BLOCKED_TEXT + "}>", "must be less than the parent rank"),
        ("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [8, 8, 8], isTransposed = true}>", "(mDim, nDim) must be"),
        ("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [32, 32, 8], isTransposed = 2}>", "'true' or 'false'"),
        ("#ttg.linear<{register = [[0, 1], [1]], lane = [], warp = [], block = []}>", "every basis must have 2 entries"),
        ("#ttg.dot_op<{opIdx = 2, parent = " + BLOCKED_TEXT + "}>", "opIdx"),
    ],
)
def test_parse_errors_are_one_line_with_a_column(text, message):
    with pytest.raises(LayoutTextError) as info:
        parse_layout(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert str(info.value).startswith("column ") or text in ("", "#arith.overflow<nsw>")


def test_self_referencing_alias_is_an_error():
    with pytest.raises(LayoutTextError, match="defined in terms of itself"):
        parse_layout("#a", {"a": "#ttg.slice<{dim = 0, parent = #a}>"})


def test_tensor_types():
    reader = LayoutReader(definitions({"blocked": BLOCKED_TEXT, "shared": "#ttg.swizzled_shared<{vec = 8, "
                                       "perPhase = 1, maxPhase = 8, order = [1, 0]}>",
                                       "smem": "#ttg.shared_memory"}))
    t = reader.tensor_type("tensor<16x64xf16>")
    assert t.get_shape() == (16, 64) and str(t.element_type) == "f16" and element_bit_width(t.element_type) == 16
    assert encoding_text("tensor<16x64xf16>") is None
    text = "tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>"
    t = reader.tensor_type(text)
    assert t.get_shape() == (128,) and encoding_text(text) == "#ttg.slice<{dim = 0, parent = #blocked}>"
    assert encoding_of(t) == enc.Slice(0, enc.Blocked([1, 4], [8, 4], [4, 1], [1, 0]))
    text = "!ttg.memdesc<64x32xf16, #shared, #smem, mutable>"
    t = reader.tensor_type(text)
    assert t.get_shape() == (64, 32) and encoding_text(text) == "#shared"
    assert encoding_of(t) == enc.SwizzledShared(8, 1, 8, [1, 0])
    assert reader.tensor_type("16x16").get_shape() == (16, 16)
    with pytest.raises(LayoutTextError, match="tensor type"):
        reader.tensor_type("vector<4xf32>")
    with pytest.raises(LayoutTextError, match="dynamic"):
        reader.tensor_type("tensor<?x4xf32>")


@pytest.mark.parametrize("name,bits", [("f16", 16), ("bf16", 16), ("f32", 32), ("i8", 8), ("i1", 8),
                                       ("f8E4M3FN", 8), ("f8E5M2", 8), ("i64", 64), ("!tt.ptr<f16>", None)])
def test_element_bit_width(name, bits):
    assert element_bit_width(LayoutReader().tensor_type(f"tensor<4x{name}>").element_type) == bits


def test_printer_prints_what_triton_prints(corpus):
    """Every layout text in the corpus reads and prints back unchanged through the dialect
    (slices and dot operands with their parents written out)."""
    import re

    count = 0
    for path in sorted(corpus.glob("*/*.ttgir")):
        text = path.read_text()
        reader = LayoutReader(text)
        bodies = {}
        for name in reader.layout_aliases():
            body = re.search(rf"^#{name} = (.*)$", text, re.MULTILINE).group(1)
            bodies[name] = body
            assert str(reader.layout(body)) == body
            count += 1
        for match in re.finditer(r"#ttg\.(slice|dot_op)<\{[^<>]*\}>", text):
            written_out = re.sub(r"#(\w+)\b(?![<.])", lambda m: bodies.get(m.group(1), m.group(0)),
                                 match.group(0))
            assert str(reader.layout(match.group(0))) == written_out
            count += 1
    assert count > 100


def test_printer_leaves_out_defaults():
    mfma = AMDMfmaEncodingAttr.get(3, [2, 2], [16, 16, 16], False, tilesPerWarp=[1, 1])
    assert str(mfma) == (
        "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 16], isTransposed = false}>"
    )
    assert mfma.to_encoding() == enc.AmdMfma(3, [2, 2], [16, 16, 16], False, tiles_per_warp=[1, 1])
    blocked = BlockedEncodingAttr.get([1, 4], [8, 4], [4, 1], [1, 0], [2, 1], [2, 1], [1, 0])
    assert str(blocked).endswith("CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>")
    assert parse_layout(str(blocked)) == enc.Blocked([1, 4], [8, 4], [4, 1], [1, 0], ctas_per_cga=[2, 1], cta_split_num=[2, 1], cta_order=[1, 0])
    linear = enc.Linear.from_layout(to_linear_layout(enc.Blocked([1, 4], [8, 4], [4, 1], [1, 0]), [32, 16]))
    attr = LinearEncodingAttr.get(linear.register, linear.lane, linear.warp, linear.block)
    assert attr.to_encoding() == linear
    assert str(attr) == (
        "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], "
        "warp = [[8, 0], [16, 0]], block = []}>"
    )
