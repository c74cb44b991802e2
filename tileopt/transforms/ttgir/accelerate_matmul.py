"""``tritongpu-accelerate-matmul``: put NVIDIA dots on the tensor cores (Triton 3.6's
``AccelerateMatmul.cpp``).

A ``tt.dot`` still on a blocked layout gets a ``#ttg.nvidia_mma`` result layout:

- sm80-sm89 (and sm90 dots wgmma cannot take): ``mma.sync``, version 2. The dot stays a
  ``tt.dot`` whose operands are converted to ``#ttg.dot_op<{parent = #mma, kWidth}>``
  (kWidth: 32 bits of the narrowest type the operands were computed from);
- sm90: ``wgmma``, version 3. The operands go to shared memory: the ``convert_layout`` to
  the old dot-operand layout is skipped and its source copied by a ``ttg.local_alloc`` into
  an ``#ttg.nvmma_shared`` buffer right where it is defined, in the source's memory order
  (``order_for_memory``: the corpus' block-pointer kernel, one element per thread, needs
  the lanes' order), K-major for types other than f16/bf16; the dot becomes
  ``ttng.warp_group_dot``.

The accumulator is converted to ``#mma`` before the dot and the result back after it;
``tritongpu-remove-layout-conversions`` then moves ``#mma`` through the loop. The layout
choices themselves are in :mod:`tileopt.layouts.mma_choice`. Afterwards, dots the hardware
cannot run on their types are promoted with ``tt.fp_to_fp``: an FMA dot to its result's
element type, an fp8 mma.sync dot below sm89 to f16.

Triton 3.6 reads the compute capability from the module's ``ttg.target``; the
``compute-capability`` option (Triton's older spelling) overrides it when non-zero.
Like Triton's greedy pattern driver, dots are rewritten last first, and the pass also
erases dead side-effect-free ops and moves constants (de-duplicated) to the top of their
function. ``tt.dot_scaled`` and Blackwell (mma v5) are not handled.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ModuleOp,
    TensorType,
    bf16,
    f16,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from tileopt.dialects.layout_of import encoding_of
from tileopt.dialects.tt import DotOp, FpToFpOp
from tileopt.dialects.tt.mma_support import (
    NATIVE_FP8 as _NATIVE_FP8, int_property as _int_property, is_int8 as _is_int8,
    precision as _precision, supports_mma,
)
from tileopt.dialects.ttg import ConvertLayoutOp, LocalAllocOp, num_warps, target_name
from tileopt.dialects.ttg_attrs import (
    DotOperandEncodingAttr,
    NVMMASharedEncodingAttr,
    NvidiaMmaEncodingAttr,
    SharedMemorySpaceAttr,
)
from tileopt.dialects.ttg_types import MemDescType
from tileopt.dialects.ttng import WarpGroupDotOp
from tileopt.ir.locations import value_location
from tileopt.layouts import mma_choice
from tileopt.layouts.encodings import get_shape_per_cta
from tileopt.passes import Pass, PassFailure, option, register_pass
from tileopt.passes.diagnostics import emit_remark
from tileopt.transforms.common.canonicalize import hoist_and_unique_constants
from tileopt.transforms.utils.tensor_layouts import order_for_memory, with_encoding

_DOT_LIKE = ("tt.dot", "tt.dot_scaled", "ttng.warp_group_dot")


def _element(value: SSAValue) -> Attribute:
    return value.type.get_element_type()


def _bits(element: Attribute) -> int:
    return element.bitwidth


def module_compute_capability(op: Operation) -> int:
    """The compute capability of the module's ``ttg.target`` (``cuda:90`` -> 90)."""
    target = target_name(op) or ""
    backend, _, arch = target.partition(":")
    if backend != "cuda" or not arch.isdigit():
        raise PassFailure(op, "tritongpu-accelerate-matmul needs a 'cuda:<capability>' "
                              "ttg.target on the module or the compute-capability option "
                              f"(module target: '{target}')")
    return int(arch)


# ------------------------------------------------------------- can the hardware take it


