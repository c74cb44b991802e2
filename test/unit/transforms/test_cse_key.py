"""tileopt/transforms/common/cse.py: CSE's op key (``_OperationInfo``) is equal exactly
where xDSL's comparison (operands as a multiset for commutative ops) says so, and equal
keys hash alike, on pairs of ops of one name in corpus kernels; a new op is hashed once."""

from __future__ import annotations

from collections import Counter, defaultdict

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Block
from xdsl.traits import Commutative

from tileopt.ir import parse_module
from tileopt.transforms.common.cse import _OperationInfo


def _reference_equal(a, b) -> bool:
    """The comparison before hashes were remembered: xDSL's ``OperationInfo.__eq__``, with
    operands as a multiset for commutative ops, written out on the ops' public fields."""
    commutative = a.has_trait(Commutative, value_if_unregistered=False)
    return (a.name == b.name and a.attributes == b.attributes
            and a.properties == b.properties
            and (Counter(a.operands) == Counter(b.operands) if commutative
                 else tuple(a.operands) == tuple(b.operands))
            and a.result_types == b.result_types
            and all(s.is_structurally_equivalent(o)
                    for s, o in zip(a.regions, b.regions, strict=True)))


def test_equal_attributes_that_are_distinct_objects_and_swapped_operands():
    block = Block(arg_types=[i32, i32])
    x, y = block.args

    def constant(value):
        return arith.ConstantOp(IntegerAttr(value, i32))

    one, also_one, two = constant(1), constant(1), constant(2)
    assert one.properties["value"] is not also_one.properties["value"]
    assert _OperationInfo(one) == _OperationInfo(also_one)
    assert hash(_OperationInfo(one)) == hash(_OperationInfo(also_one))
    assert _OperationInfo(one) != _OperationInfo(two)
    added, swapped = arith.AddiOp(x, y), arith.AddiOp(y, x)
    assert _OperationInfo(added) == _OperationInfo(swapped)
    assert hash(_OperationInfo(added)) == hash(_OperationInfo(swapped))
    subtracted, reversed_ = arith.SubiOp(x, y), arith.SubiOp(y, x)
    assert _OperationInfo(subtracted) != _OperationInfo(reversed_)


def _twin(op, again):
    """``op`` built again from ``again`` (the same op of a second parse of its file): its
    operands (reversed where the op is commutative), ``again``'s equal but distinct types
    and attributes."""
    operands = list(op.operands)
    if op.has_trait(Commutative, value_if_unregistered=False):
        operands.reverse()
    return type(op).create(operands=operands,
                           result_types=[r.type for r in again.results],
                           properties=dict(again.properties),
                           attributes=dict(again.attributes))


def test_the_key_agrees_with_the_reference_on_corpus_ops(corpus):
    """Every pair of ops of one name among the first ones of each corpus `.ttgir` and their
    twins (``_twin``)."""
    compared = equal = 0
    for path in sorted(corpus.glob("*/*.ttgir")):
        text = path.read_text()
        by_name = defaultdict(list)
        for op, again in zip(parse_module(text, str(path)).walk(),
                             parse_module(text, str(path)).walk(), strict=True):
            if len(by_name[op.name]) < 16 and not op.regions:
                by_name[op.name] += [op, _twin(op, again)]
        for ops in by_name.values():
            for a in ops:
                for b in ops:
                    same = _OperationInfo(a) == _OperationInfo(b)
                    assert same == _reference_equal(a, b), (a, b)
                    if same:
                        assert hash(_OperationInfo(a)) == hash(_OperationInfo(b))
                    compared += 1
                    equal += same and a is not b
    assert compared > 10_000 and equal > 1_000, (compared, equal)


def test_a_new_op_is_hashed_once(monkeypatch):
    """The driver looks a new op up, then records it: one key, hashed once; a record
    without that look-up, or of another op, builds its own key."""
    from tileopt.transforms.common import cse as cse_module

    hashed = []
    real = cse_module.operation_info_hash
    monkeypatch.setattr(cse_module, "operation_info_hash",
                        lambda info, operands=None: hashed.append(info.op) or real(info, operands))

    def constant(value):
        return arith.ConstantOp(IntegerAttr(value, i32))

    one, also_one, two, three = constant(1), constant(1), constant(2), constant(3)
    known = cse_module._KnownOps()
    assert known.get(one) is None
    known[one] = one
    assert hashed == [one]
    assert known.get(also_one) is one and hashed == [one, also_one]
    known[two] = two  # no look-up before
    assert known.get(three) is None
    known[also_one] = also_one  # not the op looked up last
    assert hashed == [one, also_one, two, three, also_one]
    assert known.get(constant(2)) is two
    assert isinstance(cse_module._xdsl_cse.KnownOps(known), cse_module._KnownOps)
