"""The tile-level evaluator: one program of a Triton IR (``.ttir``) kernel at a time, every
SSA value a numpy array of its tensor's shape (a 0-d array for a scalar), pointers as
``Pointers``. Ops follow Triton's definitions; region ops (``scf``, ``tt.reduce``,
``tt.scan``, ``tt.call``) run their regions. Nothing here comes from tileopt's lowering.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr,
                                   ModuleOp, TensorType)
from xdsl.ir import Block, Operation

from tileopt.dialects.tt_types import (INPUT_PRECISION, PROPAGATE_NAN, InputPrecision, RMW_OP, ROUNDING_MODE, PointerType,
                                       PropagateNan, RMWOp, RoundingMode)
from tileopt.ir import TileoptError, source_position
from tileopt.run.reference import numbers as N
from tileopt.run.reference.memory import Memory, OutOfBounds, Pointers


class KernelAssert(Exception):
    pass


def _prop(op: Operation, name: str):
    a = op.properties.get(name)
    return op.attributes.get(name) if a is None else a


def _int(op: Operation, name: str, default=None):
    a = _prop(op, name)
    return default if a is None else a.value.data


def _segments(op: Operation) -> list[list]:
    """The operands by ODS group (operandSegmentSizes), else one group each."""
    sizes = _prop(op, "operandSegmentSizes")
    if sizes is None:
        return [[v] for v in op.operands]
    groups, k = [], 0
    for n in sizes.get_values():
        groups.append(list(op.operands[k:k + n]))
        k += n
    return groups


def _shape_op(v, fn):
    return v.map(fn) if isinstance(v, Pointers) else fn(np.asarray(v))


def _bits(v, ty) -> np.ndarray:
    """The bit pattern of ``v`` (of type ``ty``) as unsigned integers of its width."""
    if isinstance(N.element(ty), PointerType):
        return v.address().view(np.uint64)
    if N.is_bf16(ty):
        return N.bf16_to_bits(v)
    if N.fp8_name(ty):
        raise N.Unsupported("a bitcast of fp8")
    return N.unsigned(np.asarray(v).astype(N.storage_dtype(ty)))


def _from_bits(b, ty):
    if isinstance(N.element(ty), PointerType):
        return Pointers.of_address(b.view(np.int64))
    if N.is_bf16(ty):
        return N.bf16_from_bits(b.astype(np.uint16))
    return b.view(N.storage_dtype(ty)) if b.dtype != np.bool_ else b


class Evaluator:
    def __init__(self, module: ModuleOp, memory: Memory, grid: tuple[int, int, int],
                 filename: str):
        self.memory = memory
        self.grid = grid
        self.filename = filename
        self.funcs = {op.sym_name.data: op for op in module.ops if op.name == "tt.func"}
        self.pid = (0, 0, 0)

    def error(self, op: Operation, message: str) -> TileoptError:
        pos = source_position(op)
        return TileoptError(message, *(pos or (self.filename,)))

    # -- functions and blocks ------------------------------------------------------------
    def call(self, name: str, args: list, caller: Operation | None = None):
        func = self.funcs.get(name)
        if func is None:
            raise self.error(caller, f"no function named '{name}'") if caller else \
                TileoptError(f"no function named '{name}'", self.filename)
        return self.block(func.body.blocks[0], args)

    def block(self, block: Block, args: list, env: dict | None = None):
        """Run ``block`` with its arguments bound; returns the terminator's operand values
        (and the terminator)."""
        env = dict(env or {})
        for a, v in zip(block.args, args):
            env[a] = v
        for op in block.ops:
            if op is block.last_op and op.name in TERMINATORS:
                return [env[v] for v in op.operands], op
            try:
                results = self.op(op, env)
            except TileoptError:
                raise
            except N.Unsupported as err:
                raise self.error(op, f"the reference cannot evaluate {err} ('{op.name}')")
            except OutOfBounds as err:
                raise self.error(op, f"out-of-bounds {err} in program {self.pid}")
            except KernelAssert as err:
                raise self.error(op, f"device assertion failed in program {self.pid}: {err}")
            for r, v in zip(op.results, results):
                env[r] = v
        return [], None

    def region(self, op: Operation, index: int, args: list, env: dict):
        vals, _ = self.block(op.regions[index].blocks[0], args, env)
        return vals

    # -- one op --------------------------------------------------------------------------
    def op(self, op: Operation, env: dict) -> list:
        name = op.name
        vals = [env[v] for v in op.operands]
        rty = op.results[0].type if op.results else None
        if name in N.BINARY:
            return [N.fit(N.BINARY[name](*[np.asarray(v) for v in vals]), rty)]
        if name in N.UNARY:
            return [N.fit(N.UNARY[name](np.asarray(vals[0])), rty)]
        handler = HANDLERS.get(name)
        if handler is None:
            raise self.error(op, f"the reference evaluator does not support '{name}'")
        out = handler(self, op, vals, env)
        return out if isinstance(out, list) else [out]


TERMINATORS = {"tt.return", "scf.yield", "tt.reduce.return", "tt.scan.return",
               "scf.condition"}
HANDLERS = {}


def handles(*names):
    def register(fn):
        for n in names:
            HANDLERS[n] = fn
        return fn
    return register


def _rty(op, i=0):
    return op.results[i].type


# -- constants, ids, shapes ----------------------------------------------------------------
@handles("arith.constant")
def _constant(ev, op, vals, env):
    attr, ty = op.properties["value"], _rty(op)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = attr.get_values()
        data = np.array(values[:1] if attr.is_splat() else values)
        data = np.broadcast_to(data, N.shape(ty)) if attr.is_splat() or data.size == 1 \
            else data.reshape(N.shape(ty))
        return N.fit(np.array(data), ty)
    if isinstance(attr, IntegerAttr) and isinstance(attr.value.data, int):
        bits = N.width(ty)
        if bits == 1:
            return np.asarray(bool(attr.value.data & 1))
        return N.fit(np.asarray(attr.value.data & ((1 << bits) - 1), np.uint64), ty)
    if isinstance(attr, (IntegerAttr, FloatAttr)):
        return N.fit(np.asarray(attr.value.data), ty)
    raise N.Unsupported(f"the constant {attr}")


@handles("tt.get_program_id")
def _pid(ev, op, vals, env):
    return np.int32(ev.pid[op.axis.value.data])


@handles("tt.get_num_programs")
def _nprog(ev, op, vals, env):
    return np.int32(ev.grid[_int(op, "axis")])


@handles("tt.make_range")
def _range(ev, op, vals, env):
    return np.arange(_int(op, "start"), _int(op, "end"), dtype=np.int32)


@handles("tt.splat")
def _splat(ev, op, vals, env):
    s = N.shape(_rty(op))
    return _shape_op(vals[0], lambda a: np.array(np.broadcast_to(a, s)))


@handles("tt.unsplat")
def _unsplat(ev, op, vals, env):
    return _shape_op(vals[0], lambda a: a.reshape(()))


@handles("tt.broadcast")
def _broadcast(ev, op, vals, env):
    s = N.shape(_rty(op))
    return _shape_op(vals[0], lambda a: np.array(np.broadcast_to(a, s)))


@handles("tt.expand_dims")
def _expand(ev, op, vals, env):
    return _shape_op(vals[0], lambda a: np.expand_dims(a, _int(op, "axis")))


@handles("tt.reshape")
def _reshape(ev, op, vals, env):
    return _shape_op(vals[0], lambda a: a.reshape(N.shape(_rty(op))))


@handles("tt.trans")
def _trans(ev, op, vals, env):
    order = op.properties["order"].get_values()
    return _shape_op(vals[0], lambda a: np.transpose(a, order))


@handles("tt.cat")
def _cat(ev, op, vals, env):
    return np.concatenate([np.asarray(v) for v in vals], axis=0)


@handles("tt.join")
def _join(ev, op, vals, env):
    return np.stack([np.asarray(v) for v in vals], axis=-1)


@handles("tt.split")
def _split(ev, op, vals, env):
    a = np.asarray(vals[0])
    return [a[..., 0].copy(), a[..., 1].copy()]


@handles("tt.gather")
def _gather(ev, op, vals, env):
    src, idx = np.asarray(vals[0]), np.asarray(vals[1])
    axis = _int(op, "axis")
    if ((idx < 0) | (idx >= src.shape[axis])).any():
        raise OutOfBounds("tt.gather index")
    return np.take_along_axis(src, idx.astype(np.int64), axis)


@handles("tt.histogram")
def _histogram(ev, op, vals, env):
    x = np.asarray(vals[0]).reshape(-1).astype(np.int64)
    bins = N.shape(_rty(op))[0]
    x = x[(x >= 0) & (x < bins)]
    return N.fit(np.bincount(x, minlength=bins), _rty(op))


# -- element-wise ------------------------------------------------------------------------
@handles("arith.cmpi")
def _cmpi(ev, op, vals, env):
    a, b = vals
    if isinstance(a, Pointers):
        a, b = a.address(), b.address()
    return N.cmpi(_int(op, "predicate"), np.asarray(a), np.asarray(b))


@handles("arith.cmpf")
def _cmpf(ev, op, vals, env):
    return N.cmpf(_int(op, "predicate"), np.asarray(vals[0]), np.asarray(vals[1]))


@handles("arith.select")
def _select(ev, op, vals, env):
    c, a, b = vals
    c = np.asarray(c)
    if isinstance(a, Pointers):
        return Pointers(np.where(c, a.buf, b.buf), np.where(c, a.off, b.off))
    return np.asarray(np.where(c, a, b)).astype(np.asarray(a).dtype)


@handles("arith.extsi", "arith.extf", "arith.truncf", "arith.sitofp", "arith.fptosi",
         "arith.index_cast", "arith.fptoui")
def _convert(ev, op, vals, env):
    a = np.asarray(vals[0])
    if op.name == "arith.extsi" and a.dtype == np.bool_:
        a = -a.astype(np.int64)                     # i1 true sign-extends to -1
    elif op.name == "arith.fptoui":
        with np.errstate(all="ignore"):
            a = a.astype(N.UINT[N.width(_rty(op))])
    return N.fit(a, _rty(op))


@handles("arith.extui", "arith.uitofp", "arith.index_castui")
def _convert_unsigned(ev, op, vals, env):
    return N.fit(N.unsigned(np.asarray(vals[0])), _rty(op))


@handles("arith.trunci")
def _trunci(ev, op, vals, env):
    a = np.asarray(vals[0])
    if N.width(_rty(op)) == 1:
        return (a & 1).astype(bool)
    return N.fit(N.unsigned(a).astype(N.UINT[N.width(_rty(op))]), _rty(op))


@handles("arith.bitcast", "tt.bitcast")
def _bitcast(ev, op, vals, env):
    return _from_bits(_bits(vals[0], op.operands[0].type), _rty(op))


@handles("tt.fp_to_fp")
def _fp_to_fp(ev, op, vals, env):
    a, ty = np.asarray(vals[0]), _rty(op)
    mode = _prop(op, "rounding")
    rtz = mode is not None and ROUNDING_MODE.value_of(mode) == RoundingMode.RTZ
    if N.fp8_name(ty):
        return N.to_fp8(a, N.fp8_name(ty), rtz)
    if rtz:
        raise N.Unsupported("round-toward-zero conversions but to fp8")
    return N.fit(a, ty)


@handles("tt.clampf")
def _clampf(ev, op, vals, env):
    x, lo, hi = (np.asarray(v) for v in vals)
    out = np.fmin(np.fmax(x, lo), hi)
    if PROPAGATE_NAN.value_of(op.propagateNan) == PropagateNan.ALL:
        out = np.where(np.isnan(x), x, out)
    return N.fit(out, _rty(op))


@handles("math.fma")
def _fma(ev, op, vals, env):
    a, b, c = (np.asarray(v, np.float64) for v in vals)
    return N.fit(a * b + c, _rty(op))      # exact product in f64, one rounding (f32)


@handles("tt.extern_elementwise")
def _extern(ev, op, vals, env):
    sym = op.properties["symbol"].data
    fn = N.LIBDEVICE.get(sym)
    if fn is None:
        raise N.Unsupported(f"the library function '{sym}'")
    return N.fit(fn(*[np.asarray(v) for v in vals]), _rty(op))


@handles("tt.int_to_ptr")
def _int_to_ptr(ev, op, vals, env):
    return Pointers.of_address(vals[0])


@handles("tt.ptr_to_int")
def _ptr_to_int(ev, op, vals, env):
    return N.fit(vals[0].address(), _rty(op))


@handles("tt.addptr")
def _addptr(ev, op, vals, env):
    p, k = vals
    size = N.width(N.element(op.operands[0].type).pointee_type) // 8
    off = np.asarray(k).astype(np.int64) * max(size, 1)
    s = np.broadcast(p.off, off).shape
    return Pointers(np.broadcast_to(p.buf, s).copy(), p.off + off)


# -- memory --------------------------------------------------------------------------------
def _pointee(op):
    return N.element(op.operands[0].type).pointee_type


@handles("tt.load")
def _load(ev, op, vals, env):
    groups = _segments(op)
    if not isinstance(N.element(op.operands[0].type), PointerType) or \
            isinstance(_pointee(op), TensorType):
        raise N.Unsupported("loads through block pointers")
    ptr = env[groups[0][0]]
    mask = np.asarray(env[groups[1][0]]) if len(groups) > 1 and groups[1] else None
    other = np.asarray(env[groups[2][0]]) if len(groups) > 2 and groups[2] else None
    return ev.memory.load(ptr, mask, other, _rty(op))


@handles("tt.store")
def _store(ev, op, vals, env):
    if isinstance(_pointee(op), TensorType):
        raise N.Unsupported("stores through block pointers")
    ptr, value = vals[0], np.asarray(vals[1])
    mask = np.asarray(vals[2]) if len(vals) > 2 else None
    ev.memory.store(ptr, value, mask, op.operands[1].type)
    return []


_RMW = {RMWOp.AND: np.bitwise_and, RMWOp.OR: np.bitwise_or, RMWOp.XOR: np.bitwise_xor,
        RMWOp.ADD: np.add, RMWOp.FADD: np.add, RMWOp.MAX: np.maximum, RMWOp.MIN: np.minimum,
        RMWOp.UMAX: lambda a, b: np.maximum(N.unsigned(a), N.unsigned(b)).view(a.dtype),
        RMWOp.UMIN: lambda a, b: np.minimum(N.unsigned(a), N.unsigned(b)).view(a.dtype),
        RMWOp.XCHG: lambda a, b: b}


@handles("tt.atomic_rmw")
def _atomic_rmw(ev, op, vals, env):
    kind = RMW_OP.value_of(op.atomic_rmw_op)
    ptr, val = vals[0], np.asarray(vals[1])
    mask = np.asarray(vals[2]) if len(vals) > 2 else None
    ty = _rty(op)
    val = np.broadcast_to(val, ptr.shape)
    fn = _RMW[kind]

    def update(k, old):
        return N.fit(fn(np.asarray(old).astype(N.np_dtype(ty)), val.flat[k]), ty)
    return ev.memory.rmw(ptr, mask, ty, update)


@handles("tt.atomic_cas")
def _atomic_cas(ev, op, vals, env):
    ptr, cmp, val = vals[0], np.asarray(vals[1]), np.asarray(vals[2])
    ty = _rty(op)
    cmp, val = np.broadcast_to(cmp, ptr.shape), np.broadcast_to(val, ptr.shape)

    def update(k, old):
        o = np.asarray(old).astype(N.np_dtype(ty))
        return val.flat[k] if o == cmp.flat[k] else o
    return ev.memory.rmw(ptr, None, ty, update)


# -- reductions, scans, dots ---------------------------------------------------------------
def _combine(ev, op, env, left: list, right: list) -> list:
    return ev.region(op, 0, left + right, env)


@handles("tt.reduce")
def _reduce(ev, op, vals, env):
    """Pairwise (a tree, as the GPU combines), each step the combiner on whole slices."""
    axis = _int(op, "axis")
    parts = [np.moveaxis(np.asarray(v), axis, 0) for v in vals]
    while parts[0].shape[0] > 1:
        n = parts[0].shape[0]
        h = n // 2
        merged = _combine(ev, op, env, [p[:h] for p in parts], [p[h:2 * h] for p in parts])
        parts = [np.concatenate([np.asarray(m).reshape(p[:h].shape), p[2 * h:]])
                 if n % 2 else np.asarray(m).reshape(p[:h].shape)
                 for m, p in zip(merged, parts)]
    return [N.fit(p[0], r.type) for p, r in zip(parts, op.results)]


@handles("tt.scan")
def _scan(ev, op, vals, env):
    """Inclusive scan, one element after another along the axis (reverse: from the end)."""
    axis = _int(op, "axis")
    reverse = bool(_int(op, "reverse", 0))
    parts = [np.moveaxis(np.asarray(v), axis, 0).copy() for v in vals]
    n = parts[0].shape[0]
    order = range(n - 2, -1, -1) if reverse else range(1, n)
    prev = (lambda i: i + 1) if reverse else (lambda i: i - 1)
    for i in order:
        merged = _combine(ev, op, env, [p[prev(i)] for p in parts], [p[i] for p in parts])
        for p, m in zip(parts, merged):
            p[i] = m
    return [N.fit(np.moveaxis(p, 0, axis), r.type) for p, r in zip(parts, op.results)]


@handles("tt.dot")
def _dot(ev, op, vals, env):
    """Exact products and sum in float64, rounded once to the accumulator's type; tf32
    operands are f32 with the 13 low mantissa bits ignored, as the tensor cores read them."""
    a, b, c = (np.asarray(v) for v in vals)
    precision = _prop(op, "inputPrecision")
    if precision is not None and INPUT_PRECISION.value_of(precision) == InputPrecision.TF32:
        a, b = (_tf32(x) if x.dtype == np.float32 else x for x in (a, b))
    elif precision is not None and INPUT_PRECISION.value_of(precision) != InputPrecision.IEEE:
        raise N.Unsupported(f"tt.dot with inputPrecision {INPUT_PRECISION.value_of(precision)}")
    acc = np.matmul(a.astype(np.float64), b.astype(np.float64)) + c.astype(np.float64)
    return N.fit(acc, _rty(op))


def _tf32(x: np.ndarray) -> np.ndarray:
    return (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


# -- control flow --------------------------------------------------------------------------
@handles("scf.for")
def _for(ev, op, vals, env):
    lb, ub, step, *carried = vals
    iv = np.asarray(lb)
    while (iv < ub) if iv.dtype.kind != "u" else N.unsigned(iv) < N.unsigned(ub):
        carried = ev.region(op, 0, [iv] + carried, env)
        iv = N.fit(iv + np.asarray(step), op.operands[0].type)
    return carried


@handles("scf.if")
def _if(ev, op, vals, env):
    taken = 0 if bool(np.asarray(vals[0])) else 1
    if not op.regions[taken].blocks:
        return []
    return ev.region(op, taken, [], env)


@handles("scf.while")
def _while(ev, op, vals, env):
    args = vals
    while True:
        out, term = ev.block(op.regions[0].blocks[0], args, env)
        if not bool(np.asarray(out[0])):
            return out[1:]
        args = ev.region(op, 1, out[1:], env)


@handles("tt.call")
def _call(ev, op, vals, env):
    out, _ = ev.call(op.callee.root_reference.data, vals, op)
    return out


@handles("tt.assert")
def _assert(ev, op, vals, env):
    if not np.asarray(vals[0]).all():
        raise KernelAssert(op.properties["message"].data)
    return []


@handles("tt.print", "gpu.barrier", "llvm.intr.assume")
def _no_effect(ev, op, vals, env):
    return []
