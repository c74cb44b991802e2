"""Printing like MLIR/triton-opt: module syntax, aliases, SSA names, upstream op quirks."""

from __future__ import annotations

import textwrap

from xdsl.dialects.builtin import IntegerAttr, StringAttr, i32

from tileopt.ir import make_context, parse_module, print_module


def _round_trip(text: str, debuginfo: bool = False, ctx=None, name_locs: bool = False) -> str:
    return print_module(parse_module(textwrap.dedent(text), "p.mlir", ctx),
                        debuginfo=debuginfo, name_locs=name_locs)


# --- module, func, default dialect -------------------------------------------------------

def test_module_attributes_and_func_return():
    text = """\
    module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:80"} {
      func.func @f(%arg0: i32) -> i32 {
        return %arg0 : i32
      }
    }
    """
    assert _round_trip(text) == textwrap.dedent(text)


def test_generic_builtin_module_prints_pretty():
    text = '"builtin.module"() ({\n^bb0:\n}) {test.x = 1 : i32} : () -> ()\n'
    assert _round_trip(text) == "module attributes {test.x = 1 : i32} {\n}\n"


def test_attribute_dictionaries_are_sorted_like_mlir():
    module = parse_module("%0 = arith.constant 1 : i32\n")
    (op,) = [o for o in module.walk() if o is not module]
    op.attributes["zeta"] = StringAttr("z")
    op.attributes["alpha"] = IntegerAttr(1, i32)
    assert "arith.constant {alpha = 1 : i32, zeta = \"z\"} 1 : i32" in print_module(module)


# --- SSA and block names --------------------------------------------------------------

def test_names_follow_mlir_numbering_across_regions():
    # Nested region values are numbered after every value of the enclosing region;
    # sibling regions start from the same counters; one conflict counter for all names.
    text = """\
    func.func @f(%arg0: i32, %arg1: i1) -> i32 {
      %c1_i32 = arith.constant 1 : i32
      %0 = arith.addi %arg0, %c1_i32 : i32
      %1 = scf.if %arg1 -> (i32) {
        %4 = arith.addi %0, %0 : i32
        scf.yield %4 : i32
      } else {
        %4 = arith.muli %0, %0 : i32
        scf.yield %4 : i32
      }
      %2:2 = scf.for %arg2 = %arg0 to %1 step %c1_i32 iter_args(%arg3 = %0, %arg4 = %1) -> (i32, i32)  : i32 {
        %4 = arith.addi %arg3, %arg4 : i32
        scf.yield %4, %arg3 : i32, i32
      }
      %3 = arith.addi %2#0, %2#1 : i32
      func.return %3 : i32
    }
    """
    assert _round_trip(text) == _in_module(text)


def _in_module(text: str) -> str:
    """The expected print of ``text`` (a function): inside ``module``, ``return``."""
    body = textwrap.indent(textwrap.dedent(text).replace("func.return", "return"), "  ")
    return "module {\n" + body + "}\n"


def test_names_come_from_name_locations_with_a_global_conflict_counter():
    text = """\
    func.func @f(%arg0: i32) -> i32 {
      %0 = arith.addi %arg0, %arg0 : i32 loc(#x)
      %1 = arith.addi %0, %0 : i32 loc(#y)
      %2 = arith.addi %1, %1 : i32 loc(#x)
      %3 = arith.addi %2, %2 : i32 loc(#y)
      func.return %3 : i32
    }
    #x = loc("x"("k.py":1:1))
    #y = loc("y"("k.py":2:1))
    """
    printed = _round_trip(text, name_locs=True)
    assert "%x = arith.addi %arg0, %arg0" in printed
    assert "%y = arith.addi %x, %x" in printed
    assert "%x_0 = arith.addi %y, %y" in printed
    assert "%y_1 = arith.addi %x_0, %x_0" in printed
    # Without --mlir-use-nameloc-as-prefix (triton-opt's default) they are numbered.
    assert "%3 = arith.addi %2, %2" in _round_trip(text)


def test_constants_name_themselves_and_input_names_are_not_kept():
    text = """\
    func.func @f() -> i32 {
      %0 = arith.constant 42 : i32
      %1 = arith.constant -1 : i64
      %2 = arith.constant true
      %3 = arith.constant 1.0 : f32
      %4 = arith.constant 2 : index
      %mine = arith.constant 7 : i32
      func.return %0 : i32
    }
    """
    printed = _round_trip(text)
    for line in ("%c42_i32 = arith.constant 42 : i32", "%c-1_i64 = arith.constant -1 : i64",
                 "%true = arith.constant true", "%cst = arith.constant 1.000000e+00 : f32",
                 "%c2 = arith.constant 2 : index", "%c7_i32 = arith.constant 7 : i32"):
        assert line in printed
    assert "%mine" not in printed


