"""Verifying a module, with the error pointing at the operation that fails.

xDSL's ``Operation.verify`` reports a failing custom verifier by printing the whole
module into the exception; tileopt walks the ops itself and reports
``file:line:col: error: 'tt.dot' op <what is wrong>`` at the op's place in the source
(``source_position``), or at its ``loc(...)`` for ops created by passes.

Besides each op's own verifier this checks what MLIR's verifier checks and xDSL leaves
out: that a value is defined before it is used in the same block (dominance inside a
block and into nested regions), and the module-level rules of the TritonGPU dialect
(layouts against ``ttg.num-warps``/``ttg.threads-per-warp``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import chain, compress, repeat
from operator import attrgetter, ne, not_

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region
from xdsl.traits import IsTerminator, NoTerminator
from xdsl.utils.exceptions import DiagnosticException

from tileopt.dialects.xdsl_fast_paths import (isolation_suspects, keeping_verdicts,
                                              remembering_verdicts)
from tileopt.ir.diagnostics import TileoptError
from tileopt.ir.locations import file_position, from_ancestors
from tileopt.ir.source_positions import source_position
from tileopt.ir.walks import ops_and_blocks_in_walk_order as _ops_and_blocks
from tileopt.ir.walks import ops_in_walk_order as _ops_in_walk_order


def op_position(op: Operation, filename: str | None) -> tuple[str | None, int | None,
                                                               int | None]:
    """Where to report an error about ``op``: its place in the parsed text, else the
    nearest parsed ancestor's, else its ``loc(...)``."""
    if (found := source_position(op)) is not None:
        return found
    if (found := file_position(op.location)) is not None:
        return found
    if (found := from_ancestors(op, source_position)) is not None:
        return found
    return filename, None, None


def _op_error(op: Operation, message: str, filename: str | None) -> TileoptError:
    file, line, col = op_position(op, filename)
    return TileoptError(f"'{op.name}' op {message}", file or filename, line, col)


class _BlockOrder:
    """The order of ops in their blocks, and which blocks dominate which in a CFG region,
    computed once per verification, block or region when first needed. Keyed by ``id``
    (the IR does not change while it is verified; ops, blocks and regions hash through
    Python-level ``__hash__`` methods in xDSL)."""

    def __init__(self, walk: list[Operation]):
        self._walk = walk
        self._positions: dict[int, int] | None = None
        self._index: dict[int, dict[int, int]] = {}
        self._dominators: dict[int, tuple[dict[int, int], dict[int, int]]] = {}

    def before(self, a: Operation, b: Operation) -> bool:
        """Whether op ``a`` comes before op ``b`` of the same block: by their places in
        the walk (ops of one block come in their order), else by their indices."""
        positions = self._positions
        if positions is None:
            walk = self._walk
            positions = self._positions = dict(zip(map(id, walk), range(len(walk))))
        first, second = positions.get(id(a)), positions.get(id(b))
        if first is None or second is None:  # (an op outside the verified one)
            return self._index_of(a) < self._index_of(b)
        return first < second

    def _index_of(self, op: Operation) -> int:
        block = op.parent
        table = self._index.get(id(block))
        if table is None:
            table = self._index[id(block)] = {}
            child, number = block._first_op, 0  # noqa: SLF001 (xDSL 0.74's linked list)
            while child is not None:
                table[id(child)] = number
                child, number = child._next_op, number + 1  # noqa: SLF001
        return table[id(op)]

    def dominates(self, a: Block, b: Block) -> bool:
        """Whether block ``a`` dominates block ``b`` (same region). Unreachable blocks
        are dominated by every block, as MLIR treats them."""
        region = a.parent
        if region._first_block is a:  # noqa: SLF001 (the entry dominates every block)
            return True
        found = self._dominators.get(id(region))
        if found is None:
            found = self._dominators[id(region)] = _block_dominators(region)
        dominators, bits = found
        doms = dominators.get(id(b))
        return doms is None or bool(doms >> bits[id(a)] & 1)


