"""tileopt/dialects/xdsl_fast_paths.py: the fast paths give xDSL's own answers.

The verifier's fast path is compared with xDSL's ``OpDef.verify`` on every op class of
every dialect, for operand and result lists of several lengths and types: the same verdict
and the same message, or both pass."""

from __future__ import annotations

import itertools
import math

import pytest
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (BFloat16Type, DenseIntOrFPElementsAttr, FileLineColLoc,
                                   Float16Type, Float32Type, Float64Type, IndexType,
                                   IntAttr, IntegerType, StringAttr, TensorType, i1, i32,
                                   i64)
from xdsl.ir import Block, Region
from xdsl.irdl import IRDLOperation
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator, Pure
from xdsl.transforms.dead_code_elimination import LiveSet, region_dce

from tileopt.dialects import xdsl_fast_paths
from tileopt.dialects.tt_canonicalize import first_element
from tileopt.ir import make_context, parse_module, print_module
from tileopt.ir.context import DIALECTS


def _all_ops():
    ctx = make_context()
    for name in DIALECTS:
        ctx.load_registered_dialect(name)
    return sorted((op for op in ctx.loaded_ops if issubclass(op, IRDLOperation)),
                  key=lambda op: op.name)


def _outcome(verify, op_def, op):
    try:
        verify(op_def, op)
    except Exception as err:  # noqa: BLE001 - compared below
        return type(err).__name__, str(err)
    return None


TYPES = (i32, Float32Type(), llvm.LLVMPointerType())


@pytest.mark.parametrize("op_type", _all_ops(), ids=lambda op: op.name)
def test_fast_verify_agrees_with_xdsl(op_type):
    op_def = op_type.get_irdl_definition()
    block = Block(arg_types=TYPES * 3)
    compared = 0
    for n_operands, n_results in itertools.product(range(4), range(3)):
        for ty in TYPES:
            operands = [a for a in block.args if a.type == ty][:n_operands]
            op = op_type.create(operands=operands, result_types=[ty] * n_results)
            fast = _outcome(xdsl_fast_paths.verify, op_def, op)
            slow = _outcome(xdsl_fast_paths._verify, op_def, op)
            assert fast == slow, (n_operands, n_results, ty)
            compared += 1
    assert compared == 36


def test_the_fast_path_is_installed_and_taken():
    from xdsl.irdl.operations import OpDef

    assert OpDef.verify is xdsl_fast_paths.verify
    assert IsolatedFromAbove.verify is xdsl_fast_paths.isolated_from_above_verify
    assert xdsl_fast_paths._plan(llvm.GEPOp.get_irdl_definition()) is not None


def test_trait_lookup_follows_add_trait():
    class Marker(Pure):
        pass

    assert llvm.FAddOp.get_trait(IsTerminator) is None
    assert llvm.ReturnOp.has_trait(IsTerminator)
    op_type = llvm.UnreachableOp
    assert op_type.get_trait(Marker) is None
    op_type.traits.add_trait(Marker())
    try:
        assert isinstance(op_type.get_trait(Marker), Marker)
        assert op_type.get_traits_of_type(Marker) == [op_type.get_trait(Marker)]
    finally:
        op_type.traits._traits = op_type.traits.traits - {op_type.get_trait(Marker)}
        xdsl_fast_paths._TRAITS.clear()
    assert op_type.get_trait(Marker) is None
    assert not llvm.FAddOp.has_trait(NoTerminator)


KERNEL = """
  tt.func @k(%p: !tt.ptr<f32>, %n: i32) {
    %c = arith.constant 1 : i32
    %unused = arith.addi %n, %c : i32
    %x = scf.for %i = %c to %n step %c iter_args(%a = %c) -> (i32) : i32 {
      %d = arith.muli %a, %a : i32
      scf.yield %d : i32
    }
    %v = tt.load %p : !tt.ptr<f32>
    tt.store %p, %v : !tt.ptr<f32>
    tt.return
  }
"""


def test_dead_code_elimination_keeps_its_result():
    module = parse_module(f"module {{{KERNEL}}}")
    region_dce(module.body)
    printed = print_module(module)
    assert "arith.addi" not in printed and "scf.for" not in printed
    assert "tt.load" in printed and "tt.store" in printed


class _XdslLiveSet(LiveSet):
    """xDSL's own rounds (the fast path's one round must find the same live ops)."""


_XdslLiveSet.propagate_region_liveness = xdsl_fast_paths._propagate_region_liveness


def _live_ops(live_set_type, region) -> set:
    live_set = live_set_type()
    while live_set.changed:
        live_set.changed = False
        live_set.propagate_region_liveness(region)
    return live_set._live_ops


