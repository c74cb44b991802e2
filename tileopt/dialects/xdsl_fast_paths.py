"""Faster paths through xDSL 0.74's hot generic code, with the same results.

Local overrides of xDSL (pinned in pyproject.toml), found by profiling tileopt's
pipelines (issue 14); each belongs upstream and says what to propose. Drop each when xDSL
has it. Installed once, with the dialects (``tileopt/dialects/__init__.py``).
Patches for xDSL and their status: docs/upstream/README.md.

- ``Operation.get_trait`` / ``get_traits_of_type`` scan an op class's traits with
  ``isinstance`` on every call (a million calls a pipeline: the verifier, dead-code
  elimination, the rewriter). Here the answer is remembered per op class and query, and
  forgotten when a class gains a trait. Upstream: a lookup cache, reset by ``add_trait``.
  Patch: docs/upstream/xdsl/02-cache-trait-lookups.patch.
- ``OpDef.verify`` handles variadic operands and results generically for every op
  (segment bookkeeping, accessor descriptors). For an op class with at most one variadic
  operand and result definition and no segment-size option, the fast path checks the
  counts and runs the same constraints on the same values in the same order; anything it
  rejects goes through xDSL's own code again, so that the error message is xDSL's.
  The verdict of the constraints and of the traits that read only the op's types and
  attributes (``verifies_types_only = True`` on the trait class, xDSL's no-op traits
  and ``SameOperandsAndResultType``) is remembered per op class for the op's types and
  attributes, looked up by their identities (most ops of a parsed file share type
  objects), then by their values (the lowering builds new attribute objects per op; each
  object hashed and compared once per module verification): an op of equal types and
  attributes runs only its other traits. The verdicts outlive one verification within
  ``keeping_verdicts`` (a pipeline run: the verifications after each pass). Upstream:
  precompute this per ``OpDef``, and a flag on traits for the memo.
  No patch yet (docs/upstream/README.md).
  Ops whose operand groups an ``operandSegmentSizes`` array sizes (``llvm.cond_br``,
  ``llvm.call_intrinsic``: a tenth of a lowered kernel's ops, a quarter of its
  verification through xDSL's generic code) take the fast path too: the array's checks
  of ``verify_variadic_attr_size``, then each group's constraint.
- ``SameOperandsAndResultType.verify`` builds a ``NoneAttr`` (verified) for the encoding
  of each operand and result of each op it checks; where all of them have one type
  object, they are the same type and the check passes without that. Upstream: the same
  shortcut, and one ``NoneAttr`` instance.
- ``LiveSet.propagate_region_liveness`` (dead-code elimination after every iteration of
  the greedy rewriter: about 30 times per kernel) reaches its fixed point by rounds over
  every reachable op (at least two), asking ``would_be_trivially_dead`` of each op in each
  round (a walk of the op's nested ops for their effects). The fixed point is the least
  one: an op is live when it would not be trivially dead, or when a live op uses one of
  its results. Here it is computed in one round, users before their definitions: an op
  is marked live through a worklist from each live op to the ops that define its
  operands, and ``would_be_trivially_dead`` is asked only of ops not already live. The
  same ops (those in blocks reachable from their region's entry, at any depth) are live.
  Upstream: the same worklist in ``LiveSet``. No patch yet (the memo this replaced was
  measured upstream without gain: docs/upstream/README.md).
- ``Attribute.__post_init__`` asks ``isinstance(self, Data | ParametrizedAttribute)`` of
  every attribute built (an ABC check through a union: 55,000 times to parse the
  200-kernel file); the answer depends only on the class, so it is remembered per class.
  Upstream: check it once per class, where the attribute definition is made.
  Patch: docs/upstream/xdsl/03-attribute-kind-check-per-class.patch.
- ``irdl_build_arg_list`` (every op built through ``irdl_op_init``, four calls an op)
  tells values from lists with ``isinstance(arg, Sequence)`` and definitions apart with
  ``isinstance`` on ABCs; here both answers are remembered per class, the lists are
  built the same, and whatever xDSL would refuse goes to xDSL's own code for its error.
  Upstream: the same per-type answers, or ``type(arg) in (list, tuple)`` first.
  Patch: docs/upstream/xdsl/04-build-arg-list-without-alias-calls.patch.
- ``IsolatedFromAbove.verify`` (every function op, re-verified whenever anything inside
  it changed) asks ``op.is_ancestor(operand.owner)`` for every operand in the function,
  each a walk up the parents. Here the values defined under the op are collected once
  and every operand tested against them (C-level ``map``s), or, within
  ``isolation_suspects`` (the verification after a pass), only the operands of the ops
  a change may have affected; an offender goes to a scan in xDSL's order, for xDSL's
  message of the first one. Upstream: the same set of blocks.
  Not proposed: no faster in xDSL's own code (docs/upstream/README.md).
- CSE's ``OperationInfo.__hash__`` hashes the op's attributes and result types, and a
  nested attribute's hash goes through all its parameters on every call (a layout in
  every tensor type). Each attribute object's hash is now computed once for every use
  (``tileopt/dialects/attribute_hashes.py``); what stays here is the hook for
  tileopt's key (``tileopt/transforms/common/cse.py``: commutative operands hashed as
  a multiset). Upstream: a cached hash on ``ParametrizedAttribute`` (they are
  immutable). No patch yet (docs/upstream/README.md).
- ``new_operation``: ``Operation.create`` for an op without regions or successors, step
  by step, for the parser's templates (``tileopt/ir/op_templates.py``); the same steps
  are ``Operation.__init__`` (``operation_init``) for such a new op, as every op that
  the lowering and the passes build through ``irdl_op_init`` is (its two setters were
  half of ``__init__``'s time). Upstream: a
  cheaper ``Operation.__init__`` (its ``successors`` and ``operands`` setters undo uses
  that a new op does not have).
  No patch yet (docs/upstream/README.md).
- ``Block.add_op`` of a new op (no parent) without regions: linked after the last op
  directly; xDSL's checks (``_attach_op``: not in a block, not an ancestor of the block,
  a walk up the block's parents; ``insert_op_after``: the last op is in the block) hold
  for it by construction. The lowering appends every op it builds (a tenth of its time).
  Upstream: the same shortcut in ``add_op``. No patch yet (docs/upstream/README.md).

- ``DenseIntOrFPElementsAttr.is_splat`` unpacks every element of the constant and
  counts the first (a zero accumulator of 128x128 f16: ~0.3 ms a call, and the
  canonicalization, axis analysis and pipeliner ask it of the same constants again and
  again). For integer and float elements the packed bytes tell it: equal bytes are
  equal values (one element is unpacked: NaN, unequal to itself, is no splat of more
  than one element, as in xDSL's count); unequal bytes are unequal integers, while
  floats (+0.0 and -0.0 compare equal) and other element types take xDSL's own code.
  Upstream: the same byte test. No patch yet (docs/upstream/README.md).

The DCE and CSE fast paths are put in when xDSL's module is first imported (a finder on
``sys.meta_path``), wherever the import comes from: importing them at start-up only to
patch them cost a run without passes 4 ms (issue 14).
"""

