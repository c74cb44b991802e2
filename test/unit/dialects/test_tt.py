"""Tests of the Triton ``tt`` dialect: Triton 3.6 text forms parse and print back exactly,
verifiers reject bad IR with readable messages, side effects are declared."""

from __future__ import annotations

import io

import pytest
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.scf import Scf
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException

from tileopt.dialects.tt import TT


def tt_context() -> Context:
    """Only builtin, arith, scf and tt: layouts (#ttg...) stay unregistered attributes
    printed verbatim, so these tests exercise this dialect alone."""
    ctx = Context(allow_unregistered=True)
    for dialect in (Builtin, Arith, Scf, TT):
        ctx.load_dialect(dialect)
    return ctx


def parse(text: str) -> ModuleOp:
    return Parser(tt_context(), text).parse_module()


def show(op) -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_op(op)
    return stream.getvalue()


def in_func(args: str, body: str, results: str = "") -> str:
    return f"tt.func @f({args}){results} {{\n{body}\n}}"


def roundtrip_op(args: str, line: str, *, ret: str = "tt.return") -> str:
    """Parse ``line`` inside a function with ``args``, verify, return the op re-printed."""
    module = parse(in_func(args, f"{line}\n{ret}"))
    module.verify()
    func = module.body.block.first_op
    return show(func.body.block.first_op)


@pytest.mark.parametrize(
    "args, line",
    [
        ("", "%pid = tt.get_program_id x : i32"),
        ("", "%pid = tt.get_program_id z : i32"),
        ("", "%n = tt.get_num_programs y : i32"),
        ("", "%r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>"),
        ("%n: i32", "%s = tt.splat %n : i32 -> tensor<1024xi32>"),
        ("%p: !tt.ptr<f32>", "%s = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>"),
        (
            "%p: tensor<1024x!tt.ptr<f32>>, %o: tensor<1024xi32>",
            "%q = tt.addptr %p, %o : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>",
        ),
        ("%p: !tt.ptr<f16>, %o: i32", "%q = tt.addptr %p, %o : !tt.ptr<f16>, i32"),
        (
            "%p: tensor<1024x!tt.ptr<f32>>, %m: tensor<1024xi1>",
            "%v = tt.load %p, %m : tensor<1024x!tt.ptr<f32>>",
        ),
        (
            "%p: tensor<64x!tt.ptr<f16>>, %m: tensor<64xi1>, %o: tensor<64xf16>",
            "%v = tt.load %p, %m, %o : tensor<64x!tt.ptr<f16>>",
        ),
        ("%p: tensor<64x!tt.ptr<f16>>", "%v = tt.load %p : tensor<64x!tt.ptr<f16>>"),
        (
            "%p: tensor<64x!tt.ptr<f16>>",
            "%v = tt.load %p cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} "
            ": tensor<64x!tt.ptr<f16>>",
        ),
        (
            "%p: !tt.ptr<tensor<64x32xf16>>",
            "%v = tt.load %p {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} "
            ": !tt.ptr<tensor<64x32xf16>>",
        ),
        (
            "%p: tensor<64x!tt.ptr<f16>>",
            '%v = tt.load %p {amd.pipeliner_part = "prologue"} : tensor<64x!tt.ptr<f16>>',
        ),
        (
            "%p: tensor<1024x!tt.ptr<f32>>, %v: tensor<1024xf32>, %m: tensor<1024xi1>",
            "tt.store %p, %v, %m : tensor<1024x!tt.ptr<f32>>",
        ),
        ("%p: !tt.ptr<f32>, %v: f32", "tt.store %p, %v : !tt.ptr<f32>"),
        ("%p: !tt.ptr<f32, 3>, %v: f32", "tt.store %p, %v cacheModifier = wb : !tt.ptr<f32, 3>"),
        (
            "%p: !tt.ptr<tensor<64x64xf16>>, %v: tensor<64x64xf16>",
            "tt.store %p, %v {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<64x64xf16>>",
        ),
    ],
)
def test_roundtrip_common_ops(args: str, line: str) -> None:
    assert roundtrip_op(args, line).strip() == line


def test_func_signature_and_declaration_roundtrip() -> None:
    text = (
        "builtin.module {\n"
        "  tt.func public @k(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) "
        "attributes {noinline = false} {\n"
        "    tt.return\n"
        "  }\n"
        "  tt.func private @g(f32, f32) -> f32 attributes {noinline = false}\n"
        "}"
    )
    module = parse(text)
    module.verify()
    assert show(module).strip() == text