# A store in a block no branch reaches is not live (its block is never visited); the
# chain that feeds a live store through a loop and a branch is.
UNREACHABLE = """module {
  tt.func @u(%p: !tt.ptr<i32>, %n: i32) {
    %c = arith.constant 1 : i32
    %x = scf.for %i = %c to %n step %c iter_args(%a = %c) -> (i32) : i32 {
      %d = arith.muli %a, %n : i32
      scf.yield %d : i32
    }
    cf.br ^b2(%x : i32)
  ^b1:
    %y = arith.addi %n, %c : i32
    tt.store %p, %y : !tt.ptr<i32>
    cf.br ^b2(%y : i32)
  ^b2(%z: i32):
    %w = arith.addi %z, %c : i32
    tt.store %p, %w : !tt.ptr<i32>
    tt.return
  }
}"""


def _liveness_inputs(corpus):
    yield "unreachable", parse_module(UNREACHABLE)
    for path in sorted(corpus.glob("*/*.tt*ir")):
        module = parse_module(path.read_text(), str(path))
        yield path.name, module
        # Without its stores most of a kernel is dead: loads, loops, address arithmetic.
        module = parse_module(path.read_text(), str(path))
        for op in [op for op in module.walk() if op.name == "tt.store"]:
            op.detach()
            op.erase()
        yield f"{path.name} without stores", module


def test_liveness_in_one_round_finds_xdsls_live_ops(corpus):
    compared = dead = 0
    for name, module in _liveness_inputs(corpus):
        for func in module.ops:
            for region in func.regions:
                slow = _live_ops(_XdslLiveSet, region)
                fast = _live_ops(LiveSet, region)
                assert fast == slow, name
                ops = [op for op in func.walk() if op is not func]
                compared += len(ops)
                dead += len([op for op in ops if op not in slow])
    # Many ops of each kind: the comparison is not only of live code.
    assert compared > 10000 and dead > 2000, (compared, dead)


def test_dead_op_verdict_per_class_agrees_with_xdsl(corpus):
    """The per-class ``would_be_trivially_dead`` answers as xDSL's on every op of the
    corpus, the ops of classes remembered and of classes asked op by op."""
    from xdsl.transforms.dead_code_elimination import would_be_trivially_dead

    kinds = {True: 0, False: 0}
    for name, module in _liveness_inputs(corpus):
        for op in module.walk():
            assert xdsl_fast_paths.would_be_trivially_dead(op) == would_be_trivially_dead(op), \
                f"{op.name} in {name}"
            kinds[xdsl_fast_paths._fixed_effects_class(type(op))] += 1
    assert kinds[True] > 10000 and kinds[False] > 100, kinds


def test_effects_per_class_agree_with_xdsl(corpus):
    """The per-class ``get_effects`` gives what xDSL's gives on every op of the corpus
    (a new set each time), and is the one ``xdsl.traits`` and the passes call."""
    from xdsl import traits

    assert traits.get_effects is xdsl_fast_paths.get_effects
    compared = 0
    for name, module in _liveness_inputs(corpus):
        for op in module.walk():
            ours, xdsls = xdsl_fast_paths.get_effects(op), xdsl_fast_paths._xdsl_get_effects(op)
            assert ours == xdsls and type(ours) is type(xdsls), f"{op.name} in {name}"
            assert ours is None or ours is not xdsl_fast_paths.get_effects(op)
            compared += 1
    assert compared > 10000


def test_liveness_of_an_unreachable_block():
    module = parse_module(UNREACHABLE)
    region_dce(next(iter(module.ops)).regions[0])
    printed = print_module(module)
    assert "arith.muli" in printed and printed.count("tt.store") == 1
    assert "arith.addi %n" not in printed


ISOLATED = f"""
module {{{KERNEL}
  tt.func @g(%n: i32) {{
    %e = arith.addi %n, %n : i32
    tt.return
  }}
}}
"""


def _isolation_outcomes(module):
    f, g = list(module.ops)
    trait = f.get_trait(IsolatedFromAbove)
    return [(_outcome(xdsl_fast_paths.isolated_from_above_verify, trait, func),
             _outcome(xdsl_fast_paths._isolated_from_above_verify, trait, func))
            for func in (f, g)]


