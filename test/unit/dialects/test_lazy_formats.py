"""Assembly formats compile on first use (tileopt/dialects/lazy_formats.py): every format
of every dialect must still compile, and the ops parse and print through it."""

from __future__ import annotations

import pytest
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import FormatProgram

from tileopt.dialects.lazy_formats import LazyFormatProgram
from tileopt.ir import make_context, parse_module, print_module
from tileopt.ir.context import DIALECTS


def _formatted_ops():
    ctx = make_context()
    for name in DIALECTS:
        ctx.load_registered_dialect(name)
    return [op for op in ctx.loaded_ops if issubclass(op, IRDLOperation)
            and op.get_irdl_definition().assembly_format is not None]


def test_tileopt_ops_get_lazy_formats():
    from tileopt.dialects.tt import SplatOp

    assert isinstance(SplatOp.parse.__func__.__closure__[0].cell_contents, LazyFormatProgram)


@pytest.mark.parametrize("op", _formatted_ops(), ids=lambda op: op.name)
def test_every_format_compiles(op):
    op_def = op.get_irdl_definition()
    lazy = LazyFormatProgram(op_def.assembly_format, op_def)
    assert isinstance(lazy.compiled(), FormatProgram)


def test_a_bad_format_fails_when_used():
    from tileopt.dialects.tt import SplatOp

    lazy = LazyFormatProgram("$nothing attr-dict", SplatOp.get_irdl_definition())
    with pytest.raises(Exception):
        lazy.compiled()


def test_ops_round_trip_through_lazy_formats():
    text = ("tt.func @f(%p: !tt.ptr<f32>) {\n"
            "  %0 = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>\n"
            "  tt.return\n}\n")
    assert "tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>" in print_module(
        parse_module(text, "<test>"))


def test_install_stands_aside_for_xdsls_own_deferral(monkeypatch):
    """With an xDSL that defers formats itself (docs/upstream/xdsl/
    01-defer-assembly-formats.patch), install() asks it to and replaces nothing."""
    from xdsl.irdl import operations

    from tileopt.dialects import lazy_formats

    calls = []
    monkeypatch.setattr(operations, "defer_assembly_formats", lambda: calls.append(1),
                        raising=False)
    monkeypatch.setattr(FormatProgram, "from_str", staticmethod(lazy_formats._compile))
    lazy_formats.install()
    assert calls == [1]
    assert FormatProgram.from_str is lazy_formats._compile
