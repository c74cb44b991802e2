"""A reader for the LLVM IR text that ``tileopt-translate`` prints (LLVM's own canonical
printing of the module), into plain Python objects the interpreter executes.

Only what a kernel body holds is read: globals, function definitions and declarations,
basic blocks and instructions. Metadata, attribute groups and debug records are skipped.
An instruction or type outside the subset is an error naming its line, never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tileopt.ir import TileoptError


class IRReadError(TileoptError):
    pass


# ------------------------------------------------------------------------------- types

@dataclass(frozen=True)
class Type:
    kind: str                  # int, float, ptr, vec, array, struct, void, label, meta
    bits: int = 0              # int width, float width (bfloat: 16 with name 'bfloat')
    name: str = ""             # float name (half, bfloat, float, double)
    addrspace: int = 0
    count: int = 0             # vector / array length
    elem: "Type | None" = None
    fields: tuple = ()

    def __str__(self) -> str:
        if self.kind == "int":
            return f"i{self.bits}"
        if self.kind == "float":
            return self.name
        if self.kind == "ptr":
            return "ptr" if not self.addrspace else f"ptr addrspace({self.addrspace})"
        if self.kind == "vec":
            return f"<{self.count} x {self.elem}>"
        if self.kind == "array":
            return f"[{self.count} x {self.elem}]"
        if self.kind == "struct":
            return "{ " + ", ".join(map(str, self.fields)) + " }"
        return self.kind


FLOATS = {"half": 16, "bfloat": 16, "float": 32, "double": 64}
VOID = Type("void")


# ------------------------------------------------------------------------------- values

@dataclass
class Const:
    type: Type
    value: object              # int, float, list (vector/array/struct), None (undef/poison/zero)
    undef: bool = False


@dataclass
class Ref:
    """A use of a local value (%x), a global (@x) or a block label."""
    name: str
    type: Type
    is_global: bool = False


@dataclass
class ConstGEP:
    type: Type                 # the result pointer type
    source: Type
    base: object
    indices: list


@dataclass
class InlineAsm:
    text: str
    constraints: str


@dataclass
class Instr:
    op: str                    # opcode (icmp/fcmp carry their predicate in pred)
    result: str | None
    type: Type                 # the result type (or the stored value's type for store)
    args: list
    pred: str = ""
    extra: dict = field(default_factory=dict)
    line: int = 0


@dataclass
class Block:
    name: str
    instrs: list[Instr] = field(default_factory=list)


@dataclass
class Function:
    name: str
    ret: Type
    params: list[tuple[str, Type]]
    blocks: list[Block] = field(default_factory=list)
    attrs: dict = field(default_factory=dict)
    declaration: bool = False
    attr_group: str | None = None


@dataclass
class Module:
    functions: dict[str, Function] = field(default_factory=dict)
    globals: dict[str, tuple[Type, int]] = field(default_factory=dict)  # name -> (type, addrspace)
    initializers: dict[str, "Const"] = field(default_factory=dict)     # name -> its value
    types: dict[str, Type] = field(default_factory=dict)      # '%struct.x' -> its body
    attr_groups: dict[str, dict] = field(default_factory=dict)
    metadata: dict[str, str] = field(default_factory=dict)   # '!7' -> its text

    def location(self, dbg: str | None) -> tuple[str, int, int] | None:
        """(file, line, column) of a !DILocation; through inlinedAt to the outermost call."""
        text = self.metadata.get(dbg or "", "")
        seen = 0
        while "inlinedAt:" in text and seen < 64:
            text = self.metadata.get(_field(text, "inlinedAt") or "", "")
            seen += 1
        if not text.startswith("!DILocation("):
            return None
        line, col = int(_field(text, "line") or 0), int(_field(text, "column") or 0)
        scope = self.metadata.get(_field(text, "scope") or "", "")
        for _ in range(64):
            file_ref = _field(scope, "file")
            if file_ref:
                name = re.search(r'filename: "([^"]*)"', self.metadata.get(file_ref, ""))
                return (name.group(1), line, col) if name else None
            scope = self.metadata.get(_field(scope, "scope") or "", "")
            if not scope:
                return None
        return None

    def module_flag(self, name: str) -> int | None:
        """The integer value of a module flag (``!{i32 4, !"name", i32 1}``)."""
        for text in self.metadata.values():
            m = re.fullmatch(rf'!\{{i32 \d+, !"{re.escape(name)}", i32 (-?\d+)\}}', text)
            if m:
                return int(m.group(1))
        return None

    def kernels(self) -> list[Function]:
        return [f for f in self.functions.values() if not f.declaration]


def _field(text: str, name: str) -> str | None:
    m = re.search(rf"\b{name}: (![0-9]+|-?[0-9]+)", text)
    return m.group(1) if m else None


# ------------------------------------------------------------------------------- lexer

_TOKEN = re.compile(r"""
    (?P<ws>[ \t]+)
  | (?P<str>c?"(?:[^"\\]|\\.)*")
  | (?P<local>%[-a-zA-Z$._0-9]+|%"[^"]*")
  | (?P<global>@[-a-zA-Z$._0-9]+|@"[^"]*")
  | (?P<meta>![-a-zA-Z$._0-9]*)
  | (?P<attr>\#[0-9]+)
  | (?P<num>0x[KLMHR]?[0-9A-Fa-f]+|[-+]?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)
  | (?P<word>[A-Za-z_][A-Za-z_0-9.:]*)
  | (?P<punct>[()\[\]{}<>,=*:])
""", re.VERBOSE)


def _tokens(line: str, lineno: int) -> list[str]:
    out, pos = [], 0
    while pos < len(line):
        if line[pos] == ";":
            break
        m = _TOKEN.match(line, pos)
        if m is None:
            raise IRReadError(f"cannot read LLVM IR near '{line[pos:pos + 20]}'", None, lineno,
                              pos + 1)
        pos = m.end()
        if m.lastgroup != "ws":
            out.append(m.group())
    return out


class _Cursor:
    def __init__(self, toks: list[str], lineno: int, module: Module):
        self.t, self.i, self.line, self.module = toks, 0, lineno, module

    def peek(self, k: int = 0) -> str | None:
        return self.t[self.i + k] if self.i + k < len(self.t) else None

    def next(self) -> str:
        if self.i >= len(self.t):
            raise self.error("unexpected end of line")
        self.i += 1
        return self.t[self.i - 1]

    def accept(self, tok: str) -> bool:
        if self.peek() == tok:
            self.i += 1
            return True
        return False

    def expect(self, tok: str) -> None:
        got = self.next()
        if got != tok:
            raise self.error(f"expected '{tok}', found '{got}'")

    def error(self, msg: str) -> IRReadError:
        return IRReadError(msg, None, self.line)

    # -- types
    def type(self) -> Type:
        tok = self.next()
        if tok.startswith("i") and tok[1:].isdigit():
            ty = Type("int", int(tok[1:]))
        elif tok in FLOATS:
            ty = Type("float", FLOATS[tok], tok)
        elif tok == "ptr":
            space = 0
            if self.accept("addrspace"):
                self.expect("(")
                space = int(self.next())
                self.expect(")")
            ty = Type("ptr", 64, addrspace=space)
        elif tok in ("<", "["):  # <N x T>, [N x T]
            n = int(self.next())
            self.expect("x")
            elem = self.type()
            self.expect(">" if tok == "<" else "]")
            ty = Type("vec" if tok == "<" else "array", count=n, elem=elem)
        elif tok == "{":
            fields = []
            if not self.accept("}"):
                while True:
                    fields.append(self.type())
                    if self.accept("}"):
                        break
                    self.expect(",")
            ty = Type("struct", fields=tuple(fields))
        elif tok in ("void", "label", "metadata"):
            ty = Type(tok)
        elif tok in self.module.types:  # a named struct, as its body
            ty = self.module.types[tok]
        else:
            raise self.error(f"unsupported type '{tok}'")
        return ty

    # -- values
    def value(self, ty: Type):
        tok = self.next()
        if tok.startswith("%"):
            return Ref(tok[1:].strip('"'), ty)
        if tok.startswith("@"):
            return Ref(tok[1:].strip('"'), ty, is_global=True)
        if tok in ("undef", "poison"):
            return Const(ty, None, undef=True)
        if tok == "zeroinitializer":
            return Const(ty, None)
        if tok in ("true", "false"):
            return Const(ty, tok == "true")
        if tok.startswith('c"'):  # an i8 array written as a string
            return Const(ty, list(_unescape(tok).encode("latin-1")))
        if tok == "null":
            return Const(ty, 0)
        if tok == "splat":
            self.expect("(")
            ety = self.type()
            v = self.value(ety)
            self.expect(")")
            return Const(ty, [v.value] * ty.count)
        if tok in ("<", "[", "{"):
            close = {"<": ">", "[": "]", "{": "}"}[tok]
            items = []
            if not self.accept(close):
                while True:
                    ety = self.type()
                    items.append(self.value(ety))
                    if self.accept(close):
                        break
                    self.expect(",")
            if not all(isinstance(v, Const) for v in items) or \
                    any(v.undef and v.type.kind not in ("int", "float") for v in items):
                raise self.error("aggregate constants with undef or non-constant parts are not supported")
            # an undef element may be any value: 0, as a whole undef is (-O3's partial vectors)
            return Const(ty, [0 if v.undef else v.value for v in items])
        if tok == "getelementptr":
            while self.peek() in ("inbounds", "nuw", "nusw"):
                self.next()
            self.expect("(")
            source = self.type()
            self.expect(",")
            bty = self.type()
            base = self.value(bty)
            indices = []
            while self.accept(","):
                ity = self.type()
                indices.append(self.value(ity))
            self.expect(")")
            return ConstGEP(ty, source, base, indices)
        if tok in ("ptrtoint", "inttoptr", "bitcast", "addrspacecast"):
            raise self.error(f"constant expression '{tok}' is not supported")
        if tok[0].isdigit() or tok[0] in "+-":
            if tok.startswith("0x"):
                return Const(ty, _hex_float(tok, ty, self))
            if ty.kind == "float":
                return Const(ty, float(tok))
            return Const(ty, int(tok))
        raise self.error(f"unexpected '{tok}' where a value was expected")

    def typed_value(self):
        ty = self.type()
        return self.value(ty)

    def typed_values(self, count: int) -> list:
        """``T a, T b, ...``: count typed values separated by commas."""
        out = [self.typed_value()]
        for _ in range(count - 1):
            self.expect(",")
            out.append(self.typed_value())
        return out


def _hex_float(tok: str, ty: Type, cur: _Cursor):
    """LLVM's hexadecimal float spellings, as the raw bits of the value's own format."""
    if ty.kind != "float":
        return int(tok, 16)
    kind, digits = (tok[2], tok[3:]) if tok[2] in "KLMHR" else ("", tok[2:])
    bits = int(digits, 16)
    if kind == "H":
        return ("bits16", bits)
    if kind == "R":
        return ("bitsbf16", bits)
    if kind:
        raise cur.error(f"float constant '{tok}' of an unsupported format")
    return ("bits64", bits)  # a double's bits, exactly representable in the value's type


# ------------------------------------------------------------------------------- instructions

_BINARY = {"add", "sub", "mul", "sdiv", "udiv", "srem", "urem", "shl", "lshr", "ashr", "and",
           "or", "xor", "fadd", "fsub", "fmul", "fdiv", "frem"}
_CASTS = {"bitcast", "zext", "sext", "trunc", "fpext", "fptrunc", "sitofp", "uitofp",
          "fptosi", "fptoui", "ptrtoint", "inttoptr", "addrspacecast"}
_FLAGS = {"nuw", "nsw", "exact", "disjoint", "nnan", "ninf", "nsz", "arcp", "contract",
          "afn", "reassoc", "fast", "samesign", "nneg", "volatile"}
_CALL_PREFIX = {"tail", "musttail", "notail"}


def _skip_flags(c: _Cursor) -> None:
    while c.peek() in _FLAGS:
        c.next()


def _read_instr(c: _Cursor) -> Instr:
    result = None
    if c.peek() and c.peek().startswith("%") and c.peek(1) == "=":
        result = c.next()[1:].strip('"')
        c.next()
    if c.peek() in _CALL_PREFIX:
        c.next()
    op = c.next()
    line = c.line
    if op in _BINARY:
        _skip_flags(c)
        ty = c.type()
        a = c.value(ty)
        c.expect(",")
        b = c.value(ty)
        return Instr(op, result, ty, [a, b], line=line)
    if op in ("fneg", "freeze"):
        _skip_flags(c)
        ty = c.type()
        return Instr(op, result, ty, [c.value(ty)], line=line)
    if op in ("icmp", "fcmp"):
        _skip_flags(c)
        pred = c.next()
        ty = c.type()
        a = c.value(ty)
        c.expect(",")
        b = c.value(ty)
        rty = Type("vec", count=ty.count, elem=Type("int", 1)) if ty.kind == "vec" else Type("int", 1)
        return Instr(op, result, rty, [a, b], pred=pred, extra={"operand_type": ty}, line=line)
    if op in _CASTS:
        _skip_flags(c)
        src = c.typed_value()
        c.expect("to")
        return Instr(op, result, c.type(), [src], line=line)
    if op == "select":
        _skip_flags(c)
        cond, a, b = c.typed_values(3)
        return Instr(op, result, a.type, [cond, a, b], line=line)
    if op == "phi":
        _skip_flags(c)
        ty = c.type()
        incoming = []
        while True:
            c.expect("[")
            v = c.value(ty)
            c.expect(",")
            label = c.next()[1:]
            c.expect("]")
            incoming.append((label, v))
            if not c.accept(","):
                break
        return Instr(op, result, ty, incoming, line=line)
    if op == "getelementptr":
        while c.peek() in ("inbounds", "nuw", "nusw"):
            c.next()
        source = c.type()
        c.expect(",")
        base = c.typed_value()
        indices = []
        while c.accept(","):
            if c.peek() and c.peek().startswith("!"):
                break
            indices.append(c.typed_value())
        return Instr(op, result, base.type, [base] + indices, extra={"source": source}, line=line)
    if op == "load":
        c.accept("volatile")
        ty = c.type()
        c.expect(",")
        ptr = c.typed_value()
        align = _align(c)
        return Instr(op, result, ty, [ptr], extra={"align": align}, line=line)
    if op == "store":
        c.accept("volatile")
        val, ptr = c.typed_values(2)
        align = _align(c)
        return Instr(op, None, val.type, [val, ptr], extra={"align": align}, line=line)
    if op == "extractelement":
        v, i = c.typed_values(2)
        return Instr(op, result, v.type.elem, [v, i], line=line)
    if op == "insertelement":
        v, e, i = c.typed_values(3)
        return Instr(op, result, v.type, [v, e, i], line=line)
    if op == "shufflevector":
        a, b, m = c.typed_values(3)
        rty = Type("vec", count=m.type.count, elem=a.type.elem)
        return Instr(op, result, rty, [a, b, m], line=line)
    if op in ("extractvalue", "insertvalue"):
        agg = c.typed_value()
        args = [agg]
        if op == "insertvalue":
            c.expect(",")
            args.append(c.typed_value())
        idx = []
        while c.accept(","):
            idx.append(int(c.next()))
        ty = agg.type
        if op == "extractvalue":
            for k in idx:
                ty = ty.fields[k] if ty.kind == "struct" else ty.elem
        return Instr(op, result, ty, args, extra={"indices": idx}, line=line)
    if op == "br":
        if c.peek() == "label":
            c.next()
            return Instr(op, None, VOID, [c.next()[1:]], line=line)
        cond = c.typed_value()
        c.expect(",")
        c.expect("label")
        t = c.next()[1:]
        c.expect(",")
        c.expect("label")
        f = c.next()[1:]
        return Instr(op, None, VOID, [cond, t, f], line=line)
    if op == "ret":
        if c.peek() == "void":
            return Instr(op, None, VOID, [], line=line)
        return Instr(op, None, VOID, [c.typed_value()], line=line)
    if op == "unreachable":
        return Instr(op, None, VOID, [], line=line)
    if op == "call":
        _skip_flags(c)
        _skip_attributes(c)
        rty = c.type()
        if c.peek() == "(":  # a function type: ret (args...)
            while c.next() != ")":
                pass
        if c.accept("asm"):
            while c.peek() in ("sideeffect", "alignstack", "inteldialect", "unwind"):
                c.next()
            text = _unescape(c.next())
            c.expect(",")
            constraints = _unescape(c.next())
            callee = InlineAsm(text, constraints)
        else:
            callee = c.next()[1:]
        c.expect("(")
        args = []
        if not c.accept(")"):
            while True:
                ty = c.type()
                _skip_attributes(c, before=_is_value_start)
                args.append(c.value(ty))
                if c.accept(")"):
                    break
                c.expect(",")
        return Instr(op, result, rty, args, extra={"callee": callee}, line=line)
    if op == "fence":
        scope = _sync_scope(c)
        return Instr(op, None, VOID, [], extra={"scope": scope, "ordering": c.next()}, line=line)
    if op in ("atomicrmw", "cmpxchg"):
        while c.peek() in ("weak", "volatile"):
            c.next()
        rmw = c.next() if op == "atomicrmw" else "cas"
        args = c.typed_values(2 if op == "atomicrmw" else 3)
        scope = _sync_scope(c)
        while c.peek() in _ORDERINGS:
            c.next()
        rty = args[1].type if op == "atomicrmw" else Type("struct", fields=(args[1].type, Type("int", 1)))
        return Instr(op, result, rty, args, extra={"rmw": rmw, "scope": scope, "align": _align(c)},
                     line=line)
    if op == "alloca":
        c.accept("inalloca")
        ty = c.type()
        count, align, space = 1, 1, 0
        while c.accept(","):  # [, <ty> <count>] [, align <n>] [, addrspace(<n>)]
            if c.accept("align"):
                align = int(c.next())
            elif c.accept("addrspace"):
                c.expect("(")
                space = int(c.next())
                c.expect(")")
            elif _is_type_start(c.peek()):
                n = c.typed_value()
                if not isinstance(n, Const):
                    raise c.error("'alloca' of a varying number of elements is not supported")
                count = int(n.value)
            else:
                break
        return Instr(op, result, Type("ptr", 64, addrspace=space), [],
                     extra={"allocated": ty, "count": count, "align": align}, line=line)
    if op == "switch":
        raise c.error(f"'{op}' is not supported by tileopt-run yet")
    raise c.error(f"unknown instruction '{op}'")


_ORDERINGS = {"unordered", "monotonic", "acquire", "release", "acq_rel", "seq_cst"}


def _sync_scope(c: _Cursor) -> str:
    """``syncscope("agent")`` -> ``agent``; the system scope (none written) -> ``""``."""
    if not c.accept("syncscope"):
        return ""
    c.expect("(")
    scope = c.next().strip('"')
    c.expect(")")
    return scope


def _is_type_start(tok: str | None) -> bool:
    return tok is not None and (tok in FLOATS or tok in ("ptr", "void", "label", "metadata",
                                                          "<", "[", "{")
                                or tok[0] == "i" and tok[1:].isdigit())


_VALUE_WORDS = {"true", "false", "null", "undef", "poison", "zeroinitializer", "splat",
                "getelementptr", "ptrtoint", "inttoptr", "bitcast", "addrspacecast"}


def _is_value_start(tok: str | None) -> bool:
    return tok is not None and (tok[0] in "%@-+0123456789<[{" or tok in _VALUE_WORDS)


def _skip_attributes(c: _Cursor, before=_is_type_start) -> None:
    """Calling conventions and parameter/return attributes (``noundef``, ``range(i32 0, 8)``)
    up to the next type (or value)."""
    while c.peek() is not None and not before(c.peek()):
        c.next()
        if c.peek() == "(":
            depth = 0
            while True:
                tok = c.next()
                depth += tok == "("
                depth -= tok == ")"
                if depth == 0:
                    break


def _align(c: _Cursor) -> int:
    align = 1
    while c.accept(","):
        if c.accept("align"):
            align = int(c.next())
        else:
            break
    return align


def _unescape(tok: str) -> str:
    body = tok[1:-1] if tok[0] == '"' else tok[2:-1]
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), body).replace("\\\\", "\\")


# ------------------------------------------------------------------------------- module

_FUNC_HEAD = re.compile(r"^(define|declare)\b")


def read_module(text: str) -> Module:
    module = Module()
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        raw = lines[i]
        lineno = i + 1
        i += 1
        stripped = raw.strip()
        if not stripped or stripped.startswith(";"):
            continue
        meta = re.match(r"^(![0-9]+) = (?:distinct )?(.*)$", stripped)
        if meta:
            module.metadata[meta.group(1)] = meta.group(2)
            continue
        if stripped.startswith("attributes #"):
            name, _, body = stripped[len("attributes "):].partition(" = ")
            module.attr_groups[name] = dict(re.findall(r'"([^"]+)"="([^"]*)"', body))
            continue
        named = re.match(r"^(%[-a-zA-Z$._0-9]+|%\"[^\"]*\") = type ", stripped)
        if named:
            c = _Cursor(_tokens(stripped[named.end():], lineno), lineno, module)
            module.types[named.group(1)] = c.type()
            continue
        if stripped.startswith("@"):
            c = _Cursor(_tokens(stripped, lineno), lineno, module)
            name = c.next()[1:].strip('"')
            c.expect("=")
            space = 0
            while c.peek() not in ("global", "constant"):
                tok = c.next()
                if tok == "addrspace":
                    c.expect("(")
                    space = int(c.next())
                    c.expect(")")
            c.next()
            ty = c.type()
            module.globals[name] = (ty, space)
            if c.peek() not in (None, ","):
                module.initializers[name] = c.value(ty)
            continue
        m = _FUNC_HEAD.match(stripped)
        if not m:
            continue
        c = _Cursor(_tokens(stripped, lineno), lineno, module)
        func = _function_head(c, m.group(1) == "declare")
        module.functions[func.name] = func
        if func.declaration:
            continue
        numbered = [n for n, _ in func.params if n.isdigit()]
        block = Block(str(len(numbered)) if len(numbered) == len(func.params) else "entry")
        func.blocks.append(block)
        while i < len(lines):
            raw = lines[i]
            lineno = i + 1
            i += 1
            s = raw.strip()
            if s == "}":
                break
            if not s or s.startswith(";") or s.startswith("#dbg_"):
                continue
            label = re.match(r'^([-a-zA-Z$._0-9]+|"[^"]*"):', s)
            if label and not raw[0].isspace():
                name = label.group(1).strip('"')
                if block.instrs:
                    block = Block(name)
                    func.blocks.append(block)
                else:
                    block.name = name
                continue
            toks = _tokens(s, lineno)
            # metadata attachments (', !dbg !12') at the end: the location is kept
            dbg = None
            while len(toks) >= 3 and toks[-3] == "," and toks[-2].startswith("!"):
                if toks[-2] == "!dbg":
                    dbg = toks[-1]
                toks = toks[:-3]
            instr = _read_instr(_Cursor(toks, lineno, module))
            if dbg is not None:
                instr.extra["dbg"] = dbg
            block.instrs.append(instr)
    for func in module.functions.values():
        if func.attr_group:
            func.attrs = module.attr_groups.get(func.attr_group, {})
    return module


def _function_head(c: _Cursor, declaration: bool) -> Function:
    c.next()
    while not (c.peek() and c.peek().startswith("@")):
        tok = c.next()
        if c.peek() == "(" and tok in ("range", "align", "dereferenceable", "nofpclass"):
            while c.next() != ")":
                pass
            continue
        if tok in ("void",) or tok.startswith("i") and tok[1:].isdigit() or tok in FLOATS \
                or tok in ("ptr", "<", "{", "["):
            c.i -= 1
            ret = c.type()
            break
    else:
        ret = VOID
    name = c.next()[1:].strip('"')
    c.expect("(")
    params: list[tuple[str, Type]] = []
    if not c.accept(")"):
        while True:
            if c.accept("..."):
                c.expect(")")
                break
            ty = c.type()
            pname = ""
            while c.peek() not in (",", ")"):
                tok = c.next()
                if tok.startswith("%"):
                    pname = tok[1:]
                elif tok == "(":
                    while c.next() != ")":
                        pass
            params.append((pname or str(len(params)), ty))
            if c.accept(")"):
                break
            c.expect(",")
    group = None
    while c.peek() is not None:
        tok = c.next()
        if tok.startswith("#"):
            group = tok
    return Function(name, ret, params, declaration=declaration, attr_group=group)
