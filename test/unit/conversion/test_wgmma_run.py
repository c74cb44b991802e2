"""``ttng.warp_group_dot`` lowered and run on the CPU for every thread of the block.

The operands' bytes are laid out in a simulated shared memory by their ``nvmma_shared``
linear layouts (the layout ``local_alloc`` writes). The emitted ops (address arithmetic,
descriptors, warp-group offsets) are evaluated per thread; each ``wgmma.mma_async`` is
executed per warp group as the PTX ISA defines it: the descriptors must be the same in all
128 threads of the group; A and B are read through them (start address, LBO, SBO, swizzle
mode, the ISA's canonical layouts, ``wgmma.canonical_offset``) or, for A in registers,
gathered from the ISA's register fragment; C and D use the ISA's D fragment. Every
result register must hold ``A @ B + C`` at its element.
"""

from __future__ import annotations

import random
import re

import pytest
from xdsl.dialects.builtin import i32
from xdsl.ir import Block

from tileopt.conversion.indexing import HardwareIds
from tileopt.conversion.nvidia.hooks import NvidiaHooks
from tileopt.conversion.nvidia.wgmma import OperandDescriptor, canonical_offset, swizzled
from tileopt.conversion.triton_gpu_to_llvm.lowering import PATTERNS
from tileopt.conversion.type_converter import TensorLayouts, convert_scalar_type, element_type
from tileopt.dialects.layout_of import encoding_of
from tileopt.dialects.ttg_types import MemDescType
from tileopt.ir import parse_module
from tileopt.layouts.encodings import OFFSET, to_linear_layout

from .dot_harness import DotLowering, run_lockstep
from .test_indexing import ThreadIdHooks
from .test_nvidia_wgmma import _wgmma_a, _wgmma_d

MODES = {1: 128, 2: 64, 3: 32}
BASES = (0x400, 0x8000)  # byte addresses of A's and B's buffers (1024-aligned)

MODULE = """
#mma = #ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = {warps}, instrShape = [16, {n}, 16]}}>
#sa = #ttg.nvmma_shared<{{swizzlingByteWidth = {sa}, transposed = {ta}, elementBitWidth = 16}}>
#sb = #ttg.nvmma_shared<{{swizzlingByteWidth = {sb}, transposed = {tb}, elementBitWidth = 16}}>
#smem = #ttg.shared_memory
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {num_warps} : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @f(%a: {a}, %b: !ttg.memdesc<{k}x{bn}xf16, #sb, #smem>, %c: tensor<{m}x{bn}xf32, #mma>) {{
    %d = ttng.warp_group_dot %a, %b, %c {{inputPrecision = 0 : i32}} : {a} * !ttg.memdesc<{k}x{bn}xf16, #sb, #smem> -> tensor<{m}x{bn}xf32, #mma>
    tt.return
  }}
}}
"""


class _Hooks(ThreadIdHooks):
    """The NVIDIA shuffle (the warp-group index is read through one)."""

    shuffle_idx = NvidiaHooks.shuffle_idx
    _shuffle = NvidiaHooks._shuffle
    _shuffle32 = NvidiaHooks._shuffle32


class _Lowering(DotLowering):
    def __init__(self, block: Block, thread, num_warps: int):
        super().__init__(_Hooks(32, thread), block)
        self.ids = HardwareIds(self.b, self.hooks, num_warps)


