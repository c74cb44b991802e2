"""``tritonamdgpu-accelerate-matmul``: put AMD dots on the matrix cores (Triton 3.6's
``AccelerateAMDMatmul.cpp``).

A ``tt.dot`` still on a blocked layout gets the accumulator layout of the target's matrix
instruction:

- CDNA (gfx908/gfx90a/gfx942/gfx950, MFMA versions 1-4): ``#ttg.amd_mfma`` with the
  instruction's ``instrShape = [m, n, k]`` (:func:`mma_choice.mfma_instruction`),
  ``isTransposed`` (so that the epilogue stores rows; not for fp8 dots outside a dot chain)
  and kWidth = the instruction's K per lane times ``kPack``;
- RDNA3/RDNA4 (gfx11/gfx12, WMMA versions 1-2): ``#ttg.amd_wmma``, transposed, the
  operand and accumulator types chosen by the cheapest lossless conversion
  (``_wmma_types``; the accumulator f32 or i32), e.g. fp8 operands widened to f16 on
  RDNA3 and taken as they are on RDNA4.

The accumulator is converted to the new layout (and cast to f32/i32 for MFMA, or the
chosen WMMA type) before the dot, the operands to ``#ttg.dot_op`` of it, and the result
back to the old layout and type after it: ``tritongpu-remove-layout-conversions`` then
carries the new layout through the loop. Dots no matrix instruction takes stay FMA dots,
legalized to one element type (f16 or f32) unless the target has ``v_dot`` for them;
mixed-type matrix dots get their operands promoted (``_decompose_mixed_mode``).

Like the greedy driver Triton runs the patterns with, dots are rewritten last first, and
dead side-effect-free ops are erased and constants moved (de-duplicated) to the top of
their function. ``tt.dot_scaled`` and gfx1250 (WMMA v3) are not handled.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    IntegerType,
    TensorType,
    f16,
    f32,
    i32,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.rewriter import Rewriter

from tileopt.dialects.arith import ExtSIOp, ExtUIOp, FPToSIOp, SIToFPOp, TruncIOp
from tileopt.dialects.tt import DotOp, FpToFpOp
from tileopt.dialects.tt_types import INPUT_PRECISION, InputPrecision
from tileopt.dialects.ttg import ConvertLayoutOp, num_warps, target_name
from tileopt.dialects.ttg_attrs import (
    AMDMfmaEncodingAttr,
    AMDWmmaEncodingAttr,
    BlockedEncodingAttr,
    DotOperandEncodingAttr,
)
from tileopt.ir.locations import value_location
from tileopt.layouts import mma_choice
from tileopt.passes import Pass, PassFailure, option, register_pass
from tileopt.passes.diagnostics import emit_remark
from tileopt.transforms.common.canonicalize import apply_greedily
from tileopt.transforms.ttgir.accelerate_matmul import (cta_layout_fields, insert_before,
                                                      promote_operands)
from tileopt.transforms.utils.tensor_layouts import with_encoding

PASS = "tritonamdgpu-accelerate-matmul"
_FP8_FNUZ = (Float8E4M3FNUZType, Float8E5M2FNUZType)
_FP8_OCP = (Float8E4M3FNType, Float8E5M2Type)


# ------------------------------------------------------------------------ targets


def isa_family(arch: str) -> str:
    """The ISA family of a gfx name, as Triton's ``deduceISAFamily``: CDNA1-4, RDNA2-4,
    or ``""`` for one it does not know (no matrix core)."""
    known = {"gfx908": "CDNA1", "gfx90a": "CDNA2", "gfx940": "CDNA3", "gfx941": "CDNA3",
             "gfx942": "CDNA3", "gfx950": "CDNA4"}
    if arch in known:
        return known[arch]
    if arch.startswith("gfx1250"):
        return ""  # WMMA v3: not handled here
    if arch.startswith("gfx12"):
        return "RDNA4"
    if arch.startswith("gfx11"):
        return "RDNA3"
    if arch.startswith("gfx103"):
        return "RDNA2"
    return ""


def mfma_version(family: str) -> int:
    return {"CDNA1": 1, "CDNA2": 2, "CDNA3": 3, "CDNA4": 4}.get(family, 0)


def wmma_version(family: str) -> int:
    return {"RDNA3": 1, "RDNA4": 2}.get(family, 0)


def supports_vdot(family: str) -> bool:
    """Whether the family has the ``v_dot2``/``v_dot4`` FMA-path instructions."""
    return family in ("CDNA1", "CDNA2", "CDNA3", "CDNA4", "RDNA2", "RDNA3")


def module_arch(op: Operation) -> str:
    """The gfx name of the module's ``ttg.target`` (``hip:gfx942`` -> ``gfx942``)."""
    target = target_name(op) or ""
    backend, _, arch = target.partition(":")
    if backend != "hip" or not arch:
        raise PassFailure(op, f"{PASS} needs the arch-generation-name option or a "
                              f"'hip:<gfx>' ttg.target on the module (module target: "
                              f"'{target}')")
    return arch