def _mma_version(dot: DotOp, capability: int) -> int:
    """The highest mma version the GPU and the dot allow (0: none)."""
    versions = (1,) if capability < 75 else (2,) if capability < 90 else (3, 2)
    for version in versions:
        if supports_mma(dot, version):
            return version
        if version == 3:
            emit_remark(dot, "Warning: can't use MMA V3 for the dot op")
    return 0


# ---------------------------------------------------------------------- slices


def _same_region_slice(root: Operation) -> Iterator[Operation]:
    """Ops connected to ``root`` by def-use chains inside its region, not through
    ``tt.trans`` (Triton's ``multiRootGetSlice`` with a same-region filter)."""
    region = root.parent_region()

    def keep(op: Operation | None) -> bool:
        return op is not None and op.parent_region() is region and op.name != "tt.trans"

    seen = {root}
    stack = [root]
    while stack:
        op = stack.pop()
        yield op
        neighbours = [v.owner for v in op.operands if isinstance(v, OpResult)]
        neighbours += [use.operation for r in op.results for use in r.uses]
        for other in neighbours:
            if other not in seen and keep(other):
                seen.add(other)
                stack.append(other)


def _feeds_a_dot(dot: Operation) -> bool:
    """Some dot uses this dot's result, directly or through other ops (any region)."""
    seen: set[Operation] = set()
    stack = [use.operation for r in dot.results for use in r.uses]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if op.name in _DOT_LIKE:
            return True
        stack += [use.operation for r in op.results for use in r.uses]
        stack += [inner for region in op.regions for inner in region.walk()]
    return False


def _warps_v2(dot: DotOp, shape: list[int], warps: int) -> tuple[int, ...]:
    """mma.sync warps: a chained dot's ``#mma`` warps if it has one; else all along the
    longer dim if another dot is chained; else balanced (``mma_choice``)."""
    if len(shape) == 3:
        return mma_choice.warps_per_cta_v2(shape, warps)
    chained = False
    for op in _same_region_slice(dot):
        if op is dot or not isinstance(op, DotOp):
            continue
        result = op.d.type
        if len(result.get_shape()) != len(shape):
            continue
        if isinstance(result.encoding, NvidiaMmaEncodingAttr):
            return tuple(encoding_of(result).warps_per_cta)
        chained = True
    if chained:
        return mma_choice.warps_per_cta_v2_chained(shape, warps)
    return mma_choice.warps_per_cta_v2(shape, warps)


# ------------------------------------------------------------------- operands


def _widens_nothing(op: Operation) -> bool:
    """Single-operand ops a dot operand may come through before its width is the one the
    data was loaded with (Triton's ``bwdFilter``)."""
    if len(op.operands) != 1:
        return False
    if op.name in ("tt.fp_to_fp", "tt.bitcast", "ttg.convert_layout") or op.name.startswith("arith."):
        return True
    return (op.name == "tt.elementwise_inline_asm" and len(op.results) == 1
            and bool(_int_property(op, "pure")))


def original_bit_width(value: SSAValue) -> int:
    """The narrowest width ``value``'s data had in the chain of single-operand ops it was
    computed through (Triton's ``computeOrigBitWidth``): a value loaded as f16 and widened
    to f32 keeps f16's register packing. As in Triton, the op defining ``value`` itself is
    only a link of the chain: its own operand is not looked at."""
    width = _bits(_element(value))
    chain: list[Operation] = []
    op = value.owner if isinstance(value, OpResult) else None
    if op is None or not _widens_nothing(op):
        return width
    while True:
        source = op.operands[0]
        op = source.owner if isinstance(source, OpResult) else None
        if op is None or not _widens_nothing(op):
            break
        chain.append(op)
    for link in reversed(chain):  # the farthest op first, as Triton's slice is ordered
        arg = link.operands[0].type
        if isinstance(arg, TensorType) and _bits(arg.get_element_type()) != width:
            return min(width, _bits(arg.get_element_type()))
    return width


