"""Where the lowering finds the shared-memory scratch of an op, and when it must sync.

``allocate-shared-memory`` (``tileopt/analysis/allocation.py``, another part of tileopt)
gives every op that needs scratch an ``allocation.offset`` attribute and the module its
total in ``ttg.shared``; the barrier analysis that runs with it inserts the barriers that
reuse of those bytes needs. When neither has run (Triton's own ``.ttgir`` files, tests),
this module is a stand-in, marked as such: every op's scratch starts at offset 0, the
module's ``ttg.shared`` becomes the largest scratch any op asked for, and each op that
uses shared memory begins with a barrier, so that no thread overwrites bytes another is
still reading from the op before. That is correct, and costs one barrier per op that a
real barrier analysis may prove unneeded.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Operation

OFFSET_ATTR = "allocation.offset"
TOTAL_ATTR = "ttg.shared"


class SharedMemoryPlan:
    """Scratch offsets of a module: the allocator's, or the stand-in described above."""

    def __init__(self, module: ModuleOp, layouts=None):
        self.allocated = any(OFFSET_ATTR in op.attributes for op in module.walk())
        self.placeholder_bytes = 0

    def offset(self, op: Operation, size_bytes: int) -> int:
        """Byte offset of ``op``'s scratch of ``size_bytes`` in the kernel's shared memory."""
        attr = op.attributes.get(OFFSET_ATTR)
        if isinstance(attr, IntegerAttr):
            return attr.value.data
        if self.allocated:
            raise ValueError(f"'{op.name}' needs {size_bytes} bytes of shared memory but "
                             f"allocate-shared-memory gave it no '{OFFSET_ATTR}'")
        # Stand-in allocator: all scratch at 0, see the module docstring.
        self.placeholder_bytes = max(self.placeholder_bytes, size_bytes)
        return 0

    def barrier_before_use(self, op: Operation, used_before: bool) -> bool:
        """Whether ``op`` must sync before touching its scratch (no barrier analysis ran).

        Not needed by the first op using shared memory in a function when it sits in the
        entry block (no loop can bring it back after a later use).
        """
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
