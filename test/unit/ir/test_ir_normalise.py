"""The text normaliser behind the corpus comparison: what it hides and what it does not."""

from __future__ import annotations

from tileopt.testing.corpus_compare import (
    expand_aliases,
    first_difference,
    normalise,
    split_debug_dumps,
)


def test_locations_are_removed_with_nested_parentheses_and_strings():
    text = ('%x = tt.foo %a : i32 loc(callsite(#loc3 at "f(1).py":2:3))\n'
            '#loc3 = loc("a"(#loc))\n'
            "#loc = loc(unknown)\n"
            '  tt.func @f(%a: i32 loc("a)"(#loc))) {\n')
    # (%a is used before its definition here: the definition is a value of its own)
    assert normalise(text) == "%v0 = tt.foo %v1 : i32\n  tt.func @f(%v2: i32) {\n"


def test_values_are_renamed_in_order_of_appearance():
    a = "%x = arith.addi %a, %b : i32\n%y:2 = foo %x\nbar %y#1\n"
    b = "%0 = arith.addi %q, %r : i32\n%1:2 = foo %0\nbar %1#1\n"
    assert normalise(a) == normalise(b)


def test_a_name_reused_by_sibling_regions_names_different_values():
    # MLIR's printer reuses %arg5 in two reduce combiners; Triton's file named them apart.
    mlir = "^bb0(%arg5: f32):\n  foo %arg5\n^bb0(%arg5: f32):\n  bar %arg5\n"
    triton = "^bb0(%x_8: f32):\n  foo %x_8\n^bb0(%den_9: f32):\n  bar %den_9\n"
    assert normalise(mlir) == normalise(triton)
    assert normalise(mlir) != normalise(triton.replace("bar %den_9", "bar %x_8"))


def test_a_swapped_operand_is_still_a_difference():
    a = normalise("%x = arith.subi %a, %b : i32\n%y = arith.subi %a, %b : i32\n")
    b = normalise("%x = arith.subi %a, %b : i32\n%y = arith.subi %b, %a : i32\n")
    assert first_difference(a, b) == (2, "%v3 = arith.subi %v1, %v2 : i32",
                                      "%v3 = arith.subi %v2, %v1 : i32")


def test_attributes_and_types_are_not_normalised():
    assert normalise("x : tensor<4xf32, #blocked>") != normalise("x : tensor<4xf32, #mma>")
    assert normalise("dense<0xFF800000>") != normalise("dense<-1.0>")


def test_alias_expansion_for_dumps_printed_without_aliases():
    with_aliases = "#a = #ttg.b<{x = 1}>\n#c = #ttg.s<{p = #a}>\nt : tensor<4xi32, #c>\n"
    assert expand_aliases(with_aliases) == "t : tensor<4xi32, #ttg.s<{p = #ttg.b<{x = 1}>}>>\n"


def test_pipeliner_debug_dumps_are_split_off():
    text = "module {\n}\n\n\n// -----// SoftwarePipeliner internal IR Dump After: X\nmodule {\n}\n"
    assert split_debug_dumps(text) == ["module {\n}\n", "module {\n}\n"]
