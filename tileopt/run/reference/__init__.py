"""An independent reference for tileopt-run: Triton IR (``.ttir``) evaluated at the tile
level with numpy, program after program, from the parsed IR alone (none of tileopt's
lowering), so what the compiled kernel computes can be compared with what the IR means.

``run_reference(text, args, grid)`` takes the arguments as ``tileopt.run.launch.run_kernel``
does (arrays for pointers, numbers for scalars) and returns the arrays after the launch.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from tileopt.dialects.tt_types import PointerType
from tileopt.ir import TileoptError, make_context, parse_module
from tileopt.run.reference import numbers as N
from tileopt.run.reference.evaluator import Evaluator
from tileopt.run.reference.memory import Memory, Pointers


@dataclass
class ReferenceResult:
    outputs: dict[int, np.ndarray]      # argument position -> its array after the launch
    touched: dict[int, int]             # argument position -> bytes up to the furthest access
    kernel: str
    grid: tuple[int, int, int]
    seconds: float


def kernel_of(module, name: str | None):
    kernels = [op for op in module.ops if op.name == "tt.func"
               and (op.sym_visibility is None or op.sym_visibility.data == "public")]
    if name is not None:
        kernels = [k for k in kernels if k.sym_name.data == name]
        if not kernels:
            raise TileoptError(f"no kernel named '{name}'")
    if len(kernels) != 1:
        raise TileoptError(f"the module defines {len(kernels)} public tt.func kernels: pick "
                           "one with --kernel")
    return kernels[0]


def _bind(func, args: list, names: list[str]):
    types = list(func.function_type.inputs.data)
    if len(args) != len(types):
        raise TileoptError(f"kernel '{func.sym_name.data}' takes {len(types)} arguments "
                           f"({', '.join(str(t) for t in types)}); got {len(args)}")
    params, arrays, positions = [], [], []
    for pos, (ty, arg) in enumerate(zip(types, args)):
        what = f"argument {pos} ({names[pos]})"
        if isinstance(ty, PointerType):
            if not isinstance(arg, np.ndarray):
                raise TileoptError(f"{what}: the kernel takes a pointer here, give a .npy array")
            arrays.append(arg)
            positions.append(pos)
            params.append(Pointers(np.asarray(len(arrays), np.int64), np.asarray(0, np.int64)))
        else:
            if isinstance(arg, np.ndarray):
                raise TileoptError(f"{what}: the kernel takes a {ty} here, give a number")
            v = np.asarray(arg)
            if N.width(ty) > 1 and np.issubdtype(N.np_dtype(ty), np.integer) and v.dtype.kind == "f":
                if not float(arg).is_integer():
                    raise TileoptError(f"{what}: the kernel takes an {ty} here, got {arg}")
                v = np.asarray(int(arg))
            params.append(N.fit(v, ty))
    return params, arrays, positions


def run_reference(text: str, args: list, grid, *, filename: str = "<input>",
                  kernel: str | None = None, arg_names: list[str] | None = None) -> ReferenceResult:
    module = parse_module(text, filename, make_context())
    func = kernel_of(module, kernel)
    grid = tuple(int(g) for g in (tuple(grid) + (1, 1, 1))[:3])
    if any(g < 1 for g in grid):
        raise TileoptError(f"grid {grid} has an empty dimension")
    names = arg_names or [f"arg{i}" for i in range(len(args))]
    params, arrays, positions = _bind(func, args, names)
    memory = Memory(arrays, [names[p] for p in positions])
    ev = Evaluator(module, memory, grid, filename)
    start = time.perf_counter()
    with np.errstate(all="ignore"):
        for z in range(grid[2]):
            for y in range(grid[1]):
                for x in range(grid[0]):
                    ev.pid = (x, y, z)
                    ev.block(func.body.blocks[0], params)
    seconds = time.perf_counter() - start
    outputs = {pos: memory.data[k].view(args[pos].dtype).reshape(args[pos].shape)
               for k, pos in enumerate(positions)}
    touched = {pos: memory.touched[k] for k, pos in enumerate(positions)}
    return ReferenceResult(outputs, touched, func.sym_name.data, grid, seconds)
