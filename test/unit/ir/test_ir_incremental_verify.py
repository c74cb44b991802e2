"""Verification after each pass re-checks only what a pass changed
(``tileopt.ir.verify.IncrementalVerifier``): a pass that breaks the IR must still be
caught, with the error a whole-module verification gives, and named by the pass manager."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, i64

from tileopt.driver.pass_manager import PassManager
from tileopt.ir import TileoptError, parse_module, verify_module
from tileopt.ir.verify import IncrementalVerifier
from tileopt.passes.base import Pass
from tileopt.pipelines.model import PassStep, Pipeline

TEXT = """\
func.func @f(%a: i32, %c: i1) -> i32 {
  %one = arith.constant 1 : i32
  %x = arith.addi %a, %one : i32
  %y = scf.if %c -> (i32) {
    %z = arith.muli %x, %x : i32
    scf.yield %z : i32
  } else {
    scf.yield %x : i32
  }
  %r = arith.subi %y, %x : i32
  func.return %r : i32
}
"""


def ops(module, name):
    return [op for op in module.walk() if op.name == name]


def retype_constant(module):
    # The constant now makes an i64: its users' operand types no longer match.
    const = ops(module, "arith.constant")[0]
    const.results[0]._type = i64
    const.properties["value"] = IntegerAttr(1, i64)


def move_def_after_use(module):
    add = ops(module, "arith.addi")[0]
    add.detach()
    block = ops(module, "func.func")[0].body.block
    block.insert_op_before(add, block.last_op)


def detach_used_def(module):
    ops(module, "arith.addi")[0].detach()


def drop_terminator(module):
    # The scf.if's then-block loses its yield: the check belongs to ops around it.
    ops(module, "scf.yield")[0].detach()


def wrong_yield(module):
    yield_op = ops(module, "scf.yield")[1]
    new = arith.ConstantOp(IntegerAttr(2, i64))
    yield_op.parent.insert_op_before(new, yield_op)
    yield_op.operands = [new.result]


def change_nested_operand(module):
    # A use deep inside the if's region switches to a value that is not in scope.
    other = parse_module("func.func @g(%b: i32) -> i32 {\n  func.return %b : i32\n}\n",
                         "<other>")
    outside = ops(other, "func.func")[0].body.block.args[0]
    ops(module, "arith.muli")[0].operands = [outside, outside]


def retype_argument(module):
    # Only a block argument's type changes: its user's operand types no longer match.
    ops(module, "func.func")[0].body.block.args[0]._type = i64


def move_terminator_to_next_block(module):
    # The then-block's yield becomes the first op of the else-block: the ops in walk
    # order are the same, only the yield's block differs.
    then_yield, else_yield = ops(module, "scf.yield")
    then_yield.detach()
    else_yield.parent.insert_op_before(then_yield, else_yield)


BREAKAGES: dict[str, Callable] = {
    "retype-constant": retype_constant,
    "move-def-after-use": move_def_after_use,
    "detach-used-def": detach_used_def,
    "drop-terminator": drop_terminator,
    "wrong-yield": wrong_yield,
    "change-nested-operand": change_nested_operand,
    "retype-argument": retype_argument,
    "move-terminator-to-next-block": move_terminator_to_next_block,
}


def full_error(breakage) -> str:
    module = parse_module(TEXT, "in.mlir")
    breakage(module)
    with pytest.raises(TileoptError) as err:
        verify_module(module, "in.mlir")
    return err.value.format()


def swap_operands(module):
    # A valid change: the ops around it are verified again, their verdicts remembered.
    sub = ops(module, "arith.subi")[0]
    sub.operands = [sub.operands[1], sub.operands[0]]


@pytest.mark.parametrize("kept", [False, True])
@pytest.mark.parametrize("name", BREAKAGES)
def test_incremental_verification_reports_what_a_full_one_does(name, kept, monkeypatch):
    """Also (``kept``) in the scope of a pipeline run, where the verdicts of an earlier
    verification (the op definitions' checks of the same types and attributes) are kept
    for the next one, and with IsolatedFromAbove checked on the suspects alone (however
    many): a break after a valid change is still caught."""
    if kept:
        from tileopt.ir import verify

        monkeypatch.setattr(verify, "_SUSPECTS_SHARE", 0)
    module = parse_module(TEXT, "in.mlir")
    verifier = IncrementalVerifier()
    verifier.start(module)
    with verifier.kept() if kept else contextlib.nullcontext():
        verifier.verify(module, "in.mlir")  # nothing changed: nothing to report
        if kept:
            swap_operands(module)
            assert verifier.verify(module, "in.mlir")
            swap_operands(module)
            assert verifier.verify(module, "in.mlir")
        BREAKAGES[name](module)
        with pytest.raises(TileoptError) as err:
            verifier.verify(module, "in.mlir")
    assert err.value.format() == full_error(BREAKAGES[name])


def test_reordered_attributes_alone_are_no_change():
    module = parse_module(TEXT, "in.mlir")
    verifier = IncrementalVerifier()
    verifier.start(module)
    func = ops(module, "func.func")[0]
    func.attributes["a"] = IntegerAttr(1, i64)
    func.attributes["b"] = IntegerAttr(2, i64)
    assert verifier.verify(module, "in.mlir")
    func.attributes["a"] = func.attributes.pop("a")
    assert not verifier.verify(module, "in.mlir")
    func.attributes["a"] = IntegerAttr(3, i64)
    assert verifier.verify(module, "in.mlir")


def test_a_valid_change_passes_and_is_remembered():
    module = parse_module(TEXT, "in.mlir")
    verifier = IncrementalVerifier()
    verifier.start(module)
    swap_operands(module)
    verifier.verify(module, "in.mlir")
    verifier.verify(module, "in.mlir")


class _Breaker(Pass):
    """Breaks the IR (a test pass)."""

    name = "test-incremental-breaker"
    anchor = None
    breakage = None

    def apply(self, ctx, op):
        type(self).breakage(op)


class _Nothing(Pass):
    """Changes nothing (a test pass)."""

    name = "test-incremental-nothing"
    anchor = None

    def apply(self, ctx, op):
        pass


@pytest.mark.parametrize("name", BREAKAGES)
def test_the_pass_manager_names_the_pass_that_broke_the_ir(name, monkeypatch):
    monkeypatch.setattr(_Breaker, "breakage", staticmethod(BREAKAGES[name]))
    module = parse_module(TEXT, "in.mlir")
    pipeline = Pipeline([PassStep(_Nothing()), PassStep(_Breaker()), PassStep(_Nothing())])
    with pytest.raises(TileoptError) as err:
        PassManager(pipeline, "in.mlir").run(None, module)
    assert "invalid IR after pass 'test-incremental-breaker'" in err.value.format()


LAYOUT_TEXT = """\
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [WARPS], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f() {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}
"""


def more_warps_in_the_module(module):
    # No op changes, yet every layout now distributes too few warps.
    from xdsl.dialects.builtin import IntegerAttr, i32

    module.attributes["ttg.num-warps"] = IntegerAttr(8, i32)


def a_layout_of_other_warps(module):
    other = parse_module(LAYOUT_TEXT.replace("WARPS", "8").replace('"ttg.num-warps" = 4',
                                                                   '"ttg.num-warps" = 8'))
    ops(module, "tt.make_range")[1].results[0]._type = \
        ops(other, "tt.make_range")[0].results[0].type


def incremental_and_full(text: str, breakage, valid_change=None) -> tuple[str, str]:
    """The errors of the incremental verification of ``text`` after ``breakage`` and of a
    whole verification of the same broken IR. ``valid_change``: made and verified first,
    in the scope of a pipeline run (what passed is kept for the next verification)."""
    module = parse_module(text, "in.mlir")
    verifier = IncrementalVerifier()
    verifier.start(module)
    with verifier.kept():
        if valid_change is not None:
            valid_change(module)
            assert verifier.verify(module, "in.mlir")
            valid_change.verified(verifier)
        breakage(module)
        with pytest.raises(TileoptError) as err:
            verifier.verify(module, "in.mlir")
    expected = parse_module(text, "in.mlir")
    breakage(expected)
    with pytest.raises(TileoptError) as full:
        verify_module(expected, "in.mlir")
    return err.value.format(), full.value.format()


def a_shared_layout_on_a_tensor(module):
    other = parse_module("""\
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%t: tensor<128xi32, #shared>) {
    tt.return
  }
}
""")
    ops(module, "tt.make_range")[1].results[0]._type = \
        ops(other, "tt.func")[0].body.block.args[0].type


LAYOUT_BREAKAGES = [more_warps_in_the_module, a_layout_of_other_warps,
                    a_shared_layout_on_a_tensor]


@pytest.mark.parametrize("breakage", LAYOUT_BREAKAGES)
def test_the_module_level_layout_rule_is_still_checked(breakage):
    incremental, full = incremental_and_full(LAYOUT_TEXT.replace("WARPS", "4"), breakage)
    assert incremental == full
    assert "warps" in incremental or "shared layout" in incremental


@pytest.mark.parametrize("breakage", LAYOUT_BREAKAGES)
def test_layout_verdicts_kept_between_verifications_catch_a_new_type(breakage):
    """The types that passed the layout rules are kept from one verification to the next
    (``ttg.LayoutVerdicts``): a later change to a failing type (a new type object), or to
    the module's warps, is still reported as a whole verification does."""
    def module_attribute(module):
        module.attributes["tileopt.test"] = IntegerAttr(1, i64)  # (all ops' types)

    def verified(verifier):
        assert verifier._kept.layouts.as_type  # the module rules passed, kept

    module_attribute.verified = verified
    incremental, full = incremental_and_full(LAYOUT_TEXT.replace("WARPS", "4"), breakage,
                                             module_attribute)
    assert incremental == full


