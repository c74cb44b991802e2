"""``symbol-dce``: erase private symbols nothing live refers to (MLIR's ``-symbol-dce``).

Public symbols (a Triton kernel is ``tt.func public``) are live; a private symbol is live
when a live symbol, or an op of the module that is not a symbol, refers to it. Everything
else private (helpers left after inlining, unused ``llvm.mlir.global``s, ...) is erased.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.ir import Operation

from tileopt.passes import Pass, register_pass
from tileopt.transforms.utils.symbol_uses import (is_private, referenced_symbols,
                                                   symbol_name)


def symbol_dce(table: Operation) -> None:
    """Erase dead private symbols directly inside the symbol table op ``table``."""
    for region in table.regions:
        for block in region.blocks:
            symbols = {symbol_name(op): op for op in block.ops if symbol_name(op)}
            if not any(map(is_private, symbols.values())):
                continue  # only private symbols are erased: none (one public kernel)
            live: set[str] = set()
            work: list[str] = []
            roots = referenced_symbols(table, nested=False)
            for op in block.ops:
                name = symbol_name(op)
                if name is None:
                    roots |= referenced_symbols(op)
                elif not is_private(op):
                    roots.add(name)
            for name in roots:
                if name in symbols and name not in live:
                    live.add(name)
                    work.append(name)
            while work:
                for ref in referenced_symbols(symbols[work.pop()]):
                    if ref in symbols and ref not in live:
                        live.add(ref)
                        work.append(ref)
            for name, op in symbols.items():
                if name not in live:
                    block.erase_op(op, safe_erase=False)


@register_pass
class SymbolDCE(Pass):
    """Erase private symbols that are not referenced."""

    name = "symbol-dce"

    def apply(self, ctx: Context, op: Operation) -> None:
        symbol_dce(op)
