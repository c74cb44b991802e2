"""``tritonamdgpu-canonicalize-pointers``: rewrite pointer arithmetic as a scalar base plus a
tensor offset (Triton's ``CanonicalizePointers.cpp``), so that buffer ops can use it.

Starting from pointer arguments of a ``tt.func``, each pointer value derived from one is
followed as a *fat pointer* ``(base, offset)``:

- small tensors (arguments marked ``tt.pointer_range = 32`` by the JIT: the tensor is
  under 2 GiB): the base stays the argument and every ``tt.addptr`` only grows the offset
  (uniform and non-uniform parts summed, i32), so each access ends up as
  ``addptr(splat(argument), offset)``, which ``tritonamdgpu-convert-buffer-ops`` accepts
  without range analysis;
- other arguments, only with ``enable-large-tensor-ptr-canon``: a ``tt.addptr`` splits its
  offset into a uniform part (splats and splat constants, through ``broadcast``,
  ``expand_dims``, ``addi`` and ``muli``) that advances the scalar base, and a
  non-uniform rest that accumulates in the (64-bit, narrowed to 32 bits at the access
  when it provably fits) tensor offset.

``tt.splat``, ``tt.broadcast``, ``tt.expand_dims``, ``ttg.convert_layout`` and
``amdg.extract_slice`` apply to the offset only. Every other use of a fat pointer (loads,
stores, atomics, async copies, casts, calls, and, in this implementation, loop-carried
and branch-yielded pointers) gets the pointer materialized just before it:
``addptr(base, offset)`` for a scalar, ``addptr(splat(base), offset)`` for a tensor. Ops
left without uses are erased at the end, as Triton does (even when nothing else
changed).

As Triton, a function holding a ``ub.poison`` is left alone (a remark says so), and an
unused pointer argument it would start from gets a remark.

Without ``tt.pointer_range`` arguments and without the option (Triton 3.6's default,
and every corpus kernel), the pass only removes dead ops. Unlike Triton, fat pointers are
not threaded through ``scf.for``/``scf.if``/``scf.while`` arguments: pointers crossing
control flow are materialized, which is always correct but loses the base/offset split
inside loops.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from tileopt.dialects import arith as tensor_arith
from tileopt.dialects import tt
from tileopt.dialects.tt_types import PointerType
from tileopt.passes import Pass, option, register_pass
from tileopt.passes.diagnostics import emit_remark
from tileopt.transforms.utils.builder import OpBuilder

OFFSET_ONLY = frozenset({"tt.broadcast", "tt.expand_dims", "ttg.convert_layout",
                         "amdg.extract_slice"})


@dataclass
class FatPointer:
    base: SSAValue
    offset: SSAValue
    small: bool
    can_narrow: bool = True


def _width(value: SSAValue) -> int:
    ty = value.type.element_type if isinstance(value.type, TensorType) else value.type
    assert isinstance(ty, IntegerType)
    return ty.width.data


def _with_element(ty, element):
    return TensorType(element, ty.get_shape(), ty.encoding) if isinstance(ty, TensorType) else element


def _constant_scalar(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _splat_scalar(b: OpBuilder, value: SSAValue) -> SSAValue | None:
    """The scalar a tensor holds everywhere: a ``tt.splat`` source or a splat constant."""
    owner = value.owner
    if isinstance(owner, tt.SplatOp):
        return owner.src
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, DenseIntOrFPElementsAttr):
        attr = owner.value
        if len(attr) and attr.is_splat() and isinstance(attr.get_element_type(), IntegerType):
            return b.add(arith.ConstantOp(IntegerAttr(int(attr.get_values()[0]),
                                                      attr.get_element_type())))
    return None


def is_zero(value: SSAValue) -> bool:
    if _constant_scalar(value) == 0:
        return True
    owner = value.owner
    if isinstance(owner, tt.SplatOp):
        return _constant_scalar(owner.src) == 0
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, DenseIntOrFPElementsAttr):
        attr = owner.value
        return len(attr) > 0 and attr.is_splat() and attr.get_values()[0] == 0
    return False


def _cast(b: OpBuilder, value: SSAValue, width: int) -> SSAValue:
    have = _width(value)
    if have == width:
        return value
    target = _with_element(value.type, IntegerType(width))
    if have < width:
        return b.add(tensor_arith.ExtSIOp(value, target))
    return b.add(tensor_arith.TruncIOp(value, target))


def _add(b: OpBuilder, x: SSAValue, y: SSAValue) -> SSAValue:
    """``x + y`` for two scalars or two tensors, in the wider type; zeros elided."""
    width = max(_width(x), _width(y))
    if is_zero(x):
        return _cast(b, y, width)
    if is_zero(y):
        return _cast(b, x, width)
    return b.add(arith.AddiOp(_cast(b, x, width), _cast(b, y, width)))


def _zero(b: OpBuilder, like: SSAValue, width: int) -> SSAValue:
    ty = _with_element(like.type, IntegerType(width))
    if isinstance(ty, TensorType):
        return b.add(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(ty, [0])))
    return b.add(arith.ConstantOp(IntegerAttr(0, ty)))


def _add_uniform(b: OpBuilder, uniform: SSAValue, tensor: SSAValue) -> SSAValue:
    width = max(_width(uniform), _width(tensor))
    if is_zero(uniform):
        return _cast(b, tensor, width)
    tensor = _cast(b, tensor, width)
    spread = b.add(tt.SplatOp(_cast(b, uniform, width), tensor.type))
    return spread if is_zero(tensor) else b.add(arith.AddiOp(spread, tensor))


def decompose(b: OpBuilder, expr: SSAValue, width: int) -> tuple[SSAValue, SSAValue]:
    """(uniform scalar, non-uniform tensor) with ``expr == splat(uniform) + rest``."""
    scalar = _splat_scalar(b, expr)
    if scalar is not None:
        return scalar, _zero(b, expr, _width(expr))
    owner = expr.owner
    if isinstance(owner, tt.BroadcastOp | tt.ExpandDimsOp):
        uniform, rest = decompose(b, owner.src, width)
        if isinstance(owner, tt.BroadcastOp):
            spread = tt.BroadcastOp(rest, _with_element(expr.type, rest.type.element_type))
        else:
            spread = tt.ExpandDimsOp(rest, owner.axis.value.data,
                                     _with_element(expr.type, rest.type.element_type))
        return uniform, b.add(spread)
    if isinstance(owner, arith.AddiOp):
        ul, nl = decompose(b, owner.lhs, width)
        ur, nr = decompose(b, owner.rhs, width)
        return _add(b, ul, ur), _add(b, nl, nr)
    if isinstance(owner, arith.MuliOp):
        ul, nl = decompose(b, owner.lhs, width)
        ur, nr = decompose(b, owner.rhs, width)
        uniform = b.add(arith.MuliOp(ul, ur))
        ul_spread = b.add(tt.SplatOp(ul, nl.type))
        ur_spread = b.add(tt.SplatOp(ur, nr.type))
        both = b.add(arith.MuliOp(nl, nr))
        left = b.add(arith.MuliOp(ul_spread, nr))
        right = b.add(arith.MuliOp(nl, ur_spread))
        return uniform, b.add(arith.AddiOp(b.add(arith.AddiOp(both, left)), right))
    return b.add(arith.ConstantOp(IntegerAttr(0, IntegerType(width)))), expr


class _Canonicalizer:
    def __init__(self, func: tt.FuncOp, large: bool):
        self.fat: dict[SSAValue, FatPointer] = {}
        block = func.body.blocks.first
        if block is None:
            return
        attrs = func.arg_attrs.data if func.arg_attrs is not None else [DictionaryAttr({})] * len(block.args)
        first = block.first_op
        self.unused_arguments = 0
        for arg, arg_attrs in zip(block.args, attrs):
            if not isinstance(arg.type, PointerType):
                continue
            bound = arg_attrs.data.get("tt.pointer_range")  # type: ignore[union-attr]
            bits = bound.value.data if isinstance(bound, IntegerAttr) else 64
            if bits == 64 and not large:
                continue
            zero = arith.ConstantOp(IntegerAttr(0, IntegerType(bits)))
            if first is None:
                block.add_op(zero)
            else:
                Rewriter.insert_op(zero, InsertPoint.before(first))
            self.fat[arg] = FatPointer(arg, zero.result, small=bits != 64)
            self.unused_arguments += not arg.uses

    def run(self, func: tt.FuncOp) -> None:
        if not self.fat:
            return
        for op in list(func.walk()):
            if op is func:
                continue
            for index, operand in enumerate(list(op.operands)):
                pointer = self.fat.get(operand)
                if pointer is None:
                    continue
                if index == 0 and self.propagate(op, pointer):
                    continue
                op.operands[index] = self.materialize(op, pointer)

    def propagate(self, op: Operation, fp: FatPointer) -> bool:
        """Record the fat pointer ``op`` produces from ``fp``; False if ``op`` is a use."""
        b = OpBuilder(op)
        result = op.results[0] if op.results else None
        if isinstance(op, tt.SplatOp):
            offset = b.add(tt.SplatOp(fp.offset, _with_element(op.result.type, fp.offset.type)))
            self.fat[op.result] = FatPointer(fp.base, offset, fp.small, fp.can_narrow)
            return True
        if op.name in OFFSET_ONLY and isinstance(fp.offset.type, TensorType):
            assert result is not None
            offset_type = _with_element(result.type, fp.offset.type.element_type)
            new = type(op).create(operands=[fp.offset, *op.operands[1:]],
                                  result_types=[offset_type],
                                  properties=dict(op.properties), attributes=dict(op.attributes))
            self.fat[result] = FatPointer(fp.base, b.add(new), fp.small, fp.can_narrow)
            return True
        if isinstance(op, tt.AddPtrOp):
            self.fat[op.result] = (self.small_addptr(b, op, fp) if fp.small
                                   else self.large_addptr(b, op, fp))
            return True
        return False

    def small_addptr(self, b: OpBuilder, op: tt.AddPtrOp, fp: FatPointer) -> FatPointer:
        uniforms: list[SSAValue] = []
        rests: list[SSAValue] = []
        splats: list[tuple[SSAValue, SSAValue]] = []
        for expr in (fp.offset, op.offset):
            if not isinstance(expr.type, TensorType):
                uniforms.append(expr)
                continue
            scalar = _splat_scalar(b, expr)
            if scalar is not None:
                splats.append((expr, scalar))
                continue
            uniform, rest = decompose(b, expr, _width(expr))
            uniforms.append(uniform)
            rests.append(rest)
        uniform_sum = rest_sum = None
        while True:
            for value in uniforms:
                uniform_sum = value if uniform_sum is None else _add(b, uniform_sum, value)
            for value in rests:
                rest_sum = value if rest_sum is None else _add(b, rest_sum, value)
            if not splats:
                break
            as_scalar = (_constant_scalar(uniform_sum) not in (None, 0) if uniform_sum is not None
                         else False) and bool(rests)
            uniforms, rests = [], []
            for tensor, scalar in splats:
                (uniforms if as_scalar else rests).append(scalar if as_scalar else tensor)
            splats = []
        assert uniform_sum is not None or rest_sum is not None
        if rest_sum is None:
            offset = uniform_sum
        elif uniform_sum is None:
            offset = rest_sum
        else:
            offset = _add_uniform(b, uniform_sum, rest_sum)
        if _width(offset) > 32:  # type: ignore[arg-type]
            offset = _cast(b, offset, 32)  # type: ignore[arg-type]
        return FatPointer(fp.base, offset, True, can_narrow=False)  # type: ignore[arg-type]

    def large_addptr(self, b: OpBuilder, op: tt.AddPtrOp, fp: FatPointer) -> FatPointer:
        if not isinstance(op.ptr.type, TensorType):
            return FatPointer(b.add(tt.AddPtrOp(fp.base, op.offset)), fp.offset, False,
                              fp.can_narrow)
        scalar = _splat_scalar(b, op.offset)
        if scalar is not None:
            return FatPointer(b.add(tt.AddPtrOp(fp.base, scalar)), fp.offset, False,
                              fp.can_narrow)
        uniform, rest = decompose(b, op.offset, _width(op.offset))
        base = b.add(tt.AddPtrOp(fp.base, uniform))
        if is_zero(rest):
            return FatPointer(base, fp.offset, False, fp.can_narrow)
        can_narrow = (fp.can_narrow and isinstance(fp.offset.owner, tt.SplatOp)
                      and _width(rest) == 32)
        rest = _cast(b, rest, _width(fp.offset))
        return FatPointer(base, _add(b, rest, fp.offset), False, can_narrow)

    def materialize(self, user: Operation, fp: FatPointer) -> SSAValue:
        b = OpBuilder(user)
        if not isinstance(fp.offset.type, TensorType):
            return b.add(tt.AddPtrOp(fp.base, fp.offset))
        offset = fp.offset
        if fp.can_narrow and _width(offset) > 32:
            offset = _cast(b, offset, 32)
        ptrs = b.add(tt.SplatOp(fp.base, _with_element(offset.type, fp.base.type)))
        return b.add(tt.AddPtrOp(ptrs, offset))


def erase_dead_ops(root: Operation) -> None:
    changed = True
    while changed:
        changed = False
        for op in reversed(list(root.walk())):
            if op is root or op.parent is None:
                continue
            if is_trivially_dead(op):
                op.detach()
                op.erase()
                changed = True


@register_pass
class CanonicalizePointers(Pass):
    """Split pointer arithmetic into a scalar base and a tensor offset (fat pointers)."""

    name = "tritonamdgpu-canonicalize-pointers"
    # Triton nests it under tt.func (its reproducers say `tt.func(...)`); at module level,
    # as the YAML pipelines list it, it runs on every function.
    anchor = "tt.func"

    enable_large_tensor_ptr_canon: bool = option(
        False, "also canonicalize pointers to tensors that may exceed 2 GiB (no "
        "tt.pointer_range = 32)")

    def apply(self, ctx: Context, op: Operation) -> None:
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            poison = next((o for o in func.walk() if o.name == "ub.poison"), None)
            if poison is not None:  # Triton leaves such a function alone, with a remark
                emit_remark(poison, "skipping canonicalize-pointers due to ub.poison")
                continue
            canonicalizer = _Canonicalizer(func, self.enable_large_tensor_ptr_canon)
            # Triton's remark, once per argument it starts a fat pointer from that has no
            # use (its placeholder cast of the argument is left without users).
            for _ in range(canonicalizer.unused_arguments):
                emit_remark(func, "expected at least 1 use of unrealized_cast")
            canonicalizer.run(func)
            erase_dead_ops(func)
