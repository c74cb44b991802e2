"""``tritonamdgpu-in-thread-transpose``: dot operands whose global load is not contiguous
along K are transposed in registers before they are written to LDS (Triton 3.6's
``InThreadTranspose.cpp``).

For each ``local_load`` into a dot operand of an MFMA/WMMA dot:

- the shared-memory ops reachable from it (``local_alloc``, ``local_store``,
  ``memdesc_index``, ``local_load``, ``local_dealloc``, through the results and block
  arguments of ``scf.for``, ``scf.if`` and ``scf.while``) are collected; any other user
  (an async copy) stops the rewrite;
- every tensor written to LDS must be a ``#ttg.blocked`` value whose fastest dim is not K
  and that comes from ``tt.load`` ops of one type (rank 2) holding at least two K elements
  per thread once lanes and warps are placed;
- the loads then hold ``min(that, 64 / element bits)`` K elements per thread
  (``ds_write_b64``): a new blocked layout, the load's operands converted to it and its
  result converted back;
- each tensor written to LDS is converted to that layout and goes through
  ``amdg.in_thread_transpose`` into a ``#ttg.linear`` layout whose register bases walk K
  first;
- the buffers become ``#ttg.amd_rotating_shared`` with the swizzle the dot operand wants
  for a K-contiguous buffer.
"""

from __future__ import annotations

from math import prod

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.analysis.axis_info import element_bit_width
from tileopt.dialects.amdgpu import InThreadTransposeOp
from tileopt.dialects.layout_of import linear_layout_of
from tileopt.dialects.ttg import ConvertLayoutOp
from tileopt.dialects import ttg_attrs
from tileopt.dialects.ttg_attrs import (
    AMDRotatingSharedEncodingAttr,
    BlockedEncodingAttr,
    DotOperandEncodingAttr,
    LinearEncodingAttr,
    SwizzledSharedEncodingAttr,
)
from tileopt.dialects.ttg_types import MemDescType
from tileopt.layouts.mma_choice import dot_operand_swizzle
from tileopt.layouts.tiling import identity_standard_nd, standard_out_dim_names
from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.blocked_layouts import blocked_for_shape
from tileopt.transforms.utils.builder import located

_STORES = ("ttg.local_alloc", "ttg.local_store")
_READS = ("ttg.local_load", "ttg.local_dealloc")
DS_WRITE_BITS = 64  # the widest LDS write the transposed values are meant for


class NoMatch(Exception):
    """The operand's def-use network is not one this pass rewrites."""


def _tensor(value: SSAValue) -> TensorType:
    assert isinstance(value.type, TensorType)
    return value.type


_REGION_BRANCHES = ("scf.for", "scf.if", "scf.while")


def _yields_of(op: Operation) -> list[Operation]:
    """The ``scf.yield`` ops directly in ``op``'s regions, in walk order."""
    return [inner for inner in op.walk()
            if isinstance(inner, scf.YieldOp) and inner.parent_op() is op]


def _sources_through(values: list[SSAValue], seen: set[SSAValue]) -> list[SSAValue]:
    found: list[SSAValue] = []
    for value in values:
        found += value_sources(value, seen)
    return found