from __future__ import annotations

import sys
from itertools import chain
from operator import attrgetter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from xdsl.ir import (Attribute, Block, BlockArgument, Data, OpResult, Operation,
                     ParametrizedAttribute, Region, Use)
from xdsl.ir.post_order import PostOrderIterator
from xdsl.ir.core import SSAValues, _unknown_loc
from xdsl.ir.core import OpTraits
from xdsl import traits as _traits
from xdsl.traits import IsolatedFromAbove, OpTrait, SameOperandsAndResultType
from xdsl.utils.exceptions import VerifyException
from xdsl.irdl import operations as _ops
from xdsl.irdl.constraints import VerificationContext

_get_trait = Operation.get_trait.__func__
_get_traits_of_type = Operation.get_traits_of_type.__func__
_add_trait = OpTraits.add_trait
_verify = _ops.OpDef.verify
_isolated_from_above_verify = IsolatedFromAbove.verify
_same_operands_and_result_type_verify = SameOperandsAndResultType.verify
_build_arg_list = _ops.irdl_build_arg_list


_TRAITS: dict[tuple, object] = {}
"""(op class, trait query) -> answer; emptied when any op class gains a trait."""


def get_trait(cls, trait):
    key = (cls, trait)
    try:
        return _TRAITS[key]
    except KeyError:
        found = _TRAITS[key] = _get_trait(cls, trait)
        return found
    except TypeError:  # an unhashable trait instance
        return _get_trait(cls, trait)


def get_traits_of_type(cls, trait_type):
    key = (cls, "of type", trait_type)
    found = _TRAITS.get(key)
    if found is None:
        found = _TRAITS[key] = tuple(_get_traits_of_type(cls, trait_type))
    return list(found)


def add_trait(self: OpTraits, trait) -> None:
    _TRAITS.clear()
    _ISOLATED.clear()
    _PLAN_GENERATION[0] += 1
    _add_trait(self, trait)


_PLAN_GENERATION = [0]
"""Bumped when an op class gains a trait: the verification plans made before are stale."""


def trait_generation() -> int:
    """Changes whenever an op class gains a trait."""
    return _PLAN_GENERATION[0]


class _Plan:
    """What the fast path of one ``OpDef`` checks: per operand and result definition its
    constraint, and where the one variadic definition (if any) sits; the traits whose
    verdict depends on more than the op's types and attributes; the ops' types and
    attributes that passed (``_passed``)."""

    __slots__ = ("operands", "results", "segmented", "regions", "successors",
                 "context_traits", "passed", "generation")

    def __init__(self, op_def: _ops.OpDef, operands: tuple, results: tuple,
                 segmented: bool = False) -> None:
        self.operands = operands
        self.segmented = segmented  # operands: _segments_plan's, else _values_plan's
        self.results = results
        self.regions = bool(op_def.regions)
        self.successors = bool(op_def.successors)
        self.context_traits = tuple(t for t in op_def.traits if not _reads_types_only(t))
        self.passed: dict[tuple, Operation] = {}
        self.generation = _PLAN_GENERATION[0]


def _reads_types_only(trait) -> bool:
    """Whether ``trait.verify`` reads nothing but the op's class, operand and result
    types, properties and attributes: xDSL's no-op and ``SameOperandsAndResultType``, and
    trait classes that say so themselves (``verifies_types_only = True`` in their own
    body: a subclass that overrides ``verify`` does not inherit the claim)."""
    cls = type(trait)
    return cls.verify is OpTrait.verify or cls is SameOperandsAndResultType or \
        cls.__dict__.get("verifies_types_only", False)


