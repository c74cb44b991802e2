"""The table from op name to the function that translates that op into LLVM IR.

Each op family (``llvm_ops``, ``nvvm_ops``, ``rocdl_ops``) registers its converters in
:data:`CONVERTERS` with ``@CONVERTERS.register("op.name", ...)`` (or ``register_prefix``
for a whole family of names, such as ``llvm.intr.*``) when imported; ``llvm_ir`` imports
them all and dispatches on ``op.name``, so an op is found whichever Python class a
dialect module gave it.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Operation

from tileopt.target.function_emitter import FunctionEmitter

Converter = Callable[[Operation, FunctionEmitter], None]


class ConversionTable(dict[str, Converter]):
    """Op name -> converter; a converter registered for a name prefix serves every op
    whose name starts with it and that has no converter of its own."""

    def __init__(self) -> None:
        super().__init__()
        self.prefixes: dict[str, Converter] = {}

    def register(self, *op_names: str) -> Callable[[Converter], Converter]:
        return self._adder(self, op_names)

    def register_prefix(self, *prefixes: str) -> Callable[[Converter], Converter]:
        return self._adder(self.prefixes, prefixes)

    @staticmethod
    def _adder(table: dict[str, Converter],
               keys: tuple[str, ...]) -> Callable[[Converter], Converter]:
        def add(function: Converter) -> Converter:
            for key in keys:
                if key in table:
                    raise ValueError(f"two converters for {key}")
                table[key] = function
            return function

        return add

    def lookup(self, op_name: str) -> Converter | None:
        found = self.get(op_name)
        if found is None:
            found = next((converter for prefix, converter in self.prefixes.items()
                          if op_name.startswith(prefix)), None)
        return found


CONVERTERS = ConversionTable()
