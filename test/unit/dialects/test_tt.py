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
         "number of elements must be power-of-two, but tensor<6xi32> doesn't follow the rule (6 elements)"),
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



@pytest.mark.parametrize(
    "args, line",
    [
        ("%x: tensor<4xi64>", "%p = tt.int_to_ptr %x : tensor<4xi64> -> tensor<4x!tt.ptr<f32>>"),
        ("%p: !tt.ptr<f32>", "%x = tt.ptr_to_int %p : !tt.ptr<f32> -> i64"),
        ("%x: tensor<4xi32>", "%y = tt.bitcast %x : tensor<4xi32> -> tensor<4xf32>"),
        ("%p: !tt.ptr<f32>", "%q = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>"),
        ("%x: tensor<4xf32>", "%y = tt.fp_to_fp %x, rounding = rtne : tensor<4xf32> -> tensor<4xf16>"),
        ("%x: tensor<4xf16>", "%y = tt.fp_to_fp %x : tensor<4xf16> -> tensor<4xf32>"),
        ("%x: f32", "%y = tt.fp_to_fp %x {foo = 1 : i32}, rounding = rtz : f32 -> bf16"),
        ("%x: tensor<4xf32>", "%y = tt.precise_sqrt %x : tensor<4xf32>"),
        ("%x: f32, %y: f32", "%z = tt.precise_divf %x, %y : f32"),
        ("%x: tensor<4xi32>, %y: tensor<4xi32>", "%z = tt.mulhiui %x, %y : tensor<4xi32>"),
        ("%x: f32, %a: f32, %b: f32", "%z = tt.clampf %x, %a, %b, propagateNan = all : f32"),
        ("%x: f32, %a: f32, %b: f32", "%z = tt.clampf %x, %a, %b, propagateNan = none : f32"),
        (
            "%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>",
            "%d = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>",
        ),
        (
            "%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>",
            "%d = tt.dot %a, %b, %c, inputPrecision = tf32x3 {maxNumImpreciseAcc = 32 : i32} "
            ": tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>",
        ),
        (
            # (e2m1 A: 32 bytes are K = 64, one scale per 32 of K: 2; Triton 3.6 checks it)
            "%a: tensor<16x32xi8>, %s: tensor<16x2xi8>, %b: tensor<64x8xbf16>, %c: tensor<16x8xf32>",
            "%d = tt.dot_scaled %a scale %s, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} "
            ": tensor<16x32xi8>, tensor<16x2xi8> * tensor<64x8xbf16> -> tensor<16x8xf32>",
        ),
        (
            "%p: tensor<64x!tt.ptr<i32>>, %v: tensor<64xi32>, %m: tensor<64xi1>",
            "%o = tt.atomic_rmw add, acq_rel, gpu, %p, %v, %m : (tensor<64x!tt.ptr<i32>>, "
            "tensor<64xi32>, tensor<64xi1>) -> tensor<64xi32>",
        ),
        (
            "%p: !tt.ptr<f32>, %v: f32",
            "%o = tt.atomic_rmw fadd, relaxed, sys, %p, %v : (!tt.ptr<f32>, f32) -> f32",
        ),
        (
            "%p: !tt.ptr<i32>, %c: i32, %v: i32",
            "%o = tt.atomic_cas acquire, cta, %p, %c, %v : (!tt.ptr<i32>, i32, i32) -> i32",
        ),
        ("%a: tensor<4x8xf32>, %b: tensor<4x8xf32>", "%j = tt.join %a, %b : tensor<4x8xf32> -> tensor<4x8x2xf32>"),
        ("%x: tensor<4x8x2xf32>", "%l, %r = tt.split %x : tensor<4x8x2xf32> -> tensor<4x8xf32>"),
        ("%a: tensor<32xf32>, %b: tensor<32xf32>", "%c = tt.cat %a, %b : tensor<32xf32> -> tensor<64xf32>"),
        (
            "%s: tensor<8x16xf32>, %i: tensor<8x4xi32>",
            "%g = tt.gather %s[%i] {axis = 1 : i32} : (tensor<8x16xf32>, tensor<8x4xi32>) -> tensor<8x4xf32>",
        ),
        ("%x: tensor<1024xi32>", "%h = tt.histogram %x : tensor<1024xi32> -> tensor<64xi32>"),
        (
            "%x: tensor<4xf32>",
            '%y = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, '
            'symbol = "__nv_expf"} : (tensor<4xf32>) -> tensor<4xf32>',
        ),
        (
            "%x: tensor<4xi32>",
            '%y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", '
            "packed_element = 1 : i32, pure = true} %x : tensor<4xi32> -> tensor<4xi32>",
        ),
        (
            "%x: tensor<4xi32>",
            'tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<4xi32>',
        ),
        ("%c: tensor<4xi1>", 'tt.assert %c, "oops" : tensor<4xi1>'),
        (
            "%d: !tt.tensordesc<tensor<64x32xf16>>, %i: i32, %j: i32",
            "%v = tt.descriptor_load %d[%i, %j] cacheModifier = cg : "
            "!tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>",
        ),
        (
            "%d: !tt.tensordesc<tensor<64x32xf16>>, %i: i32, %j: i32, %v: tensor<64x32xf16>",
            "tt.descriptor_store %d[%i, %j], %v : !tt.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>",
        ),
        (
            "%b: !tt.ptr<f16>, %m: i64, %k: i64, %s: i64, %one: i64, %o: i32",
            "%bp = tt.make_tensor_ptr %b, [%m, %k], [%s, %one], [%o, %o] "
            "{order = array<i32: 1, 0>} : <tensor<64x32xf16>>",
        ),
        ("%bp: !tt.ptr<tensor<64x32xf16>>, %o: i32", "%q = tt.advance %bp, [%o, %o] : <tensor<64x32xf16>>"),
        (
            "%x: tensor<32x64xf32>",
            "%y = tt.reshape %x allow_reorder efficient_layout : tensor<32x64xf32> -> tensor<32x2x32xf32>",
        ),
        ("%x: tensor<32x64xf32>", "%y = tt.reshape %x : tensor<32x64xf32> -> tensor<2048xf32>"),
        (
            "%x: tensor<32x64xf32>",
            "%y = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>",
        ),
        (
            "%x: tensor<64xi32>",
            "%y = tt.expand_dims %x {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>",
        ),
        ("%x: tensor<64x1xi32>", "%y = tt.broadcast %x : tensor<64x1xi32> -> tensor<64x64xi32>"),
    ],
)
def test_roundtrip_other_ops(args: str, line: str) -> None:
    assert roundtrip_op(args, line).strip() == line


