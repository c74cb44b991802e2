"""Declarative assembly formats compiled on first use instead of when an op is defined.

xDSL compiles an op's ``assembly_format`` text into a ``FormatProgram`` as the op class is
defined (``irdl_op_definition`` -> ``FormatProgram.from_str``): for tileopt's dialects
that is over a hundred formats and about a fifth of the start-up, spent on ops most runs
never parse or print. :func:`install` makes ``from_str`` return a stand-in that compiles
the format the first time an op of that class is parsed or printed. A format with a
mistake then fails at that point instead of at import, so
``test/unit/dialects/test_lazy_formats.py`` compiles every format of every dialect.

A local override of xDSL 0.74 (``xdsl/irdl/operations.py``, ``get_accessors_from_op_def``).
Upstream change: docs/upstream/xdsl/01-defer-assembly-formats.patch (xDSL's own
``defer_assembly_formats()``; ready to send, not sent). Where the installed xDSL has it,
:func:`install` calls it instead of replacing ``from_str``; drop this module when
pyproject.toml pins a release that has it (docs/upstream/README.md).
"""

from __future__ import annotations

from xdsl.irdl import declarative_assembly_format as _daf

_compile = _daf.FormatProgram.from_str


class LazyFormatProgram:
    """What ``FormatProgram.from_str`` returns once installed: the text, compiled on the
    first ``parse`` or ``print``."""

    __slots__ = ("text", "op_def", "_program")

    def __init__(self, text: str, op_def) -> None:
        self.text = text
        self.op_def = op_def
        self._program = None

    def compiled(self) -> _daf.FormatProgram:
        if self._program is None:
            self._program = _compile(self.text, self.op_def)
        return self._program

    def parse(self, parser, op_type):
        return self.compiled().parse(parser, op_type)

    def print(self, printer, op) -> None:
        return self.compiled().print(printer, op)


def _lazy_from_str(text: str, op_def) -> LazyFormatProgram:
    return LazyFormatProgram(text, op_def)


def install() -> None:
    """Compile formats lazily from now on (ops defined before keep their compiled ones)."""
    from xdsl.irdl import operations

    defer = getattr(operations, "defer_assembly_formats", None)
    if defer is not None:  # an xDSL with the upstream change: its own deferral
        defer()
        return
    _daf.FormatProgram.from_str = staticmethod(_lazy_from_str)
