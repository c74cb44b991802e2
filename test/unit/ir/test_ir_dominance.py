"""Dominance across the blocks of a CFG region (``tileopt.ir.verify``): a value is usable
in the blocks its block dominates, as MLIR's verifier rules; unreachable blocks are
dominated by every block."""

from __future__ import annotations

import pytest

from tileopt.ir import TileoptError, parse_module

# entry -> ^a -> (^b | ^c) -> ^d -> (^a | ^exit): a loop around a diamond; ^dead is
# unreachable. USE is the value ^d returns through ^exit's argument.
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


@pytest.mark.parametrize("use", ["%vb"])
def test_a_value_of_one_branch_does_not_dominate_the_join(use):
    with pytest.raises(TileoptError) as err:
        parse_module(CFG.replace("USE", use), "cfg.mlir")
    assert "cfg.mlir:14:3: error: 'llvm.cond_br' op operand #1 does not dominate this use" \
        in err.value.format()


EDGE = """\
llvm.func @g(%c: i1) -> i32 {
  llvm.cond_br %c, ^a, ^b
^a:
  %x = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^c
^b:
  llvm.br ^b
^c:
  llvm.return %x : i32
}
"""


def _branch_around(module):
    """``^b`` now branches to ``^c`` too: ``^a`` no longer dominates ``^c``, where ``%x``
    is used; only the branch changed."""
    from xdsl.dialects import llvm

    func = next(iter(module.ops))
    blocks = list(func.body.blocks)
    old = blocks[2].last_op
    blocks[2].insert_op_before(llvm.BrOp(blocks[3]), old)
    old.detach()


def test_a_changed_branch_rechecks_the_uses_it_no_longer_dominates():
    from tileopt.ir import verify_module
    from tileopt.ir.verify import IncrementalVerifier

    module = parse_module(EDGE, "edge.mlir")
    verifier = IncrementalVerifier()
    verifier.start(module)
    _branch_around(module)
    with pytest.raises(TileoptError) as incremental:
        verifier.verify(module, "edge.mlir")
    whole = parse_module(EDGE, "edge.mlir")
    _branch_around(whole)
    with pytest.raises(TileoptError) as full:
        verify_module(whole, "edge.mlir")
    assert incremental.value.format() == full.value.format()
    assert "edge.mlir:9:3: error: 'llvm.return' op operand #0 does not dominate" in \
        full.value.format()