REDUCE = """%r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
^bb0(%a: f32, %b: f32):
  %s = arith.addf %a, %b : f32
  tt.reduce.return %s : f32
}) : (tensor<4x8xf32>) -> tensor<4xf32>"""

SCAN = """%r = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
^bb0(%a: f32, %b: f32):
  %s = arith.addf %a, %b : f32
  tt.scan.return %s : f32
}) : (tensor<8xf32>) -> tensor<8xf32>"""


@pytest.mark.parametrize("args, text", [("%x: tensor<4x8xf32>", REDUCE), ("%x: tensor<8xf32>", SCAN)])
def test_reduce_and_scan_print_generically_like_triton(args: str, text: str) -> None:
    printed = roundtrip_op(args, text)
    assert [line.strip() for line in printed.splitlines()] == [
        line.strip() for line in text.splitlines()
    ]


@pytest.mark.parametrize(
    "args, text, message",
    [
        # tt.dot shapes and element types
        ("%a: tensor<16x32xf16>, %b: tensor<16x8xf16>, %c: tensor<16x8xf32>",
         "%d = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x8xf16> -> tensor<16x8xf32>",
         "K dimensions differ: A is 16x32 but B is 16x8"),
        ("%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x16xf32>",
         "%d = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x16xf32>",
         "accumulator C is 16x16 but A x B is 16x8"),
        ("%a: tensor<16x32xf16>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>",
         "%d = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf32> -> tensor<16x8xf32>",
         "must have same bit width"),
        ("%a: tensor<32xf16>, %b: tensor<32xf16>, %c: tensor<32xf32>",
         "%d = tt.dot %a, %b, %c : tensor<32xf16> * tensor<32xf16> -> tensor<32xf32>",
         "must all be 2D"),
        # broadcast, expand_dims, trans, reshape
        ("%x: tensor<4x2xf32>", "%y = tt.broadcast %x : tensor<4x2xf32> -> tensor<4x8xf32>",
         "different dimensions at index 1 between source (2) and result (8)"),
        ("%x: tensor<4xf32>", "%y = tt.broadcast %x : tensor<4xf32> -> tensor<4x4xf32>",
         "rank of source (1) must be same as rank of result (2)"),
        ("%x: tensor<4xf32>", "%y = tt.expand_dims %x {axis = 2 : i32} : tensor<4xf32> -> tensor<4x1xf32>",
         "axis 2 is out of range"),
        ("%x: tensor<4xf32>", "%y = tt.expand_dims %x {axis = 0 : i32} : tensor<4xf32> -> tensor<4x1xf32>",
         "must be the source shape with a 1 inserted at axis 0: [1, 4]"),
        ("%x: tensor<4x8xf32>", "%y = tt.trans %x {order = array<i32: 0, 0>} : tensor<4x8xf32> -> tensor<4x4xf32>",
         "must be a permutation of 0..1"),
        ("%x: tensor<4x8xf32>", "%y = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>",
         "must match the permutation of the source shape: [8, 4]"),
        ("%x: tensor<4x8xf32>", "%y = tt.reshape %x : tensor<4x8xf32> -> tensor<16xf32>",
         "number of src and dst elements of reshape must be the same (32 vs 16)"),
        # reduce / scan regions and axis
        ("%x: tensor<4x8xf32>", REDUCE.replace("axis = 1", "axis = 2"), "axis 2 out of bounds for operand rank 2"),
        ("%x: tensor<4x8xf32>", REDUCE.replace("^bb0(%a: f32, %b: f32)", "^bb0(%a: f32, %b: f32, %c: f32)"),
         "nested block must take 2 arguments, but given block with 3 arguments"),
        ("%x: tensor<4x8xf32>", REDUCE.replace("-> tensor<4xf32>", "-> tensor<8xf32>"),
         "must have the operand's shape without axis 1"),
        ("%x: tensor<8xf32>", SCAN.replace("-> tensor<8xf32>", "-> tensor<8xf16>"),
         "operand types and result types must agree"),
        # atomics, splat, bitcast, fp_to_fp, misc
        ("%p: !tt.ptr<f32>, %v: f32", "%o = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (!tt.ptr<f32>, f32) -> i32",
         "result type must match the value type"),
        ("%p: !tt.ptr<f32>, %v: i32", "%o = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<f32>, i32) -> i32",
         "must point to the value type i32"),
        ("%x: tensor<4xf32>", "%y = tt.splat %x : tensor<4xf32> -> tensor<4xf32>",
         "source must be a scalar"),
        ("%x: f32", "%y = tt.splat %x : f32 -> tensor<2097152xf32>",
         "maximum allowed number of elements is 1048576, but tensor<2097152xf32> has more than that"),
        ("%x: f32", "%y = tt.splat %x : f32 -> tensor<3x4xf32>",
         "number of elements must be power-of-two, but tensor<3x4xf32> doesn't follow the rule (12 elements)"),
        ("%x: tensor<4xi32>", "%y = tt.bitcast %x : tensor<4xi32> -> tensor<4xf16>",
         "cannot bitcast data-type of size 32 to data-type of size 16"),
        ("%x: f32", "%y = tt.fp_to_fp %x : f32 -> f16", "rounding mode is required for FP downcast"),
        ("%a: tensor<4x8xf32>, %b: tensor<4x8xf32>", "%j = tt.join %a, %b : tensor<4x8xf32> -> tensor<4x16xf32>",
         "result shape must be [4, 8, 2]"),
        ("%c: tensor<4xi32>", 'tt.assert %c, "oops" : tensor<4xi32>', "condition must be i1"),
        ("%x: tensor<1024xi32>", "%h = tt.histogram %x : tensor<1024xi32> -> tensor<64xf32>",
         "result must be a tensor of integers"),
        ("%p: tensor<4x!tt.ptr<f32>>, %m: tensor<4xi1>",
         "%v = tt.load %p, %m {boundaryCheck = array<i32: 0>} : tensor<4x!tt.ptr<f32>>",
         "boundaryCheck is only allowed with block pointers"),
        ("%p: tensor<4x!tt.ptr<f32>>", "%v = tt.load %p {cache = 9 : i32} : tensor<4x!tt.ptr<f32>>",
         "'cache' = 9 is not a valid cache modifier"),
    ],
)
def test_more_verifier_errors(args: str, text: str, message: str) -> None:
    with pytest.raises(VerifyException) as err:
        roundtrip_op(args, text)
    assert message in str(err.value)