def _block_dominators(region) -> tuple[dict[int, int], dict[int, int]]:
    """(for each block reachable from the entry, by ``id``, the set of blocks that
    dominate it as a bit mask; each block's bit). The classic iterative data-flow
    solution, in reverse post-order. A branch out of the region (reported by the
    structure checks) is no edge here."""
    blocks: list[Block] = []
    block = region._first_block  # noqa: SLF001
    while block is not None:
        blocks.append(block)
        block = block._next_block  # noqa: SLF001
    bits = {id(b): i for i, b in enumerate(blocks)}
    successors = [[bits[id(s)] for s in (b._last_op._successors if b._last_op else ())  # noqa: SLF001
                   if id(s) in bits] for b in blocks]
    post_order: list[int] = []
    seen, stack = {0}, [(0, iter(successors[0]))]
    while stack:
        node, pending = stack[-1]
        for succ in pending:
            if succ not in seen:
                seen.add(succ)
                stack.append((succ, iter(successors[succ])))
                break
        else:
            stack.pop()
            post_order.append(node)
    order = post_order[::-1]
    preds: list[list[int]] = [[] for _ in blocks]
    for node in order:
        for succ in successors[node]:
            preds[succ].append(node)
    everything = (1 << len(blocks)) - 1
    doms = [everything] * len(blocks)
    doms[0] = 1
    changed = True
    while changed:
        changed = False
        for node in order[1:]:
            new = everything
            for pred in preds[node]:
                new &= doms[pred]
            new |= 1 << node
            if new != doms[node]:
                doms[node], changed = new, True
    return {id(blocks[node]): doms[node] for node in order}, bits


def _ancestor_in_region(op: Operation, region) -> Operation | None:
    """``op`` or the op enclosing it whose block is in ``region``; None if ``op`` is not
    inside ``region`` at all."""
    while op is not None:
        block = op.parent
        if block is None:
            return None
        if block.parent is region:
            return op
        op = op.parent_op()
    return None


def _check_dominance(op: Operation, order: _BlockOrder) -> str | None:
    # ``type(...) is``: ``isinstance`` on xDSL's SSA value classes goes through ``ABCMeta``
    # (subclasses, if any, take the ``isinstance`` branches below)
    for number, operand in enumerate(op._operands):  # noqa: SLF001
        kind = type(operand)
        if kind is OpResult or (kind is not BlockArgument and isinstance(operand, OpResult)):
            definer = operand.op
            block = definer.parent
            if block is None:
                return f"operand #{number} is defined by an operation outside the IR"
            user = op if op.parent is block else _ancestor_in_region(op, block.parent)
            if user is None:
                return (f"operand #{number} does not dominate this use (it is defined "
                        f"inside a region of '{block.parent_op().name}' that this op "
                        "is not in)" if block.parent_op() is not None else
                        f"operand #{number} does not dominate this use")
            if user.parent is block:
                if user is definer or order.before(user, definer):
                    return f"operand #{number} does not dominate this use"
            elif not order.dominates(block, user.parent):
                return f"operand #{number} does not dominate this use"
        elif kind is BlockArgument or isinstance(operand, BlockArgument):
            region = operand.block.parent
            if region is None:
                return f"operand #{number} is a block argument out of scope"
            user = op if op.parent is operand.block else _ancestor_in_region(op, region)
            if user is None:
                return f"operand #{number} is a block argument out of scope"
            if user.parent is not operand.block and \
                    not order.dominates(operand.block, user.parent):
                return f"operand #{number} (a block argument) does not dominate this use"
    return None


_NO_TERMINATOR = "ends the body of "


def _structure_error(op: Operation) -> str | None:
    """The checks of xDSL's ``Operation.verify`` that come before the custom verifier.
    (``_successors``, ``_last_op``, ``_first_block``...: xDSL 0.74's fields behind
    ``successors``, ``last_op``, ``blocks``; ``len(region.blocks)`` walks the blocks.)"""
    block = op.parent
    region = None if block is None else block.parent
    successors = op._successors  # noqa: SLF001
    if successors:
        if block is None or region is None:
            return "has successors but is not inside a block"
        if block._last_op is not op:  # noqa: SLF001
            return "with successors must be the last operation of its block"
        for successor in successors:
            if successor.parent is not region:
                return "branches to a block of another region"
    if region is not None and block._last_op is op:  # noqa: SLF001
        parent = region.parent
        if region._first_block is region._last_block:  # noqa: SLF001 (one block)
            if parent is not None and not parent.has_trait(NoTerminator) and \
                    not op.has_trait(IsTerminator):
                return (f"{_NO_TERMINATOR}'{parent.name}', which must end with a "
                        "terminator operation")
        elif not op.has_trait(IsTerminator):
            return "ends a block of a multi-block region but is not a terminator"
    for region in op.regions:
        first = region._first_block  # noqa: SLF001
        if first is not None and first is region._last_block and \
                first._first_op is None and not op.has_trait(NoTerminator):  # noqa: SLF001
            return "has an empty block in a region that needs a terminator"
    return _yield_problem(op) or _alignment_problem(op)


