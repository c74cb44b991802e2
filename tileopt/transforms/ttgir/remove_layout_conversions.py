"""``tritongpu-remove-layout-conversions``: remove ``ttg.convert_layout`` ops by choosing
better layouts for the values around them (Triton 3.6's ``RemoveLayoutConversions.cpp``).

After ``convert-triton-to-tritongpu`` and ``coalesce`` a kernel is full of conversions: every
load and store got the layout best for memory, everything else a default one. This pass
removes as many as it can, in four steps:

1. Forward propagation. Ops whose layout matters (anchors: loads and stores of more
   elements than the CTA has threads, dots, atomics, function arguments) push their
   layout to their users, through elementwise ops, reductions, ``expand_dims``, ``trans``,
   conversions and loop-carried values. A value reached by several layouts keeps one
   (blocked for memory ops, an MMA layout otherwise, else the first that arrived), and
   the function is rewritten in place, with conversions where layouts still disagree.
2. Backward rematerialization. For each remaining conversion, the producers of its
   operand are recomputed in the destination layout when all of them can be (no
   expensive load, no dot, no atomic) and the recomputation is cheaper than the
   conversion (Triton's cost model: a conversion costs 32 units per byte through shared
   memory, a recomputed elementwise op one per byte, eight for transcendental ones).
   Repeated until nothing changes.
3. Hoisting. A conversion that cannot be removed is moved above the ``extsi``/``extf``/
   ``broadcast``/``expand_dims`` that made its operand bigger (whatever the recomputation
   costs: Triton 3.6 has no cost check there), into the one branch of an
   ``scf.if`` that needs it, or next to the loads feeding a dot operand.
4. Clean-up: conversions folded (``convert_layout_patterns``), dead loop-carried values
   and unused conditional results removed, dead code erased.

Whether a conversion is free (two spellings of one layout, or a register permutation) is
decided with linear layouts (``tensor_layouts``), not per pair of layout kinds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import AnyFloat, DenseIntOrFPElementsAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.utils.hints import isa

from tileopt.dialects.triton_version import is_version_39
from tileopt.dialects.ttg import ConvertLayoutOp, threads_per_warp
from tileopt.dialects.ttg_attrs import BlockedEncodingAttr, DotOperandEncodingAttr
from tileopt.passes import Pass, PassFailure, register_pass
from tileopt.transforms.canonicalization.convert_layout_patterns import CONVERT_LAYOUT_PATTERNS
from tileopt.transforms.canonicalization.scf_patterns import ScfCanonicalization
from tileopt.ir.locations import value_location
from tileopt.ir.walks import ops_in_walk_order
from tileopt.transforms.utils.builder import located
from tileopt.transforms.utils.greedy_rewrite import apply_patterns_greedily
from tileopt.transforms.utils.layout_propagation import (
    Operand,
    can_be_rematerialized,
    can_use_result_encoding,
    convert_backward_slice,
    if_yields,
    infer_dst_encoding,
    infer_src_encoding,
    is_elementwise,
    is_expensive_load_or_store,
    is_mma_layout,
    is_view,
    keeps_operand_encoding,
)
from tileopt.transforms.utils.op_motion import enclosing_for
from tileopt.transforms.utils.scf_rewrites import (
    eliminate_dead_iter_args,
    locate_loop_arguments,
    replace_for_with_new_signature,
    replace_if_with_new_signature,
)
from tileopt.analysis.structured_dominance import post_dominates, properly_dominates
from tileopt.transforms.utils.tensor_layouts import (
    elems_per_thread,
    encoding,
    retype,
    tensor_type,
    with_encoding,
)

_ANCHOR_OPS = frozenset({
    "tt.dot", "tt.dot_scaled", "ttng.warp_group_dot", "tt.atomic_rmw", "tt.atomic_cas",
    "ttng.tmem_load", "tt.descriptor_load", "tt.descriptor_store", "tt.descriptor_gather",
    "tt.descriptor_scatter", "tt.descriptor_reduce",
})
# Ops the forward propagation rewrites by giving their results the new layout and
# converting their operands to the matching one.
_LAYOUT_FOLLOWERS = frozenset({
    "tt.reduce", "tt.expand_dims", "tt.reshape", "tt.trans", "tt.join", "tt.split",
    "ttg.convert_layout",
})


def is_layout_anchor(op: Operation) -> bool:
    """``op``'s results keep their layout and propagate it (Triton's ``isLayoutAnchor``)."""
    if op.name in ("tt.load", "tt.store"):
        return is_expensive_load_or_store(op)
    if op.name in _ANCHOR_OPS:
        return True
    if op.name == "tt.gather":
        return "efficient_layout" in op.properties
    if op.name == "tt.reshape":
        # a reshape that may reorder elements can produce any layout: it stops forward
        # propagation, the backward pass fixes its users up. One whose layout a pass chose
        # (efficient_layout) keeps it: Triton 3.9's thread-locality reshapes keep elements
        # in place and mark their slice layout so (3.6's also allow reordering)
        return "allow_reorder" in op.properties or "efficient_layout" in op.properties
    return False


def _first(layouts: dict[Attribute, None]) -> Attribute:
    return next(iter(layouts))


def _insert_after_value(op: Operation, value: SSAValue) -> None:
    if isinstance(value, OpResult):
        Rewriter.insert_op(op, InsertPoint.after(value.op))
    else:
        assert isinstance(value, BlockArgument)
        Rewriter.insert_op(op, InsertPoint.at_start(value.block))


def _in_walk_order(func: Operation, ops: dict[Operation, None]) -> list[Operation]:
    """``ops`` (all inside ``func``) in the order ``func.walk()`` visits them."""
    if len(ops) < 2:
        return list(ops)
    order: dict[Operation, int] = {}
    for op in ops_in_walk_order(func):
        if op in ops:
            order[op] = len(order)
            if len(order) == len(ops):
                break
    return sorted(ops, key=order.__getitem__)


def _functions(root: Operation) -> list[Operation]:
    """The ``tt.func`` ops of ``root`` in walk order; as a ``tt.func``'s parent is a module
    (``HasParent``), only modules are searched."""
    found: list[Operation] = []

    def visit(op: Operation) -> None:
        if op.name == "tt.func":
            found.append(op)
        elif op is root or op.name == "builtin.module":
            for region in op.regions:
                for block in region.blocks:
                    for child in block.ops:
                        visit(child)

    visit(root)
    return found


def _retyped_constant_value(op: Operation, ty: TensorType) -> None:
    value = op.properties.get("value")
    if isinstance(value, DenseIntOrFPElementsAttr):
        op.properties["value"] = DenseIntOrFPElementsAttr.from_list(
            ty, list(value.get_values()))  # type: ignore[arg-type]


# ------------------------------------------------------------------ 1. forward propagation


class LayoutPropagation:
    """Propagate anchor layouts forward through one function and rewrite it in place."""

    def __init__(self, func: Operation):
        self.func = func
        # value -> candidate layouts in arrival order (one after conflict resolution)
        self.layouts: dict[SSAValue, dict[Attribute, None]] = {}
        self.original: dict[SSAValue, Attribute] = {}

    def run(self) -> None:
        self.init_anchors()
        self.propagate()
        self.resolve_conflicts()
        self.rewrite_region(self.func.regions[0])

    # --- analysis
    def _add_anchor(self, value: SSAValue) -> None:
        layout = encoding(value)
        if layout is not None and value not in self.layouts:
            self.layouts[value] = {layout: None}

    def init_anchors(self) -> None:
        for arg in self.func.regions[0].block.args:
            self._add_anchor(arg)
        for op in ops_in_walk_order(self.func):
            if op is not self.func and is_layout_anchor(op):
                for result in op.results:
                    self._add_anchor(result)

    def _set_encoding(self, values, info: list[Attribute], changed: list[SSAValue],
                      op: Operation) -> None:
        for value in values:
            if tensor_type(value) is None:
                continue
            grew = False
            for layout in info:
                dst = layout if isinstance(op, ConvertLayoutOp) else infer_dst_encoding(op, layout)
                if dst is None:
                    continue
                known = self.layouts.setdefault(value, {})
                if dst not in known:
                    known[dst] = None
                    grew = True
            if grew:
                changed.append(value)

    def _propagate_to_users(self, value: SSAValue, info: list[Attribute]) -> list[SSAValue]:
        changed: list[SSAValue] = []
        for use in list(value.uses):
            user, index = use.operation, use.index
            if isinstance(user, scf.ForOp):
                if index >= 3:
                    i = index - 3
                    self._set_encoding([user.body.block.args[i + 1], user.results[i]], info,
                                       changed, user)
                continue
            if isinstance(user, scf.WhileOp):
                self._set_encoding([user.before_region.block.args[index]], info, changed, user)
                continue
            if isinstance(user, scf.YieldOp):
                parent = user.parent_op()
                targets: list[SSAValue] = []
                if isinstance(parent, (scf.ForOp, scf.IfOp)):
                    targets.append(parent.results[index])
                if isinstance(parent, scf.ForOp):
                    targets.append(parent.body.block.args[index + 1])
                if isinstance(parent, scf.WhileOp):
                    targets.append(parent.before_region.block.args[index])
                if isinstance(parent, (scf.ForOp, scf.IfOp, scf.WhileOp)):
                    self._set_encoding(targets, info, changed, user)
                continue
            if isinstance(user, scf.ConditionOp):
                parent = user.parent_op()
                self._set_encoding([parent.after_region.block.args[index - 1],
                                    parent.results[index - 1]], info, changed, user)
                continue
            if user.name == "ttng.warp_group_dot_wait":
                self._set_encoding([user.results[index]], info, changed, user)
                continue
            if user.name == "tt.gather":
                if "efficient_layout" not in user.properties and index == 1:
                    self._set_encoding(user.results, info, changed, user)
                    continue
            if keeps_operand_encoding(user) or user.name in _LAYOUT_FOLLOWERS:
                self._set_encoding(user.results, info, changed, user)
        return changed

    def propagate(self) -> None:
        queue = list(self.layouts)
        while queue:
            value = queue.pop()
            info = list(self.layouts[value])
            queue.extend(self._propagate_to_users(value, info))

    def resolve_conflicts(self) -> None:
        for value, info in self.layouts.items():
            if len(info) <= 1:
                continue
            producer = value.op if isinstance(value, OpResult) else None
            memory_op = producer is not None and producer.name in (
                "tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas")
            chosen = _first(info)
            for layout in info:
                if (memory_op and isinstance(layout, BlockedEncodingAttr)) or (
                        not memory_op and is_mma_layout(layout)):
                    chosen = layout
                    break
            self.layouts[value] = {chosen: None}

    # --- rewrite
    def _picked(self, value: SSAValue) -> Attribute:
        return _first(self.layouts[value])

    def _original_encoding(self, value: SSAValue) -> Attribute | None:
        if value in self.original:
            return self.original[value]
        return encoding(value)

    def _set_in_place(self, value: SSAValue, layout: Attribute) -> None:
        ty = tensor_type(value)
        assert ty is not None
        self.original.setdefault(value, ty.encoding)
        retype(value, with_encoding(ty, layout))

    def value_as(self, value: SSAValue, layout: Attribute | None) -> SSAValue:
        """``value`` in ``layout``, through a new conversion if it is in another one."""
        ty = tensor_type(value)
        if ty is None or layout is None or ty.encoding == layout:
            return value
        convert = located(ConvertLayoutOp(value, with_encoding(ty, layout)),
                          value_location(value))
        _insert_after_value(convert, value)
        return convert.result

    def rewrite_region(self, region: Region) -> None:
        queue: deque[Region] = deque([region])
        while queue:
            current = queue.popleft()
            for block in current.blocks:
                for op in list(block.ops):
                    self._rewrite_one(op, queue)

    def _rewrite_one(self, op: Operation, queue: deque[Region]) -> None:
        needs_rewrite = any(
            result in self.layouts and encoding(result) != self._picked(result)
            for result in op.results)
        if needs_rewrite:
            self.rewrite_op(op)
            queue.extend(op.regions)
        elif isinstance(op, scf.YieldOp):
            self.rewrite_yield(op)
        elif isinstance(op, scf.ConditionOp):
            self.rewrite_condition(op)
        elif op.name == "tt.reduce" and tensor_type(op.results[0]) is None:
            self.rewrite_reduce_to_scalar(op)
        elif op.name == "tt.assert":
            self.rewrite_assert(op)
        else:
            for i, operand in enumerate(op.operands):
                if operand in self.layouts:
                    op.operands[i] = self.value_as(operand, self._original_encoding(operand))
            queue.extend(op.regions)

    def rewrite_op(self, op: Operation) -> None:
        if isinstance(op, scf.ForOp):
            self.rewrite_for(op)
        elif isinstance(op, scf.WhileOp):
            self.rewrite_while(op)
        elif isinstance(op, scf.IfOp):
            for result in op.results:
                if result in self.layouts:
                    self._set_in_place(result, self._picked(result))
        else:
            layout = self._picked(op.results[0])
            if can_use_result_encoding(op, layout):
                self._set_in_place(op.results[0], layout)
                if op.name == "arith.constant":
                    _retyped_constant_value(op, op.results[0].type)
            elif keeps_operand_encoding(op) or op.name in _LAYOUT_FOLLOWERS or op.name in (
                    "tt.gather", "ttng.warp_group_dot_wait"):
                self.rewrite_generic(op, layout)
            else:
                raise PassFailure(op, f"cannot give '{op.name}' another layout")

    def rewrite_generic(self, op: Operation, layout: Attribute) -> None:
        operand_layout = None
        if op.operands:
            for operand in op.operands:
                if operand in self.layouts:
                    candidate = self._picked(operand)
                    if infer_dst_encoding(op, candidate) == layout:
                        operand_layout = candidate
                        break
            if operand_layout is None:
                operand_layout = (layout if isinstance(op, ConvertLayoutOp)
                                  else infer_src_encoding(op, layout))
        for i, operand in enumerate(op.operands):
            op.operands[i] = self.value_as(operand, operand_layout)
        for result in op.results:
            if tensor_type(result) is not None:
                self._set_in_place(result, layout)

    def rewrite_for(self, op: scf.ForOp) -> None:
        args = op.body.block.args[1:]
        for i, (init, result, arg) in enumerate(zip(op.iter_args, op.results, args)):
            if tensor_type(result) is None or result not in self.layouts:
                continue
            layout = self._picked(result)
            op.operands[3 + i] = self.value_as(init, layout)
            self._set_in_place(result, layout)
            self._set_in_place(arg, layout)
        # Triton builds a new loop here
        locate_loop_arguments(op.body.block, op.location, dict(zip(args, op.iter_args)))

    def rewrite_while(self, op: scf.WhileOp) -> None:
        before_args = op.before_region.block.args
        for i, (init, arg) in enumerate(zip(op.operands, before_args)):
            if arg not in self.layouts:
                continue
            layout = self._picked(arg)
            op.operands[i] = self.value_as(init, layout)
            self._set_in_place(arg, layout)
        for result, arg in zip(op.results, op.after_region.block.args):
            if result not in self.layouts:
                continue
            layout = self._picked(result)
            self._set_in_place(result, layout)
            self._set_in_place(arg, layout)

    def rewrite_yield(self, op: scf.YieldOp) -> None:
        parent = op.parent_op()
        for i, operand in enumerate(op.operands):
            ty = operand.type
            if isinstance(parent, (scf.ForOp, scf.IfOp)):
                ty = parent.results[i].type
            elif isinstance(parent, scf.WhileOp):
                ty = parent.before_region.block.args[i].type
            if not isinstance(ty, TensorType):
                continue
            op.operands[i] = self.value_as(operand, encoding(ty))

    def rewrite_condition(self, op: scf.ConditionOp) -> None:
        parent = op.parent_op()
        for i in range(1, len(op.operands)):
            ty = parent.results[i - 1].type
            if isinstance(ty, TensorType):
                op.operands[i] = self.value_as(op.operands[i], encoding(ty))

    def rewrite_reduce_to_scalar(self, op: Operation) -> None:
        # a reduction to a scalar can read any layout: keep the propagated one
        layout = next((self._picked(v) for v in op.operands if v in self.layouts), None)
        if layout is None:
            return
        for i, operand in enumerate(op.operands):
            op.operands[i] = self.value_as(operand, layout)

    def rewrite_assert(self, op: Operation) -> None:
        condition = op.operands[0]
        if condition in self.layouts:
            op.operands[0] = self.value_as(condition, self._picked(condition))


# ---------------------------------------------------------- 2./3. rematerialization, hoisting

_EXPENSIVE_MATH = frozenset({
    "arith.divf", "math.erfc", "math.sinh", "math.cosh", "math.tanh", "math.asinh",
    "math.acosh", "math.atanh", "math.ctpop", "math.ctlz", "math.cttz", "math.exp",
    "math.exp2", "math.expm1", "math.log", "math.log2", "math.log10", "math.log1p",
    "math.sin", "math.cos", "math.tan", "math.asin", "math.acos", "math.atan",
    "math.atan2", "math.powf", "math.sqrt", "math.rsqrt", "math.erf", "math.cbrt",
})
_EXTENSIONS = frozenset({
    "arith.extsi", "arith.extui", "arith.extf", "tt.broadcast", "tt.expand_dims",
})


def byte_count(value: SSAValue, min_elements: int = 0, min_bits: int = 0) -> int:
    """Bytes of a tensor value (pointer elements count 0 bits, as in Triton)."""
    ty = tensor_type(value)
    elements, bits = 0, 0
    if ty is not None:
        elements = 1
        for size in ty.get_shape():
            elements *= size
        width = getattr(ty.element_type, "bitwidth", None)
        if isinstance(width, int):
            bits = width
    return (max(elements, min_elements) * max(bits, min_bits)) >> 3


def convert_cost(src: SSAValue) -> int:
    """Cost of converting ``src`` to ``layout``: a round trip through shared memory (at
    least one 32-bit word per lane of a warp). Triton 3.6 charges this even for a
    conversion that only moves registers or moves nothing (free conversions cost 0 only
    in later Triton), so small tensors' producers are recomputed in the wanted layout."""
    return 32 * byte_count(src, 32, 32)