def test_function_and_call_verifiers() -> None:
    bad_return = "tt.func @f(%x: i32) -> f32 {\n  tt.return %x : i32\n}"
    with pytest.raises(VerifyException, match=r"type of return operand 0 \(i32\) doesn't match"):
        parse(bad_return).verify()
    missing = "tt.func @f() {\n  tt.return\n}\ntt.func @g() {\n  tt.call @nope() : () -> ()\n  tt.return\n}"
    with pytest.raises(VerifyException, match="'nope' does not reference a valid function"):
        parse(missing).verify()
    mismatch = (
        "tt.func private @h(f32) -> f32\n"
        "tt.func @g(%x: i32) {\n  %y = tt.call @h(%x) : (i32) -> f32\n  tt.return\n}"
    )
    with pytest.raises(VerifyException, match="operand type mismatch: expected operand type f32"):
        parse(mismatch).verify()
    count = "tt.func @f(%x: i32) -> i32 {\n  tt.return\n}"
    with pytest.raises(VerifyException, match=r"has 0 operands, but enclosing function \(@f\) returns 1"):
        parse(count).verify()
    good = (
        "tt.func private @h(f32) -> f32\n"
        "tt.func @g(%x: f32) -> f32 {\n  %y = tt.call @h(%x) : (f32) -> f32\n  tt.return %y : f32\n}"
    )
    parse(good).verify()


