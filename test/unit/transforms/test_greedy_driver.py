"""tileopt/transforms/utils/greedy_driver.py: the greedy rewriter's iterations and worklist
loop give the IR that xDSL's own (``rewrite_region``, ``_process_worklist`` and
``GreedyRewritePatternApplier``, with the location hook of ``GreedyApplier``) give, pattern
set by pattern set, on the corpus kernels and on a file made to fold; the folders it skips
on ops without constant operands do return None there."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp, StringAttr, UnregisteredOp
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def
from xdsl.pattern_rewriter import PatternRewriteWalker, RewritePattern
from xdsl.traits import ConstantLike, HasFolder

from tileopt.dialects.canonicalization import add_canonicalization_patterns
from tileopt.ir import make_context, parse_module, print_module
from tileopt.transforms.canonicalization.convert_layout_patterns import CONVERT_LAYOUT_PATTERNS
from tileopt.transforms.canonicalization.scf_patterns import ScfCanonicalization
from tileopt.transforms.common import canonicalize
from tileopt.transforms.common.canonicalize import GreedyWalker, OpCanonicalization
from tileopt.transforms.utils import greedy_driver

PATTERN_SETS = {
    "canonicalize": ([OpCanonicalization()], False),
    "layout clean-up": ([*CONVERT_LAYOUT_PATTERNS, ScfCanonicalization("scf.for"),
                         ScfCanonicalization("scf.if")], True),
}

FOLDS = """
module {
  tt.func public @k(%p: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %zero = arith.constant dense<0> : tensor<16xi32>
    %a = arith.addi %c3, %c4 : i32
    %b = arith.muli %n, %a : i32
    %c = arith.addi %c0, %b : i32
    %d = arith.muli %c4, %c : i32
    %s = tt.splat %c3 : i32 -> tensor<16xi32>
    %t = tt.splat %d : i32 -> tensor<16xi32>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %u = arith.addi %s, %r : tensor<16xi32>
    %v0 = arith.addi %u, %t : tensor<16xi32>
    %v = tt.broadcast %v0 : tensor<16xi32> -> tensor<16xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %q = tt.addptr %ps, %zero : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %q2 = tt.addptr %q, %v : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %e = tt.expand_dims %zero {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %dead = arith.muli %n, %n : i32
    %x = tt.load %q2 : tensor<16x!tt.ptr<f32>>
    tt.store %q2, %x : tensor<16x!tt.ptr<f32>>
    tt.return
  }
}
"""


class XdslLoopWalker(GreedyWalker):
    """``GreedyWalker`` with xDSL's own iterations, worklist loop and applier."""

    def rewrite_region(self, region):
        return PatternRewriteWalker.rewrite_region(self, region)

    def _process_worklist(self, listener):
        return PatternRewriteWalker._process_worklist(self, listener)


def _rewrite(text: str, patterns, fold_first: bool, walker_class) -> str:
    ctx = make_context()
    module = parse_module(text, "test.mlir", ctx)
    first = [canonicalize.ArithFolding()] if fold_first else []
    walker = walker_class(canonicalize.GreedyApplier([*first, *patterns], ctx=ctx,
                                                     folding_enabled=True),
                          post_walk_func=canonicalize.region_dce)
    for region in module.regions:
        walker.rewrite_region(region)
    return print_module(module, debuginfo=True)


def _inputs(corpus: Path) -> list[tuple[str, str]]:
    files = [corpus / "cuda-sm90" / f"{kernel}.{kind}"
             for kernel in ("matmul", "layernorm_fwd", "atomic_hist", "cumsum")
             for kind in ("ttir", "ttgir")]
    files.append(corpus / "hip-gfx942" / "block_ptr_matmul.ttgir")
    return [(f.name, f.read_text()) for f in files] + [("folds", FOLDS)]


@pytest.mark.parametrize("name", sorted(PATTERN_SETS))
def test_same_ir_as_xdsls_loop(corpus: Path, name: str):
    patterns, fold_first = PATTERN_SETS[name]
    for label, text in _inputs(corpus):
        ours = _rewrite(text, patterns, fold_first, GreedyWalker)
        xdsls = _rewrite(text, patterns, fold_first, XdslLoopWalker)
        assert ours == xdsls, f"{name} on {label}"


def test_the_fold_file_folds():
    """The file above exercises the folds the driver may skip (else the comparison on it
    proves nothing): constants fold, additions of zero and the dead op go."""
    before = _rewrite(FOLDS, PATTERN_SETS["canonicalize"][0], False, XdslLoopWalker)
    assert "arith.constant 28 : i32" in before  # 4 * (3 + 4), reassociated
    assert "tt.expand_dims" not in before and "dense<3>" in before
    assert "%n, %n" not in before
    assert before.count("tt.addptr") == 1 and "tt.broadcast" not in before


def test_skipped_folders_need_a_constant_operand(corpus: Path):
    """Every op whose folder the driver would skip (no operand from a constant-like op)
    folds to None, across the corpus kernels before and after Triton's passes."""
    constant_like: dict[type, bool] = {}
    checked = 0
    for label, text in _inputs(corpus):
        module = parse_module(text, label, make_context())
        for op in module.walk():
            if isinstance(op, UnregisteredOp) or not op.has_trait(HasFolder) or \
                    op.has_trait(ConstantLike):
                continue
            needs = greedy_driver._folder_needs(op)
            if not needs or greedy_driver._has_constant_operand(op, needs, constant_like):
                continue
            checked += 1
            assert op.get_trait(HasFolder).fold(op) is None, f"{op.name} in {label}"
    assert checked > 50


SIGNLESS = """
module {
  tt.func public @k(%n: i32, %t: tensor<4xi32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c6 = arith.constant 6 : i32
    %cm1 = arith.constant -1 : i32
    %d1 = arith.constant dense<1> : tensor<4xi32>
    %r0 = arith.addi %n, %c0 : i32
    %r1 = arith.addi %c0, %n : i32
    %r2 = arith.muli %c1, %n : i32
    %r3 = arith.muli %c6, %cm1 : i32
    %r4 = arith.subi %c0, %n : i32
    %r5 = arith.subi %n, %c0 : i32
    %r6 = arith.divsi %n, %c1 : i32
    %r7 = arith.divsi %c6, %c0 : i32
    %r8 = arith.andi %n, %cm1 : i32
    %r9 = arith.remsi %c6, %c6 : i32
    %r10 = arith.muli %t, %d1 : tensor<4xi32>
    %r11 = arith.addi %n, %n : i32
    %r12 = arith.shli %c1, %c6 : i32
    %r13 = arith.maxsi %cm1, %c6 : i32
    tt.return
  }
}
"""


def test_integer_fold_as_xdsls(corpus: Path):
    """``integer_binary_fold`` gives what xDSL's ``fold`` gives (the same values, equal
    attributes) on every integer binary op of the corpus files and of a file of units,
    zeros and constant pairs."""
    compared = folded = 0
    for label, text in [*_inputs(corpus), ("signless", SIGNLESS)]:
        module = parse_module(text, label, make_context())
        for op in module.walk():
            if isinstance(op, UnregisteredOp) or greedy_driver._folder_needs(op) != \
                    greedy_driver._INTEGER_CONSTANT:
                continue
            ours, xdsls = greedy_driver.integer_binary_fold(op), op.fold()
            compared += 1
            assert (ours is None) == (xdsls is None), f"{op} in {label}"
            if ours is not None:
                folded += 1
                assert len(ours) == len(xdsls) and all(
                    a is b or a == b for a, b in zip(ours, xdsls)), f"{op} in {label}"
    assert compared > 100 and folded >= 8


def test_plans_kept_for_the_same_patterns():
    """Runs with the same pattern objects share their plans; other objects get their own."""
    patterns = [OpCanonicalization()]
    first = canonicalize.GreedyApplier(patterns, ctx=make_context(), folding_enabled=True)
    again = canonicalize.GreedyApplier(list(patterns), ctx=make_context(), folding_enabled=True)
    other = canonicalize.GreedyApplier([OpCanonicalization()], ctx=make_context(),
                                       folding_enabled=True)
    assert greedy_driver._plan_table(first) is greedy_driver._plan_table(again)
    assert greedy_driver._plan_table(first) is not greedy_driver._plan_table(other)


def test_plans_follow_patterns_attached_later():
    """A class that gains a pattern after a run has planned it gets it in the next run
    (the kept plans are dropped), even when it already had patterns (no trait added)."""

    @irdl_op_definition
    class Probe(IRDLOperation):
        name = "test.greedy_probe"
        tag = prop_def(StringAttr)

    class Retag(RewritePattern):
        def __init__(self, old: str, new: str):
            self.old, self.new = old, new

        def match_and_rewrite(self, op, rewriter):
            if op.tag.data == self.old:
                op.tag = StringAttr(self.new)
                rewriter.notify_op_modified(op)

    def run() -> str:
        module = ModuleOp([Probe(properties={"tag": StringAttr("a")})])
        canonicalize.apply_greedily(make_context(), module, [canonicalize._OP_CANONICALIZATION],
                                    fold_first=False)
        return module.body.block.first_op.tag.data

    assert run() == "a"
    add_canonicalization_patterns(Probe, Retag("a", "b"))
    assert run() == "b"
    add_canonicalization_patterns(Probe, Retag("b", "c"))
    assert run() == "c"
