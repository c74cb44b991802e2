"""Arguments for the pinned Inductor kernels (test/inputs/inductor) at small, ragged sizes,
and the comparison of a compiled run with the TTIR reference (tileopt.run.reference).

Sizes come from the signature as Inductor names it: ``xnumel``/``ynumel`` (and the ``n`` of
the hand-written kernels) cover the program's block (the constant the program id is
multiplied by) one and a half times, so there are two programs and the last is ragged;
``r0_numel`` is one and a half reduction blocks where the kernel loops over it (two
iterations, the last ragged) and three quarters of it where the reduction is persistent.
A ``tt.divisibility = 16`` argument gets a multiple of 16. Buffers start large, filled with
random data (integers small and non-negative, so indices read from memory stay in range),
and are cut to what the reference run touched: the compiled kernel then has exactly the
bytes the IR reads, and an access past them is its out-of-bounds error.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import IntegerAttr

from tileopt.dialects.tt_types import PointerType
from tileopt.driver.ir_io import render
from tileopt.driver.pass_manager import PassManager
from tileopt.ir import make_context, parse_module
from tileopt.pipelines import resolve_pass_pipeline
from tileopt.run.reference import kernel_of, numbers as N, run_reference

# Elements of each pointer argument before the reference run cuts it; GEMM templates have
# their matrix sizes baked in (Inductor's 768 x 3072 bf16 weight is 2.4M elements).
FIRST_ELEMENTS = 1 << 20
TEMPLATE_ELEMENTS = 1 << 22
SEED_VALUE = 1234


def kind_of(name: str) -> str:
    for prefix, kind in (("triton_poi", "pointwise"), ("triton_red", "reduction"),
                         ("triton_per", "persistent"), ("triton_tem", "template"),
                         ("triton_mm", "template"), ("triton_bmm", "template")):
        if name.startswith(prefix):
            return kind
    return "hand"


def _round(n: int, multiple: int) -> int:
    return max(multiple, -(-n // multiple) * multiple)


def _block_of_pid(func, axis: str) -> int | None:
    """The constant the program id along ``axis`` is multiplied by (the block), 1 where it
    is used as is, None where there is none."""
    for op in func.walk():
        if op.name == "tt.get_program_id" and "xyz"[op.axis.value.data] == axis:
            for use in op.results[0].uses:
                user = use.operation
                if user.name == "arith.muli":
                    other = user.operands[1 - use.index].owner
                    if getattr(other, "name", "") == "arith.constant" and \
                            isinstance(other.properties["value"], IntegerAttr):
                        return other.properties["value"].value.data
            return 1
    return None


def _reduction_block(func) -> int:
    sizes = [op.results[0].type.get_shape()[0] for op in func.walk()
             if op.name == "tt.make_range" and (op.results[0].name_hint or "").startswith("r0")]
    return max(sizes, default=1)


@dataclass
class KernelCase:
    name: str
    kind: str
    ttir: str
    pipeline: str
    args: list
    grid: tuple
    names: list[str]
    float_ops: int
    filename: str


def _scalars(func, text: str):
    """Each scalar argument's value and the grid."""
    names = [a.name_hint or f"arg{i}" for i, a in enumerate(func.body.blocks[0].args)]
    attrs = func.arg_attrs.data if func.arg_attrs else [None] * len(names)
    looped = any(op.name == "scf.for" for op in func.walk())
    blocks = {ax: _block_of_pid(func, ax) for ax in "xyz"}
    values, grid = {}, [2, 1, 1]
    for i, (name, attr) in enumerate(zip(names, attrs)):
        mult = 16 if attr is not None and "tt.divisibility" in attr.data else 1
        if name in ("xnumel", "ynumel", "n"):
            axis = "y" if name == "ynumel" else "x"
            block = blocks[axis] or 1
            v = _round(block + max(1, block // 2), mult)
            values[i] = v
            grid["xyz".index(axis)] = math.ceil(v / block)
        elif name == "r0_numel":
            rb = _reduction_block(func)
            values[i] = _round(rb + rb // 2 if looped else max(1, rb * 3 // 4), mult)
        elif name in ("seed",):
            values[i] = SEED_VALUE
        elif name == "load_seed_offset":
            values[i] = 0
        elif name == "stride":
            values[i] = _round(3, mult)
    if blocks["y"] is not None and "ynumel" not in names:
        grid[1] = 2
    return names, values, tuple(grid)


def _fill(ty, n: int, rng) -> np.ndarray:
    e = ty.pointee_type
    dt = N.np_dtype(e)
    if np.issubdtype(dt, np.bool_):
        return rng.integers(0, 2, n).astype(bool)
    if np.issubdtype(dt, np.integer):
        return rng.integers(0, 4, n).astype(dt)
    x = rng.standard_normal(n)
    if N.is_bf16(e):
        return N.bf16_to_bits(x.astype(np.float32))
    return x.astype(dt)


def holding(ty, array: np.ndarray) -> np.ndarray:
    """The values of a buffer of pointee ``ty`` (bf16 bits as float32)."""
    return N.bf16_from_bits(array) if N.is_bf16(ty) else array


def case_for(ttir: Path, rng=None) -> KernelCase:
    text = ttir.read_text()
    rng = rng or np.random.default_rng(0)
    module = parse_module(text, str(ttir), make_context())
    func = kernel_of(module, None)
    types = list(func.function_type.inputs.data)
    names, scalars, grid = _scalars(func, text)
    args = []
    elements = TEMPLATE_ELEMENTS if kind_of(func.sym_name.data) == "template" else FIRST_ELEMENTS
    for i, ty in enumerate(types):
        if isinstance(ty, PointerType):
            args.append(_fill(ty, elements, rng))
        elif i in scalars:
            args.append(scalars[i])
        else:
            raise ValueError(f"{ttir.name}: no size rule for argument '{names[i]}' ({ty})")
    meta = json.loads(ttir.with_suffix(".json").read_text())
    pipeline = (f"nvidia-sm90{{num-warps={meta['num_warps']} num-ctas={meta['num_ctas']} "
                f"num-stages={meta['num_stages']}}}")
    float_ops = sum(1 for op in func.walk() if op.results and op.name.split(".")[0] in
                    ("arith", "math", "tt") and
                    N.np_dtype_or_none(op.results[0].type) in (np.float16, np.float32, np.float64))
    # a dot adds K products per element
    float_ops += sum(op.operands[0].type.get_shape()[-1] for op in func.walk() if op.name == "tt.dot")
    return KernelCase(func.sym_name.data, kind_of(func.sym_name.data), text, pipeline, args,
                      grid, names, float_ops, ttir.as_posix())


def sized(case: KernelCase):
    """The reference run on the large buffers, and the arguments cut to the bytes it touched
    (at least one element): (arguments, reference outputs by position)."""
    res = run_reference(case.ttir, [a.copy() if isinstance(a, np.ndarray) else a
                                    for a in case.args], case.grid, filename=case.filename,
                        arg_names=case.names)
    args, outs = [], {}
    for pos, a in enumerate(case.args):
        if isinstance(a, np.ndarray):
            n = max(1, -(-res.touched[pos] // a.itemsize))
            if n >= a.size:
                raise ValueError(f"{case.name}: argument {case.names[pos]} needs more than "
                                 f"{a.size} elements")
            args.append(a[:n].copy())
            outs[pos] = res.outputs[pos][:n].copy()
        else:
            args.append(a)
    return args, outs


def ulps(case: KernelCase) -> int:
    """Float tolerance in f32 ulps: four per float op of the kernel (each may round
    differently, and a sum may add in another order), at least 8."""
    return max(8, 4 * case.float_ops)


def compare(case: KernelCase, types: list, got: dict, want: dict) -> None:
    """Integers and bits exact; floats within ``ulps(case)`` f32 ulps of the buffer's scale
    (the largest |value|, at least 1) plus one ulp of the stored type; NaNs where the
    reference has them."""
    for pos, w in want.items():
        ty = types[pos].pointee_type
        g = got[pos]
        what = f"{case.name}: argument {pos} ({case.names[pos]})"
        if not np.issubdtype(N.np_dtype(ty), np.floating):
            bad = np.flatnonzero(g != w)
            assert bad.size == 0, f"{what}: {bad.size} of {w.size} differ, first at " \
                f"{bad[0]}: got {g[bad[0]]}, want {w[bad[0]]}"
            continue
        gv = holding(ty, g).astype(np.float64)
        wv = holding(ty, w).astype(np.float64)
        finite = np.isfinite(wv)
        scale = max(1.0, float(np.abs(wv[finite]).max(initial=0)))
        stored = float(np.finfo(np.float16).eps) if N.np_dtype(ty) == np.float16 else \
            2.0 ** -7 if N.is_bf16(ty) else 0.0
        tol = ulps(case) * 2.0 ** -23 * scale + stored * np.abs(wv)
        same_special = (np.isnan(gv) == np.isnan(wv)) & ((gv == wv) | finite)
        close = np.where(finite, np.abs(gv - wv) <= tol, same_special)
        bad = np.flatnonzero(~close)
        assert bad.size == 0, f"{what}: {bad.size} of {w.size} differ beyond {ulps(case)} " \
            f"f32 ulps of {scale:g}, first at {bad[0]}: got {gv[bad[0]]!r}, want {wv[bad[0]]!r}"


def lower_with_options(ttir: Path, pipeline: str) -> str:
    """The LLVM-dialect text a pinned kernel becomes through the YAML pipeline ``pipeline``
    (``nvidia-sm90``, ``amd-cdna3``) with the options Triton compiled it with (its ``.json``)."""
    meta = json.loads(ttir.with_suffix(".json").read_text())
    passes = resolve_pass_pipeline(
        f"{pipeline}{{num-warps={meta['num_warps']} num-ctas={meta['num_ctas']} "
        f"num-stages={meta['num_stages']}}}")
    ctx = make_context()
    module = parse_module(ttir.read_text(), str(ttir), ctx)
    PassManager(passes, str(ttir)).run(ctx, module)
    return render(module, False)