_PASSED_LIMIT = 4096
"""Entries of one op class's ``_Plan.passed`` before it starts again (each holds its
types and attributes alive)."""
_EQUALS_LIMIT = 1 << 16
"""Types and attributes in ``_EQUALS_FIRST`` before every verdict is forgotten (the value
keys name the first equal ones by id: the two are forgotten together)."""
_PLANS_WITH_VERDICTS: list[_Plan] = []
REMEMBER_VERDICTS = False
"""On only while a module is verified (``remembering_verdicts``)."""
_KEEPING = [0]
"""How many ``keeping_verdicts`` scopes are open."""


@contextmanager
def remembering_verdicts() -> Iterator[None]:
    """Remember verdicts while a module is verified; forget them after (unless a
    ``keeping_verdicts`` scope is open), so that the types of the IR that a pass
    replaces next are not kept alive."""
    global REMEMBER_VERDICTS
    if not REMEMBER_VERDICTS and len(_EQUALS_FIRST) > _EQUALS_LIMIT:
        forget_verdicts()  # (kept ones: between verifications, never during one)
    before, REMEMBER_VERDICTS = REMEMBER_VERDICTS, True
    try:
        yield
    finally:
        REMEMBER_VERDICTS = before
        if not before and not _KEEPING[0]:
            forget_verdicts()


@contextmanager
def keeping_verdicts() -> Iterator[None]:
    """Keep the verdicts remembered by the verifications inside this scope until it ends
    (the verifications after each pass of one pipeline run: an op re-verified after a
    pass mostly has the type and attribute objects of ops verified before). An entry
    holds the types and attributes of its key, never an op, so the IR may change
    between verifications."""
    _KEEPING[0] += 1
    try:
        yield
    finally:
        _KEEPING[0] -= 1
        if not _KEEPING[0] and not REMEMBER_VERDICTS:
            forget_verdicts()


def forget_verdicts() -> None:
    for plan in _PLANS_WITH_VERDICTS:
        plan.passed.clear()
    _PLANS_WITH_VERDICTS.clear()
    _FIRST_EQUAL.clear()
    _EQUALS_FIRST.clear()


_FIRST_EQUAL: dict[tuple[type, Attribute], Attribute] = {}
"""(class, type or attribute) -> the first equal one seen while verdicts are remembered"""
_EQUALS_FIRST: dict[int, tuple[Attribute, int]] = {}
"""id(type or attribute) -> (it, the id of the first equal one seen): its hash and
comparison are computed once per object; the entry holds it alive, so that its id is
not reused while verdicts are remembered"""


def _first_equal(value: Attribute) -> tuple[Attribute, int]:
    """(``value``, the id of the first type or attribute seen that equals it and is of its
    class: xDSL's ``FloatData.__eq__`` accepts subclasses). Types and attributes are
    immutable, and equal ones are equal in every parameter, at any depth: the
    constraints read nothing else (xDSL's ``FloatData`` compares bits, so ``0.0`` and
    ``-0.0`` are not equal)."""
    try:
        first = _FIRST_EQUAL.setdefault((type(value), value), value)
    except TypeError:  # an unhashable parameter: by identity
        first = value
    entry = _EQUALS_FIRST[id(value)] = (value, id(first))
    return entry


def _identity_key(op: Operation) -> tuple:
    """The identities of ``op``'s types, properties and attributes (with their names)."""
    # (C-level ``map``s: a list comprehension is a Python frame per call)
    return (*map(id, map(_TYPE, op._operands)), -1,  # noqa: SLF001
            *map(id, map(_TYPE, op.results)), -1,
            *op.properties, *map(id, op.properties.values()), -1,
            *op.attributes, *map(id, op.attributes.values()))


_BY_VALUE = object()
"""The start of every key of ``_types_key`` (none of ``_identity_key``'s)."""


def _types_key(op: Operation) -> tuple:
    """``op``'s types, properties and attributes (with their names), by value: the
    lowering builds a new attribute object per op (fast-math flags, GEP indices), and
    keys by identity missed four times in five there. (The counts and the names,
    strings, tell where each group of ids starts.)"""
    operands, results = op._operands, op.results  # noqa: SLF001
    properties, attributes = op.properties, op.attributes
    known = _EQUALS_FIRST.get
    return (_BY_VALUE, len(operands), len(results), *properties, -1, *attributes,
            *[(known(id(value)) or _first_equal(value))[1]
              for value in (*map(_TYPE, operands), *map(_TYPE, results),
                            *properties.values(), *attributes.values())])


def _values_plan(defs) -> tuple | None:
    """(constraints, index of the variadic definition or None, whether it is optional);
    None where xDSL's generic code is needed (several variadic definitions)."""
    variadic = [i for i, (_, d) in enumerate(defs) if isinstance(d, _ops.VariadicDef)]
    if len(variadic) > 1:
        return None
    at = variadic[0] if variadic else None
    return (tuple(d.constr for _, d in defs), at,
            at is not None and isinstance(defs[at][1], _ops.OptionalDef))


def _segments_plan(op_def: _ops.OpDef, option: _ops.AttrSizedOperandSegments) -> tuple:
    """(constraints, kinds: 0 single, 1 variadic, 2 optional, whether the sizes are a
    property) of operands whose group sizes an ``operandSegmentSizes`` array gives."""
    return (tuple(d.constr for _, d in op_def.operands),
            tuple(_def_kind(type(d)) for _, d in op_def.operands), option.as_property)