def value_sources(value: SSAValue, seen: set[SSAValue]) -> list[SSAValue]:
    """The values ``value`` may come from, through control flow, then ``value`` itself
    (Triton's ``traverseCFForValueDefs``; a value already in ``seen`` gives none): a
    result of an ``scf`` op comes from what the yields directly inside it yield; a loop's
    block argument from its init and its update (a ``while`` takes the body's yield and
    the init at the argument's index); an induction variable from the lower bound. A
    function argument, or a block argument of any other op, cannot be followed."""
    if value in seen:
        return []
    seen.add(value)
    if isinstance(value, OpResult) and value.op.name in _REGION_BRANCHES:
        yielded = []
        for yield_op in _yields_of(value.op):
            if value.index >= len(yield_op.operands):
                raise NoMatch()
            yielded.append(yield_op.operands[value.index])
        return _sources_through(yielded, seen) + [value]
    if not isinstance(value, BlockArgument):
        return [value]
    parent = value.block.parent_op()
    if isinstance(parent, scf.ForOp):
        if value.index == 0:
            return _sources_through([parent.lb], seen) + [value]
        terminator = parent.body.block.last_op
        assert terminator is not None
        return _sources_through([terminator.operands[value.index - 1],
                                 parent.iter_args[value.index - 1]], seen) + [value]
    if isinstance(parent, scf.WhileOp):
        terminator = parent.after_region.block.last_op
        assert terminator is not None
        if value.index >= min(len(terminator.operands), len(parent.operands)):
            raise NoMatch()
        return _sources_through([terminator.operands[value.index],
                                 parent.operands[value.index]], seen) + [value]
    raise NoMatch()


def value_users(value: SSAValue, seen: set[SSAValue]) -> tuple[list[Operation], list[SSAValue]]:
    """The ops using ``value``, through control flow, and the values it passes through
    (Triton's ``traverseCFForValueUses``; a value already in ``seen`` gives none): a yield
    passes it to its op's result (``for``, ``if``) and back to the loop's block argument
    (``for``; a ``while``'s before-argument); a loop init to its block argument; an
    ``scf.condition`` to the body's argument and the ``while``'s result. A return, or any
    other ``scf`` user, cannot be followed."""
    if value in seen:
        return [], []
    seen.add(value)
    users: list[Operation] = []
    carried: list[SSAValue] = []

    def follow(next_value: SSAValue) -> None:
        more_users, more_carried = value_users(next_value, seen)
        users.extend(more_users)
        carried.append(next_value)
        carried.extend(more_carried)

    for use in list(value.uses):
        user = use.operation
        if user.name == "tt.return":
            raise NoMatch()
        if isinstance(user, scf.YieldOp):
            parent = user.parent_op()
            if isinstance(parent, (scf.ForOp, scf.IfOp)):
                follow(parent.results[use.index])
            if isinstance(parent, scf.ForOp):
                follow(parent.body.block.args[use.index + 1])
            elif isinstance(parent, scf.WhileOp):
                follow(parent.before_region.block.args[use.index])
            elif not isinstance(parent, scf.IfOp):
                raise NoMatch()
        elif isinstance(user, scf.ForOp):
            follow(user.body.block.args[use.index - 2])  # after lb, ub, step
        elif isinstance(user, scf.WhileOp):
            follow(user.before_region.block.args[use.index])
        elif isinstance(user, scf.ConditionOp):
            loop = user.parent_op()
            assert isinstance(loop, scf.WhileOp)
            follow(loop.after_region.block.args[use.index - 1])
            follow(loop.results[use.index - 1])
        elif user.name.startswith("scf."):
            raise NoMatch()
        else:
            users.append(user)
    return users, carried


class SharedNetwork:
    """The shared-memory ops around one ``local_load`` (Triton's ``findReachableSMemOps``):
    the writes (``stores``) and every memory value on the way (``values``), found breadth
    first, each value followed once per direction."""

    def __init__(self, root: Operation):
        self.stores: list[Operation] = []
        self.values: list[SSAValue] = []
        seen: set[Operation] = set()
        backward_seen: set[SSAValue] = set()
        forward_seen: set[SSAValue] = set()
        step = [root]
        while step:
            following: list[Operation] = []
            for op in step:
                if op in seen:
                    continue
                seen.add(op)
                if op.name == "ttg.local_alloc":
                    self.stores.append(op)
                    output, operand = op.results[0], None
                elif op.name == "ttg.local_store":
                    self.stores.append(op)
                    output, operand = None, op.operands[1]
                elif op.name == "ttg.memdesc_index":
                    output, operand = op.results[0], op.operands[0]
                elif op.name in _READS:
                    output, operand = None, op.operands[0]
                else:  # async copies write LDS directly: nothing to transpose
                    raise NoMatch()
                if operand is not None:
                    for source in value_sources(operand, backward_seen):
                        self.values.append(source)
                        if isinstance(source, OpResult) and source.op.name in (
                                "ttg.local_alloc", "ttg.memdesc_index"):
                            following.append(source.op)
                if output is not None:
                    users, carried = value_users(output, forward_seen)
                    self.values += carried
                    following += users
            step = following