def insert_before(anchor: Operation, op: Operation, location: Attribute | None) -> SSAValue:
    """Insert ``op`` before ``anchor`` at ``location``; its first result."""
    op.location = location
    Rewriter.insert_op(op, InsertPoint.before(anchor))
    return op.results[0]


def convert_before(anchor: Operation, value: SSAValue, ty: Attribute) -> SSAValue:
    """A ``ttg.convert_layout`` of ``value`` to ``ty`` before ``anchor``, at the value's location."""
    return insert_before(anchor, ConvertLayoutOp(value, ty), value_location(value))


def cta_layout_fields(layout: Attribute) -> dict[str, object]:
    """The CTA layout fields of ``layout`` to copy onto a new one (none when single-CTA)."""
    if not hasattr(layout, "cta_is_default") or layout.cta_is_default():
        return {}
    return {name: getattr(layout, name) for name in ("CTAsPerCGA", "CTASplitNum", "CTAOrder")}


def _shared_operand(value: SSAValue, op_idx: int, allow_transpose: bool) -> SSAValue:
    """A copy of the dot operand in an ``#nvmma_shared`` buffer, allocated right where the
    data is defined (before the ``convert_layout`` to the old dot-operand layout)."""
    if isinstance(value, OpResult) and isinstance(value.owner, ConvertLayoutOp):
        value = value.owner.src
    ty = value.type
    layout = encoding_of(ty)
    shape = list(ty.get_shape())
    order = order_for_memory(ty)
    if not allow_transpose:  # wgmma reads other types only K-contiguous
        order = [0, 1] if op_idx == 1 else [1, 0]
    bits = _bits(ty.get_element_type())
    per_cta = get_shape_per_cta(layout, shape)
    shared = NVMMASharedEncodingAttr.get(
        swizzlingByteWidth=mma_choice.nvmma_swizzle_bytes(per_cta, order, bits),
        transposed=mma_choice.nvmma_transposed(order), elementBitWidth=bits,
        **cta_layout_fields(ty.encoding))
    alloc = LocalAllocOp(MemDescType.get(shape, ty.get_element_type(), shared,
                                         SharedMemorySpaceAttr()), value)
    alloc.location = value_location(value)
    if isinstance(value, OpResult):
        Rewriter.insert_op(alloc, InsertPoint.after(value.owner))
    else:
        block = value.owner
        assert isinstance(block, Block)
        Rewriter.insert_op(alloc, InsertPoint.at_start(block))
    return alloc.results[0]


def _warp_group_dot(dot: DotOp, a: SSAValue, b: SSAValue, acc: SSAValue) -> Operation:
    properties = {name: dot.properties[name] for name in ("inputPrecision", "maxNumImpreciseAcc")}
    # Attributes left at their default are not stored, as the parser reads Triton's text.
    properties = {k: v for k, v in properties.items() if WarpGroupDotOp._DEFAULTS[k] != v}
    return WarpGroupDotOp.build(operands=[a, b, acc, []], result_types=[acc.type],
                                properties=properties)


# ---------------------------------------------------------------------- rewrite