def test_isolated_from_above_agrees_with_xdsl():
    module = parse_module(ISOLATED)
    f, g = list(module.ops)
    assert _isolation_outcomes(module) == [(None, None)] * 2
    ops = {op.name: op for op in f.walk()}
    add = next(op for op in g.walk() if op.name == "arith.addi")
    kept = ops["arith.muli"].operands[1], ops["tt.store"].operands[0]
    # A value of another function: its op, then a block argument, deep in a loop.
    ops["arith.muli"].operands[1] = add.results[0]
    ops["tt.store"].operands[0] = g.body.block.args[0]
    outcomes = _isolation_outcomes(module)
    assert outcomes[0][0] is not None and outcomes[0][0][1].startswith(
        "Operation using value defined out of its IsolatedFromAbove parent")
    assert all(fast == slow for fast, slow in outcomes)
    # (the set test of the fast path finds it; it is left to the scan for the message)
    assert not xdsl_fast_paths._all_defined_inside(f)
    assert xdsl_fast_paths._all_defined_inside(g) and \
        xdsl_fast_paths._all_defined_inside(module)  # (the module's ops use no value)
    # A detached op's result.
    ops["arith.muli"].operands[1], ops["tt.store"].operands[0] = kept
    assert _isolation_outcomes(module) == [(None, None)] * 2
    add.detach()
    ops["tt.load"].operands[0] = add.results[0]
    outcomes = _isolation_outcomes(module)
    assert outcomes[0][0] is not None and all(fast == slow for fast, slow in outcomes)


def _built(build, construct, args, defs):
    try:
        return build(construct, args, defs, "prefix: ")
    except Exception as err:  # noqa: BLE001 - compared below
        return type(err).__name__, str(err)


def test_build_arg_list_agrees_with_xdsl():
    """Every operand and result definition list of every op, given values, lists of 0 to
    2 values, tuples and None in each place: the same lists and sizes, or the same error."""
    from xdsl.irdl.operations import VarIRConstruct

    a, b = Block(arg_types=(i32, i32)).args
    shapes = (a, [a], (a, b), [], None, [a, b])
    compared = set()
    for op_type in _all_ops():
        op_def = op_type.get_irdl_definition()
        for construct, defs in ((VarIRConstruct.OPERAND, op_def.operands),
                                (VarIRConstruct.RESULT, op_def.results)):
            if len(defs) > 3:
                continue
            for args in itertools.product(shapes, repeat=len(defs)):
                fast = _built(xdsl_fast_paths.build_arg_list, construct, list(args), defs)
                slow = _built(xdsl_fast_paths._build_arg_list, construct, list(args), defs)
                assert fast == slow, (op_type.name, args)
                compared.add(fast if isinstance(fast[0], str) else "built")
            short = list(itertools.islice(itertools.cycle(shapes), len(defs) + 1))
            assert _built(xdsl_fast_paths.build_arg_list, construct, short, defs) == \
                _built(xdsl_fast_paths._build_arg_list, construct, short, defs)
    # every way of refusing was met, not only lists that build
    refusals = compared - {"built"}
    assert "built" in compared and {kind for kind, _ in refusals} == {"ValueError"}
    assert {message.split(" VarIRConstruct")[0].split(" 0 ")[0] for _, message in refusals} \
        >= {"prefix: passed None to a non-optional", "prefix: passed Sequence to non-variadic"}
    assert any("expects a list of size at most 1" in message for _, message in refusals)


def test_attributes_of_other_kinds_are_refused():
    """The per-class answer to "Data or ParametrizedAttribute?" refuses what xDSL does."""
    from dataclasses import dataclass

    from xdsl.ir import Attribute

    @dataclass(frozen=True)
    class Neither(Attribute):
        name = "test.neither"

    for _ in range(2):  # the first answer is computed, the second remembered
        with pytest.raises(TypeError, match="should only be Data or ParametrizedAttribute"):
            Neither()
    assert Attribute.__post_init__ is xdsl_fast_paths.attribute_post_init


def test_a_remembered_verdict_still_runs_the_context_traits():
    """The second `scf.yield` of the same types hits the remembered verdict of the first
    (its constraints), but its traits that read where it is still run: in the middle of
    a function's body, it fails as in xDSL."""
    from xdsl.dialects import scf

    module = parse_module(f"module {{{KERNEL}}}")
    placed = next(op for op in module.walk() if isinstance(op, scf.YieldOp))
    op_def = scf.YieldOp.get_irdl_definition()
    with xdsl_fast_paths.remembering_verdicts():
        _remembered_then_misplaced(module, placed, op_def)
    assert not op_def.__dict__["_fast_plan"].passed  # forgotten after


