"""MLIR's SimplifyCondBranchFromCondBranchOnSameCondition, applied alone (in
``canonicalize`` its result is also reached through CondBranchTruthPropagation)."""

from __future__ import annotations

from xdsl.dialects import cf
from xdsl.pattern_rewriter import PatternRewriteWalker

from tileopt.ir.parse import parse_module
from tileopt.transforms.canonicalization.cf_patterns import CondBranchOnSameCondition

_IR = """
func.func @f(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb3(%a : i32)
^bb2:
  cf.cond_br %c, ^bb3(%b : i32), ^bb4(%b : i32)
^bb3(%x: i32):
  func.return %x : i32
^bb4(%y: i32):
  cf.cond_br %c, ^bb3(%a : i32), ^bb3(%y : i32)
}
"""


def _terminators(module):
    func = module.body.block.first_op
    return [block.last_op for block in func.body.blocks]


def test_cond_br_in_a_successor_on_the_same_condition_becomes_br():
    module = parse_module(_IR)
    PatternRewriteWalker(CondBranchOnSameCondition()).rewrite_module(module)
    terminators = _terminators(module)
    # ^bb2 is the false successor: it goes to its own false destination, ^bb4(%b).
    branch = terminators[2]
    assert isinstance(branch, cf.BranchOp)
    assert branch.successor is terminators[0].parent_region().blocks[4]
    assert [a.name_hint for a in branch.arguments] == ["b"]
    # The other cond_brs stay: the entry has no predecessor, ^bb4's is a cf.cond_br
    # on %c but ^bb4 is reached from ^bb2, whose branch was just rewritten.
    assert isinstance(terminators[0], cf.ConditionalBranchOp)


def test_block_reached_by_two_edges_is_left_alone():
    module = parse_module("""
func.func @g(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb1(%b : i32)
^bb1(%v: i32):
  cf.cond_br %c, ^bb2(%v : i32), ^bb2(%a : i32)
^bb2(%x: i32):
  func.return %x : i32
}
""")
    PatternRewriteWalker(CondBranchOnSameCondition()).rewrite_module(module)
    assert isinstance(_terminators(module)[1], cf.ConditionalBranchOp)
