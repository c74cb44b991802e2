"""``tritonamdgpu-convert-buffer-ops``: global loads, stores and atomics become AMD buffer
operations (Triton's ``ConvertToBufferOps.cpp``).

A buffer instruction addresses memory as a scalar base (held in SGPRs, one per wave) plus
a 32-bit per-lane offset, and checks bounds in hardware, which saves the VGPRs of 64-bit
pointers and the branches of masked accesses. An access qualifies when its pointer tensor
is ``tt.addptr(tt.splat(base), offsets)`` (a uniform base) and ``offsets`` are 32-bit
element indices that are provably non-negative and whose byte offset stays below 2 GiB:
the integer range analysis must bound them (``[0, hi]`` with ``(hi + 1) * bytes <= 2^31 -
1``). Unless ``analyze-small-tensor-ofst`` is set, a base that is a function argument
marked ``tt.pointer_range = 32`` (the JIT's "tensor smaller than 2 GiB") qualifies without
the analysis.

- ``tt.load`` -> ``amdg.buffer_load`` (not an f32 load in a function with ``tt.dot``,
  which Triton leaves alone to dodge an LLVM backend bug);
- ``ttg.async_copy_global_to_local`` -> ``amdg.buffer_load_to_local``;
- ``tt.store`` -> ``amdg.buffer_store``;
- ``tt.atomic_rmw`` -> ``amdg.buffer_atomic_rmw`` on CDNA3/CDNA4 (gfx942, gfx950) when
  ``allow-buffer-atomics``: gpu/cta scope, relaxed/acquire/release/acq_rel order,
  f16/bf16/f32/f64/i32/i64 values (no bf16 fadd on gfx942), 16-bit floats only in pairs,
  at least 32 bits per access, and a supported operation (max/min on integers only).

An all-true constant mask and an all-zero constant ``other`` are dropped. When the
offsets have the shape ``canonicalize-pointers`` gives strided blocks
(``add(broadcast(mul(x, splat(s))), ...)``), ``s`` becomes the op's ``stride``. Rewrites
run with MLIR's greedy-driver semantics (dead constants go, constants are hoisted).

- ``tt.atomic_cas`` -> ``amdg.buffer_atomic_cas`` (any target): gpu/cta scope, the
  orders above, 32- or 64-bit integers.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from tileopt.analysis.axis_info import AxisInfoAnalysis
from tileopt.dialects import amdgpu, tt
from tileopt.dialects.tt_types import (
    CACHE_MODIFIER,
    MEM_SEMANTIC,
    MEM_SYNC_SCOPE,
    RMW_OP,
    CacheModifier,
    MemSemantic,
    MemSyncScope,
    PointerType,
    RMWOp,
    bit_width,
    element_type,
)
from tileopt.passes import Pass, option, register_pass
from tileopt.analysis.integer_ranges import IntegerRanges
from tileopt.transforms.utils.greedy_rewrite import apply_patterns_greedily

TWO_GIB = (1 << 31) - 1
CDNA3_OR_4 = ("gfx940", "gfx941", "gfx942", "gfx950")


def _constant_splat(value: SSAValue) -> int | float | None:
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        attr = owner.properties.get("value")
        if isinstance(attr, DenseIntOrFPElementsAttr) and len(attr) and attr.is_splat():
            return attr.get_values()[0]
    return None


def is_all_true(mask: SSAValue) -> bool:
    """Triton's isSplatOneConstTensor: a splat integer constant equal to 1 (``true``)."""
    element = element_type(mask.type)
    value = _constant_splat(mask)
    if not isinstance(element, IntegerType) or value is None:
        return False
    return value == 1 or (element.width.data == 1 and value == -1)


def is_zero_constant(value: SSAValue) -> bool:
    """Triton's isZeroConst: a splat constant equal to 0 (or -0.0)."""
    return _constant_splat(value) == 0


def _is_function_argument_with_32bit_range(value: SSAValue) -> bool:
    if not isinstance(value, BlockArgument):
        return False
    func = value.block.parent_op()
    if not isinstance(func, tt.FuncOp) or value.block is not func.body.blocks.first:
        return False
    if func.arg_attrs is None:
        return False
    attrs = func.arg_attrs.data[value.index]
    assert isinstance(attrs, DictionaryAttr)
    bound = attrs.data.get("tt.pointer_range")
    return isinstance(bound, IntegerAttr) and bound.value.data <= 32