_YIELDS_RESULTS = ("scf.if", "scf.for", "scf.execute_region")
"""Ops whose regions end in an ``scf.yield`` of exactly their results (as MLIR's scf
verifiers require; xDSL's parser fills in an empty yield where the text has none)."""


def _alignment_problem(op: Operation) -> str | None:
    """LLVM ops' ``alignment`` must be a power of 2 (MLIR's LLVM dialect verifiers; LLVM
    itself refuses anything else at translation)."""
    value = op.properties.get("alignment")
    if value is None:  # (not `or`: an IntegerAttr of 0 is falsy)
        value = op.attributes.get("alignment")
    if value is None or not op.name.startswith("llvm."):
        return None
    number = getattr(getattr(value, "value", None), "data", None)
    if isinstance(number, int) and (number <= 0 or number & (number - 1)):
        return f"alignment attribute is not a power of 2 ({number})"
    return None


def _yield_problem(op: Operation) -> str | None:
    if op.name != "scf.yield":
        return None
    parent = op.parent_op()
    if parent is None or parent.name not in _YIELDS_RESULTS:
        return None
    yielded = [v.type for v in op.operands]
    expected = [r.type for r in parent.results]
    if yielded != expected:
        shown = ", ".join(str(t) for t in expected) or "nothing"
        return (f"yields {len(yielded)} value(s) where its parent '{parent.name}' has "
                f"{len(expected)} result(s) ({shown})")
    return None


def verify_module(module: Operation, filename: str | None = None) -> None:
    """Verify every op of ``module``; raise ``TileoptError`` at the first failing op."""
    _verify_ops(module, None, filename)


def _verify_ops(module: Operation, only: set[int] | None,
                filename: str | None, module_rules_on_all: bool = True,
                walk: list[Operation] | None = None,
                kept: _Remembered | None = None) -> None:
    """Verify the ops of ``module`` (those whose ``id`` is in ``only``, if given) in walk
    order (``walk``: the module's ops in that order, if known), so that the first failure
    is the one a whole-module verification reports. The module-level rules look at every
    op, or (``module_rules_on_all`` false) at those in ``only``. ``kept``: what earlier
    verifications of this module found to pass."""
    walk = _ops_in_walk_order(module) if walk is None else walk
    ops = walk if only is None else \
        list(compress(walk, map(only.__contains__, map(id, walk))))
    with remembering_verdicts():  # (xdsl_fast_paths: ops of the same types and
        # attributes share one verdict of their constraints)
        _verify_ops_in_order(module, ops, _BlockOrder(walk), filename,
                             walk if module_rules_on_all or only is None else ops, kept)


def _verify_ops_in_order(module: Operation, ops: list[Operation], order: _BlockOrder,
                         filename: str | None, module_rule_ops: list[Operation],
                         kept: _Remembered | None) -> None:
    for op in ops:
        message = _structure_error(op) or _check_dominance(op, order)
        # MLIR checks that a body ends in a terminator when it leaves the parent, after the
        # body's ops: the last op's own error comes first.
        if message is None or message.startswith(_NO_TERMINATOR):
            try:
                op.verify_()
            except (DiagnosticException, ValueError, TypeError, KeyError,
                    IndexError, AttributeError) as err:
                text = " ".join(line.strip() for line in str(err).splitlines()
                                if line.strip()) or type(err).__name__
                message = text if isinstance(err, DiagnosticException) else (
                    f"failed to verify ({type(err).__name__}: {text})")
        if message is not None:
            raise _op_error(op, message, filename)
    if isinstance(module, ModuleOp):
        problem = _module_level_problem(module, module_rule_ops, kept)
        if problem is not None:
            raise _op_error(problem[0], problem[1], filename)


