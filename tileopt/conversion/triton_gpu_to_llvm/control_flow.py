"""Control flow: ``scf.for``/``scf.if``/``scf.while``, ``cf.br``/``cf.cond_br``, ``tt.return``.

Structured ops are lowered straight to LLVM blocks (what ``convert-scf-to-cf`` followed by
the cf -> llvm conversion would give), so the pass accepts TritonGPU IR before or after
``convert-scf-to-cf``. A tensor crossing a block boundary travels as one block argument
per register. Blocks are placed in the order the walk reaches them: loop header, body,
then the exit, so every value is defined above its uses in the function's block list.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.ir import Block, Operation

from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers, return_type


def _lower_region_into(fl: FunctionLowering, block: Block, terminator: str) -> Operation:
    """Lower every op of ``block`` except its terminator (returned, for the caller)."""
    term = block.last_op
    if term is None or term.name != terminator:
        raise fl.error(block.parent_op(), f"expected the region to end in '{terminator}'")
    for op in block.ops:
        if op is term:
            break
        fl.lower_op(op)
    return term


def _types(fl: FunctionLowering, values) -> list:
    types = []
    for v in values:
        types += fl.flat_types(v.type)
    return types


@lowers("scf.for")
def _for(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    lb, ub, step = (fl.scalar(v) for v in (op.lb, op.ub, op.step))
    body = op.body.block
    iv_type = fl.llvm_type(op.lb.type)
    header = fl.new_block([iv_type, *_types(fl, op.iter_args)])
    loop = fl.new_block()
    exit_block = fl.new_block()
    b.br(header, [lb, *fl.flatten(op.iter_args)])

    fl.place(header)
    fl.bind_block_args(body, header)
    unsigned = op.properties.get("unsignedCmp") is not None or "unsignedCmp" in op.attributes
    cond = b.icmp("ult" if unsigned else "slt", header.args[0], ub)
    b.cond_br(cond, loop, [], exit_block, [])

    fl.place(loop)
    yield_op = _lower_region_into(fl, body, "scf.yield")
    b.location = yield_op.location
    next_iv = b.add(header.args[0], step)
    b.br(header, [next_iv, *fl.flatten(yield_op.operands)])
    b.location = op.location

    fl.place(exit_block)
    fl.set_flat(op.results, header.args[1:])


@lowers("scf.if")
def _if(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    cond = fl.scalar(op.cond)
    then_block = fl.new_block()
    has_else = bool(op.false_region.blocks)
    else_block = fl.new_block() if has_else else None
    merge = fl.new_block(_types(fl, op.results))
    b.cond_br(cond, then_block, [], else_block or merge, [])
    for new, region in ((then_block, op.true_region), (else_block, op.false_region)):
        if new is None:
            continue
        fl.place(new)
        yield_op = _lower_region_into(fl, region.block, "scf.yield")
        b.br(merge, fl.flatten(yield_op.operands))
    fl.place(merge)
    fl.set_flat(op.results, merge.args)


@lowers("scf.while")
def _while(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    before = op.before_region.block
    after = op.after_region.block
    header = fl.new_block(_types(fl, before.args))
    b.br(header, fl.flatten(op.arguments))
    fl.place(header)
    fl.bind_block_args(before, header)
    condition = _lower_region_into(fl, before, "scf.condition")
    carried = list(condition.args)
    body = fl.new_block(_types(fl, carried))
    exit_block = fl.new_block(_types(fl, carried))
    flat = fl.flatten(carried)
    b.cond_br(fl.scalar(condition.condition), body, flat, exit_block, flat)
    fl.place(body)
    fl.bind_block_args(after, body)
    yield_op = _lower_region_into(fl, after, "scf.yield")
    b.br(header, fl.flatten(yield_op.operands))
    fl.place(exit_block)
    fl.set_flat(op.results, exit_block.args)


@lowers("cf.br")
def _br(fl: FunctionLowering, op: Operation) -> None:
    fl.b.br(fl.blocks[op.successor], fl.flatten(op.arguments))


@lowers("cf.cond_br")
def _cond_br(fl: FunctionLowering, op: Operation) -> None:
    fl.b.cond_br(fl.scalar(op.cond), fl.blocks[op.then_block], fl.flatten(op.then_arguments),
                 fl.blocks[op.else_block], fl.flatten(op.else_arguments))


@lowers("tt.return")
def _return(fl: FunctionLowering, op: Operation) -> None:
    """A device function returns its results packed (several in a struct)."""
    values = [fl.pack(v) for v in op.operands]
    if len(values) <= 1:
        fl.b.insert(llvm.ReturnOp(*values))
        return
    packed = fl.b.undef(return_type([v.type for v in values]))
    for i, value in enumerate(values):
        packed = fl.b.insert_value(packed, value, i)
    fl.b.insert(llvm.ReturnOp(packed))