def _remembered_then_misplaced(module, placed, op_def):
    from xdsl.dialects import scf

    assert _outcome(xdsl_fast_paths.verify, op_def, placed) is None
    plan = op_def.__dict__["_fast_plan"]
    assert xdsl_fast_paths._types_key(placed) in plan.passed
    misplaced = scf.YieldOp(*placed.operands)
    body = next(iter(module.ops)).regions[0].block
    body.insert_op_before(misplaced, body.last_op)
    assert xdsl_fast_paths._types_key(misplaced) == xdsl_fast_paths._types_key(placed)
    fast = _outcome(xdsl_fast_paths.verify, op_def, misplaced)
    assert fast is not None
    assert fast == _outcome(xdsl_fast_paths._verify, op_def, misplaced)


def test_remembered_verdicts_compare_attributes_by_value():
    """Equal attributes that are distinct objects (the lowering builds one per op) share
    a remembered verdict; an attribute of the same class and another value is verified:
    after a good position array of `llvm.extractvalue`, one of i32 elements (i64 is
    required) fails with xDSL's message."""
    from xdsl.dialects.builtin import DenseArrayBase, i64

    struct = llvm.LLVMStructType.from_type_list([i32, i32])
    block = Block(arg_types=[struct])

    def extract(element_type):
        return llvm.ExtractValueOp(DenseArrayBase.from_list(element_type, [0]),
                                   block.args[0], i32)

    good, same, bad = extract(i64), extract(i64), extract(i32)
    assert good.properties["position"] is not same.properties["position"]
    op_def = llvm.ExtractValueOp.get_irdl_definition()
    key = xdsl_fast_paths._types_key
    with xdsl_fast_paths.remembering_verdicts():
        assert _outcome(xdsl_fast_paths.verify, op_def, good) is None
        passed = op_def.__dict__["_fast_plan"].passed
        assert key(same) == key(good) and key(same) in passed
        identity = xdsl_fast_paths._identity_key
        assert identity(same) != identity(good) and identity(same) not in passed
        assert _outcome(xdsl_fast_paths.verify, op_def, same) is None
        assert identity(same) in passed  # remembered for ops that share its objects
        assert key(bad) not in passed and identity(bad) not in passed
        fast = _outcome(xdsl_fast_paths.verify, op_def, bad)
        assert fast is not None and "i64" in fast[1]
        assert fast == _outcome(xdsl_fast_paths._verify, op_def, bad)
    assert not xdsl_fast_paths._EQUALS_FIRST and not xdsl_fast_paths._FIRST_EQUAL


def test_verdicts_kept_between_verifications_hold_types_not_ops():
    """In a ``keeping_verdicts`` scope (a pipeline run) the verdicts outlive each module
    verification: an op of the same type objects hits the identity key in the next one.
    An entry holds the op's types and attributes (their ids cannot be reused), never the
    op; an op given another attribute misses and fails with xDSL's message; all is
    forgotten at the end."""
    from xdsl.dialects.builtin import DenseArrayBase, i64
    from xdsl.ir import Operation

    struct = llvm.LLVMStructType.from_type_list([i32, i32])
    block = Block(arg_types=[struct])
    position = DenseArrayBase.from_list(i64, [0])
    good = llvm.ExtractValueOp(position, block.args[0], i32)
    op_def = llvm.ExtractValueOp.get_irdl_definition()
    identity = xdsl_fast_paths._identity_key
    with xdsl_fast_paths.keeping_verdicts():
        with xdsl_fast_paths.remembering_verdicts():
            assert _outcome(xdsl_fast_paths.verify, op_def, good) is None
        passed = op_def.__dict__["_fast_plan"].passed
        held = passed[identity(good)]
        assert held is not None and not any(isinstance(x, Operation) for x in held)
        assert position in held and struct in held
        later = llvm.ExtractValueOp(position, block.args[0], i32)
        with xdsl_fast_paths.remembering_verdicts():
            assert identity(later) in passed  # the same objects: the next verification hits
            assert _outcome(xdsl_fast_paths.verify, op_def, later) is None
            later.properties["position"] = DenseArrayBase.from_list(i32, [0])  # i64 needed
            assert identity(later) not in passed
            fast = _outcome(xdsl_fast_paths.verify, op_def, later)
            assert fast is not None and fast == _outcome(xdsl_fast_paths._verify, op_def,
                                                         later)
        assert passed
    assert not passed and not xdsl_fast_paths._EQUALS_FIRST


