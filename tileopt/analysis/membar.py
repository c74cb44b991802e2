"""Barriers between shared-memory accesses that conflict (Triton 3.6's ``Membar``).

Threads of a CTA reach shared memory at their own pace. Where one op writes bytes that an
earlier op read (WAR), reads bytes an earlier op wrote (RAW), or writes bytes an earlier
op wrote (WAW), and no barrier lies between them on some path, the CTA must synchronise
first. This analysis finds those places, over the byte intervals the allocation
(:mod:`tileopt.analysis.allocation`) gave each buffer:

- *explicit buffers*: ``ttg.local_store`` / ``ttg.async_copy_global_to_local`` /
  an initialised ``ttg.local_alloc`` write the buffers their memdesc may alias,
  ``ttg.local_load`` reads them (other ops by their declared memory effects);
- *scratch buffers*: an op that owns scratch (``convert_layout``, ``reduce``, ``scan``...)
  first writes it and last reads it, with its own barrier in between (its lowering emits
  that one); before it, a barrier is needed if the write conflicts with pending accesses,
  and after it only its final read is pending;
- a barrier op already in the IR, or one this analysis placed, clears everything pending;
  ``ttg.async_wait`` (``amdg.async_wait``) is followed by a barrier unless one is there
  (in Triton 3.9, whose barrier waits for the first op that needs it, waits in a row
  share the one after the last);
- calls: the callee's frame (its virtual buffer) is read and written as a whole.

Pending accesses flow along the control flow to a fixed point: ``cf`` branches, and
``scf.for`` / ``scf.if`` / ``scf.while`` regions (entry, back edge, exit), with straight-line
code analysed in *virtual blocks* that end at a terminator or a region op, as in Triton.

API (what the lowering calls)::

    allocation = ModuleAllocation(module, target)        # the offsets the pass wrote
    plan = analyze_barriers(module, allocation)          # a BarrierPlan
    plan.needs_barrier_before(op) -> bool                # ops in program order: plan.ops
    insert_barriers(module, allocation, make_barrier)    # or: put real barrier ops in

``make_barrier()`` returns a new op (``nvvm.barrier0``, ``rocdl.s_barrier``, a
``ttg.local_barrier``...); ``is_barrier(op)`` says which existing ops already synchronise the
CTA (by default the names in :data:`BARRIER_OPS`).

Contract with the lowering: every op that owns scratch synchronises between writing and
reading it. ``warp_synchronous(op)`` tells which of them synchronise only each warp there;
the default, :func:`triton_warp_synchronous`, is Triton 3.6's rule: a shared-memory
``convert_layout`` whose data never leaves its warp (each warp reads back only what it
wrote, nothing broadcast across warps) uses a warp-level barrier (``bar.warp.sync``), and
every other scratch op a CTA barrier. A lowering that uses CTA barriers everywhere passes
``warp_synchronous=never`` instead (fewer barriers from this analysis, same correctness).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.analysis.allocation import (
    CALL_OPS,
    FUNCTION_OPS,
    FunctionAllocation,
    ModuleAllocation,
    SharedMemoryTarget,
)
from tileopt.analysis.layout_conversion import is_conversion_warp_synchronous
from tileopt.dialects.layout_of import linear_layout_of
from tileopt.dialects.triton_version import is_version_39
from tileopt.dialects.ttg_types import MemDescType
from tileopt.layouts.linear_layout import LayoutError

BARRIER_OPS = frozenset({
    "ttg.local_barrier", "ttg.barrier", "gpu.barrier", "nvvm.barrier0", "nvvm.barrier",
    "rocdl.s_barrier", "rocdl.barrier",
})
"""Ops that synchronise every thread of the CTA (and so order shared-memory accesses)."""

MEMORY_WAIT_OPS = frozenset({"ttg.async_wait", "amdg.async_wait", "ttng.async_tma_store_wait"})
"""Ops after which asynchronously written shared memory is complete for the waiting
thread only: a barrier must follow before other threads read it."""

REGION_BRANCH_OPS = frozenset({"scf.for", "scf.if", "scf.while", "scf.execute_region"})
RETURN_OPS = frozenset({"tt.return", "func.return", "llvm.return"})

# Explicit shared-memory accesses: op name -> (operand indices read, operand indices written).
SHARED_ACCESSES: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "ttg.local_load": ((0,), ()),
    "ttg.local_store": ((), (1,)),
    "ttg.async_copy_global_to_local": ((), (1,)),
}
# Ops that only read their memdesc operands (Triton's effects; the dialect models the
# wgmma wait as a full synchronisation so that nothing is moved across it).
READ_MEMDESC_OPERAND_OPS = frozenset({"ttng.warp_group_dot", "ttng.warp_group_dot_wait"})
NO_ACCESS_OPS = frozenset({
    "ttg.local_dealloc", "ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_trans",
    "ttg.memdesc_reshape", "ttg.memdesc_reinterpret", "ttg.async_commit_group",
})

Interval = tuple[int, int]


def _intersect(a: Interval, b: Interval) -> bool:
    return a[0] < b[1] and b[0] < a[1]


@dataclass
class PendingAccesses:
    """Shared-memory intervals read and written since the last barrier, by which ops
    (Triton's ``BlockInfo``)."""

    reads: dict[Interval, set[Operation]] = field(default_factory=dict)
    writes: dict[Interval, set[Operation]] = field(default_factory=dict)

    def copy(self) -> PendingAccesses:
        return PendingAccesses({k: set(v) for k, v in self.reads.items()},
                               {k: set(v) for k, v in self.writes.items()})

    def join(self, other: PendingAccesses) -> None:
        for mine, theirs in ((self.reads, other.reads), (self.writes, other.writes)):
            for interval, ops in theirs.items():
                mine.setdefault(interval, set()).update(ops)

    def sync(self) -> None:
        self.reads.clear()
        self.writes.clear()

    def empty(self) -> bool:
        return not self.reads and not self.writes

    def conflicts_with(self, later: PendingAccesses,
                       skip: Callable[[Operation, Operation], bool] | None = None) -> bool:
        """RAW, WAR or WAW between these accesses and ``later`` ones."""
        return (_overlap(self.writes, later.reads, skip)
                or _overlap(self.reads, later.writes, skip)
                or _overlap(self.writes, later.writes, skip))


def _overlap(lhs: dict[Interval, set[Operation]], rhs: dict[Interval, set[Operation]],
             skip: Callable[[Operation, Operation], bool] | None) -> bool:
    for a, a_ops in lhs.items():
        for b, b_ops in rhs.items():
            if not _intersect(a, b):
                continue
            if skip is None:
                return True
            if any(not skip(x, y) for x in a_ops for y in b_ops):
                return True
    return False


@dataclass
class BarrierPlan:
    """Where barriers go: before each op of ``ops`` (in the order they were found)."""

    ops: list[Operation] = field(default_factory=list)

    def needs_barrier_before(self, op: Operation) -> bool:
        return op in self._set

    def __post_init__(self) -> None:
        self._set: set[Operation] = set(self.ops)

    def add(self, op: Operation) -> None:
        if op not in self._set:
            self._set.add(op)
            self.ops.append(op)


def default_is_barrier(op: Operation) -> bool:
    return op.name in BARRIER_OPS


def never(op: Operation) -> bool:
    return False


def triton_warp_synchronous(op: Operation) -> bool:
    """Scratch ops Triton lowers with a warp-level barrier inside (see module docstring)."""
    if op.name == "ttng.tensormap_create":
        return True
    if op.name != "ttg.convert_layout":
        return False
    src, dst = op.operands[0].type, op.results[0].type
    if not isinstance(src, TensorType) or not isinstance(dst, TensorType):
        return False
    try:
        return is_conversion_warp_synchronous(linear_layout_of(src), linear_layout_of(dst))
    except LayoutError:
        return False


VirtualBlock = tuple[Block, Operation | None]  # the ops of a block after an op (None: all)


class _FunctionMembar:
    def __init__(self, func: Operation, allocation: FunctionAllocation,
                 summaries: dict[Operation, PendingAccesses], callee_of: Callable,
                 plan: BarrierPlan, is_barrier: Callable[[Operation], bool],
                 warp_synchronous: Callable[[Operation], bool],
                 skip: Callable[[Operation, Operation], bool] | None):
        self.func = func
        self.allocation = allocation
        self.summaries = summaries
        self.callee_of = callee_of
        self.plan = plan
        self.is_barrier = is_barrier
        self.warp_synchronous = warp_synchronous
        self.skip = skip
        self.at_return = PendingAccesses()

    # -- one op

    def _explicit_accesses(self, op: Operation) -> PendingAccesses:
        accesses = PendingAccesses()
        reads: Iterable[SSAValue]
        writes: Iterable[SSAValue]
        if op.name in NO_ACCESS_OPS:
            return accesses
        if op.name == "ttg.local_alloc":
            # Triton: an immutable buffer not yet placed by the allocator has no effects.
            ty = op.results[0].type
            placed = isinstance(ty, MemDescType) and (
                ty.is_mutable or "allocation.offset" in op.attributes)
            reads, writes = (), (op.results if op.operands and placed else ())
        elif op.name in SHARED_ACCESSES:
            r, w = SHARED_ACCESSES[op.name]
            reads = [op.operands[i] for i in r if i < len(op.operands)]
            writes = [op.operands[i] for i in w if i < len(op.operands)]
        else:
            memdescs = [v for v in op.operands if isinstance(v.type, MemDescType)]
            if not memdescs:
                return accesses
            if op.name in READ_MEMDESC_OPERAND_OPS:
                reads, writes = memdescs, ()
            else:
                reads, writes = _declared_accesses(op, memdescs)
        for table, values in ((accesses.reads, reads), (accesses.writes, writes)):
            for value in values:
                for buffer in self.allocation.buffers_of(value):
                    table.setdefault(buffer.interval, set()).add(op)
        return accesses

    def update(self, op: Operation, pending: PendingAccesses) -> None:
        if self.plan.needs_barrier_before(op):
            pending.sync()
        if op.name == "ttg.local_dealloc":
            return
        if self.is_barrier(op):
            pending.sync()
            return
        if op.name in MEMORY_WAIT_OPS:
            following = op.next_op
            if following is not None and not self.is_barrier(following) and not (
                    following.name in MEMORY_WAIT_OPS and is_version_39(op)):
                self.plan.add(following)
            pending.sync()
            return

        scratch = None
        if op.name in CALL_OPS:
            current = self._call_accesses(op)
        else:
            current = self._explicit_accesses(op)
            scratch = self.allocation.op_scratch.get(op)

        if scratch is not None:
            # write ... barrier (inside the op) ... read; both stay pending, as in Triton.
            interval = scratch.interval
            current.writes.setdefault(interval, set()).add(op)
            conflict = pending.conflicts_with(current, self.skip)
            if conflict:
                self.plan.add(op)
            if conflict or not self.warp_synchronous(op):
                pending.sync()
            current.reads.setdefault(interval, set()).add(op)
        elif pending.conflicts_with(current, self.skip):
            self.plan.add(op)
            pending.sync()
        pending.join(current)

    def _call_accesses(self, op: Operation) -> PendingAccesses:
        accesses = PendingAccesses()
        frame = self.allocation.op_virtual.get(op)
        callee = self.callee_of(op)
        summary = self.summaries.get(callee) if callee is not None else None
        if frame is not None and (summary is None or not summary.empty()):
            accesses.reads[frame.interval] = {op}
            accesses.writes[frame.interval] = {op}
        return accesses

    # -- control flow

    def _successors(self, op: Operation) -> list[VirtualBlock]:
        """Where control goes after a terminator or into/around a region op."""
        if op.successors:
            return [(succ, None) for succ in op.successors]
        if op.name in REGION_BRANCH_OPS:
            found: list[VirtualBlock] = []
            if op.name == "scf.for":
                found.append((op.regions[0].blocks.first, None))
                found.append((op.parent_block(), op))
            elif op.name == "scf.if":
                found.append((op.regions[0].blocks.first, None))
                if len(op.regions) > 1 and op.regions[1].blocks:
                    found.append((op.regions[1].blocks.first, None))
                else:
                    found.append((op.parent_block(), op))
            elif op.name == "scf.while":
                found.append((op.regions[0].blocks.first, None))
            else:  # scf.execute_region
                found.append((op.regions[0].blocks.first, None))
            return found
        if op.name in RETURN_OPS:
            return []
        parent = op.parent_op()
        if parent is None or parent.name not in REGION_BRANCH_OPS:
            return []
        after_parent = (parent.parent_block(), parent)
        region = op.parent_region()
        if parent.name == "scf.for":
            return [(region.blocks.first, None), after_parent]
        if parent.name == "scf.while":
            before, after = parent.regions[0], parent.regions[1]
            if region is before:  # scf.condition
                return [(after.blocks.first, None), after_parent]
            return [(before.blocks.first, None)]
        return [after_parent]

    def _ops_of(self, vblock: VirtualBlock) -> Iterable[Operation]:
        block, after = vblock
        op = block.first_op if after is None else after.next_op
        while op is not None:
            yield op
            op = op.next_op

    def run(self) -> None:
        roots: list[VirtualBlock] = []
        for op in self.func.walk():
            if op.name in REGION_BRANCH_OPS:
                continue
            for region in op.regions:
                if region.blocks:
                    roots.append((region.blocks.first, None))
        inputs: dict[VirtualBlock, PendingAccesses] = {}
        outputs: dict[VirtualBlock, PendingAccesses] = {}
        work = deque(roots)
        while work:
            vblock = work.popleft()
            pending = inputs.get(vblock, PendingAccesses()).copy()
            successors: list[VirtualBlock] = []
            ended_in_return = False
            for op in self._ops_of(vblock):
                if op.name in REGION_BRANCH_OPS or op.next_op is None:
                    if self.plan.needs_barrier_before(op):
                        pending.sync()
                    successors = self._successors(op)
                    ended_in_return = op.name in RETURN_OPS
                    break
                self.update(op, pending)
            if vblock in outputs and outputs[vblock] == pending:
                continue
            outputs[vblock] = pending
            if ended_in_return and vblock[0].parent_op() is self.func:
                self.at_return.join(pending)
            for succ in successors:
                inputs.setdefault(succ, PendingAccesses()).join(pending)
                work.append(succ)


def _declared_accesses(op: Operation, memdescs: list[SSAValue]
                       ) -> tuple[list[SSAValue], list[SSAValue]]:
    """Reads/writes of an op's memdesc operands from its declared memory effects; an op
    that declares none is taken to read and write them."""
    from xdsl.traits import MemoryEffectKind, get_effects

    effects = get_effects(op)
    if effects is None:
        return memdescs, memdescs
    shared = [e for e in effects if e.resource is None or e.resource.name().endswith("SharedMemory")]
    reads = any(e.kind == MemoryEffectKind.READ for e in shared)
    writes = any(e.kind == MemoryEffectKind.WRITE for e in shared)
    return (memdescs if reads else []), (memdescs if writes else [])


def _callee_resolver(module: Operation) -> Callable[[Operation], Operation | None]:
    by_name = {}
    for op in module.walk():
        if op.name in FUNCTION_OPS:
            attr = op.properties.get("sym_name")
            if attr is None:
                attr = op.attributes.get("sym_name")
            if attr is not None:
                by_name[attr.data] = op

    def callee_of(call: Operation) -> Operation | None:
        attr = call.properties.get("callee")
        if attr is None:
            attr = call.attributes.get("callee")
        root = getattr(attr, "root_reference", None)
        return by_name.get(root.data) if root is not None else None

    return callee_of


def analyze_barriers(module: ModuleOp, allocation: ModuleAllocation | None = None, *,
                     target: SharedMemoryTarget | None = None,
                     is_barrier: Callable[[Operation], bool] = default_is_barrier,
                     warp_synchronous: Callable[[Operation], bool] = triton_warp_synchronous,
                     skip: Callable[[Operation, Operation], bool] | None = None,
                     ) -> BarrierPlan:
    """Find every op that needs a CTA barrier before it (see the module docstring).

    ``allocation`` defaults to a fresh analysis for ``target`` (default: read from the
    module's ``ttg.target``). ``skip(earlier, later)`` may declare a pair of conflicting ops
    safe (Triton's membar filter). Callees are analysed before their callers.
    """
    if allocation is None:
        allocation = ModuleAllocation(module, target or SharedMemoryTarget.from_module(module))
    plan = BarrierPlan()
    summaries: dict[Operation, PendingAccesses] = {}
    callee_of = _callee_resolver(module)
    for func, func_allocation in allocation.functions.items():  # callees first
        membar = _FunctionMembar(func, func_allocation, summaries, callee_of, plan,
                                 is_barrier, warp_synchronous, skip)
        membar.run()
        summaries[func] = membar.at_return
    return plan


def insert_barriers(module: ModuleOp, make_barrier: Callable[[], Operation],
                    allocation: ModuleAllocation | None = None, **options) -> list[Operation]:
    """Run :func:`analyze_barriers` and put ``make_barrier()`` before each op it names;
    returns the new barrier ops."""
    plan = analyze_barriers(module, allocation, **options)
    inserted = []
    for op in plan.ops:
        barrier = make_barrier()
        Rewriter.insert_op(barrier, InsertPoint.before(op))
        inserted.append(barrier)
    return inserted