def test_enum_keywords_are_rejected_with_the_allowed_list() -> None:
    with pytest.raises(ParseError, match=r"expected memory semantic \(relaxed, acquire, release, acq_rel\)"):
        roundtrip_op("%p: !tt.ptr<f32>, %v: f32",
                     "%o = tt.atomic_rmw fadd, seq_cst, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32")
    with pytest.raises(ParseError, match="expected program id dimension"):
        roundtrip_op("", "%p = tt.get_program_id w : i32")


def test_pointer_type_prints_address_space_only_when_not_global() -> None:
    from tileopt.dialects.tt_types import PointerType
    from xdsl.dialects.builtin import f32

    assert show_attr(PointerType(f32)) == "!tt.ptr<f32>"
    assert show_attr(PointerType(f32, 3)) == "!tt.ptr<f32, 3>"
    assert show_attr(PointerType(f32, 1)) == show_attr(parse_type("!tt.ptr<f32, 1>"))


def parse_type(text: str):
    return Parser(tt_context(), text).parse_type()


def test_enums_are_stored_as_i32_like_triton() -> None:
    # Triton's I32EnumAttr storage: the generic form shows the integers.
    module = parse(in_func(
        "%p: tensor<4x!tt.ptr<i32>>, %v: tensor<4xi32>",
        "%o = tt.atomic_rmw add, acq_rel, gpu, %p, %v : (tensor<4x!tt.ptr<i32>>, tensor<4xi32>) -> tensor<4xi32>\n"
        "%w = tt.load %p cacheModifier = cg : tensor<4x!tt.ptr<i32>>\ntt.return",
    ))
    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=True).print_op(module)
    generic = stream.getvalue()
    assert "atomic_rmw_op = 4 : i32" in generic and "scope = 1 : i32" in generic and "sem = 4 : i32" in generic
    assert "cache = 3 : i32" in generic and "evict = 1 : i32" in generic and "isVolatile = false" in generic