def test_remembered_verdicts_tell_apart_what_python_calls_equal():
    """0.0 and -0.0 (xDSL's FloatData compares bits), values of different classes, and
    unhashable values (by identity) get keys of their own."""
    from xdsl.dialects.builtin import FloatAttr, IntegerAttr, StringAttr

    with xdsl_fast_paths.remembering_verdicts():
        def key(value):
            return xdsl_fast_paths._types_key(arith.ConstantOp(value))

        assert key(FloatAttr(0.0, 32)) == key(FloatAttr(0.0, 32))
        assert key(FloatAttr(0.0, 32)) != key(FloatAttr(-0.0, 32))
        assert key(IntegerAttr(1, i32)) != key(FloatAttr(1.0, 32))
        first = xdsl_fast_paths._first_equal
        assert first(StringAttr("a"))[1] == first(StringAttr("a"))[1]
        listed = [1]
        assert first(listed)[1] == id(listed) != first([1])[1]


def test_only_traits_that_say_so_are_remembered():
    from dataclasses import dataclass

    from xdsl.traits import HasParent, SameOperandsAndResultType

    from tileopt.dialects.traits import BroadcastEncoding, SameOperandsAndResultEncoding

    @dataclass(frozen=True)
    class ReadsMore(SameOperandsAndResultEncoding):
        def verify(self, op):
            raise AssertionError(op.parent)

    reads = xdsl_fast_paths._reads_types_only
    assert reads(Pure()) and reads(SameOperandsAndResultType())
    assert reads(SameOperandsAndResultEncoding()) and reads(BroadcastEncoding())
    assert not reads(ReadsMore()) and not reads(HasParent(llvm.FuncOp))


def test_a_trait_added_later_is_verified():
    """A trait gained after an op class's plan was made is checked on a remembered
    verdict too (the plan is made again)."""
    from dataclasses import dataclass

    from xdsl.traits import OpTrait
    from xdsl.utils.exceptions import VerifyException

    @dataclass(frozen=True)
    class Refuses(OpTrait):
        def verify(self, op):
            raise VerifyException("refused")

    op_type = llvm.UnreachableOp
    op_def = op_type.get_irdl_definition()
    trait = Refuses()
    try:
        with xdsl_fast_paths.remembering_verdicts():
            ops = [op_type() for _ in range(3)]
            assert _outcome(xdsl_fast_paths.verify, op_def, ops[0]) is None
            assert _outcome(xdsl_fast_paths.verify, op_def, ops[1]) is None  # remembered
            op_type.traits.add_trait(trait)
            assert _outcome(xdsl_fast_paths.verify, op_def, ops[2]) == \
                ("VerifyException", "refused")
    finally:
        op_type.traits._traits = op_type.traits.traits - {trait}
        xdsl_fast_paths._TRAITS.clear()
        xdsl_fast_paths._PLAN_GENERATION[0] += 1


def test_cse_hash_of_equal_attributes_that_are_distinct_objects():
    """CSE's op hash remembers each attribute object's hash: equal attributes that are
    distinct objects hash alike (the ops are merged), different ones need not."""
    from xdsl.dialects.arith import ConstantOp
    from xdsl.dialects.builtin import IntegerAttr
    from xdsl.transforms.common_subexpression_elimination import OperationInfo

    def constant(value):
        return ConstantOp(IntegerAttr(value, i32))

    a, b, c = constant(1), constant(1), constant(2)
    assert a.properties["value"] is not b.properties["value"]
    assert hash(OperationInfo(a)) == hash(OperationInfo(b))
    assert OperationInfo(a) == OperationInfo(b) and OperationInfo(a) != OperationInfo(c)
    module = parse_module("""
      tt.func @k() -> (i32, i32, i32) {
        %a = arith.constant 1 : i32
        %b = arith.constant 1 : i32
        %c = arith.constant 2 : i32
        tt.return %a, %b, %c : i32, i32, i32
      }""")
    from xdsl.transforms.common_subexpression_elimination import cse

    cse(module)
    assert print_module(module).count("arith.constant") == 2


@pytest.mark.parametrize("op_type", _all_ops()[::7], ids=lambda op: op.name)
def test_new_operation_builds_what_create_builds(op_type):
    """The same fields, results and uses as ``Operation.create`` (every seventh op class
    of every dialect; each gets two operands and results)."""
    block = Block(arg_types=(i32, i32))
    built = [make(op_type, operands=list(block.args), result_types=[i32, i32],
                  properties={}, attributes={"x": i32}, location=_LOCATION)
             for make in (_create, _new)]
    if isinstance(built[0], Exception) or isinstance(built[1], Exception):
        assert type(built[0]) is type(built[1])
        return
    made, fast = built
    assert sorted(vars(made)) == sorted(vars(fast))
    for name in ("properties", "attributes", "regions", "_successors", "location"):
        assert getattr(made, name) == getattr(fast, name)
    assert list(fast.operands) == list(block.args) and fast.result_types == (i32, i32)
    assert [r.op for r in fast.results] == [fast, fast]
    for index, arg in enumerate(block.args):  # (a new use goes first, as in xDSL)
        assert [(use.operation, use.index) for use in arg.uses] == \
            [(fast, index), (made, index)]