# ------------------------------------------------------------------------ slices


def _producers(op: Operation) -> Iterator[Operation]:
    return (v.owner for v in op.operands if isinstance(v, OpResult))


def _users(op: Operation) -> Iterator[Operation]:
    return (use.operation for r in op.results for use in r.uses)


def _slice(root: Operation, step) -> set[Operation]:
    """Ops reached from ``root`` by ``step`` (producers or users) without leaving its
    region; ``root`` itself is not part of it (MLIR's getForward/BackwardSlice)."""
    region = root.parent_region()
    seen: set[Operation] = set()
    stack = list(step(root))
    while stack:
        op = stack.pop()
        if op in seen or op.parent_region() is not region:
            continue
        seen.add(op)
        stack += step(op)
    return seen


def is_chain_head(dot: DotOp) -> bool:
    """The dot's result reaches operand A of another dot of its region (through an op
    that is in the forward slice: attention's ``P = softmax(QK)`` feeding ``PV``)."""
    forward = _slice(dot, _users)
    return any(isinstance(op, DotOp) and isinstance(op.a, OpResult) and op.a.owner in forward
               for op in forward)


def is_chain_tail(dot: DotOp) -> bool:
    """Operand A is computed, in the dot's region, from another dot's result."""
    if not isinstance(dot.a, OpResult):
        return False
    source = dot.a.owner
    if source.parent_region() is not dot.parent_region():
        return False
    return any(isinstance(op, DotOp) for op in _slice(source, _producers))


# ----------------------------------------------------------------------- casts


def _element(value: SSAValue) -> Attribute:
    return value.type.get_element_type()


def _is_int(element: Attribute) -> bool:
    return isinstance(element, IntegerType)


def _bits(element: Attribute) -> int:
    return element.bitwidth


def _signed(element: Attribute) -> bool:
    return element.signedness.data.name == "SIGNED"


def _unsigned(element: Attribute) -> bool:
    return element.signedness.data.name == "UNSIGNED"


def _cast(anchor: Operation, value: SSAValue, element: Attribute,
          location: Attribute | None) -> SSAValue:
    """``value`` with element type ``element``, by the op Triton uses for the pair."""
    source = _element(value)
    if source == element:
        return value
    ty = TensorType(element, value.type.get_shape(), value.type.encoding)
    if _is_int(source) and _is_int(element):
        # As Triton: only explicitly signed integers sign-extend (signless ones do not).
        if _bits(source) == _bits(element):
            op = arith.BitcastOp(value, ty)
        elif _bits(source) > _bits(element):
            op = TruncIOp(value, ty)
        else:
            op = ExtSIOp(value, ty) if _signed(source) else ExtUIOp(value, ty)
    elif _is_int(source):
        op = SIToFPOp(value, ty)
    elif _is_int(element):
        op = FPToSIOp(value, ty)
    elif source == f16 and element == f32:
        op = arith.ExtFOp(value, ty)
    elif source == f32 and element == f16:
        op = arith.TruncFOp(value, ty)
    else:
        op = FpToFpOp(value, ty)
    return insert_before(anchor, op, location)


def _convert_and_cast(anchor: Operation, value: SSAValue, layout: Attribute,
                      element: Attribute, location: Attribute | None = None) -> SSAValue:
    """``value`` in ``layout`` (a ``ttg.convert_layout``), then cast to ``element``
    (Triton's ``convertAndCastTensor``)."""
    location = location or value_location(value)
    converted = insert_before(anchor, ConvertLayoutOp(value, with_encoding(value.type, layout)),
                              location)
    return _cast(anchor, converted, element, location)


# ------------------------------------------------------------------------ MFMA


