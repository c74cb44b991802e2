"""Canonicalization patterns and folders are found on the ops (docs/patterns.md)."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith as xarith
from xdsl.dialects import scf
from xdsl.irdl import IRDLOperation, irdl_op_definition, traits_def
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasFolder, Pure

import tileopt.transforms.common.canonicalize  # noqa: F401  (imports every pattern module)
from tileopt.dialects import tt, ttg
from tileopt.dialects.canonicalization import (
    TileoptCanonicalization,
    add_canonicalization_patterns,
    add_folder,
    canonicalization_patterns,
)
from tileopt.dialects.tt_canonicalize import fold_addptr
from tileopt.dialects import arith as tarith


class _Pattern(RewritePattern):
    def match_and_rewrite(self, op, rewriter, /) -> None:
        pass


class _Shared(IRDLOperation):
    traits = traits_def(Pure())


@irdl_op_definition
class _FirstOp(_Shared):
    name = "test.first"


@irdl_op_definition
class _SecondOp(_Shared):
    name = "test.second"


def test_patterns_stay_on_their_op_when_siblings_share_traits():
    assert _FirstOp.traits is _SecondOp.traits
    first, second = _Pattern(), _Pattern()
    add_canonicalization_patterns(_FirstOp, first)
    add_canonicalization_patterns(_FirstOp, second)
    assert canonicalization_patterns(_FirstOp) == (first, second)
    assert canonicalization_patterns(_SecondOp) == ()
    assert _SecondOp.get_trait(TileoptCanonicalization) is None
    assert _FirstOp.has_trait(Pure) and _SecondOp.has_trait(Pure)


def test_an_op_has_one_folder():
    add_folder(_SecondOp, lambda op: None)
    with pytest.raises(ValueError):
        add_folder(_SecondOp, lambda op: None)


def test_tt_folders_and_patterns_are_on_the_ops():
    assert tt.AddPtrOp.get_trait(HasFolder).function is fold_addptr
    assert [type(p).__name__ for p in canonicalization_patterns(tt.BroadcastOp)] == [
        "BroadcastOfSplat", "BroadcastOfBroadcast"]
    assert canonicalization_patterns(tt.LoadOp)


def test_upstream_and_tileopt_arith_classes_get_the_arith_patterns():
    for op in (xarith.AddiOp, xarith.CmpiOp, tarith.CmpiOp, tarith.SelectOp):
        assert type(canonicalization_patterns(op)[0]).__name__ == "ArithCanonicalization"
    assert canonicalization_patterns(scf.ForOp) and canonicalization_patterns(scf.IfOp)
    assert canonicalization_patterns(ttg.ConvertLayoutOp)
