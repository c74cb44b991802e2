"""The orders of xDSL 0.74's ``walk`` as lists, read off its linked lists directly.

xDSL's ``walk`` nests a generator per region, block and op; a walk over every op of a
module after every pass (the verifier) or every iteration of the greedy rewriter costs
more than the work done on the ops. These give the same ops in the same order, as a list
taken at the start (callers that change the IR meanwhile must not rely on xDSL's lazy
walk seeing the changes; those here do not).
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, Region


def ops_in_walk_order(root: Operation | Region) -> list[Operation]:
    """``list(root.walk())``: each op before its regions' ops (an op root first)."""
    return ops_and_blocks_in_walk_order(root)[0]


def ops_and_blocks_in_walk_order(root: Operation | Region
                                 ) -> tuple[list[Operation], list[Block]]:
    """:func:`ops_in_walk_order`, and the blocks in the order the walk enters them."""
    found: list[Operation] = []
    blocks: list[Block] = []
    append, add_block = found.append, blocks.append

    def visit_regions(regions) -> None:
        for region in regions:
            block = region._first_block  # noqa: SLF001
            while block is not None:
                add_block(block)
                child = block._first_op  # noqa: SLF001
                while child is not None:
                    append(child)
                    if child.regions:
                        visit_regions(child.regions)
                    child = child._next_op  # noqa: SLF001
                block = block._next_block  # noqa: SLF001

    if isinstance(root, Region):
        visit_regions((root,))
    else:
        append(root)
        visit_regions(root.regions)
    return found, blocks


def ops_in_worklist_order(root: Operation | Region) -> list[Operation]:
    """``list(root.walk(reverse=True, region_first=True))``: regions, blocks and ops last
    to first, each op after its regions' ops (what the greedy rewriter's worklist is
    filled with)."""
    found: list[Operation] = []
    append = found.append

    def visit_regions(regions) -> None:
        for region in reversed(regions):
            block = region._last_block  # noqa: SLF001
            while block is not None:
                child = block._last_op  # noqa: SLF001
                while child is not None:
                    if child.regions:
                        visit_regions(child.regions)
                    append(child)
                    child = child._prev_op  # noqa: SLF001
                block = block._prev_block  # noqa: SLF001

    if isinstance(root, Region):
        visit_regions((root,))
    else:
        visit_regions(root.regions)
        append(root)
    return found
