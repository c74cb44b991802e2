"""``inline``: inline calls to functions (MLIR's ``-inline``, as Triton's make_ttir runs it).

Triton's frontend emits every ``@jit`` helper as a private ``tt.func`` called with
``tt.call``; inlining them all is the first pass of Triton's pipeline. A call is inlined
when its callee is a ``tt.func``/``func.func`` with a body, not marked ``noinline = true``,
not (mutually) recursive, and whose body is one block once unreachable blocks are dropped
(the frontend leaves a ``^bb1: // no predecessors`` after an early ``tt.return``). Inlined
ops get MLIR's ``callsite(callee-loc at call-loc)`` locations. Private functions left
without uses are erased. As MLIR's inliner does, the ``default-pipeline``
(``canonicalize``) runs on every function, callees first, before the calls in it are
inlined and again after.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import CallSiteLoc, SymbolRefAttr, UnknownLoc
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from tileopt.passes import Pass, option, register_pass
from tileopt.transforms.utils.symbol_uses import (is_private, referenced_symbols,
                                                   symbol_name)

CALL_OPS = {"tt.call": "tt.func", "func.call": "func.func"}
FUNC_OPS = {"tt.func", "func.func"}
RETURN_OPS = {"tt.return", "func.return"}


def _callee(call: Operation) -> str | None:
    attr = call.properties.get("callee") or call.attributes.get("callee")
    return attr.root_reference.data if isinstance(attr, SymbolRefAttr) else None


def _no_inline(func: Operation) -> bool:
    attr = func.attributes.get("noinline") or func.properties.get("noinline")
    value = getattr(attr, "value", None)
    return bool(getattr(value, "data", False))


def _drop_unreachable_blocks(func: Operation) -> None:
    region = func.regions[0]
    entry = region.blocks.first
    changed = True
    while changed:
        changed = False
        for block in list(region.blocks):
            if block is entry or block.predecessors():
                continue
            for op in block.ops:
                for result in op.results:
                    if any(use.operation.parent_block() is not block for use in result.uses):
                        return  # values escape the block: leave the function alone
            for op in reversed(list(block.ops)):
                block.erase_op(op, safe_erase=False)
            region.detach_block(block)
            block.erase()
            changed = True


def _callsite(loc, call_loc):
    if isinstance(call_loc, UnknownLoc):
        return loc
    return CallSiteLoc(loc, call_loc)


def _inline_call(call: Operation, func: Operation) -> None:
    body = func.regions[0].blocks.first
    assert body is not None
    mapping: dict[SSAValue, SSAValue] = dict(zip(body.args, call.operands, strict=True))
    returned: list[SSAValue] = []
    for op in body.ops:
        if op.name in RETURN_OPS:
            returned = [mapping.get(v, v) for v in op.operands]
            break
        clone = op.clone(value_mapper=mapping)
        for inner in clone.walk():
            inner.location = _callsite(inner.location, call.location)
        Rewriter.insert_op(clone, _before(call))
    for old, new in zip(call.results, returned, strict=True):
        old.replace_all_uses_with(new)
    call.parent_block().erase_op(call)


def _before(op: Operation):
    from xdsl.rewriter import InsertPoint

    return InsertPoint.before(op)


def _inlinable(func: Operation | None) -> bool:
    if func is None or func.name not in FUNC_OPS or _no_inline(func):
        return False
    region = func.regions[0]
    if not region.blocks:
        return False  # a declaration
    _drop_unreachable_blocks(func)
    if len(region.blocks) != 1:
        return False
    last = region.blocks.first.last_op
    return last is not None and last.name in RETURN_OPS


def _symbols(module: Operation) -> dict[str, Operation]:
    return {symbol_name(op): op for op in module.regions[0].blocks.first.ops
            if symbol_name(op) is not None}


def _calls_of(symbols: dict[str, Operation]) -> dict[str, set[str]]:
    """The symbols each symbol refers to (itself included when it does)."""
    return {name: {c for c in referenced_symbols(op) if c in symbols}
            for name, op in symbols.items()}


def inline_calls(module: Operation, within: Operation | None = None) -> bool:
    """Inline every inlinable call in ``module`` (only those inside ``within``, if given);
    return whether anything changed."""
    symbols = _symbols(module)
    # Calls inside a function to itself, directly or through others, are left alone.
    calls_of = _calls_of(symbols)
    recursive = {name for name in symbols if _reaches(name, name, calls_of)}
    changed = False
    progress = True
    while progress:
        progress = False
        for call in [op for op in (within or module).walk() if op.name in CALL_OPS]:
            name = _callee(call)
            func = symbols.get(name) if name is not None else None
            if name in recursive or func is None or func.name != CALL_OPS[call.name]:
                continue
            if not _inlinable(func) or func.is_ancestor(call):
                continue
            _inline_call(call, func)
            progress = changed = True
    return changed


def callees_first(module: Operation) -> list[Operation]:
    """The module's functions, each after every function it calls (MLIR's inliner visits
    the call graph's SCCs bottom-up); otherwise in module order."""
    symbols = _symbols(module)
    calls_of = _calls_of(symbols)
    order: list[Operation] = []
    seen: set[str] = set()
    for root in symbols:
        stack = [(root, iter(sorted(calls_of[root])))]
        seen.add(root)
        while stack:
            name, pending = stack[-1]
            callee = next((c for c in pending if c not in seen), None)
            if callee is None:
                stack.pop()
                if symbols[name].name in FUNC_OPS:
                    order.append(symbols[name])
                continue
            seen.add(callee)
            stack.append((callee, iter(sorted(calls_of[callee]))))
    return order


