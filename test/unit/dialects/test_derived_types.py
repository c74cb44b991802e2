"""The tensor types the op verifiers derive (``tt_types.pointee_type``,
``same_shape_with_element``, arith's ``with_element_type``) are remembered per pair of
type objects: equal to a freshly built type, the same object again, another for another
input."""

from __future__ import annotations

from xdsl.dialects.builtin import Float16Type, Float32Type, TensorType, i1, i32

from tileopt.dialects import tt_types
from tileopt.dialects.arith import with_element_type
from tileopt.ir import parse_module


def _tensor(text: str) -> TensorType:
    module = parse_module(f"tt.func @f(%t: {text}) {{\n  tt.return\n}}\n")
    return next(iter(module.ops)).body.block.args[0].type


def test_a_derived_type_is_built_once_and_equals_a_fresh_one():
    ty = _tensor("tensor<4x8xf32>")
    derived = tt_types.same_shape_with_element(ty, i1)
    assert derived == TensorType(i1, [4, 8]) and derived is tt_types.i1_same_shape(ty)
    assert with_element_type(ty, i1) is derived
    assert tt_types.same_shape_with_element(ty, i32) == TensorType(i32, [4, 8])
    assert tt_types.same_shape_with_element(ty, Float16Type()) != derived
    other = _tensor("tensor<8x4xf32>")  # another shape: another type
    assert tt_types.same_shape_with_element(other, i1) == TensorType(i1, [8, 4])


def test_the_pointee_of_a_tensor_of_pointers():
    ty = _tensor("tensor<16x!tt.ptr<f32>>")
    pointee = tt_types.pointee_type(ty)
    assert pointee == TensorType(Float32Type(), [16])
    assert tt_types.pointee_type(ty) is pointee
    entry = tt_types._DERIVED[id(ty), id(ty.element_type.pointee_type)]
    assert entry[0] is ty  # (the entry holds its inputs: their ids are not reused)


def test_the_memo_is_bounded(monkeypatch):
    monkeypatch.setattr(tt_types, "_DERIVED_LIMIT", 1)
    tt_types._DERIVED.clear()
    first, second = _tensor("tensor<2xf32>"), _tensor("tensor<3xf32>")
    tt_types.same_shape_with_element(first, i1)
    assert tt_types.same_shape_with_element(second, i1) == TensorType(i1, [3])
    assert len(tt_types._DERIVED) == 1
