"""``triton-rewrite-tensor-pointer``: block pointers become tensors of pointers with masks
(Triton's ``RewriteTensorPointer.cpp``).

``tl.make_block_ptr`` gives ``tt.make_tensor_ptr`` (base, shape, strides, offsets, block
shape) and ``tl.advance`` gives ``tt.advance``; loads and stores through such a pointer
check bounds implicitly (``boundaryCheck``) and may pad (``padding``). Backends without
block-pointer hardware want plain pointer tensors, so this pass keeps, for every block
pointer value, its base/shape/strides and one i64 offset per dimension, and rewrites:

- ``make_tensor_ptr``: its i32 offsets are widened to i64 (``arith.extsi``); the op goes.
- ``advance``: ``offset_i + extsi(delta_i)`` per dimension; the op goes.
- ``load``/``store``: the pointer tensor is
  ``splat(base) + sum_i broadcast(expand(splat(offset_i) + range(n_i)) * stride_i)``, the
  mask is ``and_i broadcast(0 <= o_i < shape_i)`` over the checked dimensions and, for a
  load with ``padding``, ``other`` is zero or NaN splatted.
- ``scf.for`` / ``scf.if`` / ``scf.yield`` that carry block pointers carry the offsets
  instead (one i64 per dimension); base, shape and strides are loop invariant.

Ops are built in the order Triton builds them, and the per-dimension offset ranges are
shared by the pointer and the mask of one access, as in Triton (the canonicalizer that
runs next cleans up the rest). Block pointers through ``scf.while`` or ``cf`` branches are
rejected, as Triton does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tileopt.dialects import arith as tensor_arith
from tileopt.dialects import tt
from tileopt.dialects.tt_types import PADDING_OPTION, PaddingOption, PointerType, is_tensor_ptr
from tileopt.ir import TileoptError
from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.builder import OpBuilder


@dataclass
class BlockPointer:
    """What a block pointer value stands for after the rewrite."""

    base: SSAValue
    shape: list[SSAValue]
    strides: list[SSAValue]
    offsets: list[SSAValue]
    block_shape: tuple[int, ...]
    # offset_i + range(n_i), expanded to the block's rank; shared by pointer and mask.
    ranges: dict[int, SSAValue] = field(default_factory=dict)

    def with_offsets(self, offsets: list[SSAValue]) -> BlockPointer:
        return BlockPointer(self.base, self.shape, self.strides, list(offsets), self.block_shape)

    @property
    def rank(self) -> int:
        return len(self.block_shape)

    def offset_range(self, b: OpBuilder, dim: int) -> SSAValue:
        if dim in self.ranges:
            return self.ranges[dim]
        n = self.block_shape[dim]
        row_i64 = TensorType(i64, [n])
        splat = b.add(tt.SplatOp(self.offsets[dim], row_i64))
        rng = b.add(tt.MakeRangeOp(0, n, TensorType(i32, [n])))
        wide = b.add(tensor_arith.ExtSIOp(rng, row_i64))
        value = b.add(arith.AddiOp(splat, wide))
        shape = [n]
        for axis in range(self.rank):
            if axis == dim:
                continue
            shape.insert(axis, 1)
            value = b.add(tt.ExpandDimsOp(value, axis, TensorType(i64, list(shape))))
        self.ranges[dim] = value
        return value

    def pointer_tensor(self, b: OpBuilder) -> SSAValue:
        base_type = self.base.type
        ptrs_type = TensorType(base_type, list(self.block_shape))
        index_type = TensorType(i64, list(self.block_shape))
        ptr = b.add(tt.SplatOp(self.base, ptrs_type))
        for dim in range(self.rank):
            offsets = self.offset_range(b, dim)
            # The stride is splatted to the expanded shape (not a row) so that its
            # divisibility stays visible to axis analysis, as Triton does.
            stride = b.add(tt.SplatOp(self.strides[dim], offsets.type))
            scaled = b.add(arith.MuliOp(offsets, stride))
            spread = b.add(tt.BroadcastOp(scaled, index_type))
            ptr = b.add(tt.AddPtrOp(ptr, spread))
        return ptr

    def mask(self, b: OpBuilder, checked: list[int]) -> SSAValue | None:
        if not checked:
            return None
        mask_type = TensorType(i1, list(self.block_shape))
        mask = None
        for dim in checked:
            offsets = self.offset_range(b, dim)
            zero = b.add(arith.ConstantOp(IntegerAttr(0, i64)))
            lower = b.add(tt.SplatOp(zero, offsets.type))
            above = b.add(tensor_arith.CmpiOp(offsets, lower, "sge"))
            upper = b.add(tt.SplatOp(self.shape[dim], offsets.type))
            below = b.add(tensor_arith.CmpiOp(offsets, upper, "slt"))
            inside = b.add(arith.AndIOp(above, below))
            spread = b.add(tt.BroadcastOp(inside, mask_type))
            mask = spread if mask is None else b.add(arith.AndIOp(mask, spread))
        return mask

    def other(self, b: OpBuilder, padding: PaddingOption | None) -> SSAValue | None:
        if padding is None:
            return None
        assert isinstance(self.base.type, PointerType)
        element = self.base.type.pointee_type
        if isinstance(element, IntegerType):
            if padding == PaddingOption.PAD_NAN:
                raise TileoptError("NaN padding needs a floating-point block")
            value: Attribute = IntegerAttr(0, element)
        else:
            value = FloatAttr(float("nan") if padding == PaddingOption.PAD_NAN else 0.0,
                              element)  # type: ignore[arg-type]
        scalar = b.add(arith.ConstantOp(value))
        return b.add(tt.SplatOp(scalar, TensorType(element, list(self.block_shape))))


def _block_rank(ty: Attribute) -> int:
    assert isinstance(ty, PointerType) and isinstance(ty.pointee_type, TensorType)
    return len(ty.pointee_type.get_shape())


class _Rewriter:
    def __init__(self):
        self.info: dict[SSAValue, BlockPointer] = {}
        self.erase: list[Operation] = []
        self.dead_args: list[SSAValue] = []

    def lookup(self, value: SSAValue, at: Operation) -> BlockPointer:
        info = self.info.get(value)
        if info is None:
            raise TileoptError(f"{at.name}: cannot trace this block pointer back to its "
                               "tt.make_tensor_ptr (only scf.for and scf.if may carry block "
                               "pointers)")
        return info

    # -- traversal ------------------------------------------------------------------

    def visit(self, op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for nested in list(block.ops):
                    follow = self.rewrite(nested)
                    if follow is not None:
                        self.visit(follow)

    def rewrite(self, op: Operation) -> Operation | None:
        if isinstance(op, tt.MakeTensorPtrOp):
            return self.make_tensor_ptr(op)
        if isinstance(op, tt.AdvanceOp):
            return self.advance(op)
        if isinstance(op, tt.LoadOp | tt.StoreOp):
            return self.load_store(op)
        if isinstance(op, scf.IfOp):
            return self.if_op(op)
        carries = any(is_tensor_ptr(v.type) for v in op.operands)
        if op.dialect_name() in ("scf", "cf") and carries:
            if isinstance(op, scf.ForOp):
                return self.for_op(op)
            if isinstance(op, scf.YieldOp):
                return self.yield_op(op)
            raise TileoptError(f"{op.name} carrying a block pointer is not supported: only "
                               "scf.for and scf.if may (as in Triton)")
        return op

    # -- one rewrite per op kind ------------------------------------------------------

    def make_tensor_ptr(self, op: tt.MakeTensorPtrOp) -> None:
        b = OpBuilder(op)
        offsets = [b.add(tensor_arith.ExtSIOp(o, i64)) for o in op.offsets]
        block = op.result.type.pointee_type  # type: ignore[union-attr]
        self.info[op.result] = BlockPointer(op.base, list(op.shape), list(op.strides),
                                            offsets, tuple(block.get_shape()))
        self.erase.append(op)

    def advance(self, op: tt.AdvanceOp) -> None:
        info = self.lookup(op.ptr, op)
        b = OpBuilder(op)
        moved = []
        for old, delta in zip(info.offsets, op.offsets, strict=True):
            wide = b.add(tensor_arith.ExtSIOp(delta, i64))
            moved.append(b.add(arith.AddiOp(old, wide)))
        self.info[op.result] = info.with_offsets(moved)
        self.erase.append(op)

    def load_store(self, op: tt.LoadOp | tt.StoreOp) -> None:
        if not is_tensor_ptr(op.ptr.type):
            return None
        info = self.lookup(op.ptr, op)
        # A fresh cache of offset ranges per access, as Triton copies the info here.
        info = info.with_offsets(info.offsets)
        b = OpBuilder(op)
        checked = [int(d) for d in op.boundaryCheck.get_values()]
        ptr = info.pointer_tensor(b)
        mask = info.mask(b, checked)
        if isinstance(op, tt.LoadOp):
            padding = (PADDING_OPTION.value_of(op.padding) if op.padding is not None
                       else None)
            other = info.other(b, padding)
            new = tt.LoadOp(ptr, mask, other, cache=op.cache_modifier,
                            evict=op.eviction_policy, is_volatile=op.is_volatile,
                            attributes=dict(op.attributes))
            b.add(new)
            op.result.replace_all_uses_with(new.result)
        else:
            b.add(tt.StoreOp(ptr, op.value, mask, cache=op.cache_modifier,
                             evict=op.eviction_policy, attributes=dict(op.attributes)))
        self.erase.append(op)
        return None

    def for_op(self, op: scf.ForOp) -> Operation:
        """A new loop whose iteration values hold the offsets of the block pointers; the
        body moves over (its ops still name the old block-pointer arguments, which the
        visit of the new loop resolves through ``info``)."""
        new_inits = self._expand_pointers(op.iter_args, op)
        body = op.body.block
        op.body.detach_block(body)
        new_loop = scf.ForOp(op.lb, op.ub, op.step, new_inits, [body])
        new_loop.attributes.update(op.attributes)
        new_loop.location = op.location
        Rewriter.insert_op(new_loop, InsertPoint.before(op))
        # Give the block one argument per offset after each block-pointer argument.
        position = 1
        for old_arg, init in zip(list(body.args[1:]), op.iter_args, strict=True):
            position += 1
            if not is_tensor_ptr(init.type):
                continue
            info = self.lookup(init, op)
            new_args = []
            for _ in range(info.rank):
                new_args.append(body.insert_arg(i64, position))
                position += 1
            self.info[old_arg] = info.with_offsets(new_args)
            self.dead_args.append(old_arg)
        infos = [self.lookup(init, op) if is_tensor_ptr(init.type) else None
                 for init in op.iter_args]
        self._take_results(op, new_loop,
                           [None if info is None else (info, info.rank) for info in infos])
        return new_loop

    def if_op(self, op: scf.IfOp) -> Operation:
        then_yield = op.true_region.block.last_op
        assert then_yield is not None
        if not any(is_tensor_ptr(t) for t in op.result_types):
            return op
        types: list[Attribute] = []
        for ty in op.result_types:
            types.extend([i64] * _block_rank(ty) if is_tensor_ptr(ty) else [ty])
        new_if = scf.IfOp(op.cond, types, _take_region(op.true_region),
                          _take_region(op.false_region))
        new_if.attributes.update(op.attributes)
        new_if.location = op.location
        Rewriter.insert_op(new_if, InsertPoint.before(op))
        self._take_results(op, new_if, [
            (self.lookup(_make_tensor_ptr_of(then_yield.operands[position], op), op),
             _block_rank(ty)) if is_tensor_ptr(ty) else None
            for position, ty in enumerate(op.result_types)])
        return new_if

    def _take_results(self, op: Operation, new_op: Operation,
                      pointers: list[tuple[BlockPointer, int] | None]) -> None:
        """``op``'s results taken from ``new_op``'s: a block pointer's (its template and
        rank given) as one offset result per dimension, any other result as it is."""
        index = 0
        for old_result, pointer in zip(op.results, pointers, strict=True):
            if pointer is None:
                old_result.replace_all_uses_with(new_op.results[index])
                index += 1
            else:
                template, rank = pointer
                self.info[old_result] = template.with_offsets(
                    list(new_op.results[index:index + rank]))
                index += rank
        self.erase.append(op)

    def yield_op(self, op: scf.YieldOp) -> None:
        op.operands = self._expand_pointers(op.operands, op)
        return None

    def _expand_pointers(self, values: Sequence[SSAValue], at: Operation) -> list[SSAValue]:
        """``values`` with each block pointer replaced by its offsets, one per dimension."""
        expanded: list[SSAValue] = []
        for value in values:
            if is_tensor_ptr(value.type):
                expanded.extend(self.lookup(value, at).offsets)
            else:
                expanded.append(value)
        return expanded

    def finish(self) -> None:
        for op in reversed(self.erase):
            for result in op.results:
                if result.uses:
                    raise TileoptError(f"{op.name}: a block pointer is still used after "
                                       "the rewrite")
            op.detach()
            op.erase()
        for arg in self.dead_args:
            assert isinstance(arg.owner, Block)
            arg.owner.erase_arg(arg)  # type: ignore[arg-type]


def _take_region(region):
    """Move the blocks of ``region`` into a new region."""
    from xdsl.ir import Region

    new = Region()
    region.move_blocks(new)
    return new


def _make_tensor_ptr_of(value: SSAValue, at: Operation) -> SSAValue:
    """The ``tt.make_tensor_ptr`` result a block-pointer value derives from (Triton's
    ``getMakeTensorPtrOp``): through ``tt.advance``, loop arguments and results, and
    ``scf.if`` results."""
    seen = 0
    while seen < 10000:
        seen += 1
        owner = value.owner
        if isinstance(owner, tt.MakeTensorPtrOp):
            return value
        if isinstance(owner, tt.AdvanceOp):
            value = owner.ptr
            continue
        if isinstance(owner, scf.ForOp):
            value = owner.iter_args[list(owner.results).index(value)]
            continue
        if isinstance(owner, scf.IfOp):
            value = owner.true_region.block.last_op.operands[  # type: ignore[union-attr]
                list(owner.results).index(value)]
            continue
        if isinstance(owner, Block):
            parent = owner.parent_op()
            if isinstance(parent, scf.ForOp):
                value = parent.iter_args[list(owner.args).index(value) - 1]
                continue
        break
    raise TileoptError(f"{at.name}: cannot find the tt.make_tensor_ptr of a block pointer")


@register_pass
class RewriteTensorPointer(Pass):
    """Rewrite block pointers (make_tensor_ptr/advance) into tensors of pointers and masks."""

    name = "triton-rewrite-tensor-pointer"

    def apply(self, ctx: Context, op: Operation) -> None:
        rewriter = _Rewriter()
        rewriter.visit(op)
        rewriter.finish()