def _reaches(start: str, goal: str, edges: dict[str, set[str]]) -> bool:
    seen, stack = set(), list(edges.get(start, ()))
    while stack:
        name = stack.pop()
        if name == goal:
            return True
        if name not in seen:
            seen.add(name)
            stack.extend(edges.get(name, ()))
    return False


def erase_dead_private_functions(module: Operation) -> None:
    block = module.regions[0].blocks.first
    while any(op.name in FUNC_OPS and is_private(op) for op in block.ops):
        used: set[str] = set()
        for op in block.ops:
            used |= referenced_symbols(op) - ({symbol_name(op)} if symbol_name(op) else set())
        used |= referenced_symbols(module, nested=False)
        dead = [op for op in block.ops if op.name in FUNC_OPS and is_private(op)
                and symbol_name(op) not in used]
        if not dead:
            return
        for op in dead:
            block.erase_op(op, safe_erase=False)


@register_pass
class Inline(Pass):
    """Inline function calls (tt.call, func.call) and erase private functions left unused."""

    name = "inline"
    default_pipeline: str = option("canonicalize", "passes run on each function before and "
                                   "after inlining into it (MLIR pipeline text; empty for "
                                   "none)")
    # MLIR's other options of this pass, which Triton's reproducers print (in this order):
    # accepted; tileopt inlines every call, once, and runs no pass on other ops.
    inlining_threshold: int = option(4294967295, "max. callee/caller size ratio in percent "
                                     "(accepted: every call is inlined)")
    max_iterations: int = option(4, "max. iterations inlining within an SCC (accepted)")
    op_pipelines: tuple[str, ...] = option((), "passes to run on other ops (accepted, not "
                                           "applied)")

    def apply(self, ctx: Context, op: Operation) -> None:
        from tileopt.pipelines.text import parse_pipeline_text

        steps = (parse_pipeline_text(self.default_pipeline).pass_steps()
                 if self.default_pipeline.strip() else [])

        def optimize(func: Operation) -> None:
            for step in steps:
                step.pass_.apply(ctx, func)

        # As MLIR's inliner: each function, callees first, is simplified, then the calls
        # in it are inlined and, if any was, it is simplified again. So the constants of
        # an inlined body arrive already hoisted, in the callee's order.
        for func in callees_first(op):
            if func.parent is None:
                continue  # erased meanwhile
            optimize(func)
            if inline_calls(op, within=func):
                optimize(func)
        erase_dead_private_functions(op)