# ---------------------------------------------------------------------------------------
# Side effects: what generic passes may move or delete
# ---------------------------------------------------------------------------------------

from xdsl.traits import MemoryEffectKind, get_effects, is_side_effect_free  # noqa: E402


def _ops_of(text: str, args: str):
    module = parse(in_func(args, text + "\ntt.return"))
    module.verify()
    return list(module.body.block.first_op.body.block.ops)


def test_memory_effects() -> None:
    ops = _ops_of(
        "%v = tt.load %p : tensor<4x!tt.ptr<f32>>\n"
        "%w = tt.load %p {isVolatile = true} : tensor<4x!tt.ptr<f32>>\n"
        "tt.store %p, %v : tensor<4x!tt.ptr<f32>>\n"
        "%o = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (tensor<4x!tt.ptr<f32>>, tensor<4xf32>) -> tensor<4xf32>\n"
        "%s = tt.splat %x : f32 -> tensor<4xf32>\n"
        'tt.print "x" {hex = false, isSigned = array<i32: 0>} : %x : f32',
        "%p: tensor<4x!tt.ptr<f32>>, %x: f32",
    )
    load, volatile, store, atomic, splat, print_ = ops[:6]
    kinds = lambda op: {e.kind for e in get_effects(op)}  # noqa: E731
    assert kinds(load) == {MemoryEffectKind.READ}
    assert kinds(volatile) == {MemoryEffectKind.READ, MemoryEffectKind.WRITE}
    assert kinds(store) == {MemoryEffectKind.WRITE}
    assert kinds(atomic) == {MemoryEffectKind.READ, MemoryEffectKind.WRITE}
    assert kinds(print_) == {MemoryEffectKind.WRITE}
    assert is_side_effect_free(splat)


def test_dce_and_cse_keep_what_must_stay() -> None:
    from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
    from xdsl.transforms.dead_code_elimination import DeadCodeElimination

    module = parse(in_func(
        "%p: tensor<4x!tt.ptr<f32>>, %v: tensor<4xf32>",
        "%a = tt.load %p : tensor<4x!tt.ptr<f32>>\n"           # unused: removable
        "%b = tt.load %p {isVolatile = true} : tensor<4x!tt.ptr<f32>>\n"  # volatile: stays
        "%c = tt.load %p : tensor<4x!tt.ptr<f32>>\n"
        "tt.store %p, %v : tensor<4x!tt.ptr<f32>>\n"
        "%d = tt.load %p : tensor<4x!tt.ptr<f32>>\n"           # after a store: not merged with %c
        "%o = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (tensor<4x!tt.ptr<f32>>, tensor<4xf32>) -> tensor<4xf32>\n"
        "tt.store %p, %c : tensor<4x!tt.ptr<f32>>\n"
        "tt.store %p, %d : tensor<4x!tt.ptr<f32>>\n"
        "tt.return",
    ))
    ctx = tt_context()
    CommonSubexpressionElimination().apply(ctx, module)
    DeadCodeElimination().apply(ctx, module)
    names = [op.name for op in module.body.block.first_op.body.block.ops]
    assert names == [
        "tt.load", "tt.load", "tt.store", "tt.load", "tt.atomic_rmw", "tt.store", "tt.store", "tt.return"
    ]
    volatile = list(module.body.block.first_op.body.block.ops)[0]
    assert volatile.is_volatile