class BufferOpAnalysis:
    """Whether an access through a pointer tensor can become a buffer op, and its parts."""

    def __init__(self, root: Operation, analyze_small_tensor_offsets: bool):
        self.ranges = IntegerRanges(root)
        self.analyze_small_tensor_offsets = analyze_small_tensor_offsets

    @staticmethod
    def split(ptr: SSAValue) -> tuple[SSAValue, SSAValue] | None:
        """(scalar base, offsets) of ``addptr(splat(base), offsets)``."""
        addptr = ptr.owner
        if not isinstance(addptr, tt.AddPtrOp):
            return None
        splat = addptr.ptr.owner
        if not isinstance(splat, tt.SplatOp):
            return None
        return splat.src, addptr.offset

    def can_use(self, ptr: SSAValue) -> bool:
        parts = self.split(ptr)
        if parts is None:
            return False
        base, offsets = parts
        if bit_width(element_type(offsets.type)) != 32:
            return False
        if not self.analyze_small_tensor_offsets and _is_function_argument_with_32bit_range(base):
            return True
        return self._byte_offset_below_2gib(ptr, offsets)

    def _byte_offset_below_2gib(self, ptr: SSAValue, offsets: SSAValue) -> bool:
        found = self.ranges.of(offsets)
        if found is None or found.lo < 0 or found.hi < 0:
            return False
        pointee = element_type(ptr.type)
        while isinstance(pointee, PointerType):
            pointee = pointee.pointee_type
        bits = bit_width(pointee) or 64
        return (bits * found.hi + bits + 7) // 8 <= TWO_GIB


def block_stride(offsets: SSAValue) -> SSAValue | None:
    """``s`` of offsets built as ``add(broadcast(mul(x, splat(s))), y)`` (either order)."""
    add = offsets.owner
    if not isinstance(add, Operation) or add.name != "arith.addi":
        return None
    for operand in add.operands:
        broadcast = operand.owner
        if not isinstance(broadcast, tt.BroadcastOp):
            continue
        mul = broadcast.src.owner
        if isinstance(mul, Operation) and mul.name == "arith.muli":
            for factor in mul.operands:
                if isinstance(factor.owner, tt.SplatOp):
                    return factor.owner.src
    return None


def _cache_properties(cache: Attribute | None) -> dict[str, Attribute]:
    if cache is None or CACHE_MODIFIER.value_of(cache) == CacheModifier.NONE:  # type: ignore[arg-type]
        return {}
    return {"cache": cache}


def _function_has_dot(op: Operation, memo: dict[int, bool]) -> bool:
    func = op.parent_op()
    while func is not None and not isinstance(func, tt.FuncOp):
        func = func.parent_op()
    if func is None:
        return True
    if id(func) not in memo:
        memo[id(func)] = any(isinstance(inner, tt.DotOp) for inner in func.walk())
    return memo[id(func)]


def _addressable(op: Operation, op_type: type[Operation], analysis: BufferOpAnalysis) -> bool:
    """``op`` is an ``op_type`` on a tensor of pointers that a buffer op can address."""
    if not isinstance(op, op_type):
        return False
    ptr = op.ptr  # type: ignore[attr-defined]
    return isinstance(ptr.type, TensorType) and analysis.can_use(ptr)


class ConvertLoad(RewritePattern):
    def __init__(self, analysis: BufferOpAnalysis):
        self.analysis = analysis
        self.dot_in_function: dict[int, bool] = {}

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, tt.LoadOp):
            element = element_type(op.result.type)
            if isinstance(element, Float32Type) and _function_has_dot(op, self.dot_in_function):
                return  # Triton's workaround for an LLVM bug with f32 loads feeding tt.dot
            ptr = op.ptr
        elif op.name == "ttg.async_copy_global_to_local":
            ptr = op.operands[0]
        else:
            return
        if not isinstance(ptr.type, TensorType) or not self.analysis.can_use(ptr):
            return
        base, offsets = self.analysis.split(ptr)  # type: ignore[misc]
        mask = op.mask if op.mask is not None and not is_all_true(op.mask) else None  # type: ignore[attr-defined]
        other = op.other if op.other is not None and not is_zero_constant(op.other) else None  # type: ignore[attr-defined]
        stride = block_stride(offsets)
        cache = _cache_properties(op.properties.get("cache"))
        if isinstance(op, tt.LoadOp):
            new = amdgpu.BufferLoadOp.build(
                operands=[base, offsets, _opt(stride), _opt(mask), _opt(other)],
                result_types=[op.result.type], properties=cache)
        else:
            contiguity = op.properties.get("contiguity")
            new = amdgpu.BufferLoadToLocalOp.build(
                operands=[op.operands[1], base, offsets, _opt(mask), _opt(other), _opt(stride)],
                result_types=[op.results[0].type],
                properties={**cache, **({"contiguity": contiguity} if contiguity else {})})
        rewriter.replace(op, new)


class ConvertStore(RewritePattern):
    def __init__(self, analysis: BufferOpAnalysis):
        self.analysis = analysis

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not _addressable(op, tt.StoreOp, self.analysis):
            return
        base, offsets = self.analysis.split(op.ptr)  # type: ignore[misc]
        mask = op.mask if op.mask is not None and not is_all_true(op.mask) else None
        new = amdgpu.BufferStoreOp.build(
            operands=[op.value, base, offsets, _opt(block_stride(offsets)), _opt(mask)],
            properties=_cache_properties(op.cache))
        rewriter.replace(op, new)