def _create(op_type, *, location, **fields):
    try:
        return op_type.create(**fields, location=location)
    except Exception as err:  # noqa: BLE001 - compared by type
        return err


_fast_new = xdsl_fast_paths.new_operation
_LOCATION = FileLineColLoc(StringAttr("f.py"), IntAttr(1), IntAttr(2))


def _new(op_type, *, operands, result_types, properties, attributes, location):
    try:
        return _fast_new(op_type, operands, result_types, properties, attributes, location)
    except Exception as err:  # noqa: BLE001 - compared by type
        return err


def _fields(op):
    """What an op's construction sets: its fields, results and the uses of its operands."""
    return (sorted(vars(op)), op.properties, op.attributes,
            [len(r.blocks) for r in op.regions], len(op._successors),
            op.location, [(v.index, v.type) for v in op.operands],
            [(r.type, r.index, r.op is op) for r in op.results],
            [[(u.operation is op, u.index) for u in v.uses] for v in op.operands])


@pytest.mark.parametrize("op_type", _all_ops()[::5], ids=lambda op: op.name)
def test_operation_init_builds_what_xdsls_builds(op_type):
    """``Operation.__init__`` (``operation_init``) against xDSL's own on new ops of every
    fifth op class: without regions or successors (the fast path), with a region or a
    successor (xDSL's own), an op initialised twice (xDSL's own)."""
    from xdsl.ir import Operation, Region

    assert Operation.__init__ is xdsl_fast_paths.operation_init
    cases = [dict, lambda: {"regions": [Region(Block())]}, lambda: {"successors": [Block()]}]
    for case in cases:
        built = []
        for init in (xdsl_fast_paths.operation_init, xdsl_fast_paths._operation_init):
            block, fields = Block(arg_types=(i32, i32)), case()
            op = op_type.__new__(op_type)
            try:
                init(op, operands=[block.args[0], block.args[1], block.args[0]],
                     result_types=[i32, Float32Type()], properties={"p": i32},
                     attributes={"x": i32}, location=_LOCATION, **fields)
            except Exception as err:  # noqa: BLE001 - compared by type
                built.append(type(err))
                continue
            built.append(_fields(op))
        assert built[0] == built[1], case()
    block = Block(arg_types=(i32, i32))
    op = arith.ConstantOp.create(operands=[block.args[0]], result_types=[i32])
    xdsl_fast_paths.operation_init(op, operands=[block.args[1]], result_types=[i32])
    assert not block.args[0].uses  # (xDSL's own undoes the first init's uses)


def test_irdl_ops_are_built_as_xdsl_builds_them(monkeypatch):
    from xdsl.dialects.builtin import IntegerAttr
    from xdsl.ir import Operation

    def build():
        constant = arith.ConstantOp(IntegerAttr(1, i32))
        return constant, arith.AddiOp(constant, constant), llvm.ReturnOp(constant)

    fast = [_fields(op) for op in build()]
    monkeypatch.setattr(Operation, "__init__", xdsl_fast_paths._operation_init)
    assert fast == [_fields(op) for op in build()]


def test_same_operands_and_result_type_agrees_with_xdsl():
    from xdsl.dialects.builtin import IntegerType, TensorType
    from xdsl.traits import SameOperandsAndResultType

    trait = SameOperandsAndResultType()
    blocked = parse_module("""#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<128xi32, #b>) { tt.return }
}""")
    encoded = next(iter(blocked.ops)).function_type.inputs.data[0]
    types = [i32, IntegerType(32), Float32Type(), TensorType(i32, [128]), encoded]
    checked = 0
    for operand_types in itertools.chain.from_iterable(
            itertools.product(types, repeat=n) for n in range(3)):
        for result_types in ([], [i32], [encoded], [encoded, encoded], [i32, Float32Type()]):
            block = Block(arg_types=operand_types)
            op = arith.AddiOp.create(operands=list(block.args), result_types=result_types)
            fast = _outcome(xdsl_fast_paths.same_operands_and_result_type_verify, trait, op)
            slow = _outcome(xdsl_fast_paths._same_operands_and_result_type_verify, trait, op)
            assert fast == slow, (operand_types, result_types)
            checked += fast is None
    assert checked >= 10  # some pass (the shortcut), some fail


