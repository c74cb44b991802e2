"""Reading MLIR text: late aliases, locations, hex floats, and errors with positions."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import (
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    ModuleOp,
    NameLoc,
    StringAttr,
    UnknownLoc,
)

from tileopt.ir import TileoptError, parse_module, print_module
from tileopt.ir.parse import source_position, split_input_file, verify_module


def _ops(module: ModuleOp):
    return [op for op in module.walk() if op is not module]


def _error(text: str | bytes, filename: str = "t.mlir", **kwargs) -> TileoptError:
    with pytest.raises(TileoptError) as info:
        parse_module(text, filename, **kwargs)
    return info.value


# --- aliases defined after use -------------------------------------------------------

LATE_ALIASES = """\
module {
  func.func @f(%a: i32 loc("a"(#loc))) -> i32 {
    %0 = arith.addi %a, %a : i32 loc(#loc3)
    func.return %0 : i32 loc(#loc2)
  } loc(#loc)
} loc(#loc)
#loc3 = loc("sum"(#loc4))
#loc = loc("kernels.py":10:0)
#loc2 = loc(unknown)
#loc4 = loc(callsite(#loc5 at #loc))
#loc5 = loc("/lib/standard.py":43:17)
"""


def test_locations_defined_after_the_module_in_any_order():
    module = parse_module(LATE_ALIASES, "late.mlir")
    func, add, ret = _ops(module)
    file_loc = FileLineColLoc(StringAttr("kernels.py"), *_ints(10, 0))
    assert func.location == file_loc
    assert func.regions[0].block.args[0].location == NameLoc(StringAttr("a"), file_loc)
    assert add.location == NameLoc(StringAttr("sum"), CallSiteLoc(
        FileLineColLoc(StringAttr("/lib/standard.py"), *_ints(43, 17)), file_loc))
    assert ret.location == UnknownLoc()


def _ints(*values):
    from xdsl.dialects.builtin import IntAttr

    return [IntAttr(v) for v in values]


def test_late_aliases_print_back_identically_with_debuginfo():
    # As Triton's Python prints its files: locations, names from name locations.
    printed = print_module(parse_module(LATE_ALIASES, "late.mlir"), debuginfo=True,
                           name_locs=True)
    again = print_module(parse_module(printed, "printed.mlir"), debuginfo=True,
                         name_locs=True)
    assert printed == again
    # the block argument keeps its location inline, nested aliases by name
    assert '%a: i32 loc("a"(#loc))' in printed
    assert printed.splitlines()[0] == '#loc = loc("kernels.py":10:0)'


def test_alias_defined_in_terms_of_itself():
    err = _error("module {\n}\n#a = loc(\"x\"(#b))\n#b = loc(\"y\"(#a))\n"
                 "\"test.op\"() : () -> () loc(#a)\n", **allow_unregistered_ctx())
    assert "defined in terms of itself" in err.message
    assert (err.line, err.col) == (3, 1)


def allow_unregistered_ctx():
    from tileopt.ir import make_context

    return {"ctx": make_context(allow_unregistered=True)}


def test_redefined_alias_points_at_the_second_definition():
    err = _error("#loc = loc(unknown)\nmodule {\n}\n#loc = loc(unknown)\n")
    assert err.message == "redefinition of attribute alias '#loc'"
    assert (err.file, err.line, err.col) == ("t.mlir", 4, 1)


def test_undefined_alias_points_at_its_use():
    err = _error("module {\n  %0 = arith.constant 1 : i32 loc(#nowhere)\n}\n")
    assert "undefined symbol alias '#nowhere'" in err.message
    assert (err.line, err.col) == (2, 35)


# --- location forms ----------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("loc(unknown)", UnknownLoc()),
    ('loc("f.py":3:4)', FileLineColLoc(StringAttr("f.py"), *_ints(3, 4))),
    ('loc("f.py":3:4 to 5:6)', FileLineColLoc(StringAttr("f.py"), *_ints(3, 4))),
    ('loc("f.py":3:4 to :9)', FileLineColLoc(StringAttr("f.py"), *_ints(3, 4))),
    ('loc("x")', None),
    ('loc("x"("f.py":1:2))', NameLoc(StringAttr("x"), FileLineColLoc(
        StringAttr("f.py"), *_ints(1, 2)))),
    ('loc(callsite("a.py":1:2 at "b.py":3:4))', CallSiteLoc(
        FileLineColLoc(StringAttr("a.py"), *_ints(1, 2)),
        FileLineColLoc(StringAttr("b.py"), *_ints(3, 4)))),
    ('loc(fused["a.py":1:2, unknown])', FusedLoc(
        (FileLineColLoc(StringAttr("a.py"), *_ints(1, 2)), UnknownLoc()),
        __import__("xdsl.dialects.builtin", fromlist=["NoneAttr"]).NoneAttr())),
    ('loc(fused<"tag">["a.py":1:2])', FusedLoc(
        (FileLineColLoc(StringAttr("a.py"), *_ints(1, 2)),), StringAttr("tag"))),
])
def test_every_location_form(text, expected):
    module = parse_module(f"%0 = arith.constant 1 : i32 {text}\n", "locs.mlir")
    (op,) = _ops(module)
    if expected is not None:
        assert op.location == expected
    printed = print_module(module, debuginfo=True)
    again = parse_module(printed, "again.mlir")
    assert _ops(again)[0].location == op.location


def test_unknown_location_kind_is_an_error():
    err = _error("%0 = arith.constant 1 : i32 loc(nowhere)\n")
    assert err.message == "unknown location kind 'nowhere'"
    assert (err.line, err.col) == (1, 33)


# --- hexadecimal floats --------------------------------------------------------------

@pytest.mark.parametrize("type_, bits", [
    ("f32", "0xFF800000"), ("f32", "0x7FC00000"), ("f32", "0x7F800001"),
    ("f16", "0xFC00"), ("f16", "0x7E00"), ("f16", "0x7C01"),
    ("bf16", "0xFF80"), ("bf16", "0x7FC1"),
    ("f64", "0xFFF0000000000000"), ("f64", "0x7FF8000000000001"),
])
def test_hex_dense_splats_are_bit_patterns(type_, bits):
    text = f"%0 = arith.constant dense<{bits}> : tensor<4x{type_}>\n"
    printed = print_module(parse_module(text))
    assert f"dense<{bits}> : tensor<4x{type_}>" in printed


@pytest.mark.parametrize("type_, bits", [
    ("f32", "0xFF800000"), ("f16", "0xFC00"), ("bf16", "0xFF80"),
    ("f64", "0xFFF0000000000000"), ("f32", "0x7FC00000"),
])
def test_hex_scalar_floats(type_, bits):
    printed = print_module(parse_module(f"%0 = arith.constant {bits} : {type_}\n"))
    assert f"arith.constant {bits} : {type_}" in printed


def test_dense_list_mixing_hex_and_decimal():
    text = "%0 = arith.constant dense<[0x7E01, 1.0, -2.5, 0xFC00]> : tensor<4xf16>\n"
    printed = print_module(parse_module(text))
    assert "dense<[0x7E01, 1.000000e+00, -2.500000e+00, 0xFC00]>" in printed


def test_hex_float_too_wide_for_its_type():
    err = _error("%0 = arith.constant dense<0x1FF800000> : tensor<2xf32>\n")
    assert "out of range" in err.message
    assert (err.line, err.col) == (1, 27)


def test_large_splat_is_not_expanded_in_text():
    text = "%0 = arith.constant dense<64> : tensor<128x64xi32>\n"
    assert "dense<64> : tensor<128x64xi32>" in print_module(parse_module(text))


# --- errors ----------------------------------------------------------------------------

def test_unknown_op_points_at_its_name():
    err = _error("module {\n  %0 = tt.frobnicate %x : i32\n}\n")
    assert err.message == "custom op 'tt.frobnicate' is unknown"
    assert (err.file, err.line, err.col) == ("t.mlir", 2, 8)
    assert err.format() == "t.mlir:2:8: error: custom op 'tt.frobnicate' is unknown"


def test_unknown_dialect_is_named():
    err = _error("module {\n  foo.bar\n}\n")
    assert "dialect 'foo' is not registered" in err.message
    assert (err.line, err.col) == (2, 3)


def test_verifier_error_points_at_the_op():
    text = ("module {\n"
            "  func.func @f(%a: i32, %b: i64) -> i32 {\n"
            '    %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32\n'
            "    func.return %0 : i32\n"
            "  }\n"
            "}\n")
    err = _error(text)
    assert err.message.startswith("'arith.addi' op ")
    assert (err.line, err.col) == (3, 5)


def test_use_before_definition_in_a_block():
    text = ("func.func @f(%a: i32) -> i32 {\n"
            "  %0 = arith.addi %1, %a : i32\n"
            "  %1 = arith.addi %a, %a : i32\n"
            "  func.return %0 : i32\n"
            "}\n")
    err = _error(text)
    assert err.message == "'arith.addi' op operand #0 does not dominate this use"
    assert (err.line, err.col) == (2, 3)


def test_undefined_value():
    err = _error("func.func @f() -> i32 {\n  func.return %nope : i32\n}\n")
    assert "%nope" in err.message


def test_empty_input_is_an_empty_module():
    assert print_module(parse_module("")) == "module {\n}\n"
    assert print_module(parse_module("// only a comment\n\n")) == "module {\n}\n"


def test_non_utf8_input():
    err = _error(b"module {\n  \xff\xfe\n}\n")
    assert "not UTF-8" in err.message
    assert (err.line, err.col) == (2, 3)


def test_binary_junk():
    err = _error("\x7fELF\x02\x01\x01\x00\x00")
    assert "binary" in err.message
    assert (err.line, err.col) == (1, 1)


def test_truncated_file():
    err = _error("module {\n  func.func @f(%a: i32) -> i32 {\n    %0 = arith.addi %a, ")
    assert "end of file" in err.message
    assert err.line == 3


def test_error_is_one_line_without_traceback():
    err = _error("module {\n  %0 = arith.constant : i32\n}\n")
    assert "\n" not in err.format()
    assert err.format().startswith("t.mlir:2:")


# --- split-input-file, positions -----------------------------------------------------------

def test_split_input_file_keeps_file_line_numbers():
    text = ("%0 = arith.constant 1 : i32\n"
            "// -----\n"
            "\n"
            "%0 = arith.constant 1 : i32\n"
            "// -----// a comment after the marker\n"
            "%0 = tt.bogus\n")
    chunks = split_input_file(text)
    assert [line for _, line in chunks] == [1, 3, 6]
    parse_module(chunks[0][0], "s.mlir", first_line=chunks[0][1])
    parse_module(chunks[1][0], "s.mlir", first_line=chunks[1][1])
    with pytest.raises(TileoptError) as info:
        parse_module(chunks[2][0], "s.mlir", first_line=chunks[2][1])
    assert (info.value.line, info.value.col) == (6, 6)


def test_source_position_of_parsed_ops():
    module = parse_module("module {\n  %0 = arith.constant 1 : i32\n    %1 = arith.addi "
                          "%0, %0 : i32\n}\n", "pos.mlir")
    constant, add = _ops(module)
    assert source_position(constant) == ("pos.mlir", 2, 3)
    assert source_position(add) == ("pos.mlir", 3, 5)


def test_verify_module_reports_ops_made_after_parsing_at_their_location():
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import IntegerAttr, i32, i64

    module = parse_module('%0 = arith.constant 1 : i32 loc("k.py":7:3)\n', "v.mlir")
    (constant,) = _ops(module)
    bad = arith.AddiOp(constant.result, constant.result)
    bad.results[0]._type = i64  # result type the verifier must reject
    bad.location = FileLineColLoc(StringAttr("k.py"), *_ints(8, 5))
    module.body.block.add_op(bad)
    with pytest.raises(TileoptError) as info:
        verify_module(module, "v.mlir")
    assert (info.value.file, info.value.line, info.value.col) == ("k.py", 8, 5)
    assert info.value.message.startswith("'arith.addi' op ")
    del IntegerAttr, i32


def test_escaped_utf8_string_reads_back_as_the_same_string():
    """MLIR prints what is not printable ASCII as byte escapes; reading that back gives
    the same string attribute, not a bytes attribute (fuzzer finding, issue 13)."""
    module = parse_module('module attributes {note = "caf\u00e9 \u200b!"} {\n}\n')
    text = print_module(module)
    assert '"caf\\C3\\A9 \\E2\\80\\8B!"' in text
    again = parse_module(text).attributes["note"]
    assert isinstance(again, StringAttr) and again.data == "caf\u00e9 \u200b!"