def _plan(op_def: _ops.OpDef) -> _Plan | None:
    segments = [o for o in op_def.options if isinstance(o, _ops.AttrSizedSegments)]
    if any(type(o) is not _ops.AttrSizedOperandSegments for o in segments):
        return None
    operands = _segments_plan(op_def, segments[0]) if segments else \
        _values_plan(op_def.operands)
    results = _values_plan(op_def.results)
    if operands is None or results is None:
        return None
    return _Plan(op_def, operands, results, bool(segments))


class _Rejected(Exception):
    pass


def _check_values(plan: tuple, values, context) -> None:
    """xDSL's ``irdl_op_verify_arg_list`` for at most one variadic definition: the count,
    then each definition's constraint on the types of its values, in order."""
    constraints, at, optional = plan
    if at is None:
        if len(values) != len(constraints):
            raise _Rejected
        for constraint, value in zip(constraints, values):
            constraint.verify((value._type,), context)  # noqa: SLF001
        return
    extra = len(values) - len(constraints) + 1  # how many values the variadic one takes
    if extra < 0 or (optional and extra > 1):
        raise _Rejected
    for i, constraint in enumerate(constraints):
        if i < at:
            constraint.verify((values[i]._type,), context)  # noqa: SLF001
        elif i == at:
            constraint.verify(tuple(v._type for v in values[at:at + extra]),  # noqa: SLF001
                              context)
        else:
            constraint.verify((values[i + extra - 1]._type,), context)  # noqa: SLF001


def _check_segments(plan: tuple, op: Operation, context) -> None:
    """xDSL's ``verify_variadic_attr_size`` and ``irdl_op_verify_arg_list`` for operands
    in groups sized by ``operandSegmentSizes``: the array (i32, one size per definition,
    each allowed by its definition, summing to the operand count), then each
    definition's constraint on the types of its group, in order."""
    from xdsl.dialects.builtin import DenseArrayBase, i32

    constraints, kinds, as_property = plan
    sizes = (op.properties if as_property else op.attributes).get(
        _ops.AttrSizedOperandSegments.attribute_name)
    if not isinstance(sizes, DenseArrayBase) or sizes.elt_type != i32:
        raise _Rejected
    counts = sizes.get_values()
    values = op._operands  # noqa: SLF001
    if len(counts) != len(kinds) or sum(counts) != len(values):
        raise _Rejected
    start = 0
    for count, kind, constraint in zip(counts, kinds, constraints):
        if count < 0 or (kind == 0 and count != 1) or (kind == 2 and count > 1):
            raise _Rejected
        constraint.verify(tuple(v._type for v in values[start:start + count]),  # noqa: SLF001
                          context)
        start += count


def _check_named(defs: dict, given: dict, optional: type, context) -> None:
    """Each defined property or attribute: present unless optional, and its constraint."""
    for name, attr_def in defs.items():
        if name not in given:
            if isinstance(attr_def, optional):
                continue
            raise _Rejected
        attr_def.constr.verify(given[name], context)


def verify(self: _ops.OpDef, op: Operation) -> None:
    plan = self.__dict__.get("_fast_plan", False)
    if plan is False or (plan is not None and plan.generation != _PLAN_GENERATION[0]):
        plan = self.__dict__["_fast_plan"] = _plan(self)
    if plan is None:
        return _verify(self, op)
    simple = REMEMBER_VERDICTS and not (
        plan.regions or op.regions or plan.successors or op._successors)  # noqa: SLF001
    if simple:
        # the same type and attribute objects passed before (cheap, most ops of a parsed
        # file), else equal ones (freshly lowered IR: new attribute objects per op)
        passed = plan.passed
        key = _identity_key(op)
        found = key in passed
        if not found:
            value_key = _types_key(op)
            found = value_key in passed
            if found:
                _remember(plan, key, op)
        if found:
            for trait in plan.context_traits:
                trait.verify(op)
            return
    try:
        context = VerificationContext()
        if plan.segmented:
            _check_segments(plan.operands, op, context)
        else:
            _check_values(plan.operands, op._operands, context)  # noqa: SLF001
        _check_values(plan.results, op.results, context)
        if plan.regions or op.regions:
            _ops.irdl_op_verify_regions(op, self, context)
        if plan.successors or op._successors:  # noqa: SLF001
            _ops.verify_variadic_size(op, self, _ops.VarIRConstruct.SUCCESSOR)
        _check_named(self.properties, op.properties, _ops.OptPropertyDef, context)
        if any(name not in self.properties for name in op.properties):
            raise _Rejected
        _check_named(self.attributes, op.attributes, _ops.OptAttributeDef, context)
    except Exception:  # noqa: BLE001 - xDSL's own code gives the verdict and the message
        return _verify(self, op)
    for trait in self.traits:
        trait.verify(op)
    if simple:
        _remember(plan, key, op)
        _remember(plan, value_key, None)


def _remember(plan: _Plan, key: tuple, op: Operation | None) -> None:
    """Enter ``key`` (an identity key with its ``op``, or a value key) as passed. An
    identity key's entry holds the op's types and attributes, so that their ids are not
    reused while it is remembered; a value key names the first equal ones, which
    ``_FIRST_EQUAL`` holds."""
    if not plan.passed:
        _PLANS_WITH_VERDICTS.append(plan)
    elif len(plan.passed) >= _PASSED_LIMIT:
        plan.passed.clear()
    plan.passed[key] = None if op is None else (
        *map(_TYPE, op._operands), *map(_TYPE, op.results),  # noqa: SLF001
        *op.properties.values(), *op.attributes.values())