def _mfma_kind(dot: DotOp, version: int) -> str | None:
    """The MFMA operand kind of the dot's A and B (see ``mma_choice``), None if none. The
    OCP fp8 types before CDNA4 are emulated with f16 (:func:`_emulated_with_f16`)."""
    a, b = _element(dot.a), _element(dot.b)
    if _emulated_with_f16(dot, version):
        return "f16"
    fp8 = _FP8_FNUZ if version == 3 else _FP8_OCP if version == 4 else ()
    if fp8 and isinstance(a, fp8) and isinstance(b, fp8):
        return "fp8"
    if type(a) is not type(b):
        return None
    if isinstance(a, Float32Type):
        tf32 = INPUT_PRECISION.value_of(dot.properties["inputPrecision"]) == InputPrecision.TF32
        return "xf32" if tf32 and version == 3 else "f32"
    if isinstance(a, Float16Type):
        return "f16"
    if isinstance(a, BFloat16Type):
        return "bf16"
    if _is_int(a) and _bits(a) == 8:
        return "i8"
    return None


def _rewrite(dot: DotOp, layout: Attribute, acc_element: Attribute, k_width: int,
             operand_elements: tuple[Attribute, Attribute]) -> None:
    """Replace ``dot`` by one in ``layout``: accumulator, then A and B, converted (and
    cast) before it, the result converted back after it."""
    old = dot.d.type
    acc = _convert_and_cast(dot, dot.c, layout, acc_element)
    operands = []
    for index, (value, element) in enumerate(zip((dot.a, dot.b), operand_elements)):
        encoding = DotOperandEncodingAttr.get(opIdx=index, parent=layout, kWidth=k_width)
        operands.append(_convert_and_cast(dot, value, encoding, element))
    new_dot = DotOp(operands[0], operands[1], acc,
                    INPUT_PRECISION.value_of(dot.properties["inputPrecision"]),
                    dot.properties["maxNumImpreciseAcc"].value.data)
    result = insert_before(dot, new_dot, dot.location)
    back = _convert_and_cast(dot, result, old.encoding, old.get_element_type(), dot.location)
    dot.d.replace_all_uses_with(back)
    Rewriter.erase_op(dot)


def _emulated_with_f16(dot: DotOp, version: int) -> bool:
    """OCP fp8 operands (f8E5M2, f8E4M3FN) before CDNA4 take the f16 instruction, their
    operands widened (Triton 3.6 says so in two remarks, emitted here)."""
    if version > 3 or not all(isinstance(_element(v), _FP8_OCP) for v in (dot.a, dot.b)):
        return False
    emit_remark(dot, "missing native support for fp8 variant on current architecture; "
                     "emulated with fp16 so low performance")
    if version == 3:
        emit_remark(dot, "for gfx942 please use native supported fp8 variants")
    return True


def _no_mfma_remark(dot: DotOp, version: int, non_k_dim: int,
                    candidate: mma_choice.MfmaChoice | None) -> None:
    """Triton 3.6's remark when no MFMA instruction takes the dot (its first words; the
    request is listed as Triton lists it)."""
    shape, k = dot.d.type.get_shape(), dot.a.type.get_shape()[-1]
    if candidate is not None:
        emit_remark(dot, f"Unable to select MFMA intrinsic {candidate.m}x{candidate.n}x"
                         f"{candidate.k}: its K does not divide the dot's K = {k}, which "
                         "would duplicate data")
        return
    tile = mma_choice.mfma_tile(shape, non_k_dim)
    xf32 = (INPUT_PRECISION.value_of(dot.properties["inputPrecision"]) == InputPrecision.TF32
            and version == 3)
    forced = f", enforcedNonKDim={non_k_dim}" if non_k_dim else ""
    emit_remark(dot, f"Unable to select MFMA intrinsic for the request: version={version}, "
                     f"result-shape=({shape[-2]}x{shape[-1]}), selected-tiles=({tile}x{tile}), "
                     f"inputKSize={k}, aElemType={_element(dot.a)}, "
                     f"bElemType={_element(dot.b)}, withScale=false, "
                     f"allowXF32={'true' if xf32 else 'false'}{forced}")


def blocked_to_mfma(dot: DotOp, version: int, non_k_dim: int, k_pack: int) -> bool:
    old = dot.d.type
    kind = _mfma_kind(dot, version)
    shape = list(old.get_shape())
    k_size = dot.a.type.get_shape()[-1]
    candidate = (mma_choice.mfma_candidate(version, shape, k_size, kind, non_k_dim)
                 if kind is not None else None)
    if candidate is None or k_size % candidate.k:
        _no_mfma_remark(dot, version, non_k_dim, candidate)
        return False
    choice = candidate
    head, tail = is_chain_head(dot), is_chain_tail(dot)
    warps = mma_choice.amd_warps_per_cta(shape, num_warps(dot), (choice.m, choice.n),
                                         head, tail)
    # Triton 3.6 transposes every MFMA layout but that of the 4x64 instruction (which
    # tileopt does not pick).
    mfma = AMDMfmaEncodingAttr.get(version=version, warpsPerCTA=warps,
                                   instrShape=(choice.m, choice.n, choice.k),
                                   isTransposed=True,
                                   **cta_layout_fields(old.encoding))
    acc_element = i32 if _is_int(old.get_element_type()) else f32
    operands = (f16, f16) if kind == "f16" else (_element(dot.a), _element(dot.b))
    k_width = mma_choice.mfma_k_width(choice, k_pack, tail, _bits(operands[0]))
    _rewrite(dot, mfma, acc_element, k_width, operands)
    return True