def test_blocks_have_predecessor_comments():
    text = """\
    func.func @f(%arg0: i32, %arg1: i1) -> i32 {
      cf.br ^bb1(%arg0 : i32)
    ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb2
      cf.cond_br %arg1, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      cf.br ^bb1(%0 : i32)
    ^bb3:  // pred: ^bb1
      func.return %0 : i32
    ^bb4:  // no predecessors
      func.return %arg0 : i32
    }
    """
    assert _round_trip(text) == _in_module(text)


# --- upstream ops printed like MLIR ------------------------------------------------------

def test_scf_for_has_two_spaces_before_the_type():
    text = """\
    func.func @f(%arg0: i32) {
      scf.for %arg1 = %arg0 to %arg0 step %arg0  : i32 {
        %0 = arith.addi %arg1, %arg1 : i32
      }
      %c0 = arith.constant 0 : index
      scf.for %arg1 = %c0 to %c0 step %c0 {
      }
      func.return
    }
    """
    printed = _round_trip(text)
    assert "step %arg0  : i32 {" in printed
    assert "step %c0 {" in printed


def test_arith_on_tensors():
    text = """\
    func.func @f(%arg0: tensor<4xi32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
      %0 = arith.cmpi slt, %arg0, %arg0 : tensor<4xi32>
      %1 = arith.cmpf ogt, %arg1, %arg1 : tensor<4xf32>
      %2 = arith.select %0, %arg1, %arg1 : tensor<4xi1>, tensor<4xf32>
      %3 = arith.extsi %arg0 : tensor<4xi32> to tensor<4xi64>
      %4 = arith.trunci %3 : tensor<4xi64> to tensor<4xi16>
      %5 = arith.sitofp %arg0 : tensor<4xi32> to tensor<4xf32>
      %6 = arith.fptosi %5 : tensor<4xf32> to tensor<4xi32>
      %7 = arith.select %1, %2, %5 : tensor<4xi1>, tensor<4xf32>
      %8 = arith.select %true, %7, %7 : tensor<4xf32>
      func.return %8 : tensor<4xf32>
    }
    """
    text = text.replace("%8 = arith.select %true", "%true = arith.constant true\n      %8 = "
                        "arith.select %true")
    module = parse_module(textwrap.dedent(text))
    cmpi = next(op for op in module.walk() if op.name == "arith.cmpi")
    assert str(cmpi.result.type) == "tensor<4xi1>"
    printed = print_module(module)
    assert "arith.select %0, %arg1, %arg1 : tensor<4xi1>, tensor<4xf32>" in printed
    assert "arith.select %true, %7, %7 : tensor<4xf32>" in printed


def test_shape_mismatch_in_tensor_select_is_rejected():
    import pytest

    from tileopt.ir import TileoptError

    text = ("func.func @f(%c: tensor<8xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {\n"
            "  %0 = arith.select %c, %a, %a : tensor<8xi1>, tensor<4xf32>\n"
            "  func.return %0 : tensor<4xf32>\n}\n")
    with pytest.raises(TileoptError) as info:
        parse_module(text, "s.mlir")
    assert (info.value.line, info.value.col) == (2, 3)
    assert "same shape" in info.value.message


def test_result_groups():
    text = """\
    func.func @f(%arg0: i32) -> i32 {
      %0:2 = scf.for %arg1 = %arg0 to %arg0 step %arg0 iter_args(%arg2 = %arg0, %arg3 = %arg0) -> (i32, i32)  : i32 {
        scf.yield %arg2, %arg3 : i32, i32
      }
      func.return %0#1 : i32
    }
    """
    printed = _round_trip(text)
    assert "%0:2 = scf.for" in printed
    assert "return %0#1 : i32" in printed


# --- attribute aliases -------------------------------------------------------------------

BLOCKED_A = ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
             "warpsPerCTA = [4, 1], order = [1, 0]}>")
BLOCKED_B = ("#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], "
             "warpsPerCTA = [4], order = [0]}>")