def _signature(op: Operation) -> tuple:
    """``op``, then everything about it that its verification reads, apart from its nested
    ops: where it is (block, neighbours, parent op), its operands and their types, its
    result types, attributes, properties, regions' blocks with their argument types,
    successors; one flat tuple, its groups ended by ``None`` (no type, attribute item or
    block is None). Attributes and types are immutable values, SSA values and blocks
    compare by identity; holding them (and ``op``) keeps their identity from being reused.
    (Built for the root op of every fingerprint; the other ops' signatures hold the same
    by other means: :func:`_inner_signatures`.)"""
    block = op.parent
    region = None if block is None else block.parent
    # ``_operands`` is xDSL 0.74's tuple behind ``op.operands`` (iterating that view is a
    # Python-level loop per op); ``_type`` is the field behind an SSA value's ``type``
    # property, ``_prev_op``/``_next_op`` behind the neighbours'.
    operands = op._operands  # noqa: SLF001
    regions = op.regions
    return (op, block, region, None if region is None else region.parent,
            op._prev_op, op._next_op, operands,  # noqa: SLF001
            *[v._type for v in operands], None,  # noqa: SLF001
            *[r._type for r in op.results], None,  # noqa: SLF001
            *op.attributes.items(), None, *op.properties.items(), None,
            *([tuple([(b, tuple([a._type for a in b._args]))  # noqa: SLF001
                      for b in r.blocks]) for r in regions] if regions else ()), None,
            *op._successors)  # noqa: SLF001


# What :class:`_Fingerprint` reads, by C-level ``map``s over the walk (no Python frame
# per op). ``_operands``, ``_args``, ``_type``: xDSL 0.74's fields behind ``operands``,
# ``args``, ``type``.
_OP_PLACE = attrgetter("parent", "_operands", "regions", "_successors")
_BLOCK_PLACE = attrgetter("parent", "parent.parent", "_args")
_TYPE = attrgetter("_type")
_RESULTS = attrgetter("results")
_ARGS = attrgetter("_args")
_ATTRIBUTES = attrgetter("attributes")
_PROPERTIES = attrgetter("properties")


_NEIGHBOURS = attrgetter("_prev_op", "_next_op")
_ENCLOSING = attrgetter("parent.parent", "parent.parent.parent")  # region, its op
_OPERANDS = attrgetter("_operands")
_REGIONS = attrgetter("regions")


def _region_blocks(op: Operation) -> tuple:
    """Each region's blocks of ``op``, with their argument types."""
    return tuple([tuple([(b, tuple([a._type for a in b._args]))  # noqa: SLF001
                         for b in r.blocks]) for r in op.regions])


def _grouped_types(groups) -> list[tuple]:
    """The types of each group of SSA values of ``groups``, a tuple per group."""
    return list(map(tuple, map(map, repeat(_TYPE), groups)))


def _inner_signatures(fingerprint: _Fingerprint) -> list[tuple]:
    """What :func:`_signature` reads of each op of the walk but the root, as one tuple
    per op built by C-level ``map``s (no Python frame per op; the fingerprint's lists
    shared): (op, its place (block, operands, regions, successors), its neighbours, its
    block's region and that region's op, operand types, result types, attributes and
    properties (as dicts: their order alone is no change), its regions' blocks with
    their argument types or None)."""
    ops = fingerprint.ops[1:]
    with_regions = list(compress(ops, map(_REGIONS, ops)))
    regions = dict(zip(map(id, with_regions), map(_region_blocks, with_regions)))
    return list(zip(ops, fingerprint.places, map(_NEIGHBOURS, ops), map(_ENCLOSING, ops),
                    _grouped_types(map(_OPERANDS, ops)), _grouped_types(map(_RESULTS, ops)),
                    fingerprint.attributes, fingerprint.properties,
                    map(regions.get, map(id, ops))))


def _types(groups) -> list:
    """The types of the SSA values of ``groups`` (tuples of values), in one list."""
    return list(map(_TYPE, chain.from_iterable(groups)))


def _signatures(fingerprint: _Fingerprint) -> list[tuple]:
    """The signature of each op of the fingerprint's walk, in walk order."""
    return [fingerprint.root, *_inner_signatures(fingerprint)]


