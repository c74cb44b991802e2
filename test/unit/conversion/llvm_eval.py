"""A tiny evaluator of the integer LLVM-dialect ops the lowering's index math emits.

Used by the tests to run the emitted i32 arithmetic for every thread id on the CPU and
compare with what the linear layouts say (no GPU needed). ``llvm.intr.fmuladd`` is
evaluated on Python floats (the FMA dot's arithmetic); unknown ops are an error.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i8
from xdsl.ir import Block, SSAValue

MASK32 = (1 << 32) - 1

_BINARY = {
    "llvm.add": lambda a, b: a + b,
    "llvm.sub": lambda a, b: a - b,
    "llvm.mul": lambda a, b: a * b,
    "llvm.and": lambda a, b: a & b,
    "llvm.or": lambda a, b: a | b,
    "llvm.xor": lambda a, b: a ^ b,
    "llvm.shl": lambda a, b: a << b,
    "llvm.lshr": lambda a, b: a >> b,
    "llvm.udiv": lambda a, b: a // b,
    "llvm.urem": lambda a, b: a % b,
}


def evaluate(block: Block, inputs: dict[SSAValue, int]) -> dict[SSAValue, int]:
    """Values (unsigned 32-bit) of every integer op result of ``block``, in order."""
    env = dict(inputs)
    for op in block.ops:
        if op.name == "llvm.mlir.constant":
            value = op.properties.get("value", op.attributes.get("value"))
            if isinstance(value, IntegerAttr):
                env[op.results[0]] = value.value.data & MASK32
        elif op.name in _BINARY:
            a, b = (env[v] for v in op.operands)
            env[op.results[0]] = _BINARY[op.name](a, b) & MASK32
        elif op.name == "llvm.intr.fmuladd":
            a, b, c = (env[v] for v in op.operands)
            env[op.results[0]] = a * b + c
        elif op.name == "llvm.icmp":
            continue
        elif op.name == "llvm.getelementptr" and op.properties["elem_type"] == i8:
            # Byte addressing: pointers are integers here (their base given in ``inputs``).
            ptr, index = op.operands
            env[op.results[0]] = (env[ptr] + env[index]) & MASK32
        else:
            raise AssertionError(f"the index evaluator does not know '{op.name}'")
    return env
