"""``convert-arith-to-llvm``, ``convert-math-to-llvm``: scalar ``arith``/``math`` ops -> ``llvm``.

The passes (MLIR's names) turn scalar ops that sit in LLVM-dialect functions into LLVM
ops in place. They reuse the elementwise patterns of ``triton_gpu_to_llvm/elementwise.py``
through a small adapter that looks like a ``FunctionLowering`` holding one value per SSA
value, so each op maps to exactly the LLVM ops ``convert-triton-gpu-to-llvm`` gives it,
with the generic (vendor-neutral) math; ops only a vendor can lower (``math.erf``) stay,
as MLIR's passes leave them. tileopt's main lowering already converts the scalars of
TritonGPU functions itself, so in tileopt's pipelines these passes find nothing; they
serve other input.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IndexType, TensorType, VectorType
from xdsl.ir import Attribute, Operation, SSAValue

from tileopt.conversion.llvm_builder import LLVMBuilder
from tileopt.conversion.triton_gpu_to_llvm.elementwise import VENDOR_ONLY
from tileopt.conversion.triton_gpu_to_llvm.lowering import PATTERNS
from tileopt.conversion.type_converter import convert_scalar_type
from tileopt.ir.walks import ops_in_walk_order
from tileopt.passes import Pass, PassFailure, option, register_pass


class InPlaceBuilder(LLVMBuilder):
    """Inserts every op, constants too, right before one op."""

    def __init__(self, before: Operation):
        super().__init__(before.parent)
        self.before = before
        self.location = before.location

    def insert(self, op: Operation) -> Operation:
        op.location = self.location
        self.block.insert_op_before(op, self.before)
        return op

    def insert_in_prologue(self, op: Operation) -> Operation:
        return self.insert(op)


class _NoVendorHooks:
    def math(self, b, name, args):
        return None

    def math_library_symbol(self, name, ty):
        return None


class _ScalarLayouts:
    @staticmethod
    def num_registers(ty: Attribute) -> int:
        return 1


class ScalarLowering:
    """Enough of ``FunctionLowering`` for the elementwise patterns on one scalar op."""

    layouts = _ScalarLayouts()
    hooks = _NoVendorHooks()
    axis = None
    module = None  # no module symbols: nothing is declared

    def __init__(self, op: Operation):
        self.b = InPlaceBuilder(op)
        self.op = op

    def get(self, value: SSAValue) -> list[SSAValue]:
        return [value]

    def scalar(self, value: SSAValue) -> SSAValue:
        return value

    def set(self, result: SSAValue, values: list[SSAValue]) -> None:
        [value] = values
        result.replace_all_uses_with(value)

    def llvm_type(self, ty: Attribute) -> Attribute:
        return convert_scalar_type(ty)

    def error(self, op: Operation, message: str) -> PassFailure:
        return PassFailure(op, message)


def _scalar_only(op: Operation) -> bool:
    types = [v.type for v in (*op.operands, *op.results)]
    return not any(isinstance(t, (TensorType, VectorType, IndexType)) for t in types)


def lower_scalar_ops(root: Operation, prefixes: tuple[str, ...]) -> None:
    """Replace each scalar op whose name starts with one of ``prefixes`` by LLVM ops."""
    for op in ops_in_walk_order(root):
        if not op.name.startswith(prefixes) or not _scalar_only(op) or op.name in VENDOR_ONLY:
            continue
        if op.parent_op() is not None and op.parent_op().name == "tt.func":
            continue  # TritonGPU functions are convert-triton-gpu-to-llvm's
        pattern = PATTERNS.get(op.name)
        if pattern is None:
            continue
        pattern(ScalarLowering(op), op)
        op.detach()
        op.erase()


@dataclass(frozen=True)
class _ScalarLoweringPass(Pass):
    """Lowers the scalar ops of one dialect (``prefix``) wherever they are nested."""

    anchor = None
    prefix: ClassVar[str]

    def apply(self, ctx: Context, op: Operation) -> None:
        lower_scalar_ops(op, (self.prefix,))


@register_pass
class ConvertArithToLLVM(_ScalarLoweringPass):
    """Convert scalar arith ops to the LLVM dialect."""

    name = "convert-arith-to-llvm"
    prefix = "arith."
    index_bitwidth: int = option(0, "bit width of index values (0: the data layout's; "
                                 "accepted: index is 32 bits on the GPU targets)")


@register_pass
class ConvertMathToLLVM(_ScalarLoweringPass):
    """Convert scalar math ops to LLVM intrinsics."""

    name = "convert-math-to-llvm"
    prefix = "math."