def _reduce_is_associative(op: Operation) -> bool:
    """Floating-point add/mul reductions over more than two elements are not (Triton's
    ``ReduceOpHelper::isAssociative``): recomputing one may change the result's rounding."""
    ty = tensor_type(op.operands[0])
    assert ty is not None
    if not isa(ty.element_type, AnyFloat):
        return True
    axis = op.properties["axis"].value.data  # type: ignore[union-attr]
    if ty.get_shape()[axis] <= 2:
        return True
    return not any(inner.name in ("arith.addf", "arith.mulf") for inner in op.walk()
                   if inner is not op)


def _reduce_cost(op: Operation) -> int:
    """Shuffles within a warp plus eight times the steps across warps."""
    ty = tensor_type(op.operands[0])
    axis = op.properties["axis"].value.data  # type: ignore[union-attr]
    size = ty.get_shape()[axis]
    per_thread = max(1, elems_per_thread(ty)[axis])
    lanes = threads_per_warp(op)
    intra = min(max(1, size // per_thread), lanes)
    inter = min(max(1, size // intra), 32)
    return intra + 8 * inter


def is_remat_beneficial(convert: Operation, slice_: dict[SSAValue, None]) -> bool:
    """Recomputing ``slice_`` is no dearer than ``convert`` (Triton's ``isRematBeneficial``). Ops used only inside the
    slice are moved, not duplicated, and cost nothing."""
    slice_ops: dict[Operation, None] = {}
    for value in slice_:
        if isinstance(value, OpResult):
            slice_ops[value.op] = None
    used_outside: dict[SSAValue, None] = {}
    for value in slice_:
        for use in value.uses:
            if use.operation is convert or use.operation in slice_ops:
                continue
            used_outside[value] = None
            break
    pending = list(used_outside)
    while pending:
        value = pending.pop(0)
        if isinstance(value, OpResult):
            for operand in value.op.operands:
                if operand in slice_ and operand not in used_outside:
                    used_outside[operand] = None
                    pending.append(operand)
    cost_of_convert = convert_cost(convert.operands[0])
    cost_of_remat = 0
    for op in slice_ops:
        if not any(result in used_outside for result in op.results):
            continue
        if op.name == "arith.constant":
            continue
        if op.name in ("tt.load", "ttg.local_load"):
            cost_of_remat += sum(8 * byte_count(r) for r in op.results)
        elif op.name.startswith("arith.") or op.name.startswith("math."):
            factor = 8 if op.name in _EXPENSIVE_MATH else 1
            cost_of_remat += sum(factor * byte_count(r) for r in op.results)
        elif op.name == "tt.reduce":
            if not _reduce_is_associative(op):
                return False
            cost_of_remat += _reduce_cost(op)
    return cost_of_convert >= cost_of_remat


def _num_stages(for_op: Operation, default: int) -> int:
    attr = for_op.attributes.get("tt.num_stages")
    return attr.value.data if isinstance(attr, IntegerAttr) else default


class LayoutRematerialization:
    """Remove or hoist the conversions of one function by recomputing their producers."""

    def __init__(self, func: Operation):
        self.func = func
        self.remat: dict[tuple[SSAValue, Attribute], SSAValue] = {}
        self.mapped: dict[SSAValue, Attribute] = {}

    def add_remat(self, old: SSAValue, layout: Attribute, new: SSAValue) -> None:
        self.remat[(old, layout)] = new
        self.mapped[old] = layout

    def _converts(self) -> list[ConvertLayoutOp]:
        return [op for op in ops_in_walk_order(self.func) if isinstance(op, ConvertLayoutOp)]

    def for_each_convert(self, transform: Callable[[ConvertLayoutOp], bool]) -> bool:
        changed = False
        for convert in self._converts():
            if transform(convert):
                changed = True
            else:
                # a conversion that stays can be reused by later slices
                self.add_remat(convert.src, encoding(convert.result), convert.result)
        return changed

    # --- slices
    def backward_slice(self, root: Operand, layout: Attribute, slice_, layouts, existing,
                       stop=None) -> bool:
        def existing_conversion(use: Operand, wanted: Attribute) -> SSAValue | None:
            remat = self.remat.get((use.value, wanted))
            if remat is None:
                return None
            if properly_dominates(remat, use.op):
                existing.setdefault((use.value, wanted), remat)
                return remat
            existing[(use.value, wanted)] = None  # known, but unusable here
            return None

        return convert_backward_slice(root, layout, slice_, layouts, stop, existing_conversion,
                                      absorb_broadcasts=is_version_39(self.func))

    def rematerializable_slice(self, root: Operand, layout: Attribute, slice_, layouts,
                               existing, stop=None) -> bool:
        """Extend the slice (only on success) with what recomputing ``root`` needs."""
        new_slice, new_layouts, new_existing = dict(slice_), dict(layouts), dict(existing)
        if not self.backward_slice(root, layout, new_slice, new_layouts, new_existing, stop):
            return False
        if not new_slice:
            return False
        for value in new_slice:
            if isinstance(value, OpResult) and not can_be_rematerialized(value.op):
                return False
        slice_.clear()
        slice_.update(new_slice)
        layouts.clear()
        layouts.update(new_layouts)
        existing.clear()
        existing.update(new_existing)
        return True

    def _update_remat_mapping(self, replacements: list[tuple[SSAValue, SSAValue]]) -> None:
        for old, new in replacements:
            if old not in self.mapped:
                continue
            layout = self.mapped.pop(old)
            replaced = self.remat.pop((old, layout))
            for before, after in replacements:
                if before is replaced:
                    replaced = after
                    break
            self.remat[(new, layout)] = replaced
            self.mapped[new] = layout

    def rewrite_slice(self, slice_: dict[SSAValue, None], layouts: dict[SSAValue, Attribute],
                      existing: dict, convert: ConvertLayoutOp,
                      mapping: dict[SSAValue, SSAValue] | None = None) -> None:
        """Recompute every value of ``slice_`` in its layout, then drop ``convert``."""
        mapping = {} if mapping is None else mapping
        to_rewrite: dict[Operation, None] = {}
        yield_operands: dict[Operation, list[int]] = {}
        reused: list[SSAValue] = []
        for value in slice_:
            layout = layouts[value]
            remat = existing.get((value, layout))
            if remat is not None:
                mapping[value] = remat
                reused.append(value)
                continue
            if isinstance(value, OpResult):
                to_rewrite[value.op] = None
                if isinstance(value.op, scf.IfOp):
                    for yield_op in if_yields(value.op):
                        if yield_op is not None:
                            to_rewrite[yield_op] = None
                            yield_operands.setdefault(yield_op, []).append(value.index)
            else:
                assert isinstance(value, BlockArgument)
                loop = value.block.parent_op()
                if isinstance(loop, scf.ForOp):
                    to_rewrite[loop] = None
                    yield_op = value.block.last_op
                    yield_operands.setdefault(yield_op, []).append(value.index - 1)
                    to_rewrite[yield_op] = None
        for value in reused:
            del slice_[value]
        ops = _in_walk_order(self.func, to_rewrite)

        replacements: list[tuple[SSAValue, SSAValue]] = []
        dead: list[Operation] = []
        for op in ops:
            if isinstance(op, scf.ForOp):
                block = op.body.block
                moves: list[tuple[int, int]] = []
                new_inits: list[SSAValue] = []
                for arg in block.args[1:]:
                    if arg in slice_:
                        i = arg.index - 1
                        moves.append((i, len(op.iter_args) + len(new_inits)))
                        new_inits.append(mapping[op.iter_args[i]])
                new_for = replace_for_with_new_signature(op, new_inits, replacements)
                dead.append(op)
                for old_i, new_i in moves:
                    mapping[op.results[old_i]] = new_for.results[new_i]
                    old_arg, new_arg = block.args[old_i + 1], block.args[new_i + 1]
                    mapping[old_arg] = new_arg
                    self.add_remat(new_for.results[old_i], layouts[old_arg],
                                   new_for.results[new_i])
                    self.add_remat(old_arg, layouts[old_arg], new_arg)
                continue
            if isinstance(op, scf.IfOp):
                new_types = [with_encoding(r.type, layouts[r]) for r in op.results
                             if r in slice_]
                new_if = replace_if_with_new_signature(op, new_types, replacements)
                new_index = len(op.results)
                for result in op.results:
                    if result in slice_:
                        mapping[result] = new_if.results[new_index]
                        self.add_remat(result, layouts[result], new_if.results[new_index])
                        new_index += 1
                dead.append(op)
                continue
            if isinstance(op, scf.YieldOp):
                operands = list(op.operands)
                for i in sorted(yield_operands[op]):
                    operands.append(mapping[op.operands[i]])
                Rewriter.replace_op(op, located(scf.YieldOp(*operands), op.location))
                continue
            if op.name == "arith.constant":
                result = op.results[0]
                clone = op.clone()
                Rewriter.insert_op(clone, InsertPoint.before(op))
                cvt = located(ConvertLayoutOp(clone.results[0],
                                              with_encoding(result.type, layouts[result])),
                              op.location)
                Rewriter.insert_op(cvt, InsertPoint.before(op))
                mapping[result] = cvt.result
                self.add_remat(result, layouts[result], cvt.result)
                continue
            clone = op.clone(value_mapper=mapping)
            Rewriter.insert_op(clone, InsertPoint.before(op))
            for old, new in zip(op.results, clone.results):
                if old not in layouts:
                    continue
                retype(new, with_encoding(old.type, layouts[old]))
                self.add_remat(old, layouts[old], new)
        convert.result.replace_all_uses_with(mapping[convert.src])
        self._update_remat_mapping(replacements)
        for old, new in replacements:
            old.replace_all_uses_with(new)
        Rewriter.erase_op(convert)
        for op in dead:
            Rewriter.erase_op(op, safe_erase=False)

    # --- 2. backward rematerialization
    def backward_rematerialization(self) -> bool:
        return self.for_each_convert(self.rematerialize)

    def rematerialize(self, convert: ConvertLayoutOp) -> bool:
        target = encoding(convert.result)
        if isinstance(target, DotOperandEncodingAttr):
            loop = enclosing_for(convert)
            if loop is not None and _num_stages(loop, 3) > 1:
                return False  # left for hoist_dot_operand, so the loads can be pipelined
        known = self.remat.get((convert.src, target))
        if known is not None and properly_dominates(known, convert):
            convert.result.replace_all_uses_with(known)
            Rewriter.erase_op(convert)
            return True
        slice_: dict[SSAValue, None] = {}
        layouts: dict[SSAValue, Attribute] = {}
        existing: dict = {}
        if not self.rematerializable_slice(Operand(convert, 0), target, slice_, layouts,
                                           existing):
            return False
        if not is_remat_beneficial(convert, slice_):
            return False
        self.rewrite_slice(slice_, layouts, existing, convert)
        return True

    # --- 3. hoisting
    def hoist_above_extension(self, convert: ConvertLayoutOp) -> bool:
        """Convert before the op that made the tensor bigger (``extf``, ``broadcast``...)."""
        target = encoding(convert.result)
        if isinstance(target, DotOperandEncodingAttr):
            return False

        def is_extension(op: Operation) -> bool:
            if op.name in _EXTENSIONS:
                return True
            if op.name == "tt.fp_to_fp":
                src_bits = getattr(tensor_type(op.operands[0]).element_type, "bitwidth", 0)
                dst_bits = getattr(tensor_type(op.results[0]).element_type, "bitwidth", 0)
                return src_bits < dst_bits
            return False

        slice_: dict[SSAValue, None] = {}
        layouts: dict[SSAValue, Attribute] = {}
        existing: dict = {}
        if not self.rematerializable_slice(Operand(convert, 0), target, slice_, layouts,
                                           existing, is_extension):
            return False
        extension: Operation | None = None
        for value in list(slice_)[: len(slice_)]:
            if not isinstance(value, OpResult) or not is_extension(value.op):
                continue
            op = value.op
            src_layout = infer_src_encoding(op, layouts[value])
            if src_layout is None:
                return False
            if self.rematerializable_slice(Operand(op, 0), src_layout, slice_, layouts,
                                           existing):
                continue  # the extension's operand can be recomputed too: no conversion
            if extension is not None:
                return False  # two extensions would need two conversions
            extension = op
        if extension is None:
            return False
        dst_layout = layouts[extension.results[0]]
        src_layout = infer_src_encoding(extension, dst_layout)
        if src_layout is None:
            return False
        # no cost check here: Triton 3.6 hoists whenever the slice allows it
        operand = extension.operands[0]
        new_convert = located(ConvertLayoutOp(operand, with_encoding(operand.type, src_layout)),
                              convert.location)
        Rewriter.insert_op(new_convert, InsertPoint.before(extension))
        new_extension = extension.clone(value_mapper={operand: new_convert.result})
        retype(new_extension.results[0],
               with_encoding(extension.results[0].type, dst_layout))
        Rewriter.insert_op(new_extension, InsertPoint.before(extension))
        mapping = {extension.results[0]: new_extension.results[0]}
        del slice_[extension.results[0]]
        self.rewrite_slice(slice_, layouts, existing, convert, mapping)
        return True

    def hoist_into_conditionals(self, convert: ConvertLayoutOp) -> bool:
        """Convert inside the branch of an ``scf.if`` (in a loop) whose value needs it,
        recomputing the other branch's producers instead."""

        def is_if(op: Operation) -> bool:
            return isinstance(op, scf.IfOp)

        slice_: dict[SSAValue, None] = {}
        layouts: dict[SSAValue, Attribute] = {}
        existing: dict = {}
        if not self.rematerializable_slice(Operand(convert, 0), encoding(convert.result),
                                           slice_, layouts, existing, is_if):
            return False
        hoist_above: list[tuple[SSAValue, Operand]] = []
        terminals: list[SSAValue] = []
        i = 0
        while i < len(slice_):
            value = list(slice_)[i]
            i += 1
            if not isinstance(value, OpResult) or not isinstance(value.op, scf.IfOp):
                continue
            if_op = value.op
            root_layout = layouts[value]
            then_yield, else_yield = if_yields(if_op)
            if else_yield is None:
                terminals.append(value)
                continue
            then_edge = Operand(then_yield, value.index)
            else_edge = Operand(else_yield, value.index)
            new_slice, new_layouts, new_existing = dict(slice_), dict(layouts), dict(existing)
            then_ok = self.rematerializable_slice(then_edge, root_layout, new_slice,
                                                  new_layouts, new_existing, is_if)
            else_ok = self.rematerializable_slice(else_edge, root_layout, new_slice,
                                                  new_layouts, new_existing, is_if)
            if then_ok and else_ok:
                slice_, layouts, existing = new_slice, new_layouts, new_existing
                continue
            if not then_ok and not else_ok:
                terminals.append(value)
                continue
            if not isinstance(if_op.parent_op(), scf.ForOp):
                terminals.append(value)
                continue
            slice_, layouts, existing = new_slice, new_layouts, new_existing
            hoist_above.append((value, else_edge if then_ok else then_edge))
        if not hoist_above:
            return False
        mapping: dict[SSAValue, SSAValue] = {}

        def hoist(value: SSAValue, layout: Attribute, point: InsertPoint) -> None:
            new_convert = located(ConvertLayoutOp(value, with_encoding(value.type, layout)),
                                  convert.location)
            Rewriter.insert_op(new_convert, point)
            mapping[value] = new_convert.result
            slice_.pop(value, None)

        for value in terminals:
            hoist(value, layouts[value], InsertPoint.after(value.op))
        for result, edge in hoist_above:
            hoist(edge.value, layouts[result], InsertPoint.before(edge.op))
        self.rewrite_slice(slice_, layouts, existing, convert, mapping)
        return True

    def hoist_dot_operand(self, convert: ConvertLayoutOp) -> bool:
        """Move a conversion to a dot operand next to the loads feeding it, so the loads can
        be pipelined (only over ops that need no data exchange between threads)."""
        parent = convert.parent_op()
        if parent is None:
            return False
        dots = []
        for op in ops_in_walk_order(parent):
            if op.name not in ("tt.dot", "tt.dot_scaled", "ttng.warp_group_dot"):
                continue
            layout = encoding(op.operands[0])
            if isinstance(layout, DotOperandEncodingAttr) and is_mma_layout(layout.parent):
                dots.append(op)
        if not any(post_dominates(dot, convert) for dot in dots):
            return False

        def no_data_movement(op: Operation) -> bool:
            return ((is_elementwise(op) and is_side_effect_free(op))
                    or op.name in ("tt.broadcast", "ttg.fp4_to_fp", "ttg.convert_layout")
                    or is_view(op))

        slice_: dict[SSAValue, None] = {}
        layouts: dict[SSAValue, Attribute] = {}
        existing: dict = {}
        if not self.backward_slice(Operand(convert, 0), encoding(convert.result), slice_,
                                   layouts, existing, lambda op: not no_data_movement(op)):
            return False
        mapping: dict[SSAValue, SSAValue] = {}
        inner: dict[SSAValue, None] = {}
        for value in slice_:
            if not isinstance(value, OpResult):
                return False
            producer = value.op
            if producer.name not in ("tt.load", "tt.descriptor_load"):
                if producer.name == "arith.constant" or no_data_movement(producer):
                    inner[value] = None
                    continue
                return False
            result = producer.results[0]
            if tensor_type(result) is None:
                continue
            new_convert = located(ConvertLayoutOp(result, with_encoding(result.type,
                                                                        layouts[result])),
                                  convert.location)
            Rewriter.insert_op(new_convert, InsertPoint.after(producer))
            mapping[result] = new_convert.result
        if not inner:
            return False
        self.rewrite_slice(inner, layouts, existing, convert, mapping)
        return True


# ------------------------------------------------------------------------------ the pass


# One list for every run (the patterns are stateless): the greedy driver keeps its plans.
_CLEAN_UP_PATTERNS = [*CONVERT_LAYOUT_PATTERNS, ScfCanonicalization("scf.for"),
                      ScfCanonicalization("scf.if")]


@register_pass
class RemoveLayoutConversions(Pass):
    """Remove layout conversions: propagate anchor layouts, recompute cheap producers in the
    layout a conversion wants, hoist the conversions that remain."""

    name = "tritongpu-remove-layout-conversions"

    def apply(self, ctx: Context, op: Operation) -> None:
        for func in _functions(op):
            LayoutPropagation(func).run()
        apply_patterns_greedily(ctx, op, CONVERT_LAYOUT_PATTERNS)

        while True:
            changed = False
            for func in _functions(op):
                changed |= LayoutRematerialization(func).backward_rematerialization()
            if not changed:
                # Nothing rematerialized: the IR is the last greedy run's output, which the
                # same patterns leave as it is (the driver stopped at a fixed point).
                break
            apply_patterns_greedily(ctx, op, CONVERT_LAYOUT_PATTERNS)

        for func in _functions(op):
            remat = LayoutRematerialization(func)
            remat.for_each_convert(remat.hoist_above_extension)
            remat = LayoutRematerialization(func)
            remat.for_each_convert(remat.hoist_into_conditionals)
            remat = LayoutRematerialization(func)
            remat.for_each_convert(remat.hoist_dot_operand)

        # Triton's last clean-up: dead loop-carried values, then scf.for's and scf.if's
        # canonicalization patterns with the conversions' (one greedy run)
        eliminate_dead_iter_args(op)
        apply_patterns_greedily(ctx, op, _CLEAN_UP_PATTERNS)