_ATOMIC_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type)
_RMW_SUPPORTED = {RMWOp.AND, RMWOp.OR, RMWOp.XOR, RMWOp.ADD, RMWOp.FADD, RMWOp.UMAX,
                  RMWOp.UMIN, RMWOp.XCHG}


class ConvertAtomicRMW(RewritePattern):
    def __init__(self, analysis: BufferOpAnalysis, axis: AxisInfoAnalysis, arch: str):
        self.analysis = analysis
        self.axis = axis
        self.arch = arch

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not _atomic_addressable(op, tt.AtomicRMWOp, self.analysis):
            return
        element = element_type(op.val.type)
        is_int = isinstance(element, IntegerType) and bit_width(element) in (32, 64)
        if not (is_int or isinstance(element, _ATOMIC_TYPES)):
            return
        kind = RMW_OP.value_of(op.atomic_rmw_op)
        if (self.arch.startswith("gfx94") and isinstance(element, BFloat16Type)
                and kind == RMWOp.FADD):
            return  # gfx942 has no buffer fadd for bf16
        vector = self.axis.contiguity(op.ptr)
        is_half = isinstance(element, Float16Type | BFloat16Type)
        if vector % 2 != 0 and is_half:
            return  # 16-bit floats go in pairs (buffer.atomic.fadd.v2f16)
        if kind not in _RMW_SUPPORTED and not (kind in (RMWOp.MAX, RMWOp.MIN) and is_int):
            return
        if vector * (bit_width(element) or 0) < 32:
            return
        base, offsets = self.analysis.split(op.ptr)  # type: ignore[misc]
        mask = op.mask if op.mask is not None and not is_all_true(op.mask) else None
        new = amdgpu.BufferAtomicRMWOp.build(
            operands=[base, offsets, op.val, _opt(block_stride(offsets)), _opt(mask)],
            result_types=[op.result.type],
            properties={"atomic_rmw_op": op.atomic_rmw_op, "sem": op.sem, "scope": op.scope})
        rewriter.replace(op, new)


class ConvertAtomicCAS(RewritePattern):
    """``tt.atomic_cas`` of 32- or 64-bit integers at gpu/cta scope, on every target (as
    Triton 3.6, which does not gate it by architecture or ``allow-buffer-atomics``)."""

    def __init__(self, analysis: BufferOpAnalysis):
        self.analysis = analysis

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not _atomic_addressable(op, tt.AtomicCASOp, self.analysis):
            return
        element = element_type(op.val.type)
        if not (isinstance(element, IntegerType) and bit_width(element) in (32, 64)):
            return
        base, offsets = self.analysis.split(op.ptr)  # type: ignore[misc]
        new = amdgpu.BufferAtomicCASOp.build(
            operands=[base, offsets, op.cmp, op.val, _opt(block_stride(offsets))],
            result_types=[op.results[0].type],
            properties={"sem": op.properties["sem"], "scope": op.properties["scope"]})
        rewriter.replace(op, new)


def _atomic_addressable(op: Operation, op_type: type[Operation],
                        analysis: BufferOpAnalysis) -> bool:
    """An addressable ``op_type`` at gpu or cta scope, relaxed/acquire/release/acq_rel
    order: what buffer atomics take."""
    return (_addressable(op, op_type, analysis)
            and MEM_SYNC_SCOPE.value_of(op.properties["scope"]) in (MemSyncScope.GPU,
                                                                     MemSyncScope.CTA)
            and MEM_SEMANTIC.value_of(op.properties["sem"]) in (
                MemSemantic.RELAXED, MemSemantic.RELEASE, MemSemantic.ACQUIRE,
                MemSemantic.ACQUIRE_RELEASE))


def _opt(value: SSAValue | None) -> list[SSAValue]:
    return [value] if value is not None else []


@register_pass
class ConvertBufferOps(Pass):
    """Turn global loads/stores/atomics with a uniform base and small offsets into buffer ops."""

    name = "tritonamdgpu-convert-buffer-ops"

    arch_generation_name: str = option("", "gfx target architecture, e.g. gfx942")
    allow_buffer_atomics: bool = option(True, "convert atomics (CDNA3/CDNA4 only)")
    analyze_small_tensor_ofst: bool = option(
        False, "check offsets with range analysis even for tt.pointer_range=32 bases")

    def apply(self, ctx: Context, op: Operation) -> None:
        analysis = BufferOpAnalysis(op, self.analyze_small_tensor_ofst)
        patterns: list[RewritePattern] = [ConvertLoad(analysis), ConvertStore(analysis)]
        if self.allow_buffer_atomics and self.arch_generation_name in CDNA3_OR_4:
            patterns.append(ConvertAtomicRMW(analysis, AxisInfoAnalysis(op),
                                             self.arch_generation_name))
        patterns.append(ConvertAtomicCAS(analysis))
        apply_patterns_greedily(ctx, op, patterns)