class _Fingerprint:
    """Everything the module's ops' signatures (:func:`_signature`) read, in a few flat
    lists: equal fingerprints mean equal signatures, op by op. The ops in walk order, each
    one's block, operands, regions and successors (by identity), attributes and
    properties (copies, compared as dicts: their order alone is no change), the types of
    all results, the blocks in walk order, each one's region, parent op and arguments,
    their types; the module op's own signature, as it has no block. Neighbours follow
    from the walk order and the blocks. Operand types follow from the rest: in IR that
    verified (the last check's), every operand is a result of an op of the walk or an
    argument of a block of the walk (the dominance rules), whose types are here. It costs
    a third of the signatures; most passes change nothing (each one after the lowering).
    """

    __slots__ = ("ops", "blocks", "root", "places", "attributes", "properties",
                 "result_types", "block_places", "argument_types")

    def __init__(self, ops: list[Operation], blocks: list[Block]) -> None:
        self.ops, self.blocks = ops, blocks
        self.root = _signature(ops[0])
        ops = ops[1:]
        self.places = list(map(_OP_PLACE, ops))
        self.attributes = list(map(dict.copy, map(_ATTRIBUTES, ops)))
        self.properties = list(map(dict.copy, map(_PROPERTIES, ops)))
        self.result_types = _types(map(_RESULTS, ops))
        self.block_places = list(map(_BLOCK_PLACE, blocks))
        self.argument_types = _types(map(_ARGS, blocks))

    def matches(self, ops: list[Operation], blocks: list[Block]) -> bool:
        """Whether the IR of this walk (``ops``, ``blocks``) has this fingerprint."""
        if self.ops != ops or self.blocks != blocks or self.root != _signature(ops[0]):
            return False
        ops = ops[1:]
        return (self.places == list(map(_OP_PLACE, ops)) and
                self.attributes == list(map(_ATTRIBUTES, ops)) and
                self.properties == list(map(_PROPERTIES, ops)) and
                self.result_types == _types(map(_RESULTS, ops)) and
                self.block_places == list(map(_BLOCK_PLACE, blocks)) and
                self.argument_types == _types(map(_ARGS, blocks)))


class IncrementalVerifier:
    """Verification after each pass that re-checks only what the pass may have changed,
    with the same verdict and the same first error as :func:`verify_module`.

    It remembers each op's signature (:func:`_signature`, :func:`_inner_signatures`)
    from the last check. An op that is new or whose signature changed is re-verified,
    with every op around it whose verification reads it: its ancestors (region,
    terminator, isolation and symbol checks), and the users of its results and of
    removed ops' results (types, dominance). The module-level rules run when anything
    changed (on the re-checked ops, unless the module op itself changed). The IR it
    starts from (:meth:`start`) must have been verified, as ``parse_module`` does. Where
    the module's :class:`_Fingerprint` is the last one's, no signature changed, and none
    is computed. Within :meth:`kept` (a pipeline run) what passed is kept from one
    verification to the next (``_Remembered``).
    """

    def __init__(self) -> None:
        # id(op) -> its signature, which holds the op alive (so that no other op takes
        # its id meanwhile): ints hash in C, ops through a Python-level ``__hash__``
        self._signatures: dict[int, tuple] = {}
        self._fingerprint: _Fingerprint | None = None
        self._kept = _Remembered()

    @contextmanager
    def kept(self) -> Iterator[None]:
        """The scope of one pipeline run: what its verifications find to pass (the op
        definitions' verdicts for types and attributes, the types that pass the layout
        rules) is kept from one verification to the next until it ends."""
        try:
            with keeping_verdicts():
                yield
        finally:
            self._kept = _Remembered()

    def start(self, module: Operation) -> None:
        fingerprint = self._fingerprint = _Fingerprint(*_ops_and_blocks(module))
        self._signatures = dict(zip(map(id, fingerprint.ops), _signatures(fingerprint)))

    def verify(self, module: Operation, filename: str | None = None) -> bool:
        """Verify what changed since the last call; whether anything did (any op's
        signature: its operands, types, attributes, properties, regions, place; the
        order of an op's attributes alone is no change)."""
        walk, blocks = _ops_and_blocks(module)
        if self._fingerprint is not None and self._fingerprint.matches(walk, blocks):
            return False
        fingerprint = self._fingerprint = _Fingerprint(walk, blocks)
        before = self._signatures
        ids = list(map(id, walk))
        signatures = _signatures(fingerprint)
        now = dict(zip(ids, signatures))
        changed = list(compress(walk, map(ne, map(before.get, ids), signatures)))
        gone = list(compress(before.values(), map(not_, map(now.__contains__, before))))
        removed = [signature[0] for signature in gone]
        self._signatures = now
        if not changed and not removed:
            return False
        recheck: set[int] = set(map(id, changed))
        recheck.update(map(id, _cross_block_users(_changed_cfgs(changed, gone, now))))
        for op in changed:
            parent = op.parent_op()
            while parent is not None and id(parent) not in recheck:
                recheck.add(id(parent))
                parent = parent.parent_op()
        users = [use.operation for op in changed + removed for result in op.results
                 for use in result.uses]
        recheck.update(map(id, users))
        # The module-level rules read the module's attributes and each op's types (part of
        # its signature): with the module op itself unchanged, only re-checked ops can fail.
        with isolation_suspects(_isolation_suspects(changed, users, before, now,
                                                    len(walk))):
            _verify_ops(module, recheck, filename, module_rules_on_all=module in changed,
                        walk=walk, kept=self._kept)
        return True