# ---------------------------------------------------------------------------------------
# Canonicalization (Triton's patterns and folders, run by xDSL's canonicalize)
# ---------------------------------------------------------------------------------------


def canonicalize(args: str, body: str) -> list[str]:
    from xdsl.transforms.canonicalize import CanonicalizePass

    module = parse(in_func(args, body + "\ntt.return"))
    module.verify()
    CanonicalizePass().apply(tt_context(), module)
    module.verify()
    # One printer for the whole function, so that SSA names are unique.
    lines = show(module.body.block.first_op).splitlines()
    return [line.strip() for line in lines[1:-2]]  # without the signature, tt.return and `}`


USE = '"test.use"({v}) : ({t}) -> ()'


@pytest.mark.parametrize(
    "args, body, expected",
    [
        pytest.param(
            "%p: tensor<4x!tt.ptr<f32>>",
            "%m = arith.constant dense<true> : tensor<4xi1>\n"
            "%v = tt.load %p, %m cacheModifier = cg : tensor<4x!tt.ptr<f32>>\n"
            + USE.format(v="%v", t="tensor<4xf32>"),
            ["%v = tt.load %p cacheModifier = cg : tensor<4x!tt.ptr<f32>>",
             '"test.use"(%v) : (tensor<4xf32>) -> ()'],
            id="load-all-true-mask",
        ),
        pytest.param(
            "%p: tensor<4x!tt.ptr<f32>>, %o: tensor<4xf32>",
            "%m = arith.constant dense<false> : tensor<4xi1>\n"
            "%v = tt.load %p, %m, %o : tensor<4x!tt.ptr<f32>>\n" + USE.format(v="%v", t="tensor<4xf32>"),
            ['"test.use"(%o) : (tensor<4xf32>) -> ()'],
            id="load-all-false-mask-gives-other",
        ),
        pytest.param(
            "%p: tensor<4x!tt.ptr<f32>>",
            "%m = arith.constant dense<false> : tensor<4xi1>\n"
            "%v = tt.load %p, %m : tensor<4x!tt.ptr<f32>>\n" + USE.format(v="%v", t="tensor<4xf32>"),
            ["%m = arith.constant dense<false> : tensor<4xi1>",
             "%v = tt.load %p, %m : tensor<4x!tt.ptr<f32>>",
             '"test.use"(%v) : (tensor<4xf32>) -> ()'],
            id="load-false-mask-without-other-stays",
        ),
        pytest.param(
            "%p: tensor<4x!tt.ptr<f32>>, %v: tensor<4xf32>",
            "%t = arith.constant dense<true> : tensor<4xi1>\n"
            "%f = arith.constant dense<false> : tensor<4xi1>\n"
            "tt.store %p, %v, %t : tensor<4x!tt.ptr<f32>>\n"
            "tt.store %p, %v, %f : tensor<4x!tt.ptr<f32>>",
            ["tt.store %p, %v : tensor<4x!tt.ptr<f32>>"],
            id="store-masks",
        ),
        pytest.param(
            "%x: f32",
            "%s = tt.splat %x : f32 -> tensor<4x1xf32>\n"
            "%b = tt.broadcast %s : tensor<4x1xf32> -> tensor<4x8xf32>\n"
            + USE.format(v="%b", t="tensor<4x8xf32>"),
            ["%b = tt.splat %x : f32 -> tensor<4x8xf32>", '"test.use"(%b) : (tensor<4x8xf32>) -> ()'],
            id="broadcast-of-splat",
        ),
        pytest.param(
            "%x: tensor<1x1xf32>",
            "%a = tt.broadcast %x : tensor<1x1xf32> -> tensor<1x8xf32>\n"
            "%b = tt.broadcast %a : tensor<1x8xf32> -> tensor<4x8xf32>\n"
            + USE.format(v="%b", t="tensor<4x8xf32>"),
            ["%b = tt.broadcast %x : tensor<1x1xf32> -> tensor<4x8xf32>",
             '"test.use"(%b) : (tensor<4x8xf32>) -> ()'],
            id="broadcast-of-broadcast",
        ),
        pytest.param(
            "%x: tensor<4x8xf32>",
            "%b = tt.broadcast %x : tensor<4x8xf32> -> tensor<4x8xf32>\n" + USE.format(v="%b", t="tensor<4x8xf32>"),
            ['"test.use"(%x) : (tensor<4x8xf32>) -> ()'],
            id="broadcast-to-same-type-folds",
        ),
        pytest.param(
            "%x: i32",
            "%s = tt.splat %x : i32 -> tensor<8xi32>\n"
            "%e = tt.expand_dims %s {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>\n"
            + USE.format(v="%e", t="tensor<1x8xi32>"),
            ["%e = tt.splat %x : i32 -> tensor<1x8xi32>", '"test.use"(%e) : (tensor<1x8xi32>) -> ()'],
            id="expand-dims-of-splat",
        ),
        pytest.param(
            "%x: tensor<1xi32>",
            "%b = tt.broadcast %x : tensor<1xi32> -> tensor<8xi32>\n"
            "%e = tt.expand_dims %b {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>\n"
            + USE.format(v="%e", t="tensor<8x1xi32>"),
            ["%e = tt.expand_dims %x {axis = 1 : i32} : tensor<1xi32> -> tensor<1x1xi32>",
             "%e_1 = tt.broadcast %e : tensor<1x1xi32> -> tensor<8x1xi32>",
             '"test.use"(%e_1) : (tensor<8x1xi32>) -> ()'],
            id="expand-dims-of-broadcast",
        ),
        pytest.param(
            "%x: f32",
            "%s = tt.splat %x : f32 -> tensor<32xf32>\n"
            "%r = tt.reshape %s : tensor<32xf32> -> tensor<4x8xf32>\n" + USE.format(v="%r", t="tensor<4x8xf32>"),
            ["%r = tt.splat %x : f32 -> tensor<4x8xf32>", '"test.use"(%r) : (tensor<4x8xf32>) -> ()'],
            id="reshape-of-splat",
        ),
        pytest.param(
            "%x: tensor<32xf32>",
            "%a = tt.reshape %x allow_reorder : tensor<32xf32> -> tensor<4x8xf32>\n"
            "%b = tt.reshape %a : tensor<4x8xf32> -> tensor<2x16xf32>\n" + USE.format(v="%b", t="tensor<2x16xf32>"),
            ["%b = tt.reshape %x allow_reorder : tensor<32xf32> -> tensor<2x16xf32>",
             '"test.use"(%b) : (tensor<2x16xf32>) -> ()'],
            id="reshape-of-reshape",
        ),
        pytest.param(
            "%x: f32",
            "%s = tt.splat %x : f32 -> tensor<32xf32>\n"
            "%r = tt.reshape %s efficient_layout : tensor<32xf32> -> tensor<4x8xf32>\n"
            + USE.format(v="%r", t="tensor<4x8xf32>"),
            ["%s = tt.splat %x : f32 -> tensor<32xf32>",
             "%r = tt.reshape %s efficient_layout : tensor<32xf32> -> tensor<4x8xf32>",
             '"test.use"(%r) : (tensor<4x8xf32>) -> ()'],
            id="reshape-efficient-layout-kept",
        ),
        pytest.param(
            "%x: tensor<2x4x8xf32>",
            "%a = tt.trans %x {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>\n"
            "%b = tt.trans %a {order = array<i32: 1, 0, 2>} : tensor<8x2x4xf32> -> tensor<2x8x4xf32>\n"
            + USE.format(v="%b", t="tensor<2x8x4xf32>"),
            ["%b = tt.trans %x {order = array<i32: 0, 2, 1>} : tensor<2x4x8xf32> -> tensor<2x8x4xf32>",
             '"test.use"(%b) : (tensor<2x8x4xf32>) -> ()'],
            id="trans-of-trans-composes",
        ),
        pytest.param(
            "%x: tensor<4x8xf32>",
            "%a = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>\n"
            "%b = tt.trans %a {order = array<i32: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>\n"
            + USE.format(v="%b", t="tensor<4x8xf32>"),
            ['"test.use"(%x) : (tensor<4x8xf32>) -> ()'],
            id="trans-of-trans-identity",
        ),
        pytest.param(
            "",
            "%c = arith.constant 7 : i32\n%s = tt.splat %c : i32 -> tensor<4xi32>\n"
            "%r = tt.make_range {end = 4 : i32, start = 3 : i32} : tensor<1xi32>\n"
            + '"test.use"(%s, %r) : (tensor<4xi32>, tensor<1xi32>) -> ()',
            ["%s = arith.constant dense<7> : tensor<4xi32>",
             "%r = arith.constant dense<3> : tensor<1xi32>",
             '"test.use"(%s, %r) : (tensor<4xi32>, tensor<1xi32>) -> ()'],
            id="splat-and-unit-range-of-constants",
        ),
        pytest.param(
            "%p: tensor<4x!tt.ptr<f32>>, %q: !tt.ptr<f32>",
            "%z = arith.constant dense<0> : tensor<4xi32>\n%c0 = arith.constant 0 : i32\n"
            "%a = tt.addptr %p, %z : tensor<4x!tt.ptr<f32>>, tensor<4xi32>\n"
            "%b = tt.addptr %q, %c0 : !tt.ptr<f32>, i32\n"
            + '"test.use"(%a, %b) : (tensor<4x!tt.ptr<f32>>, !tt.ptr<f32>) -> ()',
            ['"test.use"(%p, %q) : (tensor<4x!tt.ptr<f32>>, !tt.ptr<f32>) -> ()'],
            id="addptr-zero",
        ),
        pytest.param(
            "%p: tensor<4x!tt.ptr<f32>>",
            "%o = arith.constant dense<1> : tensor<4xi32>\n"
            "%a = tt.addptr %p, %o : tensor<4x!tt.ptr<f32>>, tensor<4xi32>\n"
            + USE.format(v="%a", t="tensor<4x!tt.ptr<f32>>"),
            ["%o = arith.constant dense<1> : tensor<4xi32>",
             "%a = tt.addptr %p, %o : tensor<4x!tt.ptr<f32>>, tensor<4xi32>",
             '"test.use"(%a) : (tensor<4x!tt.ptr<f32>>) -> ()'],
            id="addptr-nonzero-kept",
        ),
        pytest.param(
            "%bp: !tt.ptr<tensor<4x8xf16>>",
            "%c0 = arith.constant 0 : i32\n%q = tt.advance %bp, [%c0, %c0] : <tensor<4x8xf16>>\n"
            + USE.format(v="%q", t="!tt.ptr<tensor<4x8xf16>>"),
            ['"test.use"(%bp) : (!tt.ptr<tensor<4x8xf16>>) -> ()'],
            id="advance-zero",
        ),
    ],
)
def test_canonicalization(args: str, body: str, expected: list[str]) -> None:
    # SSA names are the printer's choice; compare with values renamed in order of appearance.
    got = canonicalize(args, body)
    assert normalize_ssa("\n".join(got)) == normalize_ssa("\n".join(expected))


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


def test_ptr_like_constraint() -> None:
    from xdsl.dialects.builtin import TensorType, f32, i32

    from tileopt.dialects.tt_types import PointerType, PtrLikeConstraint

    constraint = PtrLikeConstraint()
    assert constraint.verifies(PointerType(f32))
    assert constraint.verifies(TensorType(PointerType(f32), [4]))
    assert not constraint.verifies(TensorType(i32, [4]))
    assert not constraint.verifies(PointerType(TensorType(f32, [4, 4])))  # a block pointer