@pytest.mark.parametrize(
    "args, line, message",
    [
        ("", "%r = tt.make_range {end = 0 : i32, start = 4 : i32} : tensor<4xi32>",
         "start (4) must be less than end (0)"),
        ("", "%r = tt.make_range {end = 6 : i32, start = 0 : i32} : tensor<6xi32>",
         "must be a power of 2"),
        ("", "%r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<4xi32>",
         "number of elements in returned tensor, 4, must match size of range [0, 8)"),
        ("", "%r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi64>",
         "must have i32 elements"),
        ("%p: tensor<4x!tt.ptr<f32>>, %o: tensor<8xi32>",
         "%q = tt.addptr %p, %o : tensor<4x!tt.ptr<f32>>, tensor<8xi32>",
         "requires the same shape"),
        ("%p: tensor<4xi32>, %o: tensor<4xi32>",
         "%q = tt.addptr %p, %o : tensor<4xi32>, tensor<4xi32>",
         "pointer operand must be a pointer or a tensor of pointers"),
        ("%p: tensor<4x!tt.ptr<f32>>, %o: tensor<4xf32>",
         "%q = tt.addptr %p, %o : tensor<4x!tt.ptr<f32>>, tensor<4xf32>",
         "offset must be an integer"),
        ("%n: i32", "%s = tt.splat %n : i32 -> tensor<4xf32>", "same element type"),
    ],
)
def test_verifier_errors(args: str, line: str, message: str) -> None:
    with pytest.raises(VerifyException, match=None) as err:
        roundtrip_op(args, line)
    assert message in str(err.value)


def test_load_mask_type_is_checked_at_parse() -> None:
    # The mask's type is implied by the pointer type: i1 of the same shape.
    with pytest.raises(ParseError, match="tensor<4xi1>"):
        roundtrip_op(
            "%p: tensor<4x!tt.ptr<f32>>, %m: tensor<8xi1>", "%v = tt.load %p, %m : tensor<4x!tt.ptr<f32>>"
        )


# ---------------------------------------------------------------------------------------
# Every tt op spelled in the corpus (.ttir, .ttgir, per-pass dumps) parses, verifies and
# prints back exactly.
# ---------------------------------------------------------------------------------------

import re  # noqa: E402
from pathlib import Path  # noqa: E402

from tileopt.dialects.tt import CallOp, FuncOp, ReturnOp  # noqa: E402

_SSA = re.compile(r"%[\w.$-]+(?:#\d+)?")
_ALIAS_DEF = re.compile(r"^(#[\w.$-]+) = (.*)$")
_ALIAS_USE = re.compile(r"#[A-Za-z_][\w$-]*(?:\.[\w$-]+)*")
_OP_LINE = re.compile(r"^\s*(?:%[\w.$#:, %-]+ = )?(tt\.[a-z_.]+)\b")
_GENERIC_START = re.compile(r'^\s*(?:%[\w.$#:, %-]+ = )?"(tt\.(?:reduce|scan))"\(')


def strip_locations(text: str) -> str:
    """Drop every `` loc(...)`` (balanced parentheses) from ``text``."""
    out, i = [], 0
    while (j := text.find(" loc(", i)) != -1:
        out.append(text[i:j])
        depth, k = 0, j + 4
        while k < len(text):
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            k += 1
            if depth == 0:
                break
        i = k
    out.append(text[i:])
    return "".join(out)


def normalize_ssa(text: str) -> str:
    """Rename SSA values to %v0, %v1, ... in order of appearance (names are not semantics)."""
    names: dict[str, str] = {}
    return _SSA.sub(lambda m: names.setdefault(m.group(0), f"%v{len(names)}"), text)


def expand_aliases(text: str, aliases: dict[str, str]) -> str:
    for _ in range(4):  # aliases may refer to aliases
        text = _ALIAS_USE.sub(lambda m: aliases.get(m.group(0), m.group(0)), text)
    return text


def collect_corpus_ops(files: list[Path]) -> dict[str, dict[str, dict[str, str]]]:
    """op name -> {normalized op text -> alias table of its file}. Generic tt.reduce/scan are
    taken with their region; terminators of regions are covered by their parents."""
    found: dict[str, dict[str, dict[str, str]]] = {}
    for path in files:
        lines = path.read_text().splitlines()
        aliases = {}
        for line in lines:
            if (m := _ALIAS_DEF.match(line)) and not m.group(1).startswith("#loc"):
                aliases[m.group(1)] = m.group(2)
        i = 0
        while i < len(lines):
            line = lines[i]
            if m := _GENERIC_START.match(line):
                block = [line]
                while not re.match(r"^\s*\}\)( \{.*\})? : ", lines[i]):
                    i += 1
                    block.append(lines[i])
                name, text = m.group(1), "\n".join(block)
            elif (m := _OP_LINE.match(line)) and m.group(1) not in (
                "tt.reduce.return", "tt.scan.return"
            ):
                name, text = m.group(1), line
            else:
                i += 1
                continue
            i += 1
            text = normalize_ssa(strip_locations(text)).strip()
            found.setdefault(name, {}).setdefault(text, aliases)
    return found