def test_aliases_are_numbered_by_first_use_and_slices_print_inline():
    # The input names them the other way round; MLIR numbers by first use.
    text = f"""\
    #first = {BLOCKED_A}
    #second = {BLOCKED_B}
    module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
      tt.func @f() {{
        %0 = tt.make_range {{end = 128 : i32, start = 0 : i32}} : tensor<128xi32, #second>
        %1 = tt.make_range {{end = 16 : i32, start = 0 : i32}} : tensor<16xi32, #ttg.slice<{{dim = 1, parent = #first}}>>
        tt.return
      }}
    }}
    """
    printed = _round_trip(text)
    lines = printed.splitlines()
    assert lines[0] == f"#blocked = {BLOCKED_B}"
    assert lines[1] == f"#blocked1 = {BLOCKED_A}"
    assert "tensor<128xi32, #blocked>" in printed
    assert "tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>" in printed


def test_alias_block_is_sorted_by_name():
    text = f"""\
    module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
      tt.func @f() {{
        %0 = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}}>, #ttg.shared_memory, mutable>
        %1 = tt.make_range {{end = 128 : i32, start = 0 : i32}} : tensor<128xi32, {BLOCKED_B}>
        tt.return
      }}
    }}
    """
    printed = _round_trip(text)
    names = [line.split(" = ")[0] for line in printed.splitlines() if line.startswith("#")]
    assert names == ["#blocked", "#shared", "#smem"]
    assert "!ttg.memdesc<16x16xf16, #shared, #smem, mutable>" in printed


def test_debuginfo_locations():
    text = """\
    module {
      func.func @f(%arg0: i32 loc("a"("k.py":1:0))) -> i32 {
        %0 = arith.addi %arg0, %arg0 : i32 loc("k.py":2:3)
        func.return %0 : i32 loc(unknown)
      } loc("k.py":1:0)
    } loc("k.py":1:0)
    """
    # As MLIR prints it: the argument takes its name from its NameLoc and keeps the
    # location inline; the alias MLIR still defines for it (#loc3) and the aliases it
    # uses go on top, op locations after the module; numbers by depth, then first use.
    printed = _round_trip(text, debuginfo=True, name_locs=True)
    assert printed == textwrap.dedent("""\
    #loc = loc("k.py":1:0)
    #loc3 = loc("a"(#loc))
    module {
      func.func @f(%a: i32 loc("a"(#loc))) -> i32 {
        %0 = arith.addi %a, %a : i32 loc(#loc1)
        return %0 : i32 loc(#loc2)
      } loc(#loc)
    } loc(#loc)
    #loc1 = loc("k.py":2:3)
    #loc2 = loc(unknown)
    """)
    assert "loc(" not in _round_trip(text)


def test_unregistered_ops_print_generically():
    ctx = make_context(allow_unregistered=True)
    printed = _round_trip('"foo.bar"() {x = 1 : i32} : () -> ()\n', ctx=ctx)
    assert '"foo.bar"() {x = 1 : i32} : () -> ()' in printed


def test_upstream_ops_print_like_mlir():
    # Written as mlir-opt prints it: `call` without its dialect inside func.func,
    # `} {attr}` after scf.if, nested regions numbered after the whole function body
    # (the block argument %8 included), sibling regions reusing %arg4 and %9.
    text = """\
    module {
      func.func private @ext(i32, f32) -> f32
      func.func @f(%arg0: i32 {tt.divisibility = 16 : i32}, %arg1: f32, %arg2: i1, %arg3: index) -> (f32, i32) attributes {noinline = false} {
        %0 = arith.addi %arg0, %arg0 overflow<nsw> : i32
        %1 = arith.addf %arg1, %arg1 fastmath<fast> : f32
        %2 = math.exp %arg1 fastmath<afn> : f32
        %3 = call @ext(%0, %1) : (i32, f32) -> f32
        %4:2 = scf.if %arg2 -> (f32, i32) {
          scf.yield %3, %0 : f32, i32
        } else {
          scf.yield %1, %arg0 : f32, i32
        } {some.attr}
        %5 = scf.while (%arg4 = %arg0) : (i32) -> i32 {
          %9 = arith.cmpi slt, %arg4, %0 : i32
          scf.condition(%9) %arg4 : i32
        } do {
        ^bb0(%arg4: i32):
          %9 = arith.addi %arg4, %arg4 : i32
          scf.yield %9 : i32
        }
        %6 = arith.index_cast %arg3 : index to i32
        %7 = ub.poison : tensor<4xf32>
        cf.cond_br %arg2, ^bb1(%0 : i32), ^bb2
      ^bb1(%8: i32):  // pred: ^bb0
        return %4#0, %8 : f32, i32
      ^bb2:  // pred: ^bb0
        return %1, %5 : f32, i32
      }
    }
    """
    assert _round_trip(text) == textwrap.dedent(text)