@pytest.mark.parametrize("op_type", [llvm.CondBrOp, llvm.CallIntrinsicOp], ids=lambda t: t.name)
def test_operand_segments_agree_with_xdsl(op_type):
    from xdsl.dialects.builtin import DenseArrayBase, i1, i64

    op_def = op_type.get_irdl_definition()
    block = Block(arg_types=[i1, i32, i32, Float32Type()])
    successor = Block()
    sizes_list = [[1, 1, 1], [1, 2, 0], [1, 0, 2], [0, 1, 2], [2, 1, 0], [1, 1], [1, -1, 3],
                  [1, 1, 1, 0], [3, 0], [0, 3], [2, 1], [1, 2], [4, 0], [0, 0]]
    compared = passed = 0
    for count in range(5):
        operands = list(block.args)[:count]
        for sizes in sizes_list:
            for array in (DenseArrayBase.from_list(i32, sizes), DenseArrayBase.from_list(
                    i64, sizes), None):
                properties = dict(_minimal_properties(op_def))
                if array is not None:
                    properties["operandSegmentSizes"] = array
                op = op_type.create(operands=operands, properties=properties,
                                    successors=[successor, successor] if op_type is
                                    llvm.CondBrOp else [])
                fast = _outcome(xdsl_fast_paths.verify, op_def, op)
                slow = _outcome(xdsl_fast_paths._verify, op_def, op)
                assert fast == slow, (count, sizes, array)
                compared += 1
                passed += fast is None
    assert passed >= 3 and compared - passed > 100


def _minimal_properties(op_def):
    from xdsl.dialects.builtin import DenseArrayBase

    if "intrin" in op_def.properties:  # llvm.call_intrinsic's required ones
        yield "intrin", StringAttr("llvm.probe")
        yield "op_bundle_sizes", DenseArrayBase.from_list(i32, [])


# xDSL's DCE and CSE modules are patched on their first import, not imported at start-up:
# each case runs a fresh interpreter, and the fast paths must be in force however the
# modules come in (tileopt's passes, xDSL's own pass, before tileopt).
FRESH_CHECK = """
import sys
{before}
import tileopt.ir
from tileopt.dialects import xdsl_fast_paths as fast
print("imported at start:", sorted(m for m in sys.modules if m in (fast._DCE, fast._CSE)))
{then}
dce, cse = sys.modules[fast._DCE], sys.modules[fast._CSE]
print("dce:", dce.LiveSet.propagate_region_liveness is fast.propagate_region_liveness)
print("cse:", any(key.__dict__.get("__hash__") is fast.operation_info_hash  # (tileopt's
                 for key in cse.OperationInfo.__mro__))  # cse pass puts a subclass there)
print("own dce kept:", fast._propagate_region_liveness not in (None, fast.propagate_region_liveness))
"""


@pytest.mark.parametrize("before, then, at_start", [
    ("", "import tileopt.transforms.common.cse, tileopt.transforms.common.canonicalize", []),
    ("", "from xdsl.transforms.canonicalize import CanonicalizePass\n"
         "from xdsl.transforms.common_subexpression_elimination import cse", []),
    ("import xdsl.transforms.common_subexpression_elimination", "",
     ["xdsl.transforms.common_subexpression_elimination",
      "xdsl.transforms.dead_code_elimination"]),
])
def test_dce_and_cse_fast_paths_on_first_import(before, then, at_start):
    import subprocess
    import sys

    code = FRESH_CHECK.format(before=before, then=then)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"imported at start: {at_start}", "dce: True",
                                        "cse: True", "own dce kept: True"]