_FIXED_EFFECTS: set | None = None
"""The ``get_effects`` functions of xDSL's memory-effect traits that return one set for
every op (``NoMemoryEffect``, ``Memory{Read,Write,Alloc,Free}Effect``)."""
_DEAD_VERDICT = "would be trivially dead"
_ASK_EACH_OP = "ask each op"


def would_be_trivially_dead(op: Operation) -> bool:
    """xDSL's ``would_be_trivially_dead``, remembered per op class where no op of the class
    can answer otherwise: a registered class whose memory-effect traits (if any) all
    return a fixed set (its terminator and symbol traits are the class's too). The
    verdict is kept with the trait lookups (forgotten when a class gains a trait).
    Upstream: a per-class answer of ``get_effects`` where every trait's is static."""
    from xdsl.transforms.dead_code_elimination import would_be_trivially_dead as xdsls

    cls = type(op)
    key = (cls, _DEAD_VERDICT)
    verdict = _TRAITS.get(key)
    if verdict is None:
        verdict = xdsls(op)
        if not _fixed_effects_class(cls):
            verdict = _ASK_EACH_OP
        _TRAITS[key] = verdict
    if verdict is _ASK_EACH_OP:
        return xdsls(op)
    return verdict  # type: ignore[return-value]


_EFFECTS = "memory effects"
_UNKNOWN = object()
_xdsl_get_effects = _traits.get_effects


def get_effects(op: Operation):
    """xDSL's ``get_effects`` (``xdsl.traits``), the answer of a class whose effect traits
    all return a fixed set (or that has none) kept per class, with the trait lookups; a
    new set per call, as xDSL's. Upstream: the same, per class in ``get_effects``."""
    cls = type(op)
    key = (cls, _EFFECTS)
    found = _TRAITS.get(key, _UNKNOWN)
    if found is _UNKNOWN:
        found = _xdsl_get_effects(op)
        if not _fixed_effects_class(cls):
            found = _ASK_EACH_OP
        elif found is not None:
            found = frozenset(found)
        _TRAITS[key] = found
    if found is _ASK_EACH_OP:
        return _xdsl_get_effects(op)
    return None if found is None else set(found)  # type: ignore[arg-type]


def _fixed_effects_class(cls: type[Operation]) -> bool:
    global _FIXED_EFFECTS
    from xdsl.dialects.builtin import UnregisteredOp

    if _FIXED_EFFECTS is None:
        _FIXED_EFFECTS = {kind.get_effects.__func__ for kind in (  # type: ignore[attr-defined]
            _traits.NoMemoryEffect, _traits.MemoryReadEffect, _traits.MemoryWriteEffect,
            _traits.MemoryAllocEffect, _traits.MemoryFreeEffect)}
    if issubclass(cls, UnregisteredOp):
        return False
    return all(getattr(type(trait).get_effects, "__func__", None) in _FIXED_EFFECTS
               for trait in cls.get_traits_of_type(_traits.MemoryEffect))


def propagate_region_liveness(self, region: Region) -> None:
    """xDSL's fixed point in one call (``changed`` stays as it was, so ``region_dce``'s
    loop of rounds ends after this one)."""
    live = self._live_ops  # noqa: SLF001
    order: list[Operation] = []
    regions = [region]
    while regions:  # the ops xDSL visits: reachable blocks, nested regions of every op
        first = regions.pop().first_block
        if first is None:
            continue
        for block in PostOrderIterator(first):
            op = block.last_op
            while op is not None:  # users before their definitions
                order.append(op)
                if op.regions:
                    regions.extend(op.regions)
                op = op.prev_op
    visited = set(order)
    for op in order:
        if op in live or would_be_trivially_dead(op):
            continue
        live.add(op)
        pending = [op]
        while pending:
            for operand in pending.pop()._operands:  # noqa: SLF001
                owner = operand.owner
                if owner not in live and owner in visited:
                    live.add(owner)
                    pending.append(owner)


_ATTRIBUTE_KINDS: dict[type, bool] = {}
"""attribute class -> whether it is a Data or ParametrizedAttribute subclass"""


def attribute_post_init(self: Attribute) -> None:
    self._verify()  # noqa: SLF001
    cls = type(self)
    known = _ATTRIBUTE_KINDS.get(cls)
    if known is None:
        known = _ATTRIBUTE_KINDS[cls] = issubclass(cls, (Data, ParametrizedAttribute))
    if not known:
        raise TypeError("Attributes should only be Data or ParametrizedAttribute")


_SEQUENCES: dict[type, bool] = {list: True, tuple: True}
"""argument class -> whether it is a ``Sequence``"""
_DEF_KINDS: dict[type, int] = {}
"""definition class -> 0 single, 1 variadic, 2 optional"""


def _def_kind(cls: type) -> int:
    kind = _DEF_KINDS.get(cls)
    if kind is None:
        kind = _DEF_KINDS[cls] = 2 if issubclass(cls, _ops.OptionalDef) else \
            1 if issubclass(cls, _ops.VariadicDef) else 0
    return kind


