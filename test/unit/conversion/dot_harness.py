"""Run the lowering's ``tt.dot`` pattern on its own and evaluate it for every thread.

The pattern is called on a ``tt.dot`` parsed from text, with each operand register a
block argument; the emitted ops are then evaluated for each thread of the block, with the
registers filled from random matrices through the operands' linear layouts, and every
result register must hold ``(A @ B + C)`` at its element. ``warp_op`` evaluates an op the
plain evaluator cannot (inline asm that needs the whole warp, such as ``mma.sync``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from xdsl.ir import Block, Operation, SSAValue

from tileopt.conversion.llvm_builder import LLVMBuilder
from tileopt.conversion.target_hooks import TargetHooks
from tileopt.conversion.triton_gpu_to_llvm import dot as _registers_tt_dot  # noqa: F401
from tileopt.conversion.triton_gpu_to_llvm.lowering import PATTERNS, LoweringError
from tileopt.conversion.type_converter import TensorLayouts, convert_scalar_type, element_type
from tileopt.ir import parse_module

from .llvm_eval import MASK32

MODULE = """
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @dot(%a: {a}, %b: {b}, %c: {c}) {{
    %d = tt.dot %a, %b, %c, inputPrecision = {precision} : {a} * {b} -> {c}
    tt.return
  }}
}}
"""


class DotLowering:
    """What the ``tt.dot`` pattern reads of a ``FunctionLowering``."""

    def __init__(self, hooks: TargetHooks, block: Block):
        self.hooks = hooks
        self.b = LLVMBuilder(block)
        self.layouts = TensorLayouts()
        self.values: dict[SSAValue, list[SSAValue]] = {}

    def get(self, value):
        return self.values[value]

    def set(self, value, values):
        assert len(values) == self.layouts.num_registers(value.type)
        self.values[value] = list(values)

    def llvm_type(self, ty):
        return convert_scalar_type(element_type(ty))

    def error(self, op, message):
        return LoweringError(op, message)


def lower_dot(hooks: TargetHooks, a: str, b: str, c: str, warps: int = 4,
              precision: str = "ieee", prelude: str = ""):
    """(dot op, lowering, block) for a dot of the given tensor types."""
    module = parse_module(prelude + MODULE.format(a=a, b=b, c=c, warps=warps,
                                                   precision=precision))
    func = next(op for op in module.walk() if op.name == "tt.func")
    dot = next(op for op in func.walk() if op.name == "tt.dot")
    layouts = TensorLayouts()
    types = []
    for operand in dot.operands:
        ty = convert_scalar_type(element_type(operand.type))
        types += [ty] * layouts.num_registers(operand.type)
    block = Block(arg_types=types)
    fl = DotLowering(hooks, block)
    start = 0
    for operand in dot.operands:
        count = layouts.num_registers(operand.type)
        fl.values[operand] = list(block.args[start:start + count])
        start += count
    PATTERNS["tt.dot"](fl, dot)
    return dot, fl, block


def random_matrix(rows: int, cols: int, integer: bool, rng: random.Random):
    if integer:
        return [[rng.randrange(-8, 8) for _ in range(cols)] for _ in range(rows)]
    # Small integers in floating point: every product and sum is exact.
    return [[float(rng.randrange(-4, 5)) for _ in range(cols)] for _ in range(rows)]


def check_dot(dot: Operation, fl: DotLowering, block: Block, warps: int, integer: bool,
              evaluate_warp: Callable[[Block, list[dict]], list[dict]]) -> None:
    """Evaluate the lowered dot for every thread and compare with ``A @ B + C``."""
    rng = random.Random(1)
    shapes = [list(v.type.get_shape()) for v in dot.operands]
    (m, k), (_, n) = shapes[0], shapes[1]
    a, b, c = (random_matrix(r, q, integer, rng) for r, q in shapes)
    expected = [[sum(a[i][x] * b[x][j] for x in range(k)) + c[i][j] for j in range(n)]
                for i in range(m)]
    layouts = [fl.layouts.of(v.type) for v in (*dot.operands, dot.results[0])]
    matrices = (a, b, c)
    for warp in range(warps):
        inputs = []
        for lane in range(32):
            env = {}
            args = iter(block.args)
            for layout, matrix in zip(layouts[:3], matrices):
                for r in range(layout.in_dim_size("register")):
                    at = layout.apply({"register": r, "lane": lane, "warp": warp, "block": 0})
                    value = matrix[at["dim0"]][at["dim1"]]
                    env[next(args)] = value & MASK32 if integer else value
            inputs.append(env)
        envs = evaluate_warp(block, inputs)
        for lane, env in enumerate(envs):
            for r, value in enumerate(fl.values[dot.results[0]]):
                at = layouts[3].apply({"register": r, "lane": lane, "warp": warp, "block": 0})
                want = expected[at["dim0"]][at["dim1"]]
                assert env[value] == (want & MASK32 if integer else want), \
                    (warp, lane, r, at)


# ---------------------------------------------------------------------- lock-step evaluation

_INT_OPS = {
    "llvm.add": lambda a, b: a + b, "llvm.sub": lambda a, b: a - b, "llvm.mul": lambda a, b: a * b,
    "llvm.and": lambda a, b: a & b, "llvm.or": lambda a, b: a | b, "llvm.xor": lambda a, b: a ^ b,
    "llvm.shl": lambda a, b: a << b, "llvm.lshr": lambda a, b: a >> b,
}
_IGNORED = ("nvvm.wgmma.fence.aligned", "nvvm.wgmma.commit.group.sync.aligned",
            "nvvm.fence.proxy", "nvvm.barrier0")


def _width(ty) -> int:
    width = getattr(ty, "width", None)
    return width.data if width is not None else 64  # pointers: their integer address


def run_lockstep(block: Block, inputs: list[dict],
                 asm: Callable[[str, list[list]], list]) -> list[dict]:
    """Evaluate ``block`` for several threads in lock step: integers (unsigned, of their
    width; pointers as addresses), vectors as tuples, bitcasts as the same elements;
    ``asm(text, operands per thread)`` gives each thread's result of an inline asm."""
    envs = [dict(env) for env in inputs]
    for op in block.ops:
        result = op.results[0] if op.results else None
        if op.name == "llvm.inline_asm":
            operands = [[env[v] for v in op.operands] for env in envs]
            for env, value in zip(envs, asm(op.properties["asm_string"].data, operands)):
                env[result] = value
            continue
        if op.name in _IGNORED:
            continue
        if op.name == "nvvm.shfl.sync":  # idx (threads are envs in order, warps of 32)
            assert "idx" in str(op.properties["kind"]), op
            values = [env[op.operands[1]] for env in envs]
            for t, env in enumerate(envs):
                env[result] = values[t - t % 32 + env[op.operands[2]]]
            continue
        for env in envs:
            args = [env[v] for v in op.operands]
            if op.name == "llvm.mlir.constant":
                value = op.properties["value"]
                number = getattr(value, "value", None)
                env[result] = number.data if number is not None else value
                if isinstance(env[result], int):
                    env[result] &= (1 << _width(result.type)) - 1
            elif op.name == "llvm.mlir.undef":
                env[result] = (None,) * result.type.get_shape()[0]
            elif op.name == "llvm.insertelement":
                vector, value, index = args
                env[result] = vector[:index] + (value,) + vector[index + 1:]
            elif op.name in ("llvm.bitcast", "llvm.ptrtoint", "llvm.zext"):
                env[result] = args[0]
            elif op.name == "llvm.trunc":
                env[result] = args[0] & ((1 << _width(result.type)) - 1)
            elif op.name == "llvm.extractvalue":
                env[result] = args[0][op.properties["position"].get_values()[0]]
            elif op.name == "llvm.extractelement":
                env[result] = args[0][args[1]]
            elif op.name in _INT_OPS:
                env[result] = _INT_OPS[op.name](*args) & ((1 << _width(result.type)) - 1)
            else:
                raise AssertionError(f"the lock-step evaluator does not know '{op.name}'")
    return envs
