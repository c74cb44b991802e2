"""Elementwise ops (``arith``, ``math``, Triton's casts and precise math) -> LLVM, per element.

An elementwise op on tensors applies one scalar operation to each register a thread holds
(all operands share the result's layout), and on scalars to the one value: one code path
for both. Which LLVM operation each op becomes is data, not code, in the tables below;
the few ops that are not one LLVM op (``cmpf`` predicates, ``clampf``, ``mulhiui``,
rounding casts) have a small function each. Math that vendors implement differently
(``exp`` as ``ex2.approx`` of ``x*log2(e)``, ``divf`` as ``div.full`` on NVIDIA) goes
through ``TargetHooks.math`` first, then the vendor's device library where it names a
function for the op (``math_library_symbol``: ``sin`` is ``__nv_sinf``, as MLIR's
libdevice lowering that Triton runs; NVPTX cannot select LLVM's ``sin``), and falls back
to the LLVM intrinsic; ``erf``, which LLVM has no intrinsic for, is the vendor's alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.arith import CMPF_COMPARISON_OPERATIONS, CMPI_COMPARISON_OPERATIONS
from xdsl.dialects import llvm
from xdsl.ir import Attribute, Operation, SSAValue

from tileopt.conversion.indexing import register_coordinates
from tileopt.conversion.llvm_builder import LLVMBuilder, vector_type
from tileopt.conversion.target_hooks import ModuleSymbols, TargetHooks
from tileopt.conversion.type_converter import element_type
from tileopt.dialects.tt_canonicalize import constant_value, splat_value
from tileopt.dialects.tt_types import ROUNDING_MODE
from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering, lowers

# ----------------------------------------------------------------------------- tables

INT_BINARY = {
    "arith.addi": "add", "arith.subi": "sub", "arith.muli": "mul", "arith.divsi": "sdiv",
    "arith.divui": "udiv", "arith.remsi": "srem", "arith.remui": "urem", "arith.andi": "and",
    "arith.ori": "or", "arith.xori": "xor", "arith.shli": "shl", "arith.shrsi": "ashr",
    "arith.shrui": "lshr",
}
FLOAT_BINARY = {
    "arith.addf": "fadd", "arith.subf": "fsub", "arith.mulf": "fmul", "arith.remf": "frem",
}
CASTS = {
    "arith.extf": "fpext", "arith.extsi": "sext", "arith.extui": "zext",
    "arith.trunci": "trunc", "arith.sitofp": "sitofp", "arith.uitofp": "uitofp",
    "arith.fptosi": "fptosi", "arith.fptoui": "fptoui", "arith.bitcast": "bitcast",
    "tt.bitcast": "bitcast", "tt.int_to_ptr": "inttoptr", "tt.ptr_to_int": "ptrtoint",
}
# op -> LLVM intrinsic (``llvm.intr.<name>``), with its immediate flags.
INTRINSICS: dict[str, tuple[str, dict[str, bool]]] = {
    "arith.maxnumf": ("maxnum", {}), "arith.minnumf": ("minnum", {}),
    "arith.maxsi": ("smax", {}), "arith.minsi": ("smin", {}),
    "arith.maxui": ("umax", {}), "arith.minui": ("umin", {}),
    "math.absf": ("fabs", {}), "math.absi": ("abs", {"is_int_min_poison": False}),
    "math.trunc": ("trunc", {}),
    "math.round": ("round", {}), "math.roundeven": ("roundeven", {}),
    "math.fma": ("fma", {}), "math.copysign": ("copysign", {}),
    "math.ctlz": ("ctlz", {"is_zero_poison": False}),
    "math.cttz": ("cttz", {"is_zero_poison": False}), "math.ctpop": ("ctpop", {}),
}
# op -> (name the vendor hook knows, generic fallback: an intrinsic or an LLVM float op).
VENDOR_MATH: dict[str, tuple[str, str]] = {
    "math.exp": ("exp", "intr:exp"), "math.exp2": ("exp2", "intr:exp2"),
    "math.log": ("log", "intr:log"), "math.log2": ("log2", "intr:log2"),
    "math.sqrt": ("sqrt", "intr:sqrt"), "math.rsqrt": ("rsqrt", "rsqrt:"),
    "arith.divf": ("divf", "op:fdiv"), "tt.precise_divf": ("precise_divf", "op:fdiv"),
    "tt.precise_sqrt": ("precise_sqrt", "intr:sqrt"),
    "math.sin": ("sin", "intr:sin"), "math.cos": ("cos", "intr:cos"),
    "math.tan": ("tan", "intr:tan"), "math.tanh": ("tanh", "intr:tanh"),
    "math.log10": ("log10", "intr:log10"), "math.powf": ("pow", "intr:pow"),
    "math.erf": ("erf", "none"),
    "math.floor": ("floor", "intr:floor"), "math.ceil": ("ceil", "intr:ceil"),
}
# Ops with no generic LLVM form: only the vendor lowers them (``TargetHooks.math`` or its
# device library); elsewhere they stay as they are (``scalar_lowering``).
VENDOR_ONLY = tuple(name for name, (_, fallback) in VENDOR_MATH.items() if fallback == "none")
_HALF = (Float16Type, BFloat16Type)

# ----------------------------------------------------------------------------- driver


def _elementwise(fl: FunctionLowering, op: Operation,
                 scalar: Callable[[LLVMBuilder, list[SSAValue], Attribute], SSAValue]) -> None:
    """Apply ``scalar(b, operand values, result element type)`` register by register,
    once per group of registers axis info proves equal (Triton's maybeDeduplicate)."""
    result = op.results[0]
    out_type = fl.llvm_type(result.type)
    columns = [fl.get(v) for v in op.operands]
    count = fl.layouts.num_registers(result.type)
    columns = [c if len(c) == count else c * count for c in columns]  # scalar operands
    leaders = constancy_leaders(fl, result) or range(count)
    values: list[SSAValue] = []
    for i, leader in enumerate(leaders):
        if leader != i:
            values.append(values[leader])
        else:
            values.append(scalar(fl.b, [c[i] for c in columns], out_type))
    fl.set(result, values)


def constancy_leaders(fl: FunctionLowering, value: SSAValue) -> list[int] | None:
    """For each register, the first register holding an equal element, or None if none do.

    Registers repeating an element (zero register bases) are equal; so are registers in
    one run of axis info's constancy (aligned runs of equal values along each dim), also
    where lanes or warps split a run: a thread's coordinates are its registers' XOR its
    lane and warp offsets, which keeps two coordinates in one aligned run or out of it
    (Triton's ``maybeDeduplicate`` zeroes the run's bits of the register inverse alike).
    """
    ty = value.type
    if not isinstance(ty, TensorType):
        return None
    layout = fl.layouts.of(ty)
    info = fl.axis.get(value)
    runs = []
    for d, size in enumerate(ty.get_shape()):
        c = info.constancy[d] if info is not None else 1
        runs.append(min(c & -c if c > 0 else 1, size))
    first: dict[tuple[int, ...], int] = {}
    leaders = [first.setdefault(tuple(x & ~(run - 1) for x, run in zip(c, runs)), r)
               for r, c in enumerate(register_coordinates(layout))]
    if all(leader == r for r, leader in enumerate(leaders)):
        return None
    return leaders


def _register(names, make: Callable[[str], Callable]) -> None:
    for name in names:
        fn = make(name)
        lowers(name)(lambda fl, op, fn=fn: _elementwise(fl, op, fn))


_register(INT_BINARY, lambda name: lambda b, a, t: b.int_op(INT_BINARY[name], a[0], a[1]))
_register(FLOAT_BINARY, lambda name: lambda b, a, t: b.float_op(FLOAT_BINARY[name], a[0], a[1]))
_register(CASTS, lambda name: lambda b, a, t: b.cast(CASTS[name], a[0], t))
_register(INTRINSICS, lambda name: lambda b, a, t: b.intrinsic_op(
    INTRINSICS[name][0], a, t, **INTRINSICS[name][1]))


def vendor_math(hooks: TargetHooks, symbols: ModuleSymbols | None, b: LLVMBuilder, name: str,
                args: Sequence[SSAValue], ty: Attribute) -> SSAValue | None:
    """``name`` in the vendor's form (``TargetHooks.math``), else a function of its device
    library (``math_library_symbol``; 16-bit floats through f32, as MLIR's libdevice
    lowering does), else its generic LLVM form; None when there is none."""
    hook_name, fallback = VENDOR_MATH[name]
    value = hooks.math(b, hook_name, list(args))
    if value is not None:
        return value
    if symbols is not None:
        wide = Float32Type() if isinstance(ty, _HALF) else ty
        symbol = hooks.math_library_symbol(hook_name, wide)
        if symbol is not None:
            if wide is ty:
                return hooks.library_function(b, symbols, symbol, list(args), ty)
            wide_args = [b.cast("fpext", a, wide) for a in args]
            return b.cast("fptrunc", hooks.library_function(b, symbols, symbol, wide_args, wide),
                          ty)
    kind, _, what = fallback.partition(":")
    if kind == "intr":
        return b.intrinsic_op(what, list(args), ty)
    if kind == "op":
        return b.float_op(what, args[0], args[1])
    if kind == "rsqrt":  # 1 / sqrt(x)
        return b.float_op("fdiv", b.constant(ty, 1.0), b.intrinsic_op("sqrt", list(args), ty))
    return None


def _vendor_math_op(fl: FunctionLowering, op: Operation) -> None:
    def scalar(b: LLVMBuilder, a: list[SSAValue], t: Attribute) -> SSAValue:
        value = vendor_math(fl.hooks, fl.module, b, op.name, a, t)
        if value is None:
            raise fl.error(op, f"{op.name} on {t} is not supported on this target")
        return value

    _elementwise(fl, op, scalar)


for _name in VENDOR_MATH:
    lowers(_name)(_vendor_math_op)


# ----------------------------------------------------------------------------- special cases


@lowers("arith.cmpi")
def _cmpi(fl: FunctionLowering, op: Operation) -> None:
    predicate = CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
    _elementwise(fl, op, lambda b, a, t: b.icmp(predicate, a[0], a[1]))


@lowers("arith.cmpf")
def _cmpf(fl: FunctionLowering, op: Operation) -> None:
    predicate = CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
    if predicate in ("false", "true"):
        _elementwise(fl, op, lambda b, a, t: b.i1(predicate == "true"))
        return
    _elementwise(fl, op, lambda b, a, t: b.fcmp(predicate, a[0], a[1]))


@lowers("arith.select")
def _select(fl: FunctionLowering, op: Operation) -> None:
    _elementwise(fl, op, lambda b, a, t: b.select(a[0], a[1], a[2]))


@lowers("arith.negf")
def _negf(fl: FunctionLowering, op: Operation) -> None:
    _elementwise(fl, op, lambda b, a, t: b.fneg(a[0]))


@lowers("arith.index_cast", "arith.index_castui")
def _index_cast(fl: FunctionLowering, op: Operation) -> None:
    signed = op.name == "arith.index_cast"
    _elementwise(fl, op, lambda b, a, t: b.int_cast(a[0], t, signed=signed))


@lowers("arith.truncf")
def _truncf(fl: FunctionLowering, op: Operation) -> None:
    _elementwise(fl, op, lambda b, a, t: b.cast("fptrunc", a[0], t))


@lowers("tt.fp_to_fp")
def _fp_to_fp(fl: FunctionLowering, op: Operation) -> None:
    """Between f16, bf16 and f32 (round to nearest even) LLVM's casts; 8-bit floats and
    round-toward-zero are the vendor's (``TargetHooks.convert_float``)."""
    src = element_type(op.operands[0].type)
    dst = element_type(op.results[0].type)
    rounding = op.properties.get("rounding")
    mode = None if rounding is None else str(ROUNDING_MODE.value_of(rounding))
    plain = (Float16Type, BFloat16Type, Float32Type, Float64Type)
    if isinstance(src, plain) and isinstance(dst, plain) and mode != "rtz":
        cast = "fpext" if src.bitwidth < dst.bitwidth else "fptrunc"
        _elementwise(fl, op, lambda b, a, t: b.cast(cast, a[0], t))
        return

    def convert(b: LLVMBuilder, a: list[SSAValue], t: Attribute) -> SSAValue:
        value = fl.hooks.convert_float(b, a[0], src, dst, mode)
        if value is None:
            raise fl.error(op, f"tt.fp_to_fp from {src} to {dst}"
                               f"{' (rtz)' if mode == 'rtz' else ''} is not supported on "
                               "this target")
        return value

    _elementwise(fl, op, convert)


def _nan_if_any(b: LLVMBuilder, args: Sequence[SSAValue], t: Attribute,
                make: Callable[[], SSAValue]) -> SSAValue:
    """``make()``, or NaN where one of ``args`` is NaN: Triton's emulation of NaN
    propagation on targets without ``llvm.minimum`` (the tests first, in its order)."""
    is_nan = b.fcmp("une", args[0], args[0])
    for arg in args[1:]:
        is_nan = b.int_op("or", is_nan, b.fcmp("une", arg, arg))
    value = make()
    return b.select(is_nan, b.constant(t, math.nan), value)


@lowers("arith.minimumf", "arith.maximumf")
def _minimum_maximum(fl: FunctionLowering, op: Operation) -> None:
    kind = "minimum" if op.name == "arith.minimumf" else "maximum"

    def min_max(b: LLVMBuilder, a: list[SSAValue], t: Attribute) -> SSAValue:
        if fl.hooks.supports_maximum_minimum:
            return b.intrinsic_op(kind, a, t)
        return _nan_if_any(b, a, t, lambda: b.intrinsic_op(kind[:3] + "num", a, t))

    _elementwise(fl, op, min_max)


@lowers("tt.clampf")
def _clampf(fl: FunctionLowering, op: Operation) -> None:
    """max(x, lo) then min(that, hi), as Triton orders them (a NaN ``x`` gives ``lo``
    without NaN propagation); ``clamp(x, -limit, limit)`` in the forms Triton recognises
    goes to the target's one instruction for it where there is one."""
    propagate = op.propagateNan.value.data != 0
    lo_name, hi_name = ("maximum", "minimum") if propagate else ("maxnum", "minnum")
    symmetric = _symmetric_clamp(op)

    def clamp(b: LLVMBuilder, a: list[SSAValue], t: Attribute) -> SSAValue:
        if symmetric:
            value = fl.hooks.clamp_magnitude(b, a[0], a[2], propagate)
            if value is not None:
                return value
        if propagate and not fl.hooks.supports_maximum_minimum:
            return _nan_if_any(b, a[:1], t, lambda: b.intrinsic_op(
                "minnum", [b.intrinsic_op("maxnum", a[:2], t), a[2]], t))
        lower = b.intrinsic_op(lo_name, [a[0], a[1]], t)
        return b.intrinsic_op(hi_name, [lower, a[2]], t)

    _elementwise(fl, op, clamp)


def _symmetric_clamp(op: Operation) -> bool:
    """Triton's two forms of ``clamp(x, -limit, limit)``: ``lo = 0 - hi`` with a splat
    0 constant, or splat constants ``lo == -hi``."""
    lo, hi = op.operands[1], op.operands[2]
    if getattr(lo.owner, "name", "") == "arith.subf":
        return lo.owner.operands[1] is hi and \
            splat_value(constant_value(lo.owner.operands[0])) == 0.0
    lo_value, hi_value = splat_value(constant_value(lo)), splat_value(constant_value(hi))
    return lo_value is not None and hi_value is not None and lo_value == -hi_value


@lowers("tt.mulhiui")
def _mulhiui(fl: FunctionLowering, op: Operation) -> None:
    def mulhi(b: LLVMBuilder, a: list[SSAValue], t: Attribute) -> SSAValue:
        width = t.width.data
        wide = IntegerType(2 * width)
        product = b.mul(b.int_cast(a[0], wide, signed=False), b.int_cast(a[1], wide, signed=False))
        return b.int_cast(b.lshr(product, b.constant(wide, width)), t)

    _elementwise(fl, op, mulhi)


@lowers("tt.extern_elementwise")
def _extern_elementwise(fl: FunctionLowering, op: Operation) -> None:
    """A function of the vendor's device library per register (``TargetHooks.library_function``:
    the vendor's inline form where it has one, else a call the back end links). Axis info
    knows nothing of the result, so every register gets its own call, pure or not."""
    symbol = op.symbol.data
    _elementwise(fl, op, lambda b, a, t: fl.hooks.library_function(b, fl.module, symbol, a, t))


@lowers("tt.elementwise_inline_asm")
def _inline_asm(fl: FunctionLowering, op: Operation) -> None:
    """The user's assembly once per ``packed_element`` consecutive registers: with a pack
    of N > 1 each operand and result is a ``vector<N x T>`` (so four i8 share one 32-bit
    register), as Triton lowers it; several results come back as a struct. Impure asm
    keeps its side effects."""
    b = fl.b
    pack = op.packed_element.value.data
    count = fl.layouts.num_registers(op.results[0].type)
    if count % pack:
        raise fl.error(op, f"{count} registers per thread cannot be packed by {pack}")
    args = [fl.get(v) for v in op.operands]
    args = [a if len(a) == count else a * count for a in args]  # scalar operands
    elem_types = [fl.llvm_type(r.type) for r in op.results]
    piece_types = [t if pack == 1 else vector_type(t, pack) for t in elem_types]
    asm_type = piece_types[0] if len(piece_types) == 1 else \
        llvm.LLVMStructType.from_type_list(piece_types)
    outputs: list[list[SSAValue]] = [[] for _ in op.results]
    for start in range(0, count, pack):
        operands = [a[start] if pack == 1 else b.pack_vector(a[start:start + pack])
                    for a in args]
        value = b.inline_asm(op.asm_string.data, op.constraints.data, operands, asm_type,
                             side_effects=op.pure.value.data == 0)
        for i, ty in enumerate(piece_types):
            piece = value if len(piece_types) == 1 else b.extract_value(value, i, ty)
            outputs[i] += [piece] if pack == 1 else b.unpack_vector(piece)
    for result, values in zip(op.results, outputs):
        fl.set(result, values)


# ----------------------------------------------------------------------------- constants


def _scalar_constant(b: LLVMBuilder, value, ty: Attribute) -> SSAValue:
    if isinstance(value, bool):
        value = int(value)
    return b.constant(ty, value)


@lowers("arith.constant")
def _constant(fl: FunctionLowering, op: Operation) -> None:
    result = op.results[0]
    attr = op.properties.get("value")
    if attr is None:
        attr = op.attributes.get("value")
    ty = fl.llvm_type(result.type)
    if isinstance(attr, (IntegerAttr, FloatAttr)):
        fl.set(result, [_scalar_constant(fl.b, attr.value.data, ty)])
        return
    if not isinstance(attr, DenseIntOrFPElementsAttr) or not isinstance(result.type, TensorType):
        raise fl.error(op, f"constant {attr} is not supported")
    values = list(attr.get_values())
    count = fl.layouts.num_registers(result.type)
    # (count compares in C; a NaN first value is no splat, as NaN != NaN)
    if len(values) == 1 or (values[0] == values[0] and values.count(values[0]) == len(values)):
        fl.set(result, [_scalar_constant(fl.b, values[0], ty)] * count)
        return
    # A non-splat constant: each register is the element at its coordinates, chosen by
    # the thread's lane/warp at run time unless the layout keeps it within registers.
    raise fl.error(op, "non-splat tensor constants are not supported yet")


__all__ = ["INT_BINARY", "FLOAT_BINARY", "CASTS", "INTRINSICS", "VENDOR_MATH", "VENDOR_ONLY",
           "vendor_math"]
