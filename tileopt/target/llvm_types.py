"""xDSL types of the LLVM dialect -> ``llvmlite.ir`` types.

Builtin integer/float/vector types and the ``!llvm.ptr<N>`` / ``!llvm.struct`` /
``!llvm.array`` / ``!llvm.void`` / ``!llvm.func`` types cover what Triton's lowering
produces. Pointers are opaque and keep their address space (1 global, 3 shared/LDS,
8 AMD buffer resources).
"""

from __future__ import annotations

from functools import cache

from llvmlite import ir
from xdsl.dialects import builtin, llvm
from xdsl.ir import Attribute

from tileopt.target.llvmlite_additions import BFloatType


class UnsupportedType(Exception):
    """A type with no LLVM IR counterpart; the caller turns it into a located TileoptError."""


_FLOATS: dict[type[Attribute], ir.Type] = {
    builtin.Float16Type: ir.HalfType(),
    builtin.BFloat16Type: BFloatType(),
    builtin.Float32Type: ir.FloatType(),
    builtin.Float64Type: ir.DoubleType(),
}


@cache
def convert_type(attr: Attribute) -> ir.Type:
    """The llvmlite type for an xDSL type; raises ``UnsupportedType`` otherwise."""
    if isinstance(attr, builtin.IntegerType):
        return ir.IntType(attr.width.data)
    if type(attr) in _FLOATS:
        return _FLOATS[type(attr)]
    if isinstance(attr, llvm.LLVMPointerType):
        space = attr.addr_space.data if isinstance(attr.addr_space, builtin.IntAttr) else 0
        return ir.PointerType(addrspace=space)
    if isinstance(attr, builtin.VectorType):
        if attr.get_num_scalable_dims() or attr.get_num_dims() != 1:
            raise UnsupportedType(f"only fixed one-dimensional vectors exist in LLVM IR, not {attr}")
        return ir.VectorType(convert_type(attr.element_type), attr.get_shape()[0])
    if isinstance(attr, llvm.LLVMStructType):
        return ir.LiteralStructType([convert_type(t) for t in attr.types.data])
    if isinstance(attr, llvm.LLVMArrayType):
        return ir.ArrayType(convert_type(attr.type), attr.size.data)
    if isinstance(attr, (llvm.LLVMVoidType, builtin.NoneType)):
        return ir.VoidType()
    if isinstance(attr, llvm.LLVMFunctionType):
        return ir.FunctionType(convert_type(attr.output),
                               [convert_type(t) for t in attr.inputs.data],
                               var_arg=attr.is_variadic)
    raise UnsupportedType(f"type {attr} has no LLVM IR counterpart")

