"""How a Triton kernel is called: its PTX entry, its parameters and its launch grid.

Triton 3.6 compiles a kernel whose signature is the corpus ``.json`` "signature" without
the constexprs, followed by parameters it adds itself (a global-scratch and a profiling
pointer). Both tileopt's and Triton's PTX are read the same way: the ``.entry`` gives the
name and the parameter types, :func:`kernel_parameters` pairs them with the signature's
values (pointers as 64-bit addresses, the added ones a scratch buffer and null), and :func:`evaluate_grid`
computes the grid from the ``.json`` "grid" expression.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path

ENTRY = re.compile(r"\.entry\s+([A-Za-z_$][\w$]*)\s*\((.*?)\)", re.S)
PARAM = re.compile(r"\.param\s+\.(\w+)")

# Triton signature type -> the PTX parameter types that may carry it.
PTX_TYPES = {
    "ptr": {"u64", "b64", "s64"},
    "i32": {"u32", "s32", "b32"},
    "i64": {"u64", "s64", "b64"},
    "fp32": {"f32", "b32"},
    "fp64": {"f64", "b64"},
    "i1": {"u8", "b8", "u32", "pred"},
}


class AbiError(ValueError):
    pass


@dataclass(frozen=True)
class PtxEntry:
    name: str
    param_types: tuple[str, ...]  # ".u64" -> "u64"
    reqntid: int | None


def parse_entry(ptx: str) -> PtxEntry:
    """The (single) kernel entry of a PTX module."""
    match = ENTRY.search(ptx)
    if match is None:
        raise AbiError("no .entry in the PTX")
    types = tuple(PARAM.findall(match.group(2)))
    tail = ptx[match.end():match.end() + 400]
    req = re.search(r"\.reqntid\s+(\d+)", tail)
    return PtxEntry(match.group(1), types, int(req.group(1)) if req else None)


@dataclass(frozen=True)
class KernelMeta:
    """What the corpus ``.json`` says about a compiled kernel."""

    name: str
    num_warps: int
    shared: int
    signature: dict[str, str]
    constexprs: dict[str, object]
    grid: str
    warp_size: int = 32
    divisible_by_16: tuple[str, ...] = ()

    @classmethod
    def load(cls, path: Path) -> KernelMeta:
        data = json.loads(Path(path).read_text())
        return cls(data["name"], int(data["num_warps"]), int(data["shared"]),
                   dict(data["signature"]), dict(data.get("constexprs", {})),
                   str(data.get("grid", "")), int(data.get("warp_size", 32)),
                   tuple(data.get("divisibility_16", ())))

    @property
    def runtime_params(self) -> list[tuple[str, str]]:
        return [(name, ty) for name, ty in self.signature.items()
                if ty != "constexpr" and name not in self.constexprs]

    @property
    def threads(self) -> int:
        return self.num_warps * self.warp_size


def _kind(sig_type: str) -> str:
    return "ptr" if sig_type.startswith("*") else sig_type


def kernel_parameters(meta: KernelMeta, entry: PtxEntry, values: dict[str, object],
                      address_of=lambda t: t, scratch: int = 0) -> list[tuple[str, object]]:
    """The launch parameters in order as (ctype, value): ``"u64"`` addresses, ``"i32"``,
    ``"f32"``... ``values`` maps signature names to tensors (``address_of`` gives their
    device address) or numbers. PTX parameters past the signature must be pointers: the
    first (Triton's global scratch, where desc_matmul's kernels write their TMA
    descriptors) gets ``scratch``, the profiler's 0. The kernel was compiled
    assuming the ``divisibility_16`` parameters are multiples of 16 (addresses: 16-byte
    aligned); values that are not would be silently miscomputed, so they are refused."""
    runtime = meta.runtime_params
    if len(entry.param_types) < len(runtime):
        raise AbiError(f"{entry.name}: the PTX takes {len(entry.param_types)} parameters, "
                       f"the signature has {len(runtime)}")
    params: list[tuple[str, object]] = []
    for (name, sig_type), ptx_type in zip(runtime, entry.param_types):
        kind = _kind(sig_type)
        allowed = PTX_TYPES.get(kind)
        if allowed is None:
            raise AbiError(f"{entry.name}: unsupported signature type {sig_type} of {name}")
        if ptx_type not in allowed:
            raise AbiError(f"{entry.name}: parameter {name} is {sig_type} but the PTX "
                           f"declares .{ptx_type}")
        if name not in values:
            raise AbiError(f"{entry.name}: no value for parameter {name}")
        value = values[name]
        if kind == "ptr":
            address = int(address_of(value))
            if name in meta.divisible_by_16 and address % 16:
                raise AbiError(f"{entry.name}: {name} must be 16-byte aligned (the kernel "
                               f"assumes it), got {address:#x}")
            params.append(("u64", address))
            continue
        if name in meta.divisible_by_16 and int(value) % 16:
            raise AbiError(f"{entry.name}: {name} must be a multiple of 16 (the kernel "
                           f"assumes it), got {value}")
        if kind in ("i32", "i1"):
            params.append(("i32", int(value)))
        elif kind == "i64":
            params.append(("i64", int(value)))
        elif kind == "fp32":
            params.append(("f32", float(value)))
        else:
            params.append(("f64", float(value)))
    for index, extra in enumerate(entry.param_types[len(runtime):]):
        if extra not in PTX_TYPES["ptr"]:
            raise AbiError(f"{entry.name}: extra parameter of type .{extra} is not a pointer")
        params.append(("u64", scratch if index == 0 else 0))
    return params


def evaluate_grid(expression: str, values: dict[str, int]) -> tuple[int, int, int]:
    """The launch grid of a ``.json`` "grid" expression such as ``cdiv(n, 1024)``,
    ``(cdiv(M,64), cdiv(N,64))`` or ``rows``: names, integers, ``cdiv``, ``*``, ``+``."""
    tree = ast.parse(expression.strip(), mode="eval")

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Tuple):
            return tuple(ev(e) for e in node.elts)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in values:
                raise AbiError(f"grid '{expression}' uses '{node.id}', which has no value")
            return int(values[node.id])
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Add, ast.FloorDiv)):
            a, b = ev(node.left), ev(node.right)
            return a * b if isinstance(node.op, ast.Mult) else a + b if isinstance(node.op, ast.Add) else a // b
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "cdiv" and len(node.args) == 2):
            a, b = ev(node.args[0]), ev(node.args[1])
            return -(-a // b)
        raise AbiError(f"grid expression '{expression}' is not understood")

    grid = ev(tree)
    if isinstance(grid, int):
        grid = (grid,)
    grid = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
    if len(grid) != 3 or min(grid) < 1:
        raise AbiError(f"grid '{expression}' gives {grid}")
    return grid
