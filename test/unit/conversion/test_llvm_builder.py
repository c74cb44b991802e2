"""``LLVMBuilder`` makes its ops from finished fields (``llvm_builder.new_op``): each kind
must be the op that xDSL's (or ``llvm_ext``'s) builder makes from the same arguments."""

from __future__ import annotations

import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    FloatAttr, IntegerAttr, StringAttr, UnitAttr, VectorType, f32, i1, i32, i64,
)
from xdsl.ir import Block, Operation, Region

from tileopt.conversion.llvm_builder import _CASTS, _FLOAT_OPS, _INT_OPS, LLVMBuilder
from tileopt.conversion.nvidia.hooks import NvidiaHooks
from tileopt.dialects import llvm_ext, nvvm
from tileopt.ir import make_context

make_context()  # the dialects and xDSL's fast paths, as a run has them

_PTR = llvm.LLVMPointerType()
_STRUCT = llvm.LLVMStructType.from_type_list([i32, i32])
_VECTOR = VectorType(i32, [2])


def _fields(op: Operation) -> tuple:
    """Everything a printer, a verifier or a pass reads of an op without regions."""
    return (type(op), op.name, list(op.operands), [r.type for r in op.results],
            list(op.properties.items()), list(op.attributes.items()), op.location,
            list(op.successors), len(op.regions))


@pytest.fixture
def env():
    """A builder in a block whose arguments are operands of every kind used below."""
    entry = Block(arg_types=[i32, i32, f32, f32, i1, _PTR, _STRUCT, _VECTOR])
    Region([entry])  # the builder's prologue needs the entry block in a region
    return LLVMBuilder(entry), entry.args


def _built(b: LLVMBuilder, value) -> Operation:
    op = b.block.last_op if value is None else value.owner
    assert op is not None
    return op


@pytest.mark.parametrize("kind", sorted(_INT_OPS))
def test_integer_ops(env, kind):
    b, (x, y, *_) = env
    assert _fields(_built(b, b.int_op(kind, x, y))) == _fields(_INT_OPS[kind](x, y))


def test_disjoint_or(env):
    b, (x, y, *_) = env
    assert _fields(_built(b, b.int_op("or", x, y, disjoint=True))) == \
        _fields(llvm.OrOp(x, y, is_disjoint=UnitAttr()))


@pytest.mark.parametrize("kind", sorted(_FLOAT_OPS))
def test_float_ops(env, kind):
    b, (_, _, fx, fy, *_) = env
    assert _fields(_built(b, b.float_op(kind, fx, fy))) == _fields(_FLOAT_OPS[kind](fx, fy))


def test_compare_select_negate(env):
    b, (x, y, fx, fy, c, *_) = env
    assert _fields(_built(b, b.icmp("slt", x, y))) == \
        _fields(llvm.ICmpOp(x, y, IntegerAttr(llvm.ICmpPredicateFlag("slt").to_int(), i64)))
    assert _fields(_built(b, b.fcmp("olt", fx, fy))) == _fields(llvm.FCmpOp(fx, fy, "olt"))
    assert _fields(_built(b, b.select(c, x, y))) == _fields(llvm.SelectOp(c, x, y))
    assert _fields(_built(b, b.fneg(fx))) == _fields(llvm.FNegOp(fx))


@pytest.mark.parametrize("kind", sorted(_CASTS))
def test_casts(env, kind):
    b, (x, *_) = env
    assert _fields(_built(b, b.cast(kind, x, f32))) == \
        _fields(_CASTS[kind].create(operands=[x], result_types=[f32]))


@pytest.mark.parametrize("alignment", [None, 4, 16])
def test_memory(env, alignment):
    b, (x, y, _, _, _, ptr, *_) = env
    assert _fields(_built(b, b.load(ptr, i32, alignment))) == \
        _fields(llvm_ext.LoadOp(ptr, i32, alignment=alignment))
    b.store(x, ptr, alignment)
    assert _fields(_built(b, None)) == _fields(llvm_ext.StoreOp(x, ptr, alignment=alignment))
    assert _fields(_built(b, b.gep(ptr, y, f32))) == _fields(llvm.GEPOp(
        ptr, [llvm.GEP_USE_SSA_VAL], f32, ssa_indices=[y], result_type=ptr.type))


def test_aggregates_and_vectors(env):
    b, (x, _, _, _, _, _, struct, vector) = env
    assert _fields(_built(b, b.extract_value(struct, 1, i32))) == _fields(
        llvm.ExtractValueOp(llvm.DenseArrayBase.from_list(i64, [1]), struct, i32))
    assert _fields(_built(b, b.insert_value(struct, x, 1))) == _fields(
        llvm.InsertValueOp(llvm.DenseArrayBase.from_list(i64, [1]), struct, x))
    index = b.i32(1)
    assert _fields(_built(b, b.extract_element(vector, 1))) == \
        _fields(llvm_ext.ExtractElementOp(vector, index))
    assert _fields(_built(b, b.insert_element(vector, x, 1))) == \
        _fields(llvm.InsertElementOp(vector, x, index))
    assert _fields(_built(b, b.undef(_VECTOR))) == _fields(llvm.UndefOp(_VECTOR))


def test_constants(env):
    b, _ = env
    assert _fields(_built(b, b.i32(7))) == \
        _fields(llvm.ConstantOp(IntegerAttr(7, i32), i32))
    assert _fields(_built(b, b.constant(f32, -0.0))) == \
        _fields(llvm.ConstantOp(FloatAttr(-0.0, f32), f32))


