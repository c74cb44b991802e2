"""``tileopt.ir.walks``: xDSL's walk orders as lists, op for op the same as xDSL's walk
on every corpus kernel (a module, a function, a loop body)."""

from __future__ import annotations

from xdsl.ir import Region

from tileopt.ir import parse_module
from tileopt.ir.walks import (ops_and_blocks_in_walk_order, ops_in_walk_order,
                               ops_in_worklist_order)


def _roots(module):
    yield module
    yield module.body
    for op in module.walk():
        if op.regions and op is not module:
            yield op
            yield op.regions[-1]


def _blocks(root):
    """xDSL's blocks in walk order (``Region`` has no ``walk_blocks``)."""
    if isinstance(root, Region):
        return [b for block in root.blocks for b in block.walk_blocks()]
    return list(root.walk_blocks())


BLOCKS = """module {
  tt.func @u(%p: !tt.ptr<i32>, %n: i32) {
    %c = arith.constant 1 : i32
    cf.br ^b1(%c : i32)
  ^b1(%a: i32):
    %x = scf.for %i = %c to %n step %c iter_args(%v = %a) -> (i32) : i32 {
      %d = arith.muli %v, %n : i32
      scf.yield %d : i32
    }
    cf.br ^b2(%x : i32)
  ^b2(%z: i32):
    tt.store %p, %z : !tt.ptr<i32>
    tt.return
  }
}"""


def test_the_orders_of_xdsls_walks(corpus):
    compared = 0
    texts = [("blocks", BLOCKS)] + [(p.name, p.read_text())
                                    for p in sorted(corpus.glob("*/*.ttgir"))]
    for name, text in texts:
        module = parse_module(text, name)
        for root in _roots(module):
            assert ops_in_walk_order(root) == list(root.walk()), name
            assert ops_and_blocks_in_walk_order(root)[1] == _blocks(root), name
            assert ops_in_worklist_order(root) == \
                list(root.walk(reverse=True, region_first=True)), name
            compared += 1
    assert compared > 200
