"""Where a diagnostic about an op that a pass created (with no location) points: near it."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, i32

from tileopt.ir import parse_module
from tileopt.ir.locations import error_at_op

TEXT = """module {
  tt.func public @k(%p: !tt.ptr<i32>) {
    %c = arith.constant 1 : i32 loc("model.py":7:9)
    tt.store %p, %c : !tt.ptr<i32> loc("model.py":12:5)
    tt.return loc("model.py":13:5)
  } loc("model.py":3:1)
} loc(unknown)
"""


def _module_and_ops():
    module = parse_module(TEXT, "k.ttir")
    func = next(op for op in module.walk() if op.name == "tt.func")
    const, store, ret = list(func.regions[0].block.ops)
    return module, const, store, ret


def _made_by_a_pass(before, operands=()):
    new = arith.AddiOp(*operands) if operands else arith.ConstantOp(IntegerAttr(2, i32))
    before.parent_block().insert_op_before(new, before)
    return new


def test_created_op_points_at_its_first_user():
    _, const, store, _ = _module_and_ops()
    new = _made_by_a_pass(store, (const.result, const.result))
    store.operands[1] = new.result
    assert str(error_at_op("boom", new, "k.ttir")).startswith("model.py:12:5: error: boom")


def test_created_op_without_users_points_at_an_operand():
    _, const, store, _ = _module_and_ops()
    new = _made_by_a_pass(store, (const.result, const.result))
    assert str(error_at_op("boom", new, "k.ttir")).startswith("model.py:7:9: error: boom")


def test_created_op_alone_points_at_its_function():
    _, _, store, _ = _module_and_ops()
    new = _made_by_a_pass(store)
    assert str(error_at_op("boom", new, "k.ttir")).startswith("model.py:3:1: error: boom")