def max_size_per_thread(ty: TensorType, dim: int) -> int:
    """How many elements of ``dim`` one thread could hold with the lanes and warps kept."""
    layout = ty.encoding
    if not isinstance(layout, BlockedEncodingAttr):
        return 0
    enc = layout.to_encoding()
    shape = list(ty.get_shape())
    return max(1, shape[dim] // (enc.threads_per_warp[dim] * enc.warps_per_cta[dim]))


def match(local_load: Operation) -> tuple[SharedNetwork, list[Operation], int] | None:
    """The network, its global loads and the operand index, where the rewrite applies."""
    dot = _tensor(local_load.results[0]).encoding
    if not isinstance(dot, DotOperandEncodingAttr):
        return None
    if not isinstance(dot.parent, (ttg_attrs.AMDMfmaEncodingAttr,
                                   ttg_attrs.AMDWmmaEncodingAttr)):
        return None
    op_idx = dot.to_encoding().op_idx
    k_dim = 1 if op_idx == 0 else 0
    try:
        network = SharedNetwork(local_load)
        loads: list[Operation] = []
        for store in network.stores:
            if not store.operands:
                continue  # an alloc without a value
            data = store.operands[0]
            layout = _tensor(data).encoding
            if not isinstance(layout, BlockedEncodingAttr):
                return None
            if layout.to_encoding().order[0] == k_dim:
                return None  # already contiguous along K
            for source in value_sources(data, set()):
                if isinstance(source, OpResult) and source.op.name == "tt.load" \
                        and source.op not in loads:
                    loads.append(source.op)
    except NoMatch:
        return None
    if not network.stores or not loads:
        return None
    ty = _tensor(loads[0].results[0])
    if len(ty.get_shape()) != 2 or max_size_per_thread(ty, k_dim) < 2:
        return None
    if any(load.results[0].type != ty for load in loads):
        return None
    return network, loads, op_idx


def transposable_layout(ty: TensorType, op_idx: int) -> BlockedEncodingAttr:
    """The load layout with K elements per thread for one ``ds_write_b64``."""
    k_dim = 1 if op_idx == 0 else 0
    layout = ty.encoding
    assert isinstance(layout, BlockedEncodingAttr)
    enc = layout.to_encoding()
    size = list(enc.size_per_thread)
    size[k_dim] = min(max_size_per_thread(ty, k_dim),
                      DS_WRITE_BITS // element_bit_width(ty.element_type))
    return blocked_for_shape(list(ty.get_shape()), size, list(enc.order),
                             prod(enc.warps_per_cta), prod(enc.threads_per_warp))


def transposed_layout(ty: TensorType, layout: BlockedEncodingAttr) -> LinearEncodingAttr:
    """``layout`` with each thread's tile walked in the order of its two fastest dims
    swapped (what ``amdg.in_thread_transpose`` produces)."""
    enc = layout.to_encoding()
    shape = list(ty.get_shape())
    ll = linear_layout_of(_with_encoding(ty, layout))
    order = list(enc.order)
    order[-2], order[-1] = order[-1], order[-2]
    tile = identity_standard_nd("register", list(enc.size_per_thread), order)
    names = standard_out_dim_names(len(shape))
    bases = ll.bases
    for i, basis in enumerate(tile.get_bases("register")):
        by_name = dict(zip(tile.out_dims, basis))
        bases["register"][i] = [by_name.get(name, 0) for name in names]
    return LinearEncodingAttr.get(bases["register"], bases["lane"], bases["warp"],
                                  bases.get("block", []))


def rotating_shared(operand: TensorType) -> AMDRotatingSharedEncodingAttr:
    dot = operand.encoding
    assert isinstance(dot, DotOperandEncodingAttr)
    order = [1, 0] if dot.to_encoding().op_idx == 0 else [0, 1]
    vec, per_phase, max_phase = dot_operand_swizzle(
        dot.to_encoding(), list(operand.get_shape()), order,
        element_bit_width(operand.element_type))
    return AMDRotatingSharedEncodingAttr.get(vec, per_phase, max_phase, order)


def _with_encoding(ty: TensorType, encoding: Attribute) -> TensorType:
    return TensorType(ty.element_type, ty.get_shape(), encoding)


def refine_load(load: Operation, layout: BlockedEncodingAttr) -> None:
    """The load in ``layout``: its tensor operands converted to it, its result back."""
    point = InsertPoint.before(load)
    operands = []
    for operand in load.operands:
        if isinstance(operand.type, TensorType):
            convert = located(ConvertLayoutOp(operand, _with_encoding(operand.type, layout)),
                              load.location)
            Rewriter.insert_op(convert, point)
            operand = convert.results[0]
        operands.append(operand)
    new = load.clone()
    new.operands = operands
    Rewriter.insert_op(new, point)
    result = Rewriter.replace_value_with_new_type(
        new.results[0], _with_encoding(_tensor(load.results[0]), layout))
    back = located(ConvertLayoutOp(result, load.results[0].type), load.location)
    Rewriter.insert_op(back, point)
    load.results[0].replace_all_uses_with(back.results[0])
    Rewriter.erase_op(load)


def transpose_before_store(store: Operation, layout: BlockedEncodingAttr,
                           transposed: LinearEncodingAttr) -> None:
    if not store.operands:
        return
    data = store.operands[0]
    point = InsertPoint.before(store)
    convert = located(ConvertLayoutOp(data, _with_encoding(_tensor(data), layout)),
                      store.location)
    Rewriter.insert_op(convert, point)
    transpose = located(InThreadTransposeOp.build(
        operands=[convert.results[0]],
        result_types=[_with_encoding(_tensor(data), transposed)]), store.location)
    Rewriter.insert_op(transpose, point)
    store.operands = [transpose.results[0], *store.operands[1:]]


def change_shared_encoding(value: SSAValue, encoding: Attribute) -> None:
    ty = value.type
    if not isinstance(ty, MemDescType) or not isinstance(ty.encoding,
                                                         SwizzledSharedEncodingAttr):
        return
    Rewriter.replace_value_with_new_type(value, MemDescType(
        ty.shape, ty.elementType, encoding, ty.memorySpace, ty.mutableMemory, ty.allocShape))


def rewrite(local_load: Operation) -> None:
    found = match(local_load)
    if found is None:
        return
    network, loads, op_idx = found
    ty = _tensor(loads[0].results[0])
    layout = transposable_layout(ty, op_idx)
    for load in loads:
        refine_load(load, layout)
    transposed = transposed_layout(ty, layout)
    for store in network.stores:
        transpose_before_store(store, layout, transposed)
    shared = rotating_shared(_tensor(local_load.results[0]))
    # A value met along several paths is retyped once.
    for value in dict.fromkeys(network.values):
        change_shared_encoding(value, shared)


@register_pass
class InThreadTranspose(Pass):
    """Transpose K-strided dot operands in registers before they are written to LDS."""

    name = "tritonamdgpu-in-thread-transpose"
    # Triton nests it under tt.func (its reproducers say `tt.func(...)`); at module level,
    # as the YAML pipelines list it, it runs on every function.
    anchor = "tt.func"

    def apply(self, ctx: Context, op: Operation) -> None:
        for local_load in [o for o in op.walk() if o.name == "ttg.local_load"]:
            if local_load.parent is not None:
                rewrite(local_load)