# Dominance across the blocks of a CFG region: a value is usable in the blocks its block
# dominates, as MLIR's verifier rules; unreachable blocks are dominated by every block.
# entry -> ^a -> (^b | ^c) -> ^d -> (^a | ^exit): a loop around a diamond; ^dead is
# unreachable. USE is the value ^d passes to ^exit.
CFG = """\
llvm.func @f(%c: i1) -> i32 {
  %e = llvm.mlir.constant(0 : i32) : i32
  llvm.br ^a
^a:
  %va = llvm.mlir.constant(1 : i32) : i32
  llvm.cond_br %c, ^b, ^c
^b:
  %vb = llvm.mlir.constant(2 : i32) : i32
  llvm.br ^d
^c:
  llvm.br ^d
^d:
  %vd = llvm.mlir.constant(3 : i32) : i32
  llvm.cond_br %c, ^a, ^exit(USE : i32)
^exit(%r: i32):
  llvm.return %r : i32
^dead:
  %x = llvm.add %vb, %vd : i32
  llvm.br ^d
}
"""


@pytest.mark.parametrize("use", ["%e", "%va", "%vd"])
def test_a_value_of_a_dominating_block_is_usable(use):
    parse_module(CFG.replace("USE", use), "cfg.mlir")


def test_a_value_of_one_branch_does_not_dominate_the_join():
    with pytest.raises(TileoptError) as err:
        parse_module(CFG.replace("USE", "%vb"), "cfg.mlir")
    assert "cfg.mlir:14:3: error: 'llvm.cond_br' op operand #1 does not dominate this use" \
        in err.value.format()


