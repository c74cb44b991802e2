"""LLVM-style command-line parsing: dashes, values, lists, pass flags, did-you-mean."""

from __future__ import annotations

import pytest

from tileopt.driver.argv import Flag, parse_argv
from tileopt.ir import TileoptError

FLAGS = [
    Flag("o", "value", "output"),
    Flag("split-input-file", "bool", "split"),
    Flag("verify-each", "bool", "verify", default=True),
    Flag("mlir-print-ir-after", "list", "print after"),
    Flag("help", "bool", "help", aliases=("h",)),
]
PASSES = {"cse", "canonicalize", "tritongpu-pipeline"}


def parse(*argv: str):
    return parse_argv(list(argv), FLAGS, is_pass=PASSES.__contains__, pass_names=lambda: PASSES)


@pytest.mark.parametrize("spelling", ["-split-input-file", "--split-input-file",
                                      "--split-input-file=true", "-split-input-file=1"])
def test_one_or_two_dashes_and_bool_values(spelling):
    assert parse(spelling, "in.mlir").split_input_file is True


def test_bool_false_and_default():
    assert parse("in.mlir").verify_each is True
    assert parse("--verify-each=false").verify_each is False
    with pytest.raises(TileoptError, match="not a valid value for boolean flag"):
        parse("--verify-each=maybe")


def test_values_after_equals_or_as_next_argument():
    assert parse("-o", "out.mlir").o == "out.mlir"
    assert parse("--o=out.mlir").o == "out.mlir"
    with pytest.raises(TileoptError, match="needs a value"):
        parse("-o")


def test_list_flags_accumulate_in_order():
    args = parse("--mlir-print-ir-after=cse", "-mlir-print-ir-after", "canonicalize")
    assert args.mlir_print_ir_after == ["cse", "canonicalize"]


def test_pass_flags_keep_order_and_option_text():
    args = parse("-cse", "--tritongpu-pipeline=num-stages=3", "--canonicalize", "-cse")
    assert args.pass_flags == [("cse", None), ("tritongpu-pipeline", "num-stages=3"),
                               ("canonicalize", None), ("cse", None)]


def test_positionals_stdin_and_double_dash():
    assert parse("-", "-cse").positionals == ["-"]
    assert parse("--", "-weird-name.mlir").positionals == ["-weird-name.mlir"]


def test_alias():
    assert parse("-h").help is True


@pytest.mark.parametrize("arg, suggestion", [("--split-input-fil", "--split-input-file"),
                                             ("-canonicalise", "--canonicalize")])
def test_unknown_flag_did_you_mean(arg, suggestion):
    with pytest.raises(TileoptError) as err:
        parse(arg)
    assert f"did you mean '{suggestion}'?" in err.value.message


def test_unknown_flag_without_suggestion():
    with pytest.raises(TileoptError) as err:
        parse("--zzzzzz")
    assert err.value.message == "unknown command line argument '--zzzzzz'"