# ------------------------------------------------------------------------ WMMA


def _conversion_cost(source: Attribute, target: Attribute) -> int | None:
    """0 for no conversion, 1 for a lossless one, None for one that loses (or mixes
    integers and floats), as Triton's WMMA type cost model."""
    if source == target:
        return 0
    if _is_int(source) != _is_int(target):
        return None
    if _is_int(source) and source.signedness != target.signedness:
        return 1 if _unsigned(source) and _bits(source) < _bits(target) else None
    return 1 if _bits(source) <= _bits(target) else None


def _wmma_types(dot: DotOp, version: int) -> tuple[Attribute, ...] | None:
    """The (A, B, C, D) element types of the cheapest WMMA form of the dot (ties to the
    first listed), None if every form would lose precision. Triton 3.6 offers only forms
    with a 32-bit accumulator (an f16 one is widened to f32), and fp8 operands as they
    are on RDNA4 (version 2)."""
    bf16 = BFloat16Type()
    i8 = IntegerType(8)
    forms: list[tuple[Attribute, ...]] = [(f16, f16, f32, f32), (bf16, bf16, f32, f32),
                                          (i8, i8, i32, i32)]
    if version == 2:
        forms += [(a(), b(), f32, f32) for a in _FP8_OCP for b in _FP8_OCP]
    current = [_element(v) for v in (dot.a, dot.b, dot.c, dot.d)]
    best, best_cost = None, None
    for form in forms:
        costs = [_conversion_cost(s, t) for s, t in zip(current, form)]
        if None in costs:
            continue
        if best_cost is None or sum(costs) < best_cost:
            best, best_cost = form, sum(costs)
    return best


def blocked_to_wmma(dot: DotOp, version: int) -> bool:
    old = dot.d.type
    m, n, k = mma_choice.WMMA_TILE
    a_shape, b_shape = dot.a.type.get_shape(), dot.b.type.get_shape()
    if a_shape[-2] % m or b_shape[-1] % n or a_shape[-1] % k:
        return False
    types = _wmma_types(dot, version)
    if types is None:
        return False
    shape = list(old.get_shape())
    warps = mma_choice.amd_warps_per_cta(shape, num_warps(dot), (m, n),
                                         is_chain_head(dot), is_chain_tail(dot))
    wmma = AMDWmmaEncodingAttr.get(version=version, isTranspose=True, warpsPerCTA=warps,
                                   **cta_layout_fields(old.encoding))
    _rewrite(dot, wmma, types[2], mma_choice.wmma_k_width(version), types[:2])
    return True


# ------------------------------------------------------------------------- FMA


def _legal_fma(dot: DotOp, family: str) -> bool:
    """Whether an FMA dot is already in a form the lowering takes: f16 x f16 -> f32 or
    i8 x i8 -> i32 where ``v_dot`` exists (K even / a multiple of 4), else one element
    type, f16 or f32, everywhere."""
    a, b, c, d = (_element(v) for v in (dot.a, dot.b, dot.c, dot.d))
    k = dot.a.type.get_shape()[-1]
    if supports_vdot(family):
        if a == b == f16 and c == d == f32 and k % 2 == 0:
            return True
        if a == b == IntegerType(8) and c == d == i32 and k % 4 == 0:
            return True
    return a == b == c == d and a in (f16, f32)


