"""The Triton ``tt`` dialect: tile-level ops, read and printed in Triton 3.6's own syntax.

Every op here mirrors one in Triton's ``include/triton/Dialect/Triton/IR/TritonOps.td``:
same name, same operands, same properties (Triton 3.6 stores inherent attributes as MLIR
properties, so the generic form shows them in ``<{...}>``), same custom assembly. Where
xDSL's declarative ``assembly_format`` can say what Triton's says it is used; Triton's
``oilist`` clauses, enum keywords (``acq_rel``), stripped block-pointer types
(``: <tensor<64x32xf16>>``) and ``tt.func`` need hand-written ``parse``/``print``.
``tt.reduce`` and ``tt.scan`` have no custom form in Triton and print generically here too.

Verifiers follow Triton's (``lib/Dialect/Triton/IR/Ops.cpp`` and the ODS type constraints)
with messages meant for people. Side effects are declared so that generic CSE/DCE/LICM can
never drop or move a store, an atomic, a print or a volatile load.
Canonicalization patterns and folders live in ``tileopt/dialects/tt_canonicalize.py``.

One module per family of ops: ``functions`` (func, return, call, program ids), ``shapes``
(make_range, splat, broadcast, expand_dims, reshape, trans, join, split, cat, gather,
histogram), ``pointers`` (addptr, advance, make_tensor_ptr), ``memory`` (load, store,
atomics, descriptor load/store), ``compute`` (casts, elementwise math, extern_elementwise,
inline asm, dot, dot_scaled, reduce, scan, print, assert); ``common`` holds what several
families share. This package defines the dialect and re-exports every op, so ``tt.LoadOp``
works wherever ``from tileopt.dialects import tt`` does.
"""

from __future__ import annotations

from xdsl.dialect_interfaces.constant_materialization import ConstantMaterializationInterface
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.irdl import IRDLOperation

from tileopt.dialects.canonicalization import attach_on_first_use
from tileopt.dialects.tt_types import PointerType, TensorDescType

# Every op and trait, by family: ``tt.<Name>`` is the way the rest of tileopt names them.
from tileopt.dialects.tt.common import MAX_TENSOR_NUMEL, TensorSizeTrait
from tileopt.dialects.tt.functions import (
    FuncOp, ReturnOp, CallOp, GetProgramIdOp, GetNumProgramsOp,
)
from tileopt.dialects.tt.shapes import (
    MakeRangeOp, SplatOp, UnsplatOp, BroadcastOp, ExpandDimsOp, ReshapeOp, TransOp, JoinOp,
    SplitOp, CatOp, GatherOp, HistogramOp,
)
from tileopt.dialects.tt.pointers import AddPtrOp, AdvanceOp, MakeTensorPtrOp
from tileopt.dialects.tt.memory import (
    LoadEffects, LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp, DescriptorLoadOp,
    DescriptorStoreOp, MakeTensorDescOp,
)
from tileopt.dialects.tt.compute import (
    IntToPtrOp, PtrToIntOp, BitcastOp, FpToFpOp, PreciseSqrtOp, PreciseDivFOp, MulhiUIOp,
    ClampFOp, PureUnlessImpure, SpeculatableIfPure, ExternElementwiseOp,
    ElementwiseInlineAsmOp, DotOp, DotScaledOp, ReduceOp, ReduceReturnOp, ScanOp, ScanReturnOp,
    PrintOp, AssertOp,
)


# ---------------------------------------------------------------------------------------
# Constant materialization (folders produce attributes; arith.constant holds them)
# ---------------------------------------------------------------------------------------


class TTConstantMaterialization(ConstantMaterializationInterface):
    """Folded tt ops become ``arith.constant``, as in Triton (which uses arith constants)."""

    def materialize_constant(self, value: Attribute, type: Attribute) -> Operation | None:
        from xdsl.dialects.arith import ConstantOp

        if isinstance(value, (DenseIntOrFPElementsAttr, IntegerAttr, FloatAttr)):
            return ConstantOp(value, type)  # type: ignore[arg-type]
        return None


TT_OPS: list[type[IRDLOperation]] = [
    FuncOp,
    ReturnOp,
    CallOp,
    GetProgramIdOp,
    GetNumProgramsOp,
    MakeRangeOp,
    SplatOp,
    UnsplatOp,
    BroadcastOp,
    ExpandDimsOp,
    ReshapeOp,
    TransOp,
    AddPtrOp,
    AdvanceOp,
    MakeTensorPtrOp,
    LoadOp,
    StoreOp,
    IntToPtrOp,
    PtrToIntOp,
    BitcastOp,
    FpToFpOp,
    PreciseSqrtOp,
    PreciseDivFOp,
    MulhiUIOp,
    ClampFOp,
    DotOp,
    DotScaledOp,
    ReduceOp,
    ReduceReturnOp,
    ScanOp,
    ScanReturnOp,
    AtomicRMWOp,
    AtomicCASOp,
    JoinOp,
    SplitOp,
    CatOp,
    GatherOp,
    HistogramOp,
    ExternElementwiseOp,
    ElementwiseInlineAsmOp,
    PrintOp,
    AssertOp,
    DescriptorLoadOp,
    DescriptorStoreOp,
    MakeTensorDescOp,
]

for _op in TT_OPS:
    _op.traits.add_trait(TensorSizeTrait())

TT = Dialect(
    "tt",
    TT_OPS,
    [PointerType, TensorDescType],
    [TTConstantMaterialization()],
)
# Triton's folders and canonicalization patterns: imported at the first lookup, so that
# every use of the ops (tileopt's context or a Context of one's own) sees them.
attach_on_first_use(TT, "tileopt.dialects.tt_canonicalize")