def enter_at_the_join(module):
    """The entry now branches to ``^d``: ``^a`` no longer dominates ``^d``, which passes
    ``%va`` on; only the entry's branch changed."""
    from xdsl.dialects import llvm

    entry, _, _, _, join = list(ops(module, "llvm.func")[0].body.blocks)[:5]
    old = entry.last_op
    entry.insert_op_before(llvm.BrOp(join), old)
    old.detach()


def test_a_changed_branch_rechecks_the_uses_it_no_longer_dominates():
    incremental, full = incremental_and_full(CFG.replace("USE", "%va"), enter_at_the_join)
    assert incremental == full
    assert "in.mlir:14:3: error: 'llvm.cond_br' op operand #1 does not dominate" in full


# IsolatedFromAbove after a change is tested on the ops the change may have affected
# (``_isolation_suspects``): a moved op brings the ops nested in it, whose operands did not
# change; the error is the whole verification's (the function's, before its ops').
TWO_FUNCTIONS = """\
func.func @f(%a: i32, %c: i1) -> i32 {
  %x = arith.addi %a, %a : i32
  %w = arith.subi %a, %a : i32
  scf.if %c {
    %z = arith.muli %x, %x : i32
    scf.yield
  }
  func.return %w : i32
}
func.func @g(%b: i32, %d: i1) -> i32 {
  func.return %b : i32
}
"""


def move_if_to_the_other_function(module):
    # The scf.if's own operand is g's; the muli nested in it still uses f's %x (whose
    # op and its neighbours are unchanged: the muli is suspect as nested in the scf.if).
    if_op = ops(module, "scf.if")[0]
    g = ops(module, "func.func")[1]
    if_op.detach()
    g.body.block.insert_op_before(if_op, g.body.block.last_op)
    if_op.operands = [g.body.block.args[1]]


def use_the_other_functions_argument(module):
    ops(module, "arith.muli")[0].operands = [ops(module, "func.func")[1].body.block.args[0]] * 2


@pytest.mark.parametrize("breakage", [move_if_to_the_other_function,
                                      use_the_other_functions_argument])
def test_isolation_is_checked_on_what_a_change_may_have_affected(breakage, monkeypatch):
    from tileopt.ir import verify

    monkeypatch.setattr(verify, "_SUSPECTS_SHARE", 0)  # (suspects even in a small module)

    def attribute_of_the_add(module):
        ops(module, "arith.addi")[0].attributes["tileopt.test"] = IntegerAttr(1, i64)

    attribute_of_the_add.verified = lambda verifier: None
    incremental, full = incremental_and_full(TWO_FUNCTIONS, breakage, attribute_of_the_add)
    assert incremental == full
    assert "IsolatedFromAbove" in full