def legalize_fma(dot: DotOp, family: str) -> bool:
    """Cast an FMA dot's operands to one type (f16 if everything fits in 16 bits and none
    is bf16 or a wide integer, else f32) and its result back. Triton 3.6's remark for
    every dot this sees, and again for the dot it makes (its greedy driver visits that
    one too)."""
    emit_remark(dot, "Attempting to map dot operation to FMA intrinsic.")
    if _legal_fma(dot, family):
        return False
    elements = [_element(v) for v in (dot.a, dot.b, dot.c, dot.d)]
    widest = max([8] + [_bits(e) for e in elements])
    if widest > 32:
        raise PassFailure(dot, f"{PASS}: {widest}-bit dot operands are not supported")
    common = f16 if widest <= 16 else f32
    if common == f16 and any(isinstance(e, BFloat16Type) or (_is_int(e) and _bits(e) > 8)
                             for e in elements):
        common = f32
    old = dot.d.type
    a, b, c = (_fma_cast(dot, v, common) for v in (dot.a, dot.b, dot.c))
    new_dot = DotOp(a, b, c, INPUT_PRECISION.value_of(dot.properties["inputPrecision"]),
                    dot.properties["maxNumImpreciseAcc"].value.data)
    result = insert_before(dot, new_dot, dot.location)
    back = _fma_cast(dot, result, old.get_element_type())
    dot.d.replace_all_uses_with(back)
    Rewriter.erase_op(dot)
    emit_remark(new_dot, "Attempting to map dot operation to FMA intrinsic.")
    return True


def _fma_cast(anchor: Operation, value: SSAValue, element: Attribute) -> SSAValue:
    """FMA legalization casts: float to float rounds to nearest even."""
    source = _element(value)
    if source == element:
        return value
    ty = TensorType(element, value.type.get_shape(), value.type.encoding)
    if _is_int(source):
        op = SIToFPOp(value, ty)
    elif _is_int(element):
        op = FPToSIOp(value, ty)
    else:
        op = FpToFpOp(value, ty, "rtne")
    return insert_before(anchor, op, anchor.location)


# ---------------------------------------------------------------- mixed types


def decompose_mixed_mode(module: Operation) -> None:
    """Promote the operands of matrix-core dots whose A and B types differ: to f16 (MFMA,
    under 16 bits) or f32 (MFMA), to the wider of the two (WMMA). 8-bit MFMA pairs (fp8
    of two kinds) are taken as they are."""
    for dot in [op for op in module.walk() if isinstance(op, DotOp)]:
        a, b = _element(dot.a), _element(dot.b)
        layout = dot.d.type.encoding
        if a == b:
            continue
        if isinstance(layout, AMDMfmaEncodingAttr):
            widest = max(_bits(a), _bits(b))
            if widest == 8:
                continue
            promoted = f16 if widest < 16 else f32
        elif isinstance(layout, AMDWmmaEncodingAttr):
            promoted = a if _bits(a) > _bits(b) else b
        else:
            continue
        promote_operands(dot, promoted)


@register_pass
class AMDAccelerateMatmul(Pass):
    """Give tt.dot ops AMD matrix-core layouts: MFMA (#ttg.amd_mfma) on CDNA, WMMA
    (#ttg.amd_wmma) on RDNA3/4; legalize the types of the dots left on FMA."""

    name = PASS

    arch_generation_name: str = option(
        "", "gfx arch name (empty: from the module's ttg.target)", name="arch-generation-name")
    matrix_instruction_size: int = option(
        0, "MFMA M/N size to force (16 or 32; 0: chosen per dot)",
        name="matrix-instruction-size")
    k_pack: int = option(1, "MFMA K elements per lane read at once, in instructions (1 or 2)",
                         name="kPack")

    def apply(self, ctx: Context, op: Operation) -> None:
        arch = self.arch_generation_name or module_arch(op)
        size, k_pack = self.matrix_instruction_size, self.k_pack
        if size not in (0, 16, 32):
            raise PassFailure(op, f"{PASS}: matrix-instruction-size {size} is not supported "
                                  "(0, 16 or 32)")
        if k_pack not in (1, 2):
            raise PassFailure(op, f"{PASS}: kPack must be 1 or 2, got {k_pack}")
        family = isa_family(arch)
        mfma, wmma = mfma_version(family), wmma_version(family)
        dots = [o for o in op.walk() if isinstance(o, DotOp)]
        for dot in reversed(dots):  # the greedy driver's worklist: the last op first
            if not isinstance(dot.d.type.encoding, BlockedEncodingAttr):
                continue
            if mfma and blocked_to_mfma(dot, mfma, size, k_pack):
                continue
            if wmma and blocked_to_wmma(dot, wmma):
                continue
            legalize_fma(dot, family)
        decompose_mixed_mode(op)
        # What MLIR's greedy driver does besides the patterns: fold every op (the cast of
        # a constant accumulator becomes a constant), drop dead ops, merge and hoist
        # constants.
        apply_greedily(ctx, op, [])
