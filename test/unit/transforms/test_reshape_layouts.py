"""The layout a tt.reshape result gets from its operand's (transforms/utils/reshape_layouts).

Every expected layout is what Triton 3.6 itself infers for that reshape: its verifier
rejects a tt.reshape whose result layout differs and names the one it expected."""

from __future__ import annotations

import pytest
from xdsl.parser import Parser

from tileopt.ir import make_context
from tileopt.transforms.utils.reshape_layouts import reshape_encoding, reshape_groups


def _attr(text: str):
    return Parser(make_context(), text).parse_attribute()


def _blocked(spt, tpw, wpc, order) -> str:
    return (f"#ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {tpw}, "
            f"warpsPerCTA = {wpc}, order = {order}}}>")


def _linear(register, lane, warp) -> str:
    return f"#ttg.linear<{{register = {register}, lane = {lane}, warp = {warp}, block = []}}>"


CASES = [
    # a pair joined in registers -> two registers per thread
    ([128, 2], _blocked([1, 2], [32, 1], [4, 1], [1, 0]), [256],
     _blocked([2], [32], [4], [0])),
    # merged dims must be consecutive, major first, in the layout's order
    ([2, 2, 32], _blocked([1, 1, 4], [2, 2, 8], [1, 1, 4], [1, 0, 2]), [4, 32],
     _blocked([1, 4], [4, 8], [1, 4], [0, 1])),
    ([256], _blocked([2], [32], [4], [0]), [8, 32], _blocked([1, 2], [2, 16], [4, 1], [1, 0])),
    ([16, 16], _blocked([1, 1], [2, 16], [4, 1], [1, 0]), [4, 4, 16],
     _blocked([1, 1, 1], [1, 2, 16], [2, 2, 1], [2, 1, 0])),
    # the default layout reshapes to the default layout
    ([8], _blocked([1], [32], [4], [0]), [2, 4], _blocked([1, 1], [8, 4], [4, 1], [1, 0])),
    # no blocked layout says these: the operand's linear layout, reshaped
    ([32, 32], _blocked([2, 2], [4, 8], [4, 1], [1, 0]), [1024],
     _linear([[1], [32], [16]], [[2], [4], [8], [64], [128]], [[256], [512]])),
    ([64, 4], _blocked([1, 4], [8, 4], [4, 1], [1, 0]), [256],
     _linear([[1], [2], [128]], [[0], [0], [4], [8], [16]], [[32], [64]])),
    ([4, 64], _blocked([1, 1], [1, 32], [1, 4], [0, 1]), [256],
     _linear([[64], [128]], [[1], [2], [4], [8], [16]], [[32], [0]])),
    ([2, 64], _blocked([1, 1], [2, 16], [1, 4], [1, 0]), [128],
     _linear([], [[1], [2], [4], [8], [64]], [[16], [32]])),
]


@pytest.mark.parametrize("src_shape,src,dst_shape,expected", CASES)
def test_reshape_encoding_is_tritons(src_shape, src, dst_shape, expected):
    assert reshape_encoding(src_shape, _attr(src), dst_shape) == _attr(expected)


@pytest.mark.parametrize("src_shape,src,dst_shape,expected", CASES[:5])
def test_blocked_reshape_is_symmetric(src_shape, src, dst_shape, expected):
    assert reshape_encoding(dst_shape, _attr(expected), src_shape) == _attr(src)


def test_reshape_groups():
    assert reshape_groups([2, 4, 6], [8, 6]) == [([0, 1], [0]), ([2], [1])]
    assert reshape_groups([256], [1, 1, 2, 2, 64]) == [([0], [0, 1, 2, 3, 4])]
    assert reshape_groups([], []) == []


def test_element_counts_must_agree():
    assert reshape_encoding([4, 4], _attr(_blocked([1, 1], [4, 8], [4, 1], [1, 0])), [8]) is None


_MFMA = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], " \
        "isTransposed = true}>"
_ROWS = _blocked([1, 8], [8, 8], [4, 1], [1, 0])

# Triton 3.9 (slices=True), each seen in its corpus (remove-layout-conversions on
# desc_matmul): a blocked 128x1 tile whose 8 registers along the unit dim repeat the
# element reshapes to its slice; an MFMA 128x1 tile (16 such registers) keeps the linear
# layout; an MFMA 1x128 tile, which places every element as its slice does, takes the slice.
SLICE_CASES = [
    ([128, 1], _ROWS, [128], f"#ttg.slice<{{dim = 1, parent = {_ROWS}}}>"),
    ([128], f"#ttg.slice<{{dim = 1, parent = {_ROWS}}}>", [128, 1], _ROWS),
    ([128, 1], _MFMA, [128],
     _linear([[0], [0], [0], [0], [64]], [[1], [2], [4], [8], [16], [0]], [[0], [32]])),
    ([1, 128], _MFMA, [128], f"#ttg.slice<{{dim = 0, parent = {_MFMA}}}>"),
]


@pytest.mark.parametrize(("src_shape", "src", "dst_shape", "expected"), SLICE_CASES)
def test_triton_39_keeps_slices(src_shape, src, dst_shape, expected):
    assert reshape_encoding(src_shape, _attr(src), dst_shape, slices=True) == _attr(expected)
    # Triton 3.6 never gives a slice here
    assert "slice" not in str(reshape_encoding(src_shape, _attr(src), dst_shape))


def test_triton_39_keeps_an_equivalent_hint():
    # the reshape's own placement, spelled as a linear layout: kept
    hint = _attr(_linear([[0], [0], [0], [32], [64]], [[0], [0], [0], [1], [2], [4]],
                         [[8], [16]]))
    assert reshape_encoding([128, 1], _attr(_ROWS), [128], slices=True, hint=hint) == hint
    other = _attr(_blocked([1], [32], [4], [0]))
    assert reshape_encoding([128, 1], _attr(_ROWS), [128], slices=True, hint=other) == \
        _attr(f"#ttg.slice<{{dim = 1, parent = {_ROWS}}}>")