def test_cse_and_canonicalize_commands_run_the_fast_paths(tmp_path):
    # A fresh command with the two passes: the liveness of the fast paths runs.
    import subprocess
    import sys

    source = tmp_path / "k.mlir"
    source.write_text("func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n"
                      "  %1 = arith.addi %a, %a : i32\n  %2 = arith.muli %0, %a : i32\n"
                      "  %3 = arith.muli %0, %1 : i32\n  func.return %3 : i32\n}\n")
    code = """if True:
        import sys
        from tileopt.dialects import xdsl_fast_paths as fast
        calls = []
        def counted(function):
            def run(*args):
                calls.append(function.__name__)
                return function(*args)
            return run
        fast.propagate_region_liveness = counted(fast.propagate_region_liveness)
        from tileopt.driver.opt import run_opt
        status = run_opt(sys.argv[1:])
        print(sorted(set(calls)), file=sys.stderr)
        sys.exit(status)
    """
    done = subprocess.run([sys.executable, "-c", code, str(source), "--canonicalize",
                           "--cse"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "['propagate_region_liveness']"
    assert done.stdout.count("arith.addi") == 1  # CSE merged the two


def test_ir_objects_hash_by_identity_in_c(corpus):
    """Ops (every op class of the corpus kernels), blocks, regions, values and uses hash by
    identity as xDSL's ``id(self)`` does, through ``object.__hash__``: equal-looking
    objects stay distinct keys, each finds itself."""
    from xdsl.ir import Use

    module = parse_module((corpus / "cuda-sm90" / "matmul.ttgir").read_text())
    ops = list(module.walk())
    objects = [*ops, *(b for op in ops for r in op.regions for b in r.blocks),
               *(r for op in ops for r in op.regions), *(v for op in ops for v in op.results),
               *(u for op in ops for v in op.results for u in v.uses)]
    kinds = {type(x) for x in objects}
    assert any(issubclass(k, Use) for k in kinds) and len(kinds) > 20
    for kind in kinds:
        assert kind.__hash__ is object.__hash__, kind
    table = {x: i for i, x in enumerate(objects)}
    assert len(table) == len(objects)
    assert all(table[x] == i for i, x in enumerate(objects))
    twins = [op.clone() for op in ops[1:20]]
    assert not any(twin in table for twin in twins)


def _chain(block: Block) -> list:
    """Every link of ``block``'s op list, both ways, and each op's parent."""
    ops, op = [], block.first_op
    while op is not None:
        ops.append((op, op.parent, op.prev_op, op.next_op))
        op = op.next_op
    return [block.first_op, block.last_op, *ops]


def test_block_add_op_links_as_xdsl_does():
    """New ops appended by the fast path and by xDSL's ``add_op`` give the same lists; an
    op with a parent or regions takes xDSL's code (and its errors)."""
    assert Block.add_op is xdsl_fast_paths.block_add_op
    fast, slow = Block(arg_types=(i32,)), Block(arg_types=(i32,))
    for block, add in ((fast, Block.add_op), (slow, xdsl_fast_paths._block_add_op)):
        ops = [arith.AddiOp(block.args[0], block.args[0]) for _ in range(3)]
        for op in ops:
            add(block, op)
        assert _chain(block) == [ops[0], ops[2], (ops[0], block, None, ops[1]),
                                 (ops[1], block, ops[0], ops[2]), (ops[2], block, ops[1], None)]
    with pytest.raises(ValueError, match="already attached"):
        Block().add_op(fast.first_op)
    inner = Block()
    holder = llvm.FuncOp("f", llvm.LLVMFunctionType([]), body=Region([inner]))
    with pytest.raises(ValueError, match="contained in the operation"):
        inner.add_op(holder)


_NAN = float("nan")


@pytest.mark.parametrize("element, values", [
    (Float16Type(), [0.0] * 4096), (Float16Type(), [0.0] * 4095 + [-0.0]),
    (Float16Type(), [-0.0, 0.0]), (Float32Type(), [_NAN] * 3), (Float32Type(), [_NAN]),
    (Float64Type(), [1.5, 1.5]), (Float64Type(), [1.5, 2.5]), (Float32Type(), [2.0]),
    (i32, [7] * 100), (i32, [7] * 99 + [8]), (i1, [1, 1]), (i1, [1, 0]),
    (IntegerType(8), [-1, 255 - 256]), (IndexType(), [3, 3]), (IndexType(), [3, 4]),
    (i64, [0]), (BFloat16Type(), [1.0, 1.0]), (BFloat16Type(), [1.0, 2.0]),
])
def test_dense_is_splat_agrees_with_xdsl(element, values):
    attr = DenseIntOrFPElementsAttr.from_list(TensorType(element, [len(values)]), values)
    assert DenseIntOrFPElementsAttr.is_splat is xdsl_fast_paths.dense_is_splat
    assert xdsl_fast_paths.dense_is_splat(attr) is xdsl_fast_paths._dense_is_splat(attr)


@pytest.mark.parametrize("element, values", [
    (Float16Type(), [-0.0, 0.0, 0.0]), (i32, [5, 6]), (IndexType(), [9]),
    (BFloat16Type(), [1.0, 3.0]),
])
def test_first_element_is_the_first_value(element, values):
    attr = DenseIntOrFPElementsAttr.from_list(TensorType(element, [len(values)]), values)
    first = first_element(attr)
    assert first == attr.get_values()[0] and type(first) is type(attr.get_values()[0])
    assert math.copysign(1, first) == math.copysign(1, attr.get_values()[0])