@pytest.mark.parametrize("result", [i32, None])
def test_calls_and_asm(env, result):
    b, (x, y, *_) = env
    types = [] if result is None else [result]
    value = b.call_intrinsic("llvm.foo", [x, y], result)
    assert _fields(_built(b, value)) == _fields(llvm.CallIntrinsicOp("llvm.foo", [x, y], types))
    value = b.inline_asm("mov.b32 $0, $1;", "=r,r", [x], result)
    assert _fields(_built(b, value)) == _fields(llvm_ext.InlineAsmOp.create(
        operands=[x], result_types=[result or llvm.LLVMVoidType()], properties={
            "asm_string": StringAttr("mov.b32 $0, $1;"), "constraints": StringAttr("=r,r"),
            "asm_dialect": IntegerAttr(0, 64), "operand_attrs": llvm.ArrayAttr([]),
            "has_side_effects": UnitAttr()}))


def test_properties_are_not_shared_mutably(env):
    """Ops share property values, never the dict: changing one op leaves the next alone."""
    b, (x, y, *_) = env
    first = _built(b, b.add(x, y))
    first.properties["overflowFlags"] = IntegerAttr(1, 32)
    assert _built(b, b.add(x, y)).properties["overflowFlags"] == IntegerAttr(0, 32)


@pytest.mark.parametrize("kind", list(nvvm.ShflKind))
def test_nvidia_shuffle(env, kind):
    b, (x, y, *_) = env
    value = NvidiaHooks()._shuffle32(b, kind, x, y, 0x1F)
    assert _fields(_built(b, value)) == \
        _fields(nvvm.ShflSyncOp(kind, b.i32(-1), x, y, b.i32(0x1F)))


def test_intrinsic_ops_and_poison(env):
    b, (x, _, fx, *_) = env
    cls = _built(b, b.intrinsic_op("abs", [x], i32, is_int_min_poison=False))
    assert _fields(cls) == _fields(type(cls).create(
        operands=[x], result_types=[i32], properties={"is_int_min_poison": IntegerAttr(0, i1)}))
    exp2 = _built(b, b.intrinsic_op("exp2", [fx], f32))
    assert _fields(exp2) == _fields(type(exp2).create(operands=[fx], result_types=[f32]))
    assert _fields(_built(b, b.poison(i32))) == \
        _fields(llvm_ext.PoisonOp.create(result_types=[i32]))


def test_constants_are_shared_by_equal_types_and_values(env):
    """One constant per type and value in a function, whichever type object asks for it
    (the builder finds its table by the object's identity first)."""
    b, _ = env
    from xdsl.dialects.builtin import IntegerType
    first = b.constant(i32, 5)
    assert b.constant(IntegerType(32), 5) is first
    assert b.i32(5) is first
    assert b.constant(IntegerType(8), 255) is b.constant(IntegerType(8), -1)
    assert b.constant(i1, True) is b.i1(1)
    assert b.constant(i64, 5) is not first
    assert b.constant(f32, 2) is b.constant(f32, 2.0)
    assert b.known(b.constant(IntegerType(8), 255)) == -1


def test_float_zeros_of_both_signs_are_two_constants(env):
    """0.0 and -0.0 compare equal in Python but are different LLVM constants: asking for
    one after the other must not return the first."""
    b, _ = env
    plus, minus = b.constant(f32, 0.0), b.constant(f32, -0.0)
    assert plus is not minus
    assert str(_built(b, minus).properties["value"].value.data) == "-0.0"
    assert b.constant(f32, -0.0) is minus and b.constant(f32, 0) is plus


def test_ops_of_classes_not_used_before_have_their_accessors():
    """Op classes are built on first use (``lazy_op_definitions``): an op made from
    finished fields, first of its class, still has its accessors and verifies."""
    from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def

    from tileopt.dialects.lazy_op_definitions import _PENDING
    from tileopt.dialects.xdsl_fast_paths import new_operation

    @irdl_op_definition
    class _FreshOp(IRDLOperation):
        name = "test.fresh"
        lhs = operand_def(i32)
        res = result_def(i32)

    assert _FreshOp in _PENDING  # not built yet: the case under test
    x = Block(arg_types=[i32]).args[0]
    op = new_operation(_FreshOp, (x,), (i32,), {}, {}, None, defaults_given=True)
    assert op.lhs is x and op.res is op.results[0]
    op.verify()


def test_drop_unused_erases_what_canonicalize_would():
    """Unused ops that are trivially dead go, chains included (users first); used ones,
    ops with effects, and ops the dead-op test keeps (``canonicalize`` keeps them too)
    stay."""
    from xdsl.transforms.dead_code_elimination import is_trivially_dead

    from tileopt.conversion.llvm_builder import drop_unused

    entry = Block(arg_types=[i32, _PTR, _VECTOR])
    region = Region([entry])
    b = LLVMBuilder(entry)
    x, ptr, vector = entry.args
    kept = b.add(x, b.i32(3))
    dead = b.mul(b.xor(x, b.i32(5)), b.i32(7))  # a chain: xor, then mul, then 5 and 7
    b.store(kept, ptr)
    element = b.extract_element(vector, 1)
    later = Block()
    region.add_block(later)
    b.block = later
    dead_later = b.gep(ptr, kept, f32)
    expected_gone = [dead.owner, dead.owner.operands[0].owner, dead_later.owner]
    expected_gone += [op for op in (element.owner,) if is_trivially_dead(op)]
    before = [op for block in region.blocks for op in block.ops]
    dropped = drop_unused(region)
    after = [op for block in region.blocks for op in block.ops]
    gone = [op for op in before if op not in after]
    assert all(op in gone for op in expected_gone)
    assert kept.owner in after and any(op.name == "llvm.store" for op in after)
    # the constants 5 and 7 went with the chain; 3 stays (the add uses it)
    constants = [op.properties["value"].value.data for op in after
                 if op.name == "llvm.mlir.constant"]
    assert 3 in constants and 5 not in constants and 7 not in constants
    assert dropped == len(gone)
