"""``convert-cf-to-llvm``: the ``cf`` dialect's branches -> ``llvm`` branches.

MLIR's pass of that name, as Triton's AMD pipeline runs it after its lowering: ``cf.br``
and ``cf.cond_br`` become ``llvm.br``/``llvm.cond_br`` with the same successors and
operands; ``cf.switch`` becomes a chain of compares and conditional branches (the same
control flow as ``llvm.switch``, which tileopt's LLVM dialect lacks); ``cf.assert``
branches to a block that traps, as MLIR lowers it without a message sink. tileopt's
TritonGPU lowering already emits ``llvm`` branches, so in tileopt's pipelines the pass
finds nothing to do; it serves LLVM-dialect input that still holds ``cf`` ops.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf, llvm
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, Operation

from tileopt.ir.walks import ops_in_walk_order
from tileopt.passes import Pass, PassFailure, option, register_pass


def _replace(op: Operation, new_ops: list[Operation]) -> None:
    block = op.parent_block()
    assert block is not None
    for new in new_ops:
        new.location = op.location
        block.insert_op_before(new, op)
    op.detach()
    op.erase()


def _lower_switch(op: cf.SwitchOp) -> None:
    """``case i: ^bi`` tests in order, each failing into a new block; the last falls to
    the default."""
    block = op.parent_block()
    region = block.parent
    flag = op.flag
    cases = [] if op.case_values is None else [int(v) for v in op.case_values.get_values()]
    current_ops: list[Operation] = []
    insert_after = block
    ops_for_block: list[tuple[Block, list[Operation]]] = [(block, current_ops)]
    for i, value in enumerate(cases):
        constant = llvm.ConstantOp(IntegerAttr(value, flag.type), flag.type)
        compare = llvm.ICmpOp(flag, constant.result, IntegerAttr(0, 64))  # eq
        next_block = Block()
        branch = llvm.CondBrOp(compare.results[0], op.case_blocks[i],
                               list(op.case_operand[i]), next_block, [])
        ops_for_block[-1][1].extend([constant, compare, branch])
        region.insert_block_after(next_block, insert_after)
        insert_after = next_block
        ops_for_block.append((next_block, []))
    ops_for_block[-1][1].append(llvm.BrOp(op.default_block, *op.default_operands))
    _replace(op, ops_for_block[0][1])
    for new_block, new_ops in ops_for_block[1:]:
        for new in new_ops:
            new.location = op.location
            new_block.add_op(new)


def _lower_assert(op: cf.AssertOp) -> None:
    block = op.parent_block()
    region = block.parent
    rest = block.split_before(op)
    failure = Block()
    region.insert_block_after(failure, block)
    failure.add_ops([llvm.CallIntrinsicOp("llvm.trap", [], []), llvm.UnreachableOp()])
    block.add_op(llvm.CondBrOp(op.arg, rest, [], failure, []))
    op.detach()
    op.erase()


def _enclosing_function(op: Operation) -> str | None:
    parent = op.parent_op()
    while parent is not None and parent.name not in ("tt.func", "llvm.func", "func.func"):
        parent = parent.parent_op()
    return parent.name if parent is not None else None


@register_pass
@dataclass(frozen=True)
class ConvertCFToLLVM(Pass):
    """Convert cf branches, switches and asserts to the LLVM dialect."""

    name = "convert-cf-to-llvm"
    index_bitwidth: int = option(0, "bit width of index values (0: the data layout's; "
                                 "accepted: index is 32 bits on the GPU targets)")

    def apply(self, ctx: Context, root: Operation) -> None:
        for op in ops_in_walk_order(root):
            if not op.name.startswith("cf."):
                continue
            if _enclosing_function(op) == "tt.func":
                raise PassFailure(op, "convert-cf-to-llvm runs after the TritonGPU lowering "
                                      "(convert-triton-gpu-to-llvm or convert-triton-amdgpu-to-"
                                      "llvm): this cf op is still in a tt.func")
            if isinstance(op, cf.BranchOp):
                _replace(op, [llvm.BrOp(op.successor, *op.arguments)])
            elif isinstance(op, cf.ConditionalBranchOp):
                _replace(op, [llvm.CondBrOp(op.cond, op.then_block, list(op.then_arguments),
                                            op.else_block, list(op.else_arguments))])
            elif isinstance(op, cf.SwitchOp):
                _lower_switch(op)
            elif isinstance(op, cf.AssertOp):
                _lower_assert(op)