def build_arg_list(construct, args, arg_defs, error_prefix: str = ""):
    if len(args) != len(arg_defs):
        return _build_arg_list(construct, args, arg_defs, error_prefix)
    built: list = []
    sizes: list[int] = []
    for (_, arg_def), arg in zip(arg_defs, args):
        if arg is None:
            if _def_kind(type(arg_def)) != 2:
                return _build_arg_list(construct, args, arg_defs, error_prefix)
            sizes.append(0)
            continue
        cls = type(arg)
        sequence = _SEQUENCES.get(cls)
        if sequence is None:
            sequence = _SEQUENCES[cls] = isinstance(arg, Sequence)
        if not sequence:
            built.append(arg)
            sizes.append(1)
            continue
        count = len(arg)
        if count != 1:
            kind = _def_kind(type(arg_def))
            if kind == 0 or (kind == 2 and count > 1):
                return _build_arg_list(construct, args, arg_defs, error_prefix)
        built.extend(arg)
        sizes.append(count)
    return built, sizes


def _blocks_under(op: Operation) -> set[int]:
    """The ids of every block nested in ``op``, at any depth."""
    found: set[int] = set()
    regions = list(op.regions)
    while regions:
        for block in regions.pop().blocks:
            found.add(id(block))
            child = block._first_op  # noqa: SLF001
            while child is not None:
                if child.regions:
                    regions += child.regions
                child = child._next_op  # noqa: SLF001
    return found


_ISOLATED: dict[type, bool] = {}
"""op class -> whether it is ``IsolatedFromAbove`` (classes gain traits only at start-up;
emptied with the trait answers, ``add_trait``)."""
_RESULTS = attrgetter("results")
_OPERANDS = attrgetter("_operands")  # xDSL 0.74's fields behind ``operands``, ``args``,
_ARGS = attrgetter("_args")  # an SSA value's ``type``
_TYPE = attrgetter("_type")


def _isolated(cls: type) -> bool:
    found = _ISOLATED.get(cls)
    if found is None:
        found = _ISOLATED[cls] = get_trait(cls, IsolatedFromAbove) is not None
    return found


def _all_defined_inside(op: Operation) -> bool:
    """Whether every operand that xDSL's check reads (of the ops under ``op``, not under a
    nested ``IsolatedFromAbove`` op) is a result of one of those ops or an argument of
    one of their blocks: a set of those values' ids, tested with C-level ``map``s (no
    Python frame per operand). False leaves the answer to xDSL's scan (a value from
    under a nested isolated op, inside ``op`` for xDSL, is not in the set)."""
    checked: list[Operation] = []  # the ops whose operands xDSL reads
    blocks: list = []
    regions = list(op.regions)
    while regions:
        for block in regions.pop().blocks:
            blocks.append(block)
            child = block._first_op  # noqa: SLF001
            while child is not None:
                checked.append(child)
                if child.regions and not _isolated(type(child)):
                    regions += child.regions
                child = child._next_op  # noqa: SLF001
    operands = list(map(id, chain.from_iterable(map(_OPERANDS, checked))))
    if not operands:
        return True  # (a module of functions)
    defined = set(map(id, chain(chain.from_iterable(map(_RESULTS, checked)),
                                chain.from_iterable(map(_ARGS, blocks)))))
    return all(map(defined.__contains__, operands))


_SUSPECTS: list[list[Operation] | None] = [None]
"""The innermost ``isolation_suspects`` scope's ops (None: every op is suspect)."""


@contextmanager
def isolation_suspects(ops: list[Operation] | None) -> Iterator[None]:
    """Within this scope, only ``ops`` (if not None) can break the rule of an
    ``IsolatedFromAbove`` op: the incremental verifier's IR held it in the last
    verification, and ``ops`` are those a change may have affected
    (``tileopt/ir/verify.py``). The rule is then tested on them alone; an offender among
    them still goes to xDSL's scan over every op, for its first offender's message."""
    _SUSPECTS.append(ops)
    try:
        yield
    finally:
        _SUSPECTS.pop()


def _suspects_defined_inside(op: Operation, suspects: list[Operation]) -> bool:
    """Whether every operand of the suspects under ``op`` (at any depth) is a result of an
    op under ``op`` or an argument of a block under it: walks up from each block met, each
    block's answer remembered. (A suspect under a nested isolated op, which xDSL's check
    does not read, is tested too: a false alarm goes to the scan, which passes it.)"""
    inside: dict[int, bool] = {}

    def under(block) -> bool:
        path = []
        node = block
        while node is not None:
            known = inside.get(id(node))
            if known is not None:
                break
            path.append(node)
            parent = node.parent  # block -> region -> op -> block ...
            if parent is op:
                known = True
                break
            node = parent
        else:
            known = False
        for node in path:
            inside[id(node)] = known
        return known

    known = inside.get
    for suspect in suspects:
        block = suspect.parent
        if block is None or not (known(id(block)) or under(block)):
            continue  # (not under ``op``: its rule does not read it)
        for operand in suspect._operands:  # noqa: SLF001
            kind = type(operand)
            where = operand.op.parent if kind is OpResult else \
                operand.block if kind is BlockArgument else None
            if where is None:
                return False
            found = known(id(where))
            if found is None:
                found = under(where)
            if not found:
                return False
    return True


