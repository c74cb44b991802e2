"""Inline PTX, as the NVIDIA lowering emits it, read and executed for every thread.

The asm text is split into instructions (``;``), each read as an optional predicate guard
(``@$n`` / ``@!$n``), an opcode with its dot-separated modifiers, and operands (``$n``,
``{ $a, $b }`` vectors, ``[ $n + imm ]`` addresses, immediates, registers the string
declares with ``.reg``). Operands ``$n`` are the call's outputs then its inputs, in the
order of the constraint string; each is a register of the constraint's width holding raw
bits. Scope braces ``{ ... }`` around the statements are read through. Instructions run in order over the active
threads, each only where its guard holds, so ``mov`` of a default then a guarded ``ld``
gives the masked-load semantics without knowing the idiom. An instruction or modifier
outside what is implemented is an error naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from tileopt.run import atomics
from tileopt.run import tensor_core as TC
from tileopt.run.async_copy import copies_of, wgmmas_of
from tileopt.run import values as V
from tileopt.run.memory import KernelFault
from tileopt.run.ptx_arith import PtxArith

@dataclass
class PtxInstr:
    guard: tuple[int, bool] | None     # (operand, negated)
    opcode: str
    mods: list[str]
    operands: list                     # ("reg", n) | ("imm", int) | ("vec", [..]) | ("addr", n, imm)
    text: str


def _operand(tok: str, text: str):
    tok = tok.strip()
    if tok.startswith("{"):
        return ("vec", [_operand(t, text) for t in tok.strip("{}").split(",")])
    if tok.startswith("["):
        m = re.fullmatch(r"\[\s*\$(\d+)\s*(?:\+\s*(-?\w+))?\s*\]", tok)
        if not m:
            raise KernelFault(f"unsupported PTX address '{tok}' in '{text}'")
        return ("addr", int(m.group(1)), _imm(m.group(2) or "0", text))
    if re.fullmatch(r"\$\d+", tok):
        return ("reg", int(tok[1:]))
    if re.fullmatch(r"[A-Za-z_%$][\w$]*", tok):
        return ("name", tok)  # a register declared by .reg
    return ("imm", _imm(tok, text))


def _imm(tok: str, text: str) -> int | float:
    """An immediate: an integer, raw float bits (0f/0d), or a decimal float (1.0)."""
    t = tok.strip()
    try:
        if t[:2].lower() in ("0f", "0d"):
            return int(t[2:], 16)
        if re.fullmatch(r"[-+]?\d+\.\d*(e[-+]?\d+)?", t, re.IGNORECASE):
            return float(t)
        return int(t, 0)
    except ValueError:
        raise KernelFault(f"unsupported PTX operand '{tok}' in '{text}'") from None


def _split_operands(s: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


def parse(text: str) -> list[PtxInstr]:
    out = []
    # "$$" is a literal "$" in LLVM's asm strings
    for stmt in re.sub(r"//[^\n]*", "", text).replace("$$", "$").split(";"):
        s = stmt.strip().lstrip("{}").strip()  # scope braces: one scope for the whole asm
        if not s:
            continue
        if s.startswith(".reg"):
            _, kind, names = s.split(None, 2)
            out.append(PtxInstr(None, "reg", [kind.lstrip(".")],
                                [("name", n.strip()) for n in names.split(",")], s))
            continue
        guard = None
        m = re.match(r"@(!?)\$(\d+)\s+", s)
        if m:
            guard = (int(m.group(2)), m.group(1) == "!")
            s = s[m.end():]
        head, _, rest = s.partition(" ")
        parts = head.split(".")
        out.append(PtxInstr(guard, parts[0], parts[1:], [_operand(t, stmt) for t in
                                                          _split_operands(rest)], stmt.strip()))
    return out


_CACHE_MODS = re.compile(r"^(ca|cg|cs|lu|cv|wb|wt|nc|weak|volatile|L1::.*|L2::.*|"
                         r"cta|gpu|sys|cluster)$")
_SEMS = ("relaxed", "acquire", "release", "acq_rel", "sc")
_SPACES = ("global", "shared", "local", "const", "param")


def _type_bits(t: str | None) -> int:
    m = re.fullmatch(r"[bsuf](\d+)", t or "")
    if not m:
        raise KernelFault(f"unsupported PTX type '.{t}'" if t else "PTX instruction without a type")
    return int(m.group(1))


class AsmCall(PtxArith):
    """One execution of an ``asm`` call over the active threads of the executor."""

    def __init__(self, ex, ins, args):
        self.ex, self.ins = ex, ins
        callee = ins.extra["callee"]
        cons = [c.strip() for c in callee.constraints.split(",") if c.strip() and not c.strip().startswith("~")]
        outs = [c for c in cons if c.startswith("=")]
        ins_c = [c for c in cons if not c.startswith("=")]
        n = len(ex.idx)
        self.regs: list[np.ndarray] = []
        self.kinds: list[str] = []
        for c in outs:
            kind = c.lstrip("=&")
            self.kinds.append(kind)
            self.regs.append(np.zeros(n, np.uint64))
        for c, arg, a in zip(ins_c, ins.args, args):
            if c.isdigit():  # tied to an output
                kind = self.kinds[int(c)]
            else:
                kind = c
            self.kinds.append(kind)
            self.regs.append(self._bits(arg.type, a, n))
            if c.isdigit():
                self.regs[int(c)] = self.regs[-1].copy()
        self.outs = outs
        self.program = parse(callee.text)
        self.cc = None  # the carry flag of each thread (ptx_arith.py)
        self._declare_registers(n)

    def _declare_registers(self, n: int) -> None:
        """Registers named by ``.reg`` get numbers after the ``$n``; names are resolved."""
        named: dict[str, int] = {}
        for pi in self.program:
            if pi.opcode == "reg":
                bits = 1 if pi.mods[0] == "pred" else _type_bits(pi.mods[0])
                for _, name in pi.operands:
                    named[name] = len(self.regs)
                    self.regs.append(np.zeros(n, np.uint64))
                    self.kinds.append({1: "b", 16: "h", 32: "r", 64: "l"}.get(bits, "r"))

        def resolve(op, pi):
            if op[0] == "name":
                if op[1] not in named:
                    raise self.error(pi, f"unknown register '{op[1]}'")
                return ("reg", named[op[1]])
            if op[0] == "vec":
                return ("vec", [resolve(x, pi) for x in op[1]])
            return op
        for pi in self.program:
            if pi.opcode != "reg":
                pi.operands = [resolve(op, pi) for op in pi.operands]

    def _bits(self, ty, a, n):
        full = self.ex.full(a, ty)[self.ex.idx]
        if ty.kind == "int" and ty.bits == 1:
            return full.astype(np.uint64)
        raw = V.to_bytes(full, ty, n)
        width = raw.shape[1]
        return raw.view(V.bits_dtype(width)).reshape(n).astype(np.uint64)

    def error(self, pi: PtxInstr, msg: str) -> KernelFault:
        return KernelFault(f"{msg} in inline PTX '{pi.text}'")

    def run(self):
        for pi in self.program:
            on = np.ones(len(self.ex.idx), bool)
            if pi.guard is not None:
                g = self.regs[pi.guard[0]] != 0
                on = ~g if pi.guard[1] else g
            handler = getattr(self, "i_" + pi.opcode, None)
            if handler is None:
                raise self.error(pi, f"unsupported PTX instruction '{pi.opcode}'")
            handler(pi, on)
        return self._results()

    def _results(self):
        out_vals = []
        ity = self.ins.type
        tys = ity.fields if ity.kind == "struct" else (ity,) if self.outs else ()
        for k, ty in enumerate(tys):
            nbytes = V.size_of(ty)
            bits = self.regs[k].astype(V.bits_dtype(nbytes))
            got = V.from_bytes(bits.view(np.uint8).reshape(-1, nbytes), ty)
            full = np.zeros((self.ex.n,) + got.shape[1:], got.dtype)
            full[self.ex.idx] = got
            out_vals.append(full)
        if not out_vals:
            return None
        return tuple(out_vals) if ity.kind == "struct" else out_vals[0]

    # -------------------------------------------------------------- operand access
    def _read(self, op, bits: int) -> np.ndarray:
        mask = np.uint64((1 << bits) - 1) if bits < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
        if op[0] == "reg":
            return self.regs[op[1]] & mask
        if op[0] == "imm":
            value = op[1]
            if isinstance(value, float):  # a decimal float, in the width's float format
                fmt = {16: np.float16, 32: np.float32, 64: np.float64}[bits]
                value = int(np.array([value], fmt).view(V.bits_dtype(bits // 8))[0])
            return np.full(len(self.ex.idx), value & int(mask), np.uint64)
        raise KernelFault(f"unexpected PTX operand {op}")

    def _write(self, op, value: np.ndarray, on: np.ndarray, bits: int) -> None:
        if op[0] != "reg":
            raise KernelFault(f"PTX destination {op} is not a register")
        mask = np.uint64((1 << bits) - 1) if bits < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
        self.regs[op[1]] = np.where(on, value.astype(np.uint64) & mask, self.regs[op[1]])

    def _mods(self, pi: PtxInstr):
        space, vec, typ, rest = "generic", 1, None, []
        for m in pi.mods:
            if m in _SPACES:
                space = m
            elif re.fullmatch(r"v\d+", m):
                vec = int(m[1:])
            elif re.fullmatch(r"[bsuf]\d+", m):
                typ = m
            elif m in _SEMS or _CACHE_MODS.match(m):
                continue
            else:
                rest.append(m)
        if space in ("local", "const", "param"):
            raise self.error(pi, f"state space '.{space}' is not supported")
        return space, vec, typ, rest

    def _address(self, pi, op, space):
        if op[0] != "addr":
            raise self.error(pi, "expected an address operand")
        reg = self.regs[op[1]]
        if space == "shared" and self.kinds[op[1]] == "r":
            reg = reg & np.uint64(0xFFFFFFFF)
        return reg.view(np.int64) + op[2]

    # -------------------------------------------------------------- instructions
    def i_reg(self, pi, on):
        """A declaration (its registers were made before the run)."""

    def i_mov(self, pi, on):
        """mov; with a {..} operand, a register split into or packed from its parts (the
        first part the low bits)."""
        bits = _type_bits(pi.mods[-1])
        dst, src = pi.operands[:2]
        if src[0] == "vec":
            part = bits // len(src[1])
            value = np.zeros(len(on), np.uint64)
            for k, r in enumerate(src[1]):
                value |= self._read(r, part) << np.uint64(k * part)
            return self._write(dst, value, on, bits)
        value = self._read(src, bits)
        if dst[0] == "vec":
            part = bits // len(dst[1])
            for k, r in enumerate(dst[1]):
                self._write(r, value >> np.uint64(k * part), on, part)
            return
        self._write(dst, value, on, bits)

    def _access(self, pi, on, addr_op, regs):
        """ld/st: (space, bits per word, registers, guarded rows, their addresses)."""
        space, vec, typ, rest = self._mods(pi)
        if rest:
            raise self.error(pi, f"unsupported modifier '.{rest[0]}'")
        words = regs[1] if regs[0] == "vec" else [regs]
        if len(words) != vec:
            raise self.error(pi, f"{len(words)} registers for a .v{vec} access")
        rows = np.nonzero(on)[0]
        return space, _type_bits(typ), words, rows, self._address(pi, addr_op, space)[rows]

    def i_ld(self, pi, on):
        space, bits, dsts, rows, addr = self._access(pi, on, pi.operands[1], pi.operands[0])
        nbytes = bits // 8
        size = nbytes * len(dsts)
        raw = self.ex.mem.read(space, addr, size, self.ex.idx[rows], size, self.ex.where(self.ins))
        words = raw.reshape(len(rows), len(dsts), nbytes)
        for k, d in enumerate(dsts):
            val = np.zeros(len(on), np.uint64)
            val[rows] = np.ascontiguousarray(words[:, k, :]).view(V.bits_dtype(nbytes)).reshape(-1)
            self._write(d, val, on, bits)

    def i_st(self, pi, on):
        space, bits, srcs, rows, addr = self._access(pi, on, pi.operands[0], pi.operands[1])
        nbytes = bits // 8
        words = [self._read(s, bits)[rows].astype(V.bits_dtype(nbytes)) for s in srcs]
        data = np.stack(words, 1).view(np.uint8).reshape(len(rows), nbytes * len(srcs))
        self.ex.mem.write(space, addr, data, self.ex.idx[rows], data.shape[1], self.ex.where(self.ins))

    def i_createpolicy(self, pi, on):
        self._write(pi.operands[0], np.zeros(len(on), np.uint64), on, 64)

    def i_atom(self, pi, on):
        self._atomic(pi, on, returns=True)

    def i_red(self, pi, on):
        self._atomic(pi, on, returns=False)

    _RMW = tuple(op for op in atomics.OPS if op != "sub")

    def _atomic(self, pi, on, returns):
        space, vec, typ, rest = self._mods(pi)
        rest = [m for m in rest if m != "noftz"]
        ops = [m for m in rest if m in self._RMW]
        if len(ops) != 1 or len(rest) != 1 or (vec != 1 and ops[0] != "add"):
            raise self.error(pi, "unsupported atomic form")
        op = ops[0]
        if typ == "bf16":
            raise self.error(pi, "bf16 atomics are not supported")
        bits = _type_bits(typ)
        nbytes = bits // 8
        operands = pi.operands[1:] if returns else pi.operands
        addr_op, vals = operands[0], operands[1:]
        rows = np.nonzero(on)[0]
        addr = self._address(pi, addr_op, space)[rows]
        lanes = self.ex.idx[rows]
        bd = V.bits_dtype(nbytes)
        vd = {"u": bd, "b": bd, "s": np.dtype(bd.str.replace("u", "i")),
              "f": {2: np.float16, 4: np.float32, 8: np.float64}[nbytes]}[typ[0]]
        # .vN (sm_90 float adds): element k at addr + k * size, each its own atomic
        sources = vals[0][1] if vec > 1 else [vals[0]]
        dests = (pi.operands[0][1] if vec > 1 else [pi.operands[0]]) if returns else []
        c = self._read(vals[1], bits)[rows] if vec == 1 and len(vals) > 1 else None
        for k, source in enumerate(sources):
            b = self._read(source, bits)[rows]
            got = atomics.apply(self.ex.mem, addr + k * nbytes, lanes, op, vd,
                                b.astype(bd).view(vd),
                                None if c is None else c.astype(bd).view(vd), space=space,
                                where=self.ex.where(self.ins))
            if dests:
                old = np.zeros(len(on), np.uint64)
                old[rows] = got.view(bd).astype(np.uint64)
                self._write(dests[k], old, on, bits)

    # -------------------------------------------------------------- async copies, tensor cores
    def _rows(self, on):
        """Positions (into the active threads) and launch rows of the guarded threads."""
        pos = np.nonzero(on)[0]
        return pos, self.ex.idx[pos]

    def i_cp(self, pi, on):
        """cp.async[.ca|.cg].shared{::cta}.global [dst], [src], cp-size[, src-size];
        cp.async.commit_group; cp.async.wait_group N; cp.async.wait_all."""
        mods = [m for m in pi.mods if m not in ("ca", "cg", "L2::128B", "L2::256B", "L2::64B")]
        pos, rows = self._rows(on)
        copies = copies_of(self.ex.mem)
        if mods == ["async", "commit_group"]:
            return copies.commit(rows)
        if mods == ["async", "wait_group"]:
            if len(rows):
                copies.wait(int(self._read(pi.operands[0], 32)[pos[0]]), rows)
            return
        if mods == ["async", "wait_all"]:
            copies.commit(rows)
            return copies.wait(0, rows)
        if mods[:1] != ["async"] or mods[1:] not in (["shared", "global"],
                                                     ["shared::cta", "global"]):
            raise self.error(pi, f"unsupported cp form '.{'.'.join(pi.mods)}'")
        dst, src, size = pi.operands[:3]
        if size[0] != "imm":
            raise self.error(pi, "cp.async needs an immediate cp-size")
        src_size = self._read(pi.operands[3], 32)[pos].astype(np.int64) if len(pi.operands) > 3 \
            else np.full(len(pos), size[1], np.int64)
        copies.issue(self._address(pi, dst, "shared")[pos], self._address(pi, src, "global")[pos],
                     size[1], src_size, rows, self.ex.where(self.ins))

    def _groups(self, pi, on, size):
        pos, rows = self._rows(on)
        TC.whole_groups(rows, size, pi.opcode, self.ex.lanes.describe)
        return pos.reshape(-1, size)

    def _vec(self, op, pos, bits=32) -> np.ndarray:
        """A {..} operand's registers at positions ``pos`` -> pos.shape + (count,)."""
        regs = op[1] if op[0] == "vec" else [op]
        return np.stack([self._read(r, bits)[pos] for r in regs], -1)

    def _write_vec(self, op, pos, values, on, bits=32):
        for k, r in enumerate(op[1]):
            full = np.zeros(len(on), np.uint64)
            full[pos.reshape(-1)] = values[..., k].reshape(-1)
            self._write(r, full, on, bits)

    def i_mma(self, pi, on):
        """mma.sync.aligned.<shape>.row.col.<d>.<a>.<b>.<c> {d}, {a}, {b}, {c}."""
        mods = pi.mods
        if mods[:2] != ["sync", "aligned"] or mods[3:5] != ["row", "col"] or len(mods) != 9:
            raise self.error(pi, f"unsupported mma form '.{'.'.join(mods)}'")
        pos = self._groups(pi, on, 32)
        d, a, b, c = pi.operands
        out = TC.mma_sync(mods[2], mods[5:], self._vec(a, pos), self._vec(b, pos),
                          self._vec(c, pos))
        self._write_vec(d, pos, out, on)

    def i_wgmma(self, pi, on):
        """wgmma.fence (a no-op: the product is complete when the mma_async executes),
        commit_group and wait_group (of the operand reads in flight), mma_async."""
        mods = pi.mods
        if mods == ["fence", "sync", "aligned"]:
            return
        if mods == ["commit_group", "sync", "aligned"]:
            return wgmmas_of(self.ex.mem).commit(self._rows(on)[1])
        if mods == ["wait_group", "sync", "aligned"]:
            pos, rows = self._rows(on)
            if len(rows):
                wgmmas_of(self.ex.mem).wait(int(self._read(pi.operands[0], 32)[pos[0]]), rows)
            return
        if mods[:3] != ["mma_async", "sync", "aligned"] or len(mods) != 7:
            raise self.error(pi, f"unsupported wgmma form '.{'.'.join(mods)}'")
        pos = self._groups(pi, on, 128)
        d, a, b, scale_d, *imm = pi.operands
        if any(x[0] != "imm" for x in imm):
            raise self.error(pi, "wgmma scale and transpose operands must be immediates")
        a_val = self._vec(a, pos) if a[0] == "vec" else self._read(a, 64)[pos[:, 0]]
        mem, where = self.ex.mem, self.ex.where(self.ins)
        first = self.ex.idx[pos[:, 0]]

        def read(addr, esize):
            # the warpgroup's shared operand, read on behalf of its first thread
            lanes = np.broadcast_to(first[:, None, None], addr.shape).reshape(-1)
            raw = mem.read("shared", addr.reshape(-1), esize, lanes, esize, where)
            wgmmas_of(mem).issue(addr.reshape(-1), esize, lanes, where)
            return raw.view(V.bits_dtype(esize)).reshape(addr.shape).astype(np.uint64)

        out = TC.wgmma(mods[3], mods[4:], a_val, self._read(b, 64)[pos[:, 0]],
                       self._vec(d, pos), (self._read(scale_d, 1)[pos[:, 0]] != 0).astype(float),
                       [int(np.int64(x[1])) for x in imm], read)
        self._write_vec(d, pos, out, on)

    def i_fence(self, pi, on):
        """fence.proxy.async[.shared::cta]: generic and async proxies are one memory here."""
        if pi.mods[:2] != ["proxy", "async"]:
            raise self.error(pi, f"unsupported fence '.{'.'.join(pi.mods)}'")
