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
