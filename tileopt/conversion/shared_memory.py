"""How much shared-memory scratch each op gets, where the lowering finds it, and when it
must sync.

One computation of each op's scratch size serves the allocator and the lowering, so that
they cannot disagree: :func:`scratch_bytes`. It is Triton's size (the allocation analysis,
:func:`tileopt.analysis.allocation.scratch_bytes`) unless tileopt's lowering of the op lays
out more (a ``ttg.convert_layout`` that Triton does with warp shuffles or in several rounds,
and tileopt through shared memory in one); that layout is a *scratch rule* registered beside
the op's lowering pattern (``@scratch_rule("tt.reduce")``) and called by the pattern itself.
The allocate passes, the barrier analysis the lowering runs and the lowering's own check
all call :func:`scratch_bytes`.

``allocate-shared-memory(-nv)`` (:mod:`tileopt.analysis.allocation`) gives every op that
needs scratch an ``allocation.offset`` attribute and the module its total in
``ttg.shared``. When it has run, the lowering takes those offsets, checks that what it
lowers into fits the bytes the allocator set aside, and asks the barrier analysis
(:mod:`tileopt.analysis.membar`, Triton's Membar) which ops need a barrier before them.
Every scratch op of this lowering synchronises the whole CTA between writing and reading
its scratch, so the analysis runs with ``warp_synchronous=never``.

When the allocator has not run (Triton's own ``.ttgir`` files, small tests), this module
is a stand-in: every op's scratch starts at offset 0, the module's ``ttg.shared`` becomes
the largest scratch any op asked for, and each op that uses shared memory begins with a
barrier, except the first one of a function in its entry block, so that no thread
overwrites bytes another is still reading. Correct, at the cost of barriers a real
analysis may prove unneeded.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Operation

from tileopt.analysis.allocation import SharedMemoryTarget
from tileopt.analysis.allocation import scratch_bytes as triton_scratch_bytes
from tileopt.ir.walks import ops_in_walk_order
from tileopt.passes import PassFailure

OFFSET_ATTR = "allocation.offset"
TOTAL_ATTR = "ttg.shared"

ScratchRule = Callable[[Operation], int]
SCRATCH_RULES: dict[str, ScratchRule] = {}
"""Op name -> bytes of scratch tileopt's lowering of it lays out (the lowering patterns
register theirs; importing ``triton_gpu_to_llvm.module_lowering`` loads them all)."""


def scratch_rule(*names: str) -> Callable[[ScratchRule], ScratchRule]:
    """Register the scratch layout size of the lowering of the ops ``names``."""

    def register(rule: ScratchRule) -> ScratchRule:
        SCRATCH_RULES.update(dict.fromkeys(names, rule))
        return rule

    return register


def scratch_bytes(op: Operation, target: SharedMemoryTarget) -> int:
    """Bytes of scratch ``op`` is given: Triton's size, or the lowering's where that is more."""
    triton = triton_scratch_bytes(op, target)
    rule = SCRATCH_RULES.get(op.name)
    return triton if rule is None else max(triton, rule(op))


class SharedMemoryPlan:
    """Scratch offsets and barrier placement of a module (see the module docstring)."""

    def __init__(self, module: ModuleOp):
        self.allocated = any(OFFSET_ATTR in op.attributes for op in ops_in_walk_order(module))
        self.placeholder_bytes = 0
        self._barriers = None
        self._target = None
        if self.allocated:
            from tileopt.analysis.allocation import ModuleAllocation
            from tileopt.analysis.membar import analyze_barriers, never

            target = self._target = SharedMemoryTarget.from_module(module)
            allocation = ModuleAllocation(module, target,
                                          scratch_size=lambda op: scratch_bytes(op, target))
            self._barriers = analyze_barriers(module, allocation, warp_synchronous=never)

    def offset(self, op: Operation, size_bytes: int) -> int:
        """Byte offset of ``op``'s scratch of ``size_bytes`` in the kernel's shared memory."""
        attr = op.attributes.get(OFFSET_ATTR)
        if self.allocated:
            # Both only when a scratch rule and its pattern disagree (a bug, not bad input).
            if not isinstance(attr, IntegerAttr):
                raise PassFailure(op, f"'{op.name}' needs {size_bytes} bytes of shared memory "
                                      f"but allocate-shared-memory gave it no '{OFFSET_ATTR}'")
            allotted = scratch_bytes(op, self._target)
            if size_bytes > allotted:
                raise PassFailure(op, f"'{op.name}' needs {size_bytes} bytes of shared memory, "
                                      f"more than the {allotted} allocate-shared-memory set aside")
            return attr.value.data
        # Stand-in allocator: all scratch at 0, see the module docstring.
        self.placeholder_bytes = max(self.placeholder_bytes, size_bytes)
        return 0

    def allotted_bytes(self, op: Operation) -> int | None:
        """The scratch bytes the allocator set aside for ``op`` (None: no allocator ran,
        the stand-in gives any op what it asks for)."""
        if not self.allocated:
            return None
        return scratch_bytes(op, self._target)  # what the allocator gave: the same rule

    def buffer_offset(self, op: Operation) -> int:
        """Byte offset of the buffer a ``ttg.local_alloc`` owns. Explicit buffers need the
        allocator: the stand-in cannot place buffers that live side by side."""
        attr = op.attributes.get(OFFSET_ATTR)
        if not isinstance(attr, IntegerAttr):
            raise PassFailure(op, f"'{op.name}' has no '{OFFSET_ATTR}': run "
                                  "allocate-shared-memory(-nv) before the lowering")
        return attr.value.data

    def needs_barrier_before(self, op: Operation) -> bool:
        """The barrier analysis' verdict (only when the allocator ran)."""
        return self._barriers is not None and self._barriers.needs_barrier_before(op)

    def barrier_before_use(self, op: Operation, used_before: bool) -> bool:
        """Whether ``op`` must sync before touching its scratch, when no barrier analysis
        ran. Not needed by the first op using shared memory in a function when it sits in
        the entry block (no loop can bring it back after a later use)."""
        if self.allocated:
            return False
        func = op.parent_op()
        in_entry = func is not None and func.name == "tt.func" and \
            op.parent_block() is func.regions[0].blocks.first
        return used_before or not in_entry

    def record_total(self, module: ModuleOp) -> None:
        if self.allocated:
            return
        current = module.attributes.get(TOTAL_ATTR)
        known = current.value.data if isinstance(current, IntegerAttr) else 0
        module.attributes[TOTAL_ATTR] = IntegerAttr(max(known, self.placeholder_bytes), i32)