def _types_text(types) -> list[str]:
    return [show_attr(t) for t in types]


def show_attr(attr) -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_attribute(attr)
    return stream.getvalue()


def roundtrip_corpus_op(name: str, text: str, aliases: dict[str, str]) -> tuple[str, str]:
    """Wrap one op from the corpus in a module whose function arguments define its operands,
    parse and verify it, and return (expected, printed) with aliases expanded."""
    # Layouts stay unregistered attributes here, kept as written; aliases are expanded in the
    # text so that nested uses (``parent = #blocked``) and direct ones (``#blocked``) agree.
    text = expand_aliases(text, aliases)
    header = ""
    if name == "tt.func":
        if text.endswith("{"):
            module = f'{header}builtin.module {{\n{text}\n"test.stop"() : () -> ()\n}}\n}}'
        else:
            module = f"{header}builtin.module {{\n{text}\n}}"
        parsed = Parser(tt_context(), module).parse_module()
        parsed.verify()
        func = parsed.body.block.first_op
        printed = show(func).splitlines()[0]
        return text, printed

    # First pass: parse the op on its own to learn the types of the values it uses.
    op, uses = parse_single_op(text)
    args = ", ".join(f"%{n}: {show_attr(t)}" for n, t in uses.items())
    decls, ret, results = "", "tt.return", ""
    callees = {}
    for call in op.walk():
        if isinstance(call, CallOp):  # declare what it calls (also calls inside regions)
            callees[show_attr(call.callee)] = (
                f"tt.func private {show_attr(call.callee)}({', '.join(_types_text(call.args.types))})"
                + (f" -> ({', '.join(_types_text(call.result_types))})" if call.results else "")
                + "\n"
            )
    decls = "".join(callees.values())
    if isinstance(op, ReturnOp):
        ret = ""
        if op.srcs:
            results = f" -> ({', '.join(_types_text(op.srcs.types))})"
    module = (
        f"{header}builtin.module {{\n{decls}tt.func @wrap({args}){results} {{\n{text}\n{ret}\n}}\n}}"
    )
    parsed = Parser(tt_context(), module).parse_module()
    parsed.verify()
    wrap = [o for o in parsed.body.block.ops if isinstance(o, FuncOp)][-1]
    printed = show(wrap.body.block.first_op)
    return text, printed.strip()


def parse_single_op(text: str):
    """Parse ``text`` (one op, maybe with regions) where its operands are undefined: xDSL keeps
    them as typed forward references, which tell us each operand's type (name -> type)."""
    parser = Parser(tt_context(), text)
    op = parser.parse_operation()
    uses = {name: value.type for name, refs in parser.forward_ssa_references.items() for value in refs.values()}
    return op, uses


def _lines(text: str) -> list[str]:
    """Lines without their indentation (a region's indentation depends on where it sits)."""
    return [line.strip() for line in text.splitlines()]


def corpus_files(corpus: Path, passes_root: Path) -> list[Path]:
    files = sorted(corpus.glob("*/*.ttir")) + sorted(corpus.glob("*/*.ttgir"))
    return files + sorted(passes_root.glob("*/passes/*/*.mlir"))


@pytest.fixture(scope="module")
def corpus_ops(corpus: Path, passes_root: Path):
    return collect_corpus_ops(corpus_files(corpus, passes_root))


def test_corpus_has_the_expected_ops(corpus_ops) -> None:
    for name in ("tt.func", "tt.load", "tt.store", "tt.dot", "tt.reduce", "tt.scan",
                 "tt.atomic_rmw", "tt.make_tensor_ptr", "tt.advance", "tt.trans", "tt.reshape"):
        assert name in corpus_ops, name


def test_every_corpus_tt_op_roundtrips(corpus_ops) -> None:
    failures = []
    count = 0
    for name, texts in sorted(corpus_ops.items()):
        for text, aliases in texts.items():
            count += 1
            try:
                expected, printed = roundtrip_corpus_op(name, text, aliases)
            except Exception as err:  # report every failure at once
                failures.append(f"{name}: {type(err).__name__}: {err}\n    {text[:300]}")
                continue
            if _lines(printed) != _lines(expected):
                failures.append(f"{name}: printed differently\n    want {expected[:300]}\n    got  {printed[:300]}")
    assert count > 100
    assert not failures, f"{len(failures)} of {count} failed:\n" + "\n".join(failures[:30])
