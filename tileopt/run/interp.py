"""A vectorised interpreter of one LLVM kernel over every thread of a launch.

Every SSA value is a numpy array with one row per GPU thread of the blocks being run (all
blocks of a chunk at once: blocks are independent, so their threads can share each step).
Control flow is SIMT: each thread has its own basic block; a step runs the lowest block in
reverse post-order that some thread waits at, for exactly the threads waiting there (the
"active" mask), which reconverges threads at the join of an if/else and keeps the threads
of a loop together until each leaves it. Phis take the value of the edge each thread came
along. Side effects (memory, inline asm, barriers, shuffles) touch only active threads.

GPU intrinsics and inline assembly are vendor-specific: a ``Target`` (nvidia.py, amdgpu.py)
supplies them; this file knows only LLVM.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from tileopt.run import atomics
from tileopt.run import values as V
from tileopt.run.llvm_text import Block, Const, ConstGEP, Function, InlineAsm, Instr, Module, Ref, Type
from tileopt.run.memory import LOCAL_REGION, OFFSET_MASK, REGION_SHIFT, SHARED_REGION, KernelFault, Lanes, Memory


class Target:
    """What a vendor adds: the warp size, its intrinsics and its inline assembly."""
    warp_size = 32

    def intrinsic(self, name: str) -> Callable | None:
        return None

    def inline_asm(self, ex: "Executor", instr: Instr, args: list):
        raise KernelFault("inline assembly is not supported for this target")


def _rpo(func: Function) -> list[Block]:
    names = {b.name: b for b in func.blocks}
    seen, order = set(), []

    def succ(b: Block) -> list[str]:
        t = b.instrs[-1]
        return [a for a in t.args if isinstance(a, str)] if t.op == "br" else []

    stack = [(func.blocks[0], iter(succ(func.blocks[0])))]
    seen.add(func.blocks[0].name)
    while stack:
        b, it = stack[-1]
        for s in it:
            if s not in seen:
                seen.add(s)
                stack.append((names[s], iter(succ(names[s]))))
                break
        else:
            order.append(b)
            stack.pop()
    return order[::-1]


class Executor:
    def __init__(self, module: Module, func: Function, target: Target, memory: Memory,
                 lanes: Lanes, params: list):
        self.module, self.func, self.target, self.mem, self.lanes = module, func, target, memory, lanes
        self.n = lanes.count
        self.blocks = _rpo(func)
        self.index = {b.name: i for i, b in enumerate(self.blocks)}
        self.env: dict[str, object] = {}
        for (name, ty), value in zip(func.params, params):
            self.env[name] = np.broadcast_to(value, (self.n,))
        self.done = len(self.blocks)
        self.pc = np.zeros(self.n, np.int32)
        self.prev = np.full(self.n, -1, np.int32)
        self.act: np.ndarray | None = None      # None: every thread
        self.idx = np.arange(self.n)            # the active threads' rows

    # ------------------------------------------------------------------ driving
    def run(self) -> None:
        with np.errstate(all="ignore"):
            while True:
                alive = self.pc != self.done
                if not alive.any():
                    return
                b = int(self.pc[alive].min())
                act = self.pc == b
                if act.all():
                    self.act, self.idx = None, np.arange(self.n)
                else:
                    self.act, self.idx = act, np.nonzero(act)[0]
                self._run_block(self.blocks[b], b)

    def _run_block(self, block: Block, bi: int) -> None:
        instrs = block.instrs
        k = 0
        phis = []
        while k < len(instrs) and instrs[k].op == "phi":
            phis.append(instrs[k])
            k += 1
        if phis:
            newv = []
            for phi in phis:
                out = None
                for label, v in phi.args:
                    sel = self.prev == self.index.get(label, -2)  # -2: an unreachable block
                    if not sel[self.idx].any():
                        continue  # e.g. a back edge no thread has taken yet
                    val = self.value(v)
                    out = val if out is None else self._where(sel, val, out)
                newv.append(out)
            for phi, v in zip(phis, newv):
                self.set(phi.result, v)
        for ins in instrs[k:]:
            if ins.op == "br":
                if len(ins.args) == 1:
                    nxt = self.index[ins.args[0]]
                else:
                    c = np.broadcast_to(self.value(ins.args[0]), (self.n,))
                    nxt = np.where(c, self.index[ins.args[1]], self.index[ins.args[2]])
                self._goto(bi, nxt)
                return
            if ins.op == "ret":
                self._goto(bi, self.done)
                return
            if ins.op == "unreachable":
                raise self.located(KernelFault(f"'unreachable' executed by "
                                               f"{self.lanes.describe(self.idx[0])}"), ins)
            result = self.execute(ins)
            if ins.result is not None:
                self.set(ins.result, result)
        raise KernelFault(f"basic block '{block.name}' has no terminator")

    def _goto(self, bi: int, nxt) -> None:
        if self.act is None:
            self.pc[:] = nxt
            self.prev[:] = bi
        else:
            self.pc[self.act] = nxt[self.act] if isinstance(nxt, np.ndarray) else nxt
            self.prev[self.act] = bi

    @staticmethod
    def _where(sel, a, b):
        if isinstance(a, tuple):
            return tuple(Executor._where(sel, x, y) for x, y in zip(a, b))
        a, b = np.asarray(a), np.asarray(b)
        if max(a.ndim, b.ndim) == 2:
            sel = sel[:, None]
        return np.where(sel, a, b)

    def set(self, name: str, value) -> None:
        old = self.env.get(name)
        if self.act is None or old is None:
            self.env[name] = value
        else:
            self.env[name] = self._where(self.act, value, old)

    # ------------------------------------------------------------------ operands
    def value(self, v):
        if isinstance(v, Ref):
            if v.is_global:
                return self._global_address(v)
            return self.env[v.name]
        if isinstance(v, Const):
            return V.const_array(v.value, v.type)
        if isinstance(v, ConstGEP):
            return self._gep(v.source, self.value(v.base), [self.value(i) for i in v.indices])
        raise KernelFault(f"cannot evaluate {v!r}")

    def _global_address(self, ref: Ref):
        ty, space = self.module.globals.get(ref.name, (None, None))
        if space == 3:
            return np.int64(0) if ref.type.addrspace == 3 else np.int64(SHARED_REGION << REGION_SHIFT)
        region = self.mem.global_regions.get(ref.name)
        if region is None:
            raise KernelFault(f"global '@{ref.name}' is not supported (only the shared-memory "
                              "base and globals with an initializer)")
        return np.int64(region << REGION_SHIFT)

    def full(self, v, ty: Type | None = None) -> np.ndarray:
        """v broadcast to one row per thread (a (k,) constant to (n, k) for a vector type)."""
        if ty is not None and ty.kind == "vec":
            return np.broadcast_to(np.asarray(v), (self.n, ty.count))
        return np.broadcast_to(np.asarray(v), (self.n,))

    # ------------------------------------------------------------------ instructions
    def execute(self, ins: Instr):
        handler = self._int_binary if ins.op in self._INT_BINARY else \
            self._float_binary if ins.op in self._FLOAT_BINARY else getattr(self, "op_" + ins.op, None)
        if handler is None:
            raise self.located(KernelFault(f"'{ins.op}' is not supported by tileopt-run"), ins)
        try:
            return handler(ins)
        except KernelFault as err:
            raise self.located(err, ins) from None

    def where(self, ins: Instr) -> str:
        """The kernel source position of ``ins`` (from its !dbg), and its LLVM IR line."""
        loc = self.module.location(ins.extra.get("dbg"))
        at = f"{loc[0]}:{loc[1]}:{loc[2]}, " if loc else ""
        return f"{at}LLVM IR line {ins.line}"

    def located(self, err: KernelFault, ins: Instr) -> KernelFault:
        if "LLVM IR line" not in err.message:
            loc = self.module.location(ins.extra.get("dbg"))
            if loc and err.file is None:
                err.file, err.line, err.col = loc
            err.message += f" (LLVM IR line {ins.line})"
            err.args = (err.message,)
        return err

    def _bf(self, ins: Instr, r):
        ety = ins.type.elem if ins.type.kind == "vec" else ins.type
        return V.round_bf16(r) if ety.kind == "float" and ety.name == "bfloat" else r

    # i1 arithmetic is arithmetic modulo 2
    _INT_BINARY = {"add": (np.add, np.bitwise_xor), "sub": (np.subtract, np.bitwise_xor),
                   "mul": (np.multiply, np.bitwise_and), "and": (np.bitwise_and,) * 2,
                   "or": (np.bitwise_or,) * 2, "xor": (np.bitwise_xor,) * 2}

    def _int_binary(self, ins):
        a, b = (self.value(x) for x in ins.args)
        wide, bit = self._INT_BINARY[ins.op]
        if V.dtype(ins.type) == bool:
            return bit(a, b)
        return wide(a, b, dtype=V.dtype(ins.type))

    _FLOAT_BINARY = {"fadd": np.add, "fsub": np.subtract, "fmul": np.multiply,
                     "fdiv": np.divide, "frem": np.fmod}

    def _float_binary(self, ins):
        a, b = (self.value(x) for x in ins.args)
        return self._bf(ins, self._FLOAT_BINARY[ins.op](a, b, dtype=V.dtype(ins.type)))

    def _shift_amount(self, ins, b):
        bits = (ins.type.elem if ins.type.kind == "vec" else ins.type).bits
        return (np.asarray(b).astype(np.int64) & (bits - 1)).astype(V.dtype(ins.type)), bits

    def op_shl(self, ins):
        a, b = (self.value(x) for x in ins.args)
        s, _ = self._shift_amount(ins, b)
        return np.left_shift(a, s, dtype=V.dtype(ins.type))

    def op_lshr(self, ins):
        a, b = (self.value(x) for x in ins.args)
        s, _ = self._shift_amount(ins, b)
        ua = V.unsigned(np.asarray(a))
        return np.right_shift(ua, V.unsigned(s)).view(V.dtype(ins.type))

    def op_ashr(self, ins):
        a, b = (self.value(x) for x in ins.args)
        s, _ = self._shift_amount(ins, b)
        return np.right_shift(a, s)

    def op_sdiv(self, ins):
        """Rounded toward zero, as C (numpy's // rounds down)."""
        a, b = (np.asarray(self.value(x)) for x in ins.args)
        b = np.where(b == 0, 1, b)  # division by zero is undefined; inactive threads do it
        return ((a - np.fmod(a, b)) // b).astype(a.dtype)

    def op_srem(self, ins):
        a, b = (np.asarray(self.value(x)) for x in ins.args)
        return np.fmod(a, np.where(b == 0, 1, b)).astype(a.dtype)

    def op_udiv(self, ins):
        a, b = (V.unsigned(np.asarray(self.value(x))) for x in ins.args)
        return (a // np.where(b == 0, 1, b)).view(V.dtype(ins.type))

    def op_urem(self, ins):
        a, b = (V.unsigned(np.asarray(self.value(x))) for x in ins.args)
        return (a % np.where(b == 0, 1, b)).view(V.dtype(ins.type))

    def op_fneg(self, ins):
        return np.negative(self.value(ins.args[0]))

    def op_freeze(self, ins):
        # undef and poison are read as 0 here, a fixed value: freeze is the identity
        return self.value(ins.args[0])

    _ICMP = {"eq": np.equal, "ne": np.not_equal, "slt": np.less, "sle": np.less_equal,
             "sgt": np.greater, "sge": np.greater_equal, "ult": np.less, "ule": np.less_equal,
             "ugt": np.greater, "uge": np.greater_equal}

    def op_icmp(self, ins):
        a, b = (np.asarray(self.value(x)) for x in ins.args)
        if ins.pred[0] == "u":
            a, b = V.unsigned(a), V.unsigned(b.astype(a.dtype))
        return self._ICMP[ins.pred](a, b)

    _FCMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
             "gt": np.greater, "ge": np.greater_equal}

    def op_fcmp(self, ins):
        a, b = (np.asarray(self.value(x)) for x in ins.args)
        p = ins.pred
        nan = np.isnan(a) | np.isnan(b)
        if p == "true":
            return np.ones(np.broadcast(a, b).shape, bool)
        if p == "false":
            return np.zeros(np.broadcast(a, b).shape, bool)
        if p == "ord":
            return ~nan
        if p == "uno":
            return nan
        r = self._FCMP[p[1:]](a, b)
        return (r & ~nan) if p[0] == "o" else (r | nan)

    def op_select(self, ins):
        c, a, b = (self.value(x) for x in ins.args)
        c = np.asarray(c)
        a, b = np.asarray(a), np.asarray(b)
        if c.ndim == 1 and max(a.ndim, b.ndim) == 2:
            c = c[:, None]
        return np.where(c, a, b)

    # casts
    def op_trunc(self, ins):
        a = np.asarray(self.value(ins.args[0]))
        if ins.type.bits == 1 or (ins.type.kind == "vec" and ins.type.elem.bits == 1):
            return (a & 1) != 0
        return a.astype(V.dtype(ins.type))

    def op_zext(self, ins):
        a = np.asarray(self.value(ins.args[0]))
        return V.unsigned(a).astype(V.bits_dtype(V.dtype(ins.type).itemsize)).view(V.dtype(ins.type))

    def op_sext(self, ins):
        a = np.asarray(self.value(ins.args[0]))
        if a.dtype == bool:
            return -(a.astype(V.dtype(ins.type)))
        return a.astype(V.dtype(ins.type))

    def _to_float(self, ins, a):
        r = np.asarray(a).astype(V.dtype(ins.type))
        return self._bf(ins, r)

    def op_fpext(self, ins):
        return self._to_float(ins, self.value(ins.args[0]))

    def op_fptrunc(self, ins):
        return self._to_float(ins, self.value(ins.args[0]))

    def op_sitofp(self, ins):
        return self._to_float(ins, self.value(ins.args[0]))

    def op_uitofp(self, ins):
        return self._to_float(ins, V.unsigned(np.asarray(self.value(ins.args[0]))))

    def op_fptosi(self, ins):
        return np.trunc(np.asarray(self.value(ins.args[0]))).astype(V.dtype(ins.type))

    def op_fptoui(self, ins):
        a = np.trunc(np.asarray(self.value(ins.args[0]), np.float64))
        return a.astype(V.bits_dtype(V.dtype(ins.type).itemsize)).view(V.dtype(ins.type))

    def op_bitcast(self, ins):
        src = ins.args[0]
        v = self.value(src)
        if src.type == ins.type:
            return v
        return V.from_bytes(V.to_bytes(v, src.type, self.n), ins.type)

    def op_ptrtoint(self, ins):
        return np.asarray(self.value(ins.args[0])).astype(V.dtype(ins.type))

    def op_inttoptr(self, ins):
        a = np.asarray(self.value(ins.args[0]))
        return V.unsigned(a).astype(np.uint64).view(np.int64) if a.dtype.itemsize < 8 else a.astype(np.int64)

    # address spaces whose pointers are offsets, and the tag of their generic pointers
    _OFFSET_SPACES = {3: SHARED_REGION, 5: LOCAL_REGION}

    def op_addrspacecast(self, ins):
        a = np.asarray(self.value(ins.args[0])).astype(np.int64)
        src, dst = ins.args[0].type.addrspace, ins.type.addrspace
        if src in self._OFFSET_SPACES and dst == 0:
            return a | (self._OFFSET_SPACES[src] << REGION_SHIFT)
        if src == 0 and dst in self._OFFSET_SPACES:
            return a & OFFSET_MASK
        return a

    # aggregates
    def op_extractelement(self, ins):
        v, i = self.value(ins.args[0]), np.asarray(self.value(ins.args[1]))
        v = np.asarray(v)
        if i.ndim == 0:
            return v[..., int(i)]
        return np.take_along_axis(self.full(v, ins.args[0].type), i.astype(np.int64)[:, None], 1)[:, 0]

    def op_insertelement(self, ins):
        v, e, i = (self.value(x) for x in ins.args)
        out = np.array(self.full(np.asarray(v, V.dtype(ins.type)), ins.type))
        i = np.asarray(i)
        if i.ndim != 0:
            raise KernelFault("insertelement at a varying index")
        out[:, int(i)] = e
        return out

    def op_shufflevector(self, ins):
        a, b, m = ins.args
        both = np.concatenate([self.full(self.value(a), a.type), self.full(self.value(b), b.type)], 1)
        mask = [0 if x is None else int(x) for x in (m.value or [0] * ins.type.count)]
        return both[:, mask]

    def op_extractvalue(self, ins):
        v = self.value(ins.args[0])
        for k in ins.extra["indices"]:
            v = v[k]
        return v

    def op_insertvalue(self, ins):
        agg, v = (self.value(x) for x in ins.args)
        (k,) = ins.extra["indices"]
        agg = list(agg)
        agg[k] = v
        return tuple(agg)

    # memory
    def _gep(self, source: Type, base, indices) -> np.ndarray:
        addr = np.asarray(base).astype(np.int64)
        ty = source
        for n, i in enumerate(indices):
            i = np.asarray(i).astype(np.int64)
            if n == 0:
                addr = addr + i * V.size_of(ty)
            elif ty.kind in ("array", "vec"):
                ty = ty.elem
                addr = addr + i * V.size_of(ty)
            elif ty.kind == "struct":
                addr = addr + sum(V.size_of(f) for f in ty.fields[:int(i)])
                ty = ty.fields[int(i)]
            else:
                raise KernelFault(f"getelementptr into {ty}")
        return addr

    def op_getelementptr(self, ins):
        base, *indices = ins.args
        return self._gep(ins.extra["source"], self.value(base), [self.value(i) for i in indices])

    @staticmethod
    def space(ptr_type: Type) -> str:
        if ptr_type.addrspace in (7, 8, 9):  # AMD buffer pointers: their intrinsics only
            raise KernelFault(f"load or store through a {ptr_type} is not supported "
                              "(buffer fat pointers)")
        return {1: "global", 3: "shared", 5: "local", 0: "generic"}.get(ptr_type.addrspace,
                                                                         "global")

    def op_alloca(self, ins):
        """A frame slot of every thread (static: its offset is fixed when first run)."""
        size = V.size_of(ins.extra["allocated"]) * ins.extra["count"]
        off = self.mem.alloca(id(ins), size, ins.extra["align"])
        tag = 0 if ins.type.addrspace == 5 else LOCAL_REGION << REGION_SHIFT
        return np.int64(tag | off)

    def op_load(self, ins):
        ptr = ins.args[0]
        addr = self.full(self.value(ptr))[self.idx]
        raw = self.mem.read(self.space(ptr.type), addr, V.size_of(ins.type), self.idx,
                            ins.extra["align"], self.where(ins))
        got = V.from_bytes(raw, ins.type)
        out = np.zeros((self.n,) + got.shape[1:], got.dtype)
        out[self.idx] = got
        return out

    def op_store(self, ins):
        val, ptr = ins.args
        addr = self.full(self.value(ptr))[self.idx]
        data = V.to_bytes(self.value(val), val.type, self.n)[self.idx]
        self.mem.write(self.space(ptr.type), addr, data, self.idx, ins.extra["align"], self.where(ins))

    def op_fence(self, ins):
        """Threads run in lock step and memory is one interleaving: nothing to order."""
        return None

    # atomicrmw operation -> (atomics op, operand read as unsigned)
    _RMW = {"add": ("add", False), "sub": ("sub", False), "xchg": ("exch", False),
            "and": ("and", False), "or": ("or", False), "xor": ("xor", False),
            "max": ("max", False), "min": ("min", False), "umax": ("max", True),
            "umin": ("min", True), "fadd": ("add", False), "fsub": ("sub", False),
            "fmax": ("max", False), "fmin": ("min", False), "uinc_wrap": ("inc", True),
            "udec_wrap": ("dec", True), "cas": ("cas", False)}

    def op_atomicrmw(self, ins):
        ptr, *vals = ins.args
        if ins.extra["rmw"] not in self._RMW:
            raise KernelFault(f"atomicrmw {ins.extra['rmw']} is not supported by tileopt-run")
        op, unsigned = self._RMW[ins.extra["rmw"]]
        vd = V.dtype(vals[0].type)
        vd = np.dtype(f"u{vd.itemsize}") if unsigned else vd
        got = [np.asarray(self.full(self.value(v)))[self.idx].view(vd) if unsigned else
               np.asarray(self.full(self.value(v)))[self.idx] for v in vals]
        addr = self.full(self.value(ptr))[self.idx]
        old = atomics.apply(self.mem, addr, self.idx, op, vd, *got, space=self.space(ptr.type),
                            where=self.where(ins))
        out = np.zeros(self.n, V.dtype(vals[0].type))
        out[self.idx] = old.view(out.dtype)
        if ins.op == "cmpxchg":
            return (out, out == np.asarray(self.full(self.value(vals[0]))))
        return out

    op_cmpxchg = op_atomicrmw

    # calls
    def op_call(self, ins):
        callee = ins.extra["callee"]
        args = [self.value(a) for a in ins.args]
        if isinstance(callee, InlineAsm):
            return self.target.inline_asm(self, ins, args)
        fn = self.target.intrinsic(callee) or _LLVM_INTRINSICS.get(_base_intrinsic(callee))
        if fn is None:
            raise KernelFault(f"call to '@{callee}' is not supported by tileopt-run")
        return fn(self, ins, args)


def block_barrier(ex: "Executor", ins, args):
    """A block-wide barrier (bar.sync, s_barrier): every live thread of each block that
    reaches it must be there at once; it starts a new race epoch."""
    lanes = ex.lanes
    live = ex.pc != ex.done
    act = np.ones(ex.n, bool) if ex.act is None else ex.act
    blocks = np.unique(lanes.local_block[ex.idx])
    waiting = np.bincount(lanes.local_block[act], minlength=lanes.blocks)
    alive = np.bincount(lanes.local_block[live], minlength=lanes.blocks)
    bad = blocks[waiting[blocks] != alive[blocks]]
    if len(bad):
        first = int(np.nonzero(act & (lanes.local_block == bad[0]))[0][0])
        raise KernelFault(f"barrier reached by {waiting[bad[0]]} of the {alive[bad[0]]} live "
                          f"threads of the block of {lanes.describe(first)} (a divergent barrier)")
    ex.mem.barrier(blocks)
    return None


def _base_intrinsic(name: str) -> str:
    """llvm.maxnum.f32 -> llvm.maxnum (the type suffixes dropped)."""
    parts = name.split(".")
    while len(parts) > 2 and (parts[-1][:1] in "ifvp" and parts[-1][1:2].isdigit() or
                              parts[-1] in ("f16", "bf16", "f32", "f64")):
        parts.pop()
    return ".".join(parts)


def _float_fn(f):
    def run(ex, ins, args):
        r = f(*[np.asarray(a) for a in args])
        return ex._bf(ins, np.asarray(r).astype(V.dtype(ins.type)))
    return run


def _fma(ex, ins, args):
    return ex._bf(ins, V.fma(*args, V.dtype(ins.type)))


def _int_fn(f, unsigned=False):
    def run(ex, ins, args):
        arrs = [np.asarray(a) for a in args[:2]]
        if unsigned:
            arrs = [V.unsigned(a) for a in arrs]
        return np.asarray(f(*arrs)).astype(arrs[0].dtype).view(V.dtype(ins.type))
    return run


def popcount(a) -> np.ndarray:
    """The set bits of each element of an integer array (counted in its width)."""
    a = np.ascontiguousarray(a)
    bits = np.unpackbits(a.view(np.uint8).reshape(a.shape + (a.dtype.itemsize,)), axis=-1)
    return bits.sum(-1, dtype=np.int64)


def _ctpop(ex, ins, args):
    return popcount(np.asarray(args[0])).astype(V.dtype(ins.type))


def _sat(sub: bool):
    """llvm.usub.sat / llvm.uadd.sat: unsigned, clamped to [0, 2^bits - 1]."""
    def run(ex, ins, args):
        a, b = (V.unsigned(np.asarray(x)) for x in args)
        if sub:
            r = np.where(a >= b, a - b, 0)
        else:
            r = np.where(a + b < a, np.iinfo(a.dtype).max, a + b)
        return r.astype(a.dtype).view(V.dtype(ins.type))
    return run


def _no_op(ex, ins, args):
    """llvm.assume (a fact for the optimiser), llvm.lifetime.* (frame slots are kept)."""
    return None


def _bit_count(leading: bool):
    """llvm.ctlz / llvm.cttz: zero bits above / below the highest / lowest set bit (the
    width for 0; the poison flag is ignored)."""
    def run(ex, ins, args):
        a = V.unsigned(np.asarray(args[0]))
        bits = a.dtype.itemsize * 8
        wide = a.astype(np.uint64)
        count = np.full(a.shape, bits, np.int64)
        for k in (range(bits) if leading else range(bits - 1, -1, -1)):
            count = np.where((wide >> np.uint64(k)) & np.uint64(1),
                             bits - 1 - k if leading else k, count)
        return count.astype(V.dtype(ins.type))
    return run


def _bitreverse(ex, ins, args):
    a = V.unsigned(np.asarray(args[0]))
    bits = a.dtype.itemsize * 8
    wide, out = a.astype(np.uint64), np.zeros(a.shape, np.uint64)
    for k in range(bits):
        out |= ((wide >> np.uint64(k)) & np.uint64(1)) << np.uint64(bits - 1 - k)
    return out.astype(a.dtype).view(V.dtype(ins.type))


def _funnel(left: bool):
    """llvm.fshl / llvm.fshr: the concatenation a:b shifted by c mod the width, then its
    high (fshl) or low (fshr) half."""
    def run(ex, ins, args):
        a, b, c = (V.unsigned(np.asarray(x)).astype(np.uint64) for x in args)
        bits = np.asarray(args[0]).dtype.itemsize * 8
        mask = np.uint64((1 << bits) - 1)
        s = c % np.uint64(bits)
        # in two steps, so that a shift by the whole width never happens
        if left:
            r = ((a << s) & mask) | ((b >> np.uint64(1)) >> (np.uint64(bits - 1) - s))
        else:
            r = (b >> s) | (((a << np.uint64(1)) << (np.uint64(bits - 1) - s)) & mask)
        return (r & mask).astype(V.unsigned(np.asarray(args[0])).dtype).view(V.dtype(ins.type))
    return run


def _vector_reduce(ufunc):
    """llvm.vector.reduce.{or,and,xor,add} over a vector's elements (LLVM's SLP vectoriser
    makes them from chains of scalar ops)."""
    def run(ex, ins, args):
        v = ex.full(np.asarray(args[0]), ins.args[0].type)
        return ufunc.reduce(v, axis=-1).astype(V.dtype(ins.type))
    return run


_LLVM_INTRINSICS = {
    "llvm.assume": _no_op, "llvm.lifetime.start": _no_op, "llvm.lifetime.end": _no_op,
    "llvm.ctlz": _bit_count(True), "llvm.cttz": _bit_count(False),
    "llvm.bitreverse": _bitreverse, "llvm.fshl": _funnel(True), "llvm.fshr": _funnel(False),
    "llvm.maxnum": _float_fn(np.fmax), "llvm.minnum": _float_fn(np.fmin),
    "llvm.maximum": _float_fn(np.maximum), "llvm.minimum": _float_fn(np.minimum),
    "llvm.fabs": _float_fn(np.abs), "llvm.copysign": _float_fn(np.copysign),
    "llvm.sqrt": _float_fn(np.sqrt), "llvm.exp2": _float_fn(np.exp2), "llvm.exp": _float_fn(np.exp),
    "llvm.log": _float_fn(np.log), "llvm.log2": _float_fn(np.log2), "llvm.sin": _float_fn(np.sin),
    "llvm.cos": _float_fn(np.cos), "llvm.floor": _float_fn(np.floor), "llvm.ceil": _float_fn(np.ceil),
    "llvm.trunc": _float_fn(np.trunc), "llvm.rint": _float_fn(np.rint),
    "llvm.nearbyint": _float_fn(np.rint), "llvm.roundeven": _float_fn(np.rint),
    "llvm.fma": _fma, "llvm.fmuladd": _fma,
    "llvm.smax": _int_fn(np.maximum), "llvm.smin": _int_fn(np.minimum),
    "llvm.umax": _int_fn(np.maximum, True), "llvm.umin": _int_fn(np.minimum, True),
    "llvm.abs": _int_fn(lambda a, _: np.abs(a)),
    "llvm.ctpop": _ctpop, "llvm.usub.sat": _sat(True), "llvm.uadd.sat": _sat(False),
    "llvm.vector.reduce.or": _vector_reduce(np.bitwise_or),
    "llvm.vector.reduce.and": _vector_reduce(np.bitwise_and),
    "llvm.vector.reduce.xor": _vector_reduce(np.bitwise_xor),
    "llvm.vector.reduce.add": _vector_reduce(np.add),
}
