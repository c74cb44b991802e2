"""tileopt/dialects/attribute_hashes.py: remembered attribute hashes are xDSL's own.

Every type and attribute of the corpus kernels (their ``.ttgir`` and a kernel lowered to
the LLVM dialect), at any depth, is hashed with the remembering methods and with xDSL's
own (the generated methods put back on every class): the same numbers."""

from __future__ import annotations

import copy
import pickle
from contextlib import contextmanager

import pytest
from xdsl.dialects.builtin import (ArrayAttr, FloatData, IntAttr, IntegerAttr,
                                   StringAttr, TensorType, f32, i32)
from xdsl.ir import Attribute, Data, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition, param_def

from tileopt.dialects import attribute_hashes
from tileopt.dialects.ttg_attrs import BlockedEncodingAttr
from tileopt.driver.pass_manager import PassManager
from tileopt.ir import make_context, parse_module
from tileopt.ir.context import DIALECTS
from tileopt.pipelines import resolve_pass_pipeline


def _attribute_classes() -> set[type]:
    ctx = make_context()
    for name in DIALECTS:
        ctx.load_registered_dialect(name)
    import xdsl.dialects.llvm  # noqa: F401 - its attributes too

    # (an Attribute that is neither Data nor parametrized cannot be made: xDSL refuses it,
    # as a test of the fast paths shows with a class of its own)
    return {Attribute, *(cls for cls in attribute_hashes._subclasses(Attribute)
                         if issubclass(cls, (Data, ParametrizedAttribute)))}


@contextmanager
def _xdsls_own_hashes():
    """Every class with xDSL's generated ``__hash__`` again, for the block."""
    wrapped = {cls: cls.__dict__["__hash__"] for cls in _attribute_classes()
               if hasattr(cls.__dict__.get("__hash__"), "__wrapped__")}
    for cls, method in wrapped.items():
        cls.__hash__ = method.__wrapped__
    try:
        yield
    finally:
        for cls, method in wrapped.items():
            cls.__hash__ = method


def _nested(attr: Attribute, found: dict[int, Attribute]) -> None:
    if id(attr) in found:
        return
    found[id(attr)] = attr
    inner = attr.parameters if isinstance(attr, ParametrizedAttribute) else ()
    if isinstance(attr, ArrayAttr):
        inner = attr.data
    for item in inner:
        if isinstance(item, Attribute):
            _nested(item, found)


def _attributes_of(module, found: dict[int, Attribute]) -> None:
    for op in module.walk():
        for attr in (*op.result_types, *op.operand_types, *op.properties.values(),
                     *op.attributes.values(),
                     *(arg.type for region in op.regions for block in region.blocks
                       for arg in block.args)):
            _nested(attr, found)


def test_every_generated_hash_is_remembered():
    classes = _attribute_classes()
    wrapped = [cls for cls in classes
               if hasattr(cls.__dict__.get("__hash__"), "__wrapped__")]
    generated = [cls for cls in classes
                 if attribute_hashes._is_generated(cls.__dict__.get("__hash__"))]
    assert len(wrapped) > 80 and not generated, generated
    assert not hasattr(FloatData.__dict__["__hash__"], "__wrapped__")  # its own


def test_remembered_hashes_are_xdsls(corpus):
    found: dict[int, Attribute] = {}
    for path in sorted(corpus.glob("*/*.ttgir")):
        _attributes_of(parse_module(path.read_text(), str(path)), found)
    path = corpus / "cuda-sm80" / "softmax.ttir"
    ctx = make_context()
    module = parse_module(path.read_text(), str(path), ctx)
    PassManager(resolve_pass_pipeline("nvidia-sm80"), str(path)).run(ctx, module)
    _attributes_of(module, found)
    kinds = {type(attr) for attr in found.values()}
    assert len(found) > 2000 and len(kinds) > 40, (len(found), len(kinds))
    assert {BlockedEncodingAttr, TensorType, ArrayAttr, IntAttr} <= kinds

    hashable = []
    for attr in found.values():
        try:
            hash(attr)
        except TypeError:
            continue
        hashable.append(attr)
    remembered = [hash(attr) for attr in hashable]
    assert [hash(attr) for attr in hashable] == remembered  # the second call, as the first
    with _xdsls_own_hashes():
        own = [hash(attr) for attr in hashable]
    assert remembered == own


def test_equal_objects_hash_and_compare_alike():
    def layout():
        return BlockedEncodingAttr.get([1, 4], [4, 8], [4, 1], [1, 0])

    a, b = TensorType(f32, [64, 128], layout()), TensorType(f32, [64, 128], layout())
    c = TensorType(f32, [64, 64], layout())
    assert a is not b and a.encoding is not b.encoding
    hash(a), hash(c)  # a's and c's remembered, b's not yet
    assert a.__dict__["__cached_hash__"] == hash(a) and "__cached_hash__" not in b.__dict__
    assert a == b and b == a and hash(a) == hash(b)
    assert a != c and c != a
    assert len({a, b, c}) == 2


# Defined after the dialects' install (imported above): through irdl_attr_definition.
@irdl_attr_definition
class _LaterType(ParametrizedAttribute, TypeAttribute):
    name = "test.later"
    width: IntAttr = param_def()


@irdl_attr_definition
class _LaterData(Data[object]):
    name = "test.later_data"

    @classmethod
    def parse_parameter(cls, parser):
        raise NotImplementedError

    def print_parameter(self, printer) -> None:
        raise NotImplementedError


def test_attributes_defined_later_are_remembered():
    assert hasattr(_LaterType.__dict__["__hash__"], "__wrapped__")
    assert hasattr(Data.__dict__["__hash__"], "__wrapped__")  # _LaterData's
    later = _LaterType(IntAttr(3))
    assert hash(later) == _LaterType.__dict__["__hash__"].__wrapped__(later)
    assert hash(later) == hash(_LaterType(IntAttr(3)))
    data = _LaterData((1, 2))
    assert hash(data) == hash((data.data,)) == hash(_LaterData((1, 2)))


def test_an_unhashable_parameter_fails_every_time():
    attr = _LaterData([1])
    for _ in range(2):
        with pytest.raises(TypeError):
            hash(attr)
    assert "__cached_hash__" not in attr.__dict__


def test_pickles_and_copies_leave_the_number_out():
    attr = IntegerAttr(7, i32)
    name = StringAttr("x")
    number = hash(attr)
    assert attr.__dict__["__cached_hash__"] == number
    for twin in (pickle.loads(pickle.dumps(attr)), copy.copy(attr), copy.deepcopy(attr)):
        assert "__cached_hash__" not in twin.__dict__
        assert twin == attr and hash(twin) == number
    assert pickle.loads(pickle.dumps(name)) == name  # not hashed yet: as xDSL pickles it
