"""How a layout travels through TritonGPU ops, forwards and backwards.

The layout passes move layouts along def-use chains: forwards from an op's operands to its
results (``infer_dst_encoding``) when a chosen layout is propagated to users, and backwards
from a result to the operands (``infer_src_encoding``) when a ``ttg.convert_layout`` is
removed by computing its producers directly in the wanted layout. Which ops let a layout
through, which ones can take any layout for free (``can_use_result_encoding``: splat,
make_range, constants, ...) and which loads/stores pin the layout of their neighbourhood
(``is_expensive_load_or_store``) follow Triton 3.6's ``TritonGPU/Transforms/Utility.cpp``.

``convert_backward_slice`` collects the values that would have to be recomputed to produce a
value in another layout, with the layout each one would get; the slice crosses ``scf.if``
and ``scf.for`` loop-carried values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue

from tileopt.dialects.traits import (
    SameLoadStoreOperandsAndResultEncoding,
    SameOperandsAndResultEncoding,
    broadcast_keeps_threads,
    is_elementwise,
)
from tileopt.dialects.triton_version import is_version_39
from tileopt.dialects.tt_types import PointerType
from tileopt.dialects.ttg import num_warps, threads_per_warp
from tileopt.dialects.ttg_attrs import (
    AMDMfmaEncodingAttr,
    AMDWmmaEncodingAttr,
    BlockedEncodingAttr,
    LayoutAttr,
    NvidiaMmaEncodingAttr,
    SliceEncodingAttr,
)
from tileopt.transforms.utils.blocked_layouts import make_blocked
from tileopt.transforms.utils.reshape_layouts import reshape_encoding
from tileopt.transforms.utils.tensor_layouts import (
    conversion_reorders_registers,
    encoding,
    tensor_type,
    with_encoding,
)

# Ops that only re-index a tensor (Triton's ``isView``).
_VIEWS = frozenset({"tt.expand_dims", "tt.reshape", "tt.trans", "tt.join", "tt.split"})
_MMA_LAYOUTS = (NvidiaMmaEncodingAttr, AMDMfmaEncodingAttr, AMDWmmaEncodingAttr)


def keeps_operand_encoding(op: Operation) -> bool:
    """Tensor operands and results of ``op`` always carry one layout (elementwise ops,
    splat, broadcast, atomics, scan: Triton's ``SameOperandsAndResultEncoding``)."""
    return is_elementwise(op) or op.has_trait(
        SameOperandsAndResultEncoding, value_if_unregistered=False
    )


def is_load_or_store(op: Operation) -> bool:
    """Loads and stores: operands and result share one layout (Triton's
    ``SameLoadStoreOperandsAndResultEncoding``)."""
    return op.has_trait(SameLoadStoreOperandsAndResultEncoding, value_if_unregistered=False)


def is_view(op: Operation) -> bool:
    return op.name in _VIEWS


def is_mma_layout(layout: Attribute | None) -> bool:
    return isinstance(layout, _MMA_LAYOUTS)


def _int_prop(op: Operation, name: str) -> int:
    return op.properties[name].value.data  # type: ignore[union-attr]


def _trans_order(op: Operation) -> list[int]:
    return [int(v) for v in op.properties["order"].get_values()]  # type: ignore[union-attr]


def transposed_layout(layout: Attribute, order: list[int]) -> Attribute | None:
    """The layout of ``tt.trans`` with permutation ``order`` applied to a ``layout`` tensor.

    A blocked layout stays blocked with its parameters permuted (Triton's
    ``inferTransOpEncoding``); other layouts are not handled and give None.
    """
    if not isinstance(layout, BlockedEncodingAttr):
        return None
    d = layout.as_dict()
    inverse = [0] * len(order)
    for i, o in enumerate(order):
        inverse[o] = i

    def permute(values):
        return [values[o] for o in order]

    return make_blocked(
        permute(d["sizePerThread"]),
        permute(d["threadsPerWarp"]),
        permute(d["warpsPerCTA"]),
        [inverse[o] for o in d["order"]],
        permute(d["CTAsPerCGA"]),
        permute(d["CTASplitNum"]),
        [inverse[o] for o in d["CTAOrder"]],
    )


def infer_src_encoding(op: Operation, layout: Attribute) -> Attribute | None:
    """The layout ``op``'s tensor operands need for its result to come out in ``layout``."""
    name = op.name
    if name == "tt.scan" and not isinstance(layout, BlockedEncodingAttr):
        return None  # scan lowers only from blocked layouts
    if keeps_operand_encoding(op) or is_load_or_store(op) or isinstance(
            op, (scf.WhileOp, scf.YieldOp, scf.ConditionOp)) or name == "ttng.warp_group_dot_wait":
        return layout
    if name == "tt.reduce":
        if isinstance(layout, SliceEncodingAttr) and layout.dim.data == _int_prop(op, "axis"):
            return layout.parent
        return None
    if name == "tt.expand_dims":
        return SliceEncodingAttr.get(_int_prop(op, "axis"), layout)
    if name == "tt.trans":
        order = _trans_order(op)
        inverse = [0] * len(order)
        for i, o in enumerate(order):
            inverse[o] = i
        return transposed_layout(layout, inverse)
    if name == "tt.gather":
        return layout
    if name == "tt.reshape":
        return _reshaped(op, layout, forward=False)
    return None


def infer_dst_encoding(op: Operation, layout: Attribute) -> Attribute | None:
    """The layout of ``op``'s results when its tensor operands are in ``layout``."""
    name = op.name
    if name == "tt.scan" and not isinstance(layout, BlockedEncodingAttr):
        return None
    if keeps_operand_encoding(op) or is_load_or_store(op) or isinstance(
            op, (scf.WhileOp, scf.ForOp, scf.YieldOp, scf.ConditionOp)) or (
            name == "ttng.warp_group_dot_wait"):
        return layout
    if name == "tt.reduce":
        return SliceEncodingAttr.get(_int_prop(op, "axis"), layout)
    if name == "tt.expand_dims":
        if not isinstance(layout, LayoutAttr):
            return None
        return layout.infer_expand_dims_encoding(_int_prop(op, "axis"))
    if name == "tt.trans":
        return transposed_layout(layout, _trans_order(op))
    if name == "tt.gather":
        return layout
    if name == "tt.reshape":
        return _reshaped(op, layout, forward=True)
    return None


def _reshaped(op: Operation, layout: Attribute, forward: bool) -> Attribute | None:
    """A reshape's result layout from its operand's (or back): only for a reshape that
    keeps elements in place (Triton leaves ``allow_reorder`` ones to other passes)."""
    if "allow_reorder" in op.properties:
        return None
    src, dst = tensor_type(op.operands[0]), tensor_type(op.results[0])
    if src is None or dst is None:
        return None
    if not forward:
        src, dst = dst, src
    hint = dst.encoding if isinstance(dst.encoding, LayoutAttr) else None
    return reshape_encoding(src.get_shape(), layout, dst.get_shape(), slices=is_version_39(op),
                            hint=hint)


def _is_single_value(value: SSAValue) -> bool:
    ty = tensor_type(value)
    if ty is None:
        return True  # a scalar pointer: every thread reads the same address
    return _count(ty) == 1


def _count(ty: TensorType) -> int:
    count = 1
    for size in ty.get_shape():
        count *= size
    return count


def is_expensive_load_or_store(op: Operation) -> bool:
    """A global load/store whose layout is worth keeping: it touches more elements than the
    CTA has threads (smaller ones are cheap to redo: every thread hits the cache)."""
    ptr = op.operands[0]
    if isinstance(ptr.type, PointerType) and isinstance(ptr.type.pointee_type, TensorType):
        return True  # block pointers always keep their layout
    if _is_single_value(ptr):
        return False
    return _count(ptr.type) >= num_warps(op) * threads_per_warp(op)


def can_use_result_encoding(op: Operation, layout: Attribute) -> bool:
    """``op`` can produce its result in ``layout`` directly, at no cost (Triton's
    ``canUseResultEncoding``): a conversion folds into it."""
    name = op.name
    if name == "ttg.convert_layout":
        if isinstance(layout, NvidiaMmaEncodingAttr):
            return encoding(op.operands[0]) == layout
        return True
    if name == "tt.reshape":
        return False  # only reshapes that may reorder elements; none are rematerialised
    return name in ("arith.constant", "tt.make_range", "tt.splat", "tt.histogram",
                    "ttg.local_alloc", "ttg.local_load", "ttg.local_store")


def is_free_convert(op: Operation) -> bool:
    """A ``ttg.convert_layout`` that only reorders registers within each thread."""
    if op.name != "ttg.convert_layout":
        return False
    src, dst = tensor_type(op.operands[0]), tensor_type(op.results[0])
    return src is not None and dst is not None and conversion_reorders_registers(src, dst)


def can_be_rematerialized(op: Operation) -> bool:
    """``op`` may be recomputed in another layout (Triton's ``canBeRemat``)."""
    name = op.name
    if is_load_or_store(op):
        return not is_expensive_load_or_store(op)
    if name in ("tt.atomic_rmw", "tt.atomic_cas", "tt.dot"):
        return False
    if name == "tt.gather":
        return "efficient_layout" not in op.properties
    if name == "tt.reshape":
        return "efficient_layout" not in op.properties
    return not isinstance(op, (scf.WhileOp, scf.ConditionOp))


# ----------------------------------------------------------------------------- operands


@dataclass(frozen=True)
class Operand:
    """Operand ``index`` of ``op`` (MLIR's ``OpOperand``)."""

    op: Operation
    index: int

    @property
    def value(self) -> SSAValue:
        return self.op.operands[self.index]


def if_yields(op: scf.IfOp) -> tuple[scf.YieldOp, scf.YieldOp | None]:
    then_yield = op.true_region.block.last_op
    else_yield = op.false_region.block.last_op if op.false_region.blocks else None
    return then_yield, else_yield  # type: ignore[return-value]


def for_init_operand(for_op: scf.ForOp, arg: BlockArgument) -> Operand:
    """The ``iter_args`` init operand tied to loop-carried block argument ``arg``."""
    return Operand(for_op, 3 + arg.index - 1)


def for_yield_operand(for_op: scf.ForOp, arg: BlockArgument) -> Operand:
    return Operand(for_op.body.block.last_op, arg.index - 1)


ExistingConversion = Callable[[Operand, Attribute], SSAValue | None]


def convert_backward_slice(
    root: Operand,
    root_layout: Attribute,
    slice_: dict[SSAValue, None],
    layouts: dict[SSAValue, Attribute],
    stop: Callable[[Operation], bool] | None = None,
    existing_conversion: ExistingConversion | None = None,
    absorb_broadcasts: bool = False,
) -> bool:
    """Collect into ``slice_`` (ordered) the tensor values to recompute so that ``root``'s
    value comes out in ``root_layout``, and the layout each needs into ``layouts``.

    Walks producers backwards while each one can take its operands in an inferable layout.
    It stops at ops that produce any layout for free, at ``stop(op)``, and at values for
    which ``existing_conversion`` knows an already materialised copy in the wanted layout.
    With ``absorb_broadcasts`` (Triton 3.9) it also stops at a ``tt.broadcast`` whose
    operand, as it is, may be broadcast to the wanted layout (``broadcast_keeps_threads``):
    only the broadcast's result changes layout, and its operand must keep its own.
    Returns False when some value would need two layouts or a producer cannot follow.
    """
    seen: set[tuple[int, int, Attribute]] = set()
    queue: list[tuple[Operand, Attribute]] = []
    fixed: dict[SSAValue, Attribute] = {}  # operands of absorbing broadcasts

    def enqueue(operand: Operand, layout: Attribute) -> None:
        key = (id(operand.op), operand.index, layout)
        if key in seen:
            return
        seen.add(key)
        queue.append((operand, layout))

    def update(value: SSAValue, layout: Attribute) -> bool:
        slice_[value] = None
        known = layouts.get(value, fixed.get(value))
        if known is not None and known != layout:
            return False
        layouts[value] = layout
        return True

    enqueue(root, root_layout)
    while queue:
        use, layout = queue.pop()
        value = use.value
        if tensor_type(value) is None:
            continue
        if isinstance(value, OpResult) and isinstance(value.op, scf.ForOp):
            return False  # loop results are not followed (nor are they in Triton)
        if not update(value, layout):
            return False
        if existing_conversion is not None:
            existing = existing_conversion(use, layout)
            if existing is not None:
                if not update(existing, layout):
                    return False
                value = existing
        if isinstance(value, OpResult):
            producer = value.op
            if isinstance(producer, scf.IfOp):
                if stop is not None and stop(producer):
                    continue
                then_yield, else_yield = if_yields(producer)
                enqueue(Operand(then_yield, value.index), layout)
                if else_yield is not None:
                    enqueue(Operand(else_yield, value.index), layout)
                continue
            for other in producer.results:
                if other is not value and tensor_type(other) is not None:
                    if not update(other, layout):
                        return False
            if is_free_convert(producer):
                enqueue(Operand(producer, 0), layout)
                continue
            if can_use_result_encoding(producer, layout):
                continue
            if stop is not None and stop(producer):
                continue
            if producer.name == "tt.cat":
                return False
            if absorb_broadcasts and absorbs_layout(producer, layout):
                source = producer.operands[0]
                fixed[source] = encoding(source)
                if layouts.get(source, fixed[source]) != fixed[source]:
                    return False
                continue
            if producer.name == "tt.gather":
                src = infer_src_encoding(producer, layout)
                if src is None:
                    return False
                enqueue(Operand(producer, 1), src)
                continue
            for index in range(len(producer.operands)):
                src = infer_src_encoding(producer, layout)
                if src is None:
                    return False
                enqueue(Operand(producer, index), src)
            continue
        assert isinstance(value, BlockArgument)
        parent = value.block.parent_op()
        if isinstance(parent, scf.ForOp) and value.index > 0:
            enqueue(for_init_operand(parent, value), layout)
            enqueue(for_yield_operand(parent, value), layout)
            continue
        return False
    return True


def absorbs_layout(op: Operation, layout: Attribute) -> bool:
    """``op`` is a ``tt.broadcast`` that can give ``layout`` from its operand as it is."""
    if op.name != "tt.broadcast":
        return False
    result = tensor_type(op.results[0])
    return result is not None and broadcast_keeps_threads(op.operands[0].type,
                                                          with_encoding(result, layout))


def defining_block(value: SSAValue) -> Block:
    return value.op.parent_block() if isinstance(value, OpResult) else value.block
