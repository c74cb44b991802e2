"""``tt.print`` and ``tt.assert``: device-side printf and assertion failure.

As Triton's ``PrintOpToLLVM``/``AssertOpToLLVM``: every thread prints each element it holds,
one line per element, ``pid (x, y, z) idx (i, j)<prefix><value>`` (``(operand n)`` before
the value when several tensors are printed), through ``TargetHooks.printf`` with the
arguments promoted as C promotes variadic ones (floats to double, small integers to 32
bits). An assertion whose condition is false in any element a thread holds calls
``TargetHooks.assert_fail`` with the message and the op's source location; the kernel
then stops with an error. After a tensor assertion every thread waits at a barrier.
"""

from __future__ import annotations

import math

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    TensorType,
    i32,
)
from xdsl.ir import Operation, SSAValue

from tileopt.conversion.indexing import element_coordinates
from tileopt.conversion.llvm_builder import LLVMBuilder
from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers


def _format(value: SSAValue, hex_: bool, signed: bool, width: int | None = None) -> str:
    ty = value.type
    if isinstance(ty, llvm.LLVMPointerType):
        return "%p"
    bits = ty.width.data if isinstance(ty, IntegerType) else ty.bitwidth
    if hex_:
        return f"0x%0{bits // 4}{'ll' if bits > 32 else ''}x"
    pad = str(width) if width else ""
    if isinstance(ty, (Float16Type, BFloat16Type, Float32Type, Float64Type)):
        return f"%{pad}f"
    return f"%{pad}{'ll' if bits == 64 else ''}{'i' if signed else 'u'}"


def _printf_argument(b: LLVMBuilder, value: SSAValue, signed: bool) -> SSAValue:
    """C's default argument promotions: floats to double, integers below 32 bits to i32."""
    ty = value.type
    if isinstance(ty, (Float16Type, BFloat16Type, Float32Type)):
        return b.cast("fpext", value, Float64Type())
    if isinstance(ty, IntegerType) and ty.width.data < 32:
        return b.int_cast(value, i32, signed=signed and ty.width.data > 1)
    return value


@lowers("tt.print")
def _print(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    prefix = fl.module.string(b, "printfPrefix_", op.prefix.data)
    pids = [fl.hooks.program_id(b, axis) for axis in range(3)]
    hex_ = bool(op.hex.value.data)
    signed_flags = [bool(v) for v in op.isSigned.get_values()]
    if not op.args:
        fl.hooks.printf(b, fl.module, "pid (%u, %u, %u)%s\n", [*pids, prefix])
        return
    for operand, (value, signed) in enumerate(zip(op.args, signed_flags)):
        ty = value.type
        elements = fl.get(value)
        if isinstance(ty, TensorType):
            indices = [list(c) for c in element_coordinates(b, fl.ids, fl.layouts.of(ty))]
            widths = [max(1, math.ceil(math.log10(s))) if s > 1 else 1 for s in ty.get_shape()]
        else:
            indices, widths = [[]], []
        for element, index in zip(elements, indices):
            text = "pid (%u, %u, %u) idx ("
            text += ", ".join(f"%{w}u" for w in widths) + ")%s"
            if len(op.args) > 1:
                text += f"(operand {operand}) "
            text += _format(element, hex_, signed) + "\n"
            fl.hooks.printf(b, fl.module, text,
                            [*pids, *index, prefix, _printf_argument(b, element, signed)])


@lowers("tt.assert")
def _assert(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    conditions = fl.get(op.condition)
    failed = None
    for cond in conditions:
        bad = b.icmp("eq", cond, b.i1(False))
        failed = bad if failed is None else b.or_(failed, bad)
    file, line = _source_position(op)
    func_name = fl.func.properties["sym_name"].data
    with b.guarded(failed):
        fl.hooks.assert_fail(b, fl.module, op.message.data, file, line, func_name)
    if isinstance(op.condition.type, TensorType):
        # As Triton: the next op may hold the tensor in another layout (other threads'
        # elements), so every thread finishes the check first.
        fl.hooks.barrier(b)


def _source_position(op: Operation) -> tuple[str, int]:
    """(file, line) of ``op``'s location, looking through names and call sites."""
    loc = op.location
    for _ in range(8):
        filename = getattr(loc, "filename", None)
        if filename is not None:
            line = getattr(loc, "line", None)
            return filename.data, getattr(line, "data", 0) if line is not None else 0
        inner = getattr(loc, "child_loc", None) or getattr(loc, "callee", None)
        if inner is None:
            break
        loc = inner
    return "unknown", 0


