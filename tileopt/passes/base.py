"""The pass base class: an xDSL ``ModulePass`` with a name, a summary and typed options.

A pass is a frozen dataclass whose fields are its options (see ``options.py``)::

    @register_pass
    class Coalesce(Pass):
        \"\"\"Pick blocked layouts so that global memory accesses coalesce.\"\"\"

        name = "tritongpu-coalesce"
        num_warps: int = option(4, "warps per CTA")

        def apply(self, ctx, op): ...

``apply(ctx, op)`` receives the op the pass is anchored on: the ``builtin.module`` for
module passes (the default, ``anchor = "builtin.module"``), or, for op-agnostic passes
(``anchor = None``: canonicalize, cse, ...), whatever op the pipeline nests them under
(``builtin.module(tt.func(cse))``). A pass signals bad input by raising
``tileopt.ir.TileoptError`` or ``PassFailure(op, message)``; any other exception is
reported as an internal error in that pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from tileopt.passes.options import OptionSpec, format_option_value, option_specs


@dataclass(frozen=True)
class Pass(ModulePass):
    """Base class of every tileopt pass."""

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    # The op this pass runs on; None: any op it is nested under (op-agnostic, as in MLIR).
    anchor: ClassVar[str | None] = "builtin.module"
    # Running the pass again on its own output changes nothing, and what it does depends
    # only on the IR (not on locations or outside state): the pass manager skips a run
    # when the IR is unchanged since the same pass (same options, same op) last ran.
    idempotent: ClassVar[bool] = False

    def apply(self, ctx: Context, op: Operation) -> None:  # type: ignore[override]
        raise NotImplementedError(f"pass {self.name} does not implement apply()")

    @classmethod
    def options(cls) -> list[OptionSpec]:
        return option_specs(cls)

    @classmethod
    def one_line_summary(cls) -> str:
        if cls.summary:
            return cls.summary
        # The docstring's first paragraph, whole (a first line may end mid-sentence).
        doc = (cls.__doc__ or "").strip()
        paragraph = doc.split("\n\n")[0] if doc else ""
        return " ".join(line.strip() for line in paragraph.splitlines())

    @classmethod
    def from_options(cls, values: dict[str, object]) -> "Pass":
        """Build the pass from already-typed option values keyed by option name."""
        by_name = {spec.name: spec for spec in cls.options()}
        kwargs = {by_name[key].field: value for key, value in values.items()}
        return cls(**kwargs)

    def option_values(self) -> dict[str, object]:
        return {spec.name: getattr(self, spec.field) for spec in self.options()}

    def pipeline_text(self) -> str:
        """``name{opt=value ...}`` with every option, as ``--dump-pass-pipeline`` shows it."""
        values = self.option_values()
        if not values:
            return self.name
        # As MLIR: an empty list option is left out (its value would read as one element).
        inner = " ".join(f"{key}={format_option_value(value)}" for key, value in values.items()
                         if value != ())
        return f"{self.name}{{{inner}}}"


class PassFailure(Exception):
    """Raised by a pass to report that ``op`` is not something it can handle."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op
        self.message = message