def blocked_to_mma(dot: DotOp, capability: int) -> bool:
    """Rewrite one ``tt.dot`` onto mma v2 or v3; False where it stays as it is."""
    if capability < 70:
        return False
    if capability < 80:
        emit_remark(dot, f"Dot op using MMA for compute capability {capability} has been "
                         "deprecated. It falls back to the FMA path.")
        return False
    old_type = dot.d.type
    if not isinstance(old_type, TensorType) or isinstance(old_type.encoding,
                                                          NvidiaMmaEncodingAttr):
        return False
    if not hasattr(old_type.encoding, "to_encoding"):
        return False  # no layout yet
    shape = get_shape_per_cta(encoding_of(old_type), old_type.get_shape())
    warps = num_warps(dot)
    version = _mma_version(dot, capability)
    if version not in (2, 3):
        return False
    a_element = _element(dot.a)
    if version == 2:
        instr = mma_choice.instr_shape_v2(len(shape))
        warps_per_cta = _warps_v2(dot, shape, warps)
    else:
        instr = mma_choice.instr_shape_v3(shape, _bits(a_element), _is_int8(a_element), warps)
        warps_per_cta = mma_choice.warps_per_cta_v3(shape, warps, _feeds_a_dot(dot))
    mma = NvidiaMmaEncodingAttr.get(versionMajor=version, versionMinor=0,
                                    warpsPerCTA=warps_per_cta, instrShape=instr,
                                    **cta_layout_fields(old_type.encoding))
    new_type = with_encoding(old_type, mma)
    acc = convert_before(dot, dot.c, new_type)
    if version == 3:
        transposable = a_element in (f16, bf16)
        a = _shared_operand(dot.a, 0, transposable)
        b = _shared_operand(dot.b, 1, transposable)
        new_dot = _warp_group_dot(dot, a, b, acc)
    else:
        k_width = mma_choice.k_width(encoding_of(mma), min(original_bit_width(dot.a),
                                                            original_bit_width(dot.b)))
        a = convert_before(dot, dot.a, with_encoding(dot.a.type, DotOperandEncodingAttr.get(
            opIdx=0, parent=mma, kWidth=k_width)))
        b = convert_before(dot, dot.b, with_encoding(dot.b.type, DotOperandEncodingAttr.get(
            opIdx=1, parent=mma, kWidth=k_width)))
        new_dot = DotOp(a, b, acc, _precision(dot), _int_property(dot, "maxNumImpreciseAcc"))
    result = insert_before(dot, new_dot, dot.location)
    back = insert_before(dot, ConvertLayoutOp(result, old_type), dot.location)
    dot.d.replace_all_uses_with(back)
    Rewriter.erase_op(dot)
    return True


def decompose_mixed_mode(module: Operation, capability: int) -> None:
    """Promote the operands of dots whose types the chosen unit lacks (Triton's
    ``decomposeMixedModeDotOp``): fp8 on mma.sync below sm89 to f16; an FMA dot's operands
    to its result's element type."""
    for dot in [op for op in module.walk() if isinstance(op, DotOp)]:
        a_element = _element(dot.a)
        layout = dot.d.type.encoding
        if isinstance(layout, NvidiaMmaEncodingAttr):
            if (not isinstance(a_element, _NATIVE_FP8) or capability == 89
                    or layout.versionMajor.data == 3):
                continue
            promoted = f16
        else:
            promoted = _element(dot.d)
            if a_element == promoted:
                continue
        promote_operands(dot, promoted)


def promote_operands(dot: DotOp, element: Attribute) -> None:
    """Cast A and B of ``dot`` to ``element`` with ``tt.fp_to_fp`` right before it."""
    for index in (0, 1):
        operand = dot.operands[index]
        ty = TensorType(element, operand.type.get_shape(), operand.type.encoding)
        dot.operands[index] = insert_before(dot, FpToFpOp(operand, ty), dot.location)


@register_pass
class AccelerateMatmul(Pass):
    """Give tt.dot ops NVIDIA tensor-core layouts: mma.sync (v2) from sm80, wgmma (v3,
    operands in nvmma_shared memory) on sm90."""

    name = "tritongpu-accelerate-matmul"

    compute_capability: int = option(
        0, "device compute capability (0: from the module's ttg.target)",
        name="compute-capability")

    def apply(self, ctx: Context, op: Operation) -> None:
        capability = self.compute_capability or module_compute_capability(op)
        if capability >= 100:
            raise PassFailure(op, f"tritongpu-accelerate-matmul: compute capability "
                                  f"{capability} (mma v5) is not supported")
        dots = [o for o in op.walk() if isinstance(o, DotOp)]
        for dot in reversed(dots):  # the greedy driver's worklist: the last op first
            blocked_to_mma(dot, capability)
        decompose_mixed_mode(op, capability)
        # What MLIR's greedy driver does besides the patterns.
        for region in op.regions:
            region_dce(region)
        if isinstance(op, ModuleOp):
            hoist_and_unique_constants(op)