def isolated_from_above_verify(self: IsolatedFromAbove, op: Operation) -> None:
    suspects = _SUSPECTS[-1]
    if _suspects_defined_inside(op, suspects) if suspects is not None else \
            _all_defined_inside(op):
        return  # (no offender: the scan below would find none)
    inside = _blocks_under(op)
    regions = list(op.regions)
    while regions:  # xDSL's order: the last region first, nested regions after
        for block in regions.pop().blocks:
            child = block._first_op  # noqa: SLF001
            while child is not None:
                for operand in child._operands:  # noqa: SLF001
                    # xDSL: ``not op.is_ancestor(owner) or owner is op``; the block of the
                    # owner read off the fields (``isinstance`` on xDSL's abstract classes
                    # was most of this check's time)
                    kind = type(operand)
                    if kind is OpResult:
                        owner = operand.op
                        where = owner.parent
                    elif kind is BlockArgument:
                        owner = where = operand.block
                    else:
                        owner = operand.owner
                        where = owner if isinstance(owner, Block) else owner.parent
                    if owner is op or id(where) not in inside:
                        raise VerifyException("Operation using value defined out of its "
                                              f"IsolatedFromAbove parent: {child}")
                if not child.has_trait(IsolatedFromAbove):
                    regions += child.regions
                child = child._next_op  # noqa: SLF001


def same_operands_and_result_type_verify(self: SameOperandsAndResultType,
                                         op: Operation) -> None:
    # Every operand and result of one type object (``f32``, one tensor type): equal
    # element types, shapes and encodings, so xDSL's check passes; it would build a
    # ``NoneAttr`` for each value's encoding to find that out.
    results = op.results
    if results and op._operands:  # noqa: SLF001
        first = results[0]._type  # noqa: SLF001
        if all(r._type is first for r in results) and \
                all(v._type is first for v in op._operands):  # noqa: SLF001
            return
    _same_operands_and_result_type_verify(self, op)


def new_operation(cls: type[Operation], operands, result_types, properties: dict,
                  attributes: dict, location, *, defaults_given: bool = False) -> Operation:
    """``cls.create(...)`` of an op without regions or successors: the steps of xDSL
    0.74's ``Operation.__init__`` (the same fields, uses and results, then
    ``__post_init__``) without its generic setters, which are a third of the time of
    building an op from a parse template (``tileopt/ir/op_templates.py``).
    ``defaults_given``: ``properties`` and ``attributes`` hold every default of ``cls``
    already (``__post_init__`` would only add them, after reading the definition, which
    builds a class that ``lazy_op_definitions`` left unbuilt: read here instead)."""
    op = cls.__new__(cls)
    _init_fields(op, operands, result_types, properties, attributes, location)
    if defaults_given:
        cls.get_irdl_definition()
    else:
        op.__post_init__()
    return op


def _init_fields(op: Operation, operands, result_types, properties, attributes,
                 location) -> None:
    """The fields that xDSL 0.74's ``Operation.__init__`` sets on a new op without
    regions or successors, and the uses of its operands."""
    values = SSAValues(operands)
    uses = tuple([Use(op, index) for index in range(len(values))])
    for value, use in zip(values, uses):
        value.add_use(use)
    op._operands = values  # noqa: SLF001
    op._operand_uses = uses  # noqa: SLF001
    op.results = SSAValues([OpResult(type_, op, index)
                            for index, type_ in enumerate(result_types)])
    op.properties = dict(properties)
    op.attributes = dict(attributes)
    op.location = location
    op._successors = ()  # noqa: SLF001
    op._successor_uses = ()  # noqa: SLF001
    op.regions = ()


_operation_init = Operation.__init__


def operation_init(self: Operation, *, operands: Sequence = (),
                   result_types: Sequence = (), properties: Mapping = {},  # noqa: B006
                   attributes: Mapping = {}, location=None,  # noqa: B006
                   successors: Sequence = (), regions: Sequence = ()) -> None:
    """xDSL 0.74's ``Operation.__init__`` (which ``irdl_op_init`` and ``create`` call) for
    a new op without successors or regions: its steps (:func:`_init_fields`) without the
    generic ``operands`` and ``successors`` setters, which undo uses that a new op does
    not have. Anything else (an op built again, successors, regions): xDSL's own."""
    if successors or regions or "_operands" in self.__dict__:
        return _operation_init(self, operands=operands, result_types=result_types,
                               properties=properties, attributes=attributes,
                               location=location, successors=successors, regions=regions)
    _init_fields(self, operands, result_types, properties, attributes,
                 _unknown_loc() if location is None else location)
    self.__post_init__()
    return None


def operation_info_hash(self, operands_hash: int | None = None) -> int:
    """xDSL's hash of an op for CSE, the attributes' and types' hashes taken from the
    sums' and tuple's items without building the pairs' tuples twice (each attribute's
    own hash is computed once per object: ``tileopt/dialects/attribute_hashes.py``).
    The numbers differ from xDSL's, but ``__eq__`` compares the same function's, and
    equal attributes still hash alike. ``operands_hash``: instead of the operands' in
    order (tileopt's CSE key for commutative ops)."""
    op = self.op
    return hash((self.name,
                 sum(hash(item) for item in op.attributes.items()),
                 sum(hash(item) for item in op.properties.items()),
                 tuple([hash(result._type) for result in op.results]),  # noqa: SLF001
                 hash(op._operands) if operands_hash is None else operands_hash))  # noqa: SLF001


