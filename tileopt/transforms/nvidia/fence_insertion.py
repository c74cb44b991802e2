"""``triton-nvidia-gpu-fence-insertion``: order generic-proxy shared-memory writes before
the async-proxy reads of wgmma (Triton 3.6's ``FenceInsertion.cpp``).

From sm90, a ``warp_group_dot`` reads its shared operands through the async proxy; data
that threads wrote with ordinary stores (a ``ttg.local_alloc`` from registers, or a
``ttg.local_store`` into the buffer) is only visible to it after a
``fence.proxy.async``. Before every dot whose A or B buffer was so written (followed
back through memdesc views and loop-carried values; a store counts when it is reached
from the allocation through views of a single use each, as in Triton 3.6), the pass puts a
``ttng.fence_async_shared {bCluster = false}``, hoisted out of every loop that contains
none of those writes, and dropped where the op before it is already such a fence.
Buffers filled by ``cp.async`` copies need no fence in Triton 3.6; Triton 3.9 counts those
copies as generic-proxy writes too (its sm90 matmuls get a fence in the loop, before the
dot; TMA copies are async-proxy and need none). Below sm90 it does nothing.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.analysis.allocation import MEMDESC_VIEW_OPS
from tileopt.dialects.triton_version import is_version_39
from tileopt.dialects.ttg_types import MemDescType
from tileopt.dialects.ttng import FenceAsyncSharedOp
from tileopt.passes import Pass, option, register_pass

_DOTS = ("tt.dot", "tt.dot_scaled", "ttng.warp_group_dot")
_LOOPS = ("scf.for", "scf.while")


def _single_user(op: Operation) -> Operation | None:
    users = [use.operation for result in op.results for use in result.uses]
    return users[0] if len(users) == 1 else None


def _async_copies_into(buffer: SSAValue) -> list[Operation]:
    """The ``cp.async`` copies into ``buffer`` or any view of it."""
    copies, views = [], [buffer]
    while views:
        for use in views.pop().uses:
            user = use.operation
            if user.name == "ttg.async_copy_global_to_local" and use.index == 1:
                copies.append(user)
            elif user.name in MEMDESC_VIEW_OPS:
                views.extend(user.results)
    return copies


def register_writes(value: SSAValue, async_copies: bool = False) -> list[Operation]:
    """The ops that write registers into the shared buffer ``value`` reads: allocs with
    an initial value and local_stores, through views and ``scf.for`` iter args; the owner
    of any other block argument, to be safe. With ``async_copies`` (Triton 3.9), also the
    ``cp.async`` copies into the allocation, when no local_store is found."""
    found: dict[Operation, None] = {}
    visited: set[SSAValue] = set()

    def visit(value: SSAValue) -> None:
        if value in visited or not isinstance(value.type, MemDescType):
            return
        visited.add(value)
        if isinstance(value, OpResult):
            op = value.owner
            if op.name == "ttg.local_alloc":
                if op.operands:
                    found[op] = None
                for use in op.results[0].uses:
                    user = use.operation
                    while user.name in MEMDESC_VIEW_OPS and _single_user(user) is not None:
                        user = _single_user(user)
                    if user.name == "ttg.local_store":
                        found[user] = None
                        return
                if async_copies and (copies := _async_copies_into(op.results[0])):
                    found.update(dict.fromkeys(copies))
                    return
            for operand in op.operands:
                visit(operand)
            return
        block = value.owner
        assert isinstance(block, Block)
        owner = block.parent_op()
        if isinstance(owner, scf.ForOp):
            index = value.index - 1  # the induction variable is not a memdesc
            visit(owner.iter_args[index])
            visit(owner.body.block.last_op.operands[index])
            return
        if owner is not None:
            found[owner] = None

    visit(value)
    return list(found)


def _enclosing_loop(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and parent.name not in _LOOPS:
        parent = parent.parent_op()
    return parent


def insert_fence(dot: Operation) -> None:
    version_39 = is_version_39(dot)
    writes = (register_writes(dot.operands[0], version_39)
              + register_writes(dot.operands[1], version_39))
    if not writes:
        return
    fence = FenceAsyncSharedOp(False)
    fence.location = dot.location
    Rewriter.insert_op(fence, InsertPoint.before(dot))
    while (loop := _enclosing_loop(fence)) is not None:
        if any(loop.is_ancestor(write) for write in writes):
            break
        fence.detach()
        Rewriter.insert_op(fence, InsertPoint.before(loop))
    previous = fence.prev_op
    if isinstance(previous, FenceAsyncSharedOp) and previous.bCluster == fence.bCluster:
        Rewriter.erase_op(fence)


@register_pass
class FenceInsertion(Pass):
    """Insert fence_async_shared before wgmma dots whose shared operands were written
    from registers (sm90 and newer)."""

    name = "triton-nvidia-gpu-fence-insertion"

    compute_capability: int = option(90, "device compute capability",
                                     name="compute-capability")

    def apply(self, ctx: Context, op: Operation) -> None:
        if self.compute_capability < 90:
            return
        for dot in [o for o in op.walk(region_first=True) if o.name in _DOTS]:
            insert_fence(dot)
