"""tileopt/transforms/ttgir/pipeliner/lower_loops.py ``is_zero_constant``: a load's
``other`` is zero when every element is 0 and none is -0.0 (Triton's ``m_Zero``/``m_PosZeroFloat``
on splats; checked on whole dense constants without a Python loop per element)."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import (BFloat16Type, DenseIntOrFPElementsAttr, IntegerAttr,
                                   TensorType, f16, f32, f64, i32)

from tileopt.transforms.ttgir.pipeliner.lower_loops import is_zero_constant


def _dense(values, element=f32):
    return arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(
        TensorType(element, [len(values)]), values)).result


@pytest.mark.parametrize("values, zero", [
    ([0.0] * 4096, True),
    ([0.0] * 4095 + [-0.0], False),
    ([-0.0] * 8, False),
    ([0.0, 1.0], False),
    ([float("nan")], False),
    ([0.0, float("inf")], False),
    ([1e-30], False),
])
def test_float_constants(values, zero):
    assert is_zero_constant(_dense(values)) is zero


@pytest.mark.parametrize("element", [f16, f64, BFloat16Type()])
def test_other_float_widths(element):
    # f16/f64 by the byte test, bfloat16 by the unpacked values: the same answers
    assert is_zero_constant(_dense([0.0] * 256, element))
    assert not is_zero_constant(_dense([0.0] * 255 + [-0.0], element))
    assert not is_zero_constant(_dense([0.0] * 255 + [2.0], element))


def test_integer_constants():
    assert is_zero_constant(_dense([0] * 64, i32))
    assert not is_zero_constant(_dense([0] * 63 + [1], i32))
    assert not is_zero_constant(arith.ConstantOp(IntegerAttr(-1, i32)).result)
