"""A table from op name to the function that translates that op into LLVM IR.

Each op family (``llvm_ops``, ``nvvm_ops``, ``rocdl_ops``) fills one table with the
``@TABLE.register("op.name", ...)`` decorator; ``llvm_ir`` merges them and dispatches on
``op.name``, so an op is found whichever Python class a dialect module gave it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.ir import Operation

if TYPE_CHECKING:
    from tileopt.target.llvm_ir import FunctionEmitter

Converter = Callable[[Operation, "FunctionEmitter"], None]


class ConversionTable(dict[str, Converter]):
    def register(self, *op_names: str) -> Callable[[Converter], Converter]:
        def add(function: Converter) -> Converter:
            for name in op_names:
                if name in self:
                    raise ValueError(f"two converters for {name}")
                self[name] = function
            return function

        return add