def _isolation_suspects(changed: list[Operation], users: list[Operation],
                        before: dict[int, tuple], present: dict[int, tuple],
                        size: int) -> list[Operation] | None:
    """The ops whose operands may now break the rule of an ``IsolatedFromAbove`` op that
    held in the last verification (``xdsl_fast_paths.isolation_suspects``): the changed
    ops (new operands; new, or moved into such an op, with everything nested in them:
    an op whose block is another than ``before``), and the users of changed and removed
    ops' results (their definition may have moved out, or gone). A value keeps its place
    otherwise: what defines it (an op, a block's argument) or an op or block around that
    would be changed, and a use that it dominates moves with it or is changed. None
    (check every op) where that is more than a share of the module's ``size`` ops
    (``_SUSPECTS_SHARE``): the set test of all ops is cheaper then."""
    found: dict[int, Operation] = {}
    for op in changed:
        if id(op) in found:
            continue  # (nested in a moved op found before: taken with it)
        old = before.get(id(op))  # (the root's signature is _signature's: it never moves)
        if op.regions and (old is None or (
                op.parent is not None and old[1][0] is not op.parent)):
            found.update(zip(map(id, nested := _ops_in_walk_order(op)), nested))
        else:
            found[id(op)] = op
        if len(found) * _SUSPECTS_SHARE > size:
            return None
    found.update((id(user), user) for user in users if id(user) in present)
    return None if len(found) * _SUSPECTS_SHARE > size else list(found.values())


_SUSPECTS_SHARE = 2
"""More suspects than one in this many of the module's ops: every op is checked."""


def _changed_cfgs(changed: list[Operation], gone: list[tuple],
                  present: dict[int, tuple]) -> list[Region]:
    """The regions of the module whose control flow may have changed, so that a block may
    no longer dominate another: where a branch (an op with successors) is new, changed or
    removed (its signature ends with its successors), and the multi-block regions of a
    changed op (blocks added, removed or reordered)."""
    found: dict[int, Region] = {}
    for op in changed:
        block = op.parent
        if op._successors and block is not None and block.parent is not None:  # noqa: SLF001
            found[id(block.parent)] = block.parent
        for region in op.regions:
            if region._first_block is not region._last_block:  # noqa: SLF001
                found[id(region)] = region
    for signature in gone:  # (see _inner_signatures: the root is never gone)
        (region, owner), successors = signature[3], signature[1][3]
        if successors and region.parent is owner and id(owner) in present:
            found[id(region)] = region
    return list(found.values())


def _cross_block_users(regions: list[Region]) -> list[Operation]:
    """The ops under ``regions`` that use a value of another block of the same region than
    their own (the entry block's values excepted: the entry dominates every block): the
    ops whose dominance a change of the region's control flow may break."""
    users: list[Operation] = []
    for region in regions:
        entry = region._first_block  # noqa: SLF001
        for op in _ops_in_walk_order(region):
            block = op.parent
            for operand in op._operands:  # noqa: SLF001
                kind = type(operand)
                owner = operand.op.parent if kind is OpResult else \
                    operand.block if kind is BlockArgument else None
                if owner is not block and owner is not entry and \
                        (owner is None or owner.parent is region):
                    users.append(op)
                    break
    return users


class _Remembered:
    """What the verifications of one module found to pass, kept from one to the next:
    the types that passed the TritonGPU layout rules (``ttg.LayoutVerdicts``, made when
    first needed: the layouts' module may never be imported)."""

    __slots__ = ("layouts",)

    def __init__(self) -> None:
        self.layouts = None


def _module_level_problem(module: ModuleOp, ops: list[Operation],
                          kept: _Remembered | None = None
                          ) -> tuple[Operation, str] | None:
    """Rules that span the module, like MLIR's ``verifyOperationAttribute``: TritonGPU's
    layouts must distribute exactly the module's ``ttg.num-warps`` warps and
    ``ttg.threads-per-warp`` lanes (checked by the ttg dialect), over ``ops``."""
    if "tileopt.dialects.ttg_attrs" not in sys.modules:
        return None  # the layouts' module was never imported: the IR holds none
    from tileopt.dialects.ttg import LayoutVerdicts, find_layout_problem

    if kept is not None and kept.layouts is None:
        kept.layouts = LayoutVerdicts()
    return find_layout_problem(module, ops, None if kept is None else kept.layouts)