def _identity_hashed_classes() -> list[type]:
    """xDSL's IR classes whose ``__hash__`` is ``id(self)`` written in Python (ops, blocks,
    regions, values, uses: compared by identity)."""
    from xdsl.ir import SSAValue
    from xdsl.ir.core import _IRNode  # noqa: PLC2701 - the class that defines it
    from xdsl.irdl.operations import IRDLOperation

    return [IRDLOperation, _IRNode, SSAValue, Use]


def identity_hashes() -> None:
    """The identity hash of IR objects from C (``object.__hash__``) instead of a Python
    call of ``id(self)`` per lookup: every set and dict of ops, values or blocks (the
    worklist, liveness, CSE scopes, the layout passes' maps) pays for one. Still by
    identity (the values differ: a set's iteration order is an address order either
    way). Upstream: ``__hash__ = object.__hash__`` on those classes."""
    for cls in _identity_hashed_classes():
        cls.__hash__ = object.__hash__  # type: ignore[method-assign]


def _patch_arith(module) -> None:
    # (xDSL's integer binary ops define their own ``id(self)`` hash)
    module.SignlessIntegerBinaryOperation.__hash__ = object.__hash__


_block_add_op = Block.add_op


def block_add_op(self: Block, operation: Operation) -> None:
    if operation.parent is not None or operation.regions:
        return _block_add_op(self, operation)
    operation.parent = self
    last = self._last_op  # noqa: SLF001 - xDSL 0.74's fields behind first_op/last_op
    if last is None:
        self._first_op = operation  # noqa: SLF001
    else:
        last._next_op = operation  # noqa: SLF001
    operation._prev_op = last  # noqa: SLF001
    operation._next_op = None  # noqa: SLF001
    self._last_op = operation  # noqa: SLF001
    return None


def install() -> None:
    identity_hashes()
    _patch_on_import("xdsl.dialects.arith", _patch_arith)
    _traits.get_effects = get_effects
    Operation.get_trait = classmethod(get_trait)
    Operation.get_traits_of_type = classmethod(get_traits_of_type)
    OpTraits.add_trait = add_trait
    _ops.OpDef.verify = verify
    Attribute.__post_init__ = attribute_post_init
    Operation.__init__ = operation_init
    Block.add_op = block_add_op
    _ops.irdl_build_arg_list = build_arg_list
    IsolatedFromAbove.verify = isolated_from_above_verify
    SameOperandsAndResultType.verify = same_operands_and_result_type_verify
    _patch_on_import(_DCE, _patch_dce)
    _patch_on_import("xdsl.dialects.builtin", _patch_builtin)
    _patch_on_import(_CSE, _patch_cse)


_DCE = "xdsl.transforms.dead_code_elimination"
_CSE = "xdsl.transforms.common_subexpression_elimination"


_propagate_region_liveness = None
"""xDSL's own, once its module is imported (the tests compare the two)"""


def _patch_dce(module) -> None:
    global _propagate_region_liveness
    own = module.LiveSet.propagate_region_liveness
    if own is not propagate_region_liveness:
        _propagate_region_liveness = own
    module.LiveSet.propagate_region_liveness = propagate_region_liveness


def _patch_cse(module) -> None:
    module.OperationInfo.__hash__ = operation_info_hash


_dense_is_splat = None
"""xDSL's own ``DenseIntOrFPElementsAttr.is_splat`` (the tests compare the two)"""


_DENSE_KINDS: list[type] = []
"""the integer and the float element types (half, single, double) of the byte test"""


def _patch_builtin(module) -> None:
    global _dense_is_splat
    cls = module.DenseIntOrFPElementsAttr
    if cls.is_splat is not dense_is_splat:
        _dense_is_splat = cls.is_splat
    cls.is_splat = dense_is_splat
    _DENSE_KINDS[:] = [module.IntegerType | module.IndexType,
                       module.Float16Type | module.Float32Type | module.Float64Type]


def dense_is_splat(self) -> bool:
    data = self.data.data
    count = len(self)
    element = self.type.element_type
    integers, floats = _DENSE_KINDS
    integer = isinstance(element, integers)
    if count == 0 or not (integer or isinstance(element, floats)):
        return _dense_is_splat(self)
    size = len(data) // count
    first = data[:size]
    if data != first * count:
        return False if integer else _dense_is_splat(self)
    if integer or count == 1:
        return True
    value = element.unpack(first, 1)[0]
    return value == value  # noqa: PLR0124 - NaN: no splat, as xDSL's count has it


_PATCHES: dict[str, object] = {}
"""module name -> the patch to apply once it is imported"""


def _patch_on_import(name: str, patch) -> None:
    module = sys.modules.get(name)
    if module is not None:
        patch(module)
        return
    if not _PATCHES:
        sys.meta_path.insert(0, _PatchingFinder())
    _PATCHES[name] = patch


class _PatchingFinder:
    """Finds a module to patch through the other finders and gives it a loader that
    applies the patch once the module has run (before its importer sees it)."""

    def find_spec(self, name, path, target=None):
        patch = _PATCHES.get(name)
        if patch is None:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _PatchingLoader(spec.loader, patch)
                return spec
        return None


class _PatchingLoader:
    def __init__(self, loader, patch) -> None:
        self._loader = loader
        self._patch = patch

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:
        self._loader.exec_module(module)
        self._patch(module)

    def __getattr__(self, name: str):  # get_source, get_code, ...: the real loader's
        return getattr(self._loader, name)
