"""``tritonamdgpu-block-pingpong``: order a pipelined GEMM loop into memory and dot clusters
fenced by ``rocdl.sched.barrier`` and ``rocdl.s.setprio``, so that two waves sharing a SIMD
alternate between them (Triton 3.6's ``BlockPingpong.cpp``). This is where Triton's AMD
pipeline puts instruction-scheduling hints into the TTGIR.

Only loops pipelined with two stages are considered (``num-stages``), holding one rank-2
MFMA ``tt.dot``, whose A and B come from ``local_load`` ops of loop-carried buffers that
``local_store`` ops fill from two global loads. With 4 warps (two blocks share a SIMD) and a
tile ``M*N*K*bits`` between 2**18 and 128x128x64x16 bits, the one-cluster schedule:

    local_load A; setprio 1; load A; sched.barrier 0; local_load B; setprio 0;
    load B (with the ops computing its operands); sched.barrier 1;
    setprio 1; dot; setprio 0

Triton 3.9 also leaves a loop alone where one of those two loads has a mask that changes
from one iteration to the next (a K bound, as in a matmul whose K is not a multiple of
the tile): the reordered loads then read stale boundary tiles.

The 8-warp schedules (the dot sliced in two or four clusters with ``gpu.barrier`` and
``amdg.cond_barrier``) are not built: such loops are left as they are.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.analysis.axis_info import element_bit_width
from tileopt.dialects.rocdl import SchedBarrierOp, SetPrioOp
from tileopt.dialects.triton_version import is_version_39
from tileopt.dialects.ttg_attrs import AMDMfmaEncodingAttr, DotOperandEncodingAttr
from tileopt.passes import Pass, option, register_pass

# Tile sizes in M*N*K*bits; Triton's smallest is 2**18 (its "32x128x64x16" comment is
# sixteen times that).
MIN_TILE = 262144
SMALL_TILE = 128 * 128 * 64 * 16
LOW_PRIORITY, HIGH_PRIORITY = 0, 1


def closest_ops(value: SSAValue, name: str) -> list[Operation]:
    """The first ``name`` ops met on every def path from ``value`` (a loop's iter arg
    stands for what the loop yields for it)."""
    found: list[Operation] = []
    seen: set[Operation] = set()

    def visit(v: SSAValue) -> None:
        if isinstance(v, BlockArgument):
            terminator = v.block.last_op
            if isinstance(terminator, scf.YieldOp) and isinstance(v.block.parent_op(),
                                                                  scf.ForOp):
                if v.index > 0:
                    visit(terminator.operands[v.index - 1])
            return
        assert isinstance(v, OpResult)
        op = v.op
        if op in seen:
            return
        seen.add(op)
        if op.name == name:
            found.append(op)
            return
        for operand in op.operands:
            visit(operand)

    visit(value)
    return found


def is_loop_variant(value: SSAValue, loop: scf.ForOp) -> bool:
    """Whether ``value`` depends on an argument of a block inside ``loop`` (its induction
    variable, an iter arg, a nested region's argument); values defined outside are roots."""
    seen: set[SSAValue] = set()
    work = [value]
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        if isinstance(v, BlockArgument):
            owner = v.block.parent_op()
            if owner is not None and loop.is_ancestor(owner):
                return True
            continue
        assert isinstance(v, OpResult)
        if loop.is_ancestor(v.op):
            work.extend(v.op.operands)
    return False


def _is_before(a: Operation, b: Operation) -> bool:
    block = a.parent_block()
    assert block is not None and block is b.parent_block()
    return block.get_operation_index(a) < block.get_operation_index(b)


class Pingponger:
    def __init__(self, loop: scf.ForOp, num_warps: int):
        self.loop = loop
        self.num_warps = num_warps
        self.last: Operation | None = None

    # -- moving ops ----------------------------------------------------------------------

    def append(self, op: Operation) -> None:
        assert self.last is not None
        if op.parent is not None:
            op.detach()
        Rewriter.insert_op(op, InsertPoint.after(self.last))
        self.last = op

    def move_with_producers(self, op: Operation) -> None:
        """Move ``op`` right after the last placed op; moving it up takes along the ops
        of the block between the two that it depends on (defs first)."""
        assert self.last is not None
        anchor = self.last
        block = anchor.parent_block()
        if not _is_before(anchor, op):
            if not any(use.operation.parent_block() is block
                       and _is_before(use.operation, anchor)
                       for result in op.results for use in result.uses):
                self.append(op)
            return
        producers: list[Operation] = []

        def visit(current: Operation) -> None:
            for operand in current.operands:
                if not isinstance(operand, OpResult):
                    continue
                producer = operand.op
                if producer in producers or producer.parent_block() is not block:
                    continue
                if not _is_before(anchor, producer):
                    continue
                visit(producer)
                producers.append(producer)

        visit(op)
        for producer in producers:
            self.append(producer)
        self.append(op)

    # -- the pattern ---------------------------------------------------------------------

    def memory_ops(self):
        """The loop's global loads, pipelined local loads, local stores and dots, each
        kept only where it belongs to the dot's operands."""
        loads, local_loads, stores, dots = [], [], [], []
        block: Block = self.loop.body.block
        for op in self.loop.walk():
            if op.name == "tt.load":
                loads.append(op)
            elif op.name == "ttg.local_load":
                src = op.operands[0]
                if isinstance(src, BlockArgument) and src.block is block and src.index > 0:
                    local_loads.append(op)
            elif op.name == "ttg.local_store":
                stores.append(op)
            elif op.name == "tt.dot" and len(op.results[0].type.get_shape()) == 2:
                dots.append(op)
        return loads, local_loads, stores, dots

    def run(self) -> bool:
        loads, local_loads, stores, dots = self.memory_ops()
        if len(loads) < 2 or len(local_loads) < 2 or len(dots) != 1:
            return False
        dot = dots[0]
        dot_local_loads = closest_ops(dot.operands[0], "ttg.local_load") + \
            closest_ops(dot.operands[1], "ttg.local_load")
        views = [v for ll in dot_local_loads for v in closest_ops(ll.operands[0],
                                                                 "ttg.memdesc_index")]
        dot_stores = [u.operation for v in views for u in v.results[0].uses
                      if u.operation.name == "ttg.local_store"]
        dot_loads = [ld for st in dot_stores for ld in closest_ops(st.operands[0], "tt.load")]
        loads = [op for op in loads if op in dot_loads]
        local_loads = [op for op in local_loads if op in dot_local_loads]
        if len(loads) != 2 or len(local_loads) != 2:
            return False
        if is_version_39(self.loop) and any(
                ld.mask is not None and is_loop_variant(ld.mask, self.loop) for ld in loads):
            return False
        a_type = dot.operands[0].type
        assert isinstance(a_type, TensorType)
        operand = a_type.encoding
        if not isinstance(operand, DotOperandEncodingAttr) or not isinstance(
                operand.parent, AMDMfmaEncodingAttr):
            return False
        m, n = dot.results[0].type.get_shape()
        tile = m * n * a_type.get_shape()[1] * element_bit_width(a_type.element_type)
        if self.num_warps == 4 and MIN_TILE <= tile <= SMALL_TILE:
            self.one_cluster(loads, local_loads, dot)
            return True
        return False

    def one_cluster(self, loads: list[Operation], local_loads: list[Operation],
                    dot: Operation) -> None:
        before_dot = dot.prev_op
        assert before_dot is not None
        fence = SchedBarrierOp(1)  # memory ops stay out of the dot cluster
        self.last = before_dot
        self.append(fence)
        # The memory cluster: local and global loads interleaved.
        self.last = local_loads[0]
        self.append(SetPrioOp(HIGH_PRIORITY))
        self.move_with_producers(loads[0])
        self.append(SchedBarrierOp(0))
        self.move_with_producers(local_loads[1])
        self.append(SetPrioOp(LOW_PRIORITY))
        self.move_with_producers(loads[1])
        # The dot cluster, at high priority so the other wave cannot enter it.
        self.last = fence
        self.append(SetPrioOp(HIGH_PRIORITY))
        self.append(dot)
        self.append(SetPrioOp(LOW_PRIORITY))


def num_warps_of(op: Operation) -> int:
    while op is not None:
        attr = op.attributes.get("ttg.num-warps")
        if isinstance(attr, IntegerAttr):
            return attr.value.data
        op = op.parent_op()
    return 4


@register_pass
class BlockPingpong(Pass):
    """Cluster pipelined GEMM loops for two waves per SIMD, with scheduling fences."""

    name = "tritonamdgpu-block-pingpong"

    num_stages: int = option(2, "number of pipeline stages the loops were given",
                             name="num-stages")

    def apply(self, ctx: Context, op: Operation) -> None:
        if self.num_stages != 2:
            return  # every ping-pong schedule assumes two stages
        for loop in [o for o in op.walk() if isinstance(o, scf.ForOp)]:
            Pingponger(loop, num_warps_of(loop)).run()