def _wgmma(memory: dict[int, float]):
    """The asm handler: ``wgmma.mma_async`` per warp group, the wait as a no-op."""

    def run(asm: str, operands: list[list]) -> list:
        if "wait_group" in asm:
            return [tuple(lane) if len(lane) > 1 else lane[0] for lane in operands]
        n = int(re.search(r"m64n(\d+)k16", asm).group(1))
        groups = re.findall(r"\{([^}]*)\}", asm)
        d = len(groups[0].split(","))
        tail = asm.split("}, ", 1)[1].rstrip(";").split(", ")
        in_registers = tail[0].startswith("{")
        # imm-trans-a (shared A only) and imm-trans-b end the operand list.
        flags = [None if in_registers else int(tail[-2]), int(tail[-1])]
        out = [None] * len(operands)
        for group in range(0, len(operands), 128):
            threads = range(group, group + 128)
            descs = {tuple(operands[t][d + (4 if in_registers else 1):][:1]) for t in threads}
            assert len(descs) == 1, "descriptor B differs within a warp group"
            b = _read(memory, descs.pop()[0], flags[1], 16, n, operand=1)
            if in_registers:
                a = [[None] * 16 for _ in range(64)]
                for t in threads:
                    elements = [e for word in operands[t][d:d + 4] for e in word]
                    for i, value in enumerate(elements):
                        r, c = _wgmma_a(i, t % 32, (t // 32) % 4)
                        a[r][c] = value
            else:
                descs = {operands[t][d] for t in threads}
                assert len(descs) == 1, "descriptor A differs within a warp group"
                a = _read(memory, descs.pop(), flags[0], 64, 16, operand=0)
            c = [[None] * n for _ in range(64)]
            for t in threads:
                for i in range(d):
                    r, col = _wgmma_d(i, t % 32, (t // 32) % 4)
                    c[r][col] = operands[t][i]
            for t in threads:
                out[t] = tuple(
                    sum(a[r][x] * b[x][col] for x in range(16)) + c[r][col]
                    for r, col in (_wgmma_d(i, t % 32, (t // 32) % 4) for i in range(d)))
        return out

    return run


def _read(memory, desc: int, mn_major: int, rows: int, cols: int, operand: int):
    """The ``rows x cols`` tile a descriptor points at, read as the ISA reads it."""
    start = (desc & 0x3FFF) << 4
    lbo, sbo = ((desc >> 16) & 0x3FFF) << 4, ((desc >> 32) & 0x3FFF) << 4
    swizzle = MODES[desc >> 62]
    layout = OperandDescriptor(swizzle, bool(mn_major), lbo, sbo)
    tile = [[None] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            mn, k = (r, c) if operand == 0 else (c, r)
            tile[r][c] = memory[swizzled(start + canonical_offset(layout, mn, k, 2), swizzle)]
    return tile


CASES = [
    # (warpsPerCTA, M, N, K, A swizzle/transposed, B swizzle/transposed, A in registers)
    ((4, 1), 64, 64, 32, (64, "false"), (128, "false"), False),     # matmul_small
    ((8, 1), 128, 128, 64, (128, "false"), (128, "false"), False),  # matmul: 2 warp groups
    ((4, 1), 64, 64, 32, (128, "true"), (64, "true"), False),       # block_ptr_matmul
    ((4, 1), 64, 32, 16, (32, "false"), (64, "false"), False),
    ((4, 1), 64, 64, 64, None, (128, "false"), True),               # A from registers
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"w{c[0][0]}-{c[1]}x{c[2]}x{c[3]}"
                         f"{'-rs' if c[6] else ''}-{c[4]}-{c[5]}")
def test_warp_group_dot_computes_the_product(case):
    warps, m, n, k, sa, sb, rs = case
    num_warps = warps[0] * warps[1]
    a_type = (f"tensor<{m}x{k}xf16, #ttg.dot_op<{{opIdx = 0, parent = #mma, kWidth = 2}}>>" if rs
              else f"!ttg.memdesc<{m}x{k}xf16, #sa, #smem>")
    sa = sa or (128, "false")
    module = parse_module(MODULE.format(warps=list(warps), n=n, sa=sa[0], ta=sa[1], sb=sb[0],
                                        tb=sb[1], num_warps=num_warps, a=a_type, k=k, m=m, bn=n))
    dot = next(op for op in module.walk() if op.name == "ttng.warp_group_dot")
    layouts = TensorLayouts()
    types = [i32]
    for operand in dot.operands:
        ty = convert_scalar_type(element_type(operand.type))
        if isinstance(operand.type, MemDescType):
            types.append(ty)  # the base (its address, here an integer); offsets are 0
        else:
            types += [ty] * layouts.num_registers(operand.type)
    block = Block(arg_types=types)
    fl = _Lowering(block, block.args[0], num_warps)
    args = iter(block.args[1:])
    for operand in dot.operands:
        if isinstance(operand.type, MemDescType):
            fl.values[operand] = [next(args), fl.b.i32(0), fl.b.i32(0)]
        else:
            fl.values[operand] = [next(args) for _ in range(layouts.num_registers(operand.type))]
    PATTERNS["ttng.warp_group_dot"](fl, dot)

    rng = random.Random(5)
    matrices = [[[float(rng.randrange(-4, 5)) for _ in range(cols)] for _ in range(rows)]
                for rows, cols in ((m, k), (k, n), (m, n))]
    memory: dict[int, float] = {}
    for index, (operand, base) in enumerate(zip(dot.operands[:2], BASES)):
        if not isinstance(operand.type, MemDescType):
            continue
        layout = to_linear_layout(encoding_of(operand.type), list(operand.type.get_shape()), 16)
        for offset in range(layout.in_dim_size(OFFSET)):
            at = layout.apply({OFFSET: offset, "block": 0})
            memory[base + 2 * offset] = matrices[index][at["dim0"]][at["dim1"]]
    inputs = []
    for tid in range(num_warps * 32):
        env = {block.args[0]: tid}
        for index, (operand, base) in enumerate(zip(dot.operands, (*BASES, None))):
            values = fl.values[operand]
            if isinstance(operand.type, MemDescType):
                env[values[0]] = base
                continue
            layout = layouts.of(operand.type)
            for r, value in enumerate(values):
                at = layout.apply({"register": r, "lane": tid % 32, "warp": tid // 32, "block": 0})
                env[value] = matrices[index][at["dim0"]][at["dim1"]]
        inputs.append(env)
    envs = run_lockstep(block, inputs, _wgmma(memory))
    a, b, c = matrices
    layout = layouts.of(dot.results[0].type)
    for tid, env in enumerate(envs):
        for r, value in enumerate(fl.values[dot.results[0]]):
            at = layout.apply({"register": r, "lane": tid % 32, "warp": tid // 32, "block": 0})
            i, j = at["dim0"], at["dim1"]
            assert env[value] == sum(a[i][x] * b[x][j] for x in range(k)) + c[i][j], (tid, r)
