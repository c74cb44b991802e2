"""Which Triton version a module is: read off its text, set by a pipeline or the flag, and
what the printer writes for it."""

from __future__ import annotations

import pytest

from tileopt.dialects.triton_version import (
    check_version,
    is_version_39,
    module_version,
    set_module_version,
)
from tileopt.ir import parse_module, print_module

BUFFER_LOAD_39 = """
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @f(%p: !tt.ptr<f32>, %o: tensor<64xi32, #blocked>) -> tensor<64xf32, #blocked> {
    %x = amdg.buffer_load %p[%o] : !tt.ptr<f32> -> tensor<64xf32, #blocked>
    tt.return %x : tensor<64xf32, #blocked>
  }
}
"""


def test_versions_are_checked_and_patch_levels_dropped():
    assert check_version("3.9.0") == "3.9"
    assert check_version("3.6") == "3.6"
    with pytest.raises(ValueError, match="unsupported Triton version '3.8'"):
        check_version("3.8")


def test_a_module_without_version_spellings_is_36():
    module = parse_module("module {\n}\n")
    assert module_version(module) == "3.6" and not is_version_39(module)


def test_the_parser_reads_the_version_off_the_text_and_ops_see_it():
    module = parse_module(BUFFER_LOAD_39)
    assert module_version(module) == "3.9"
    load = next(op for op in module.walk() if op.name == "amdg.buffer_load")
    assert is_version_39(load)  # any op finds its module's version
    assert ": !tt.ptr<f32> -> tensor" in print_module(module)


def test_a_set_version_wins_over_the_text_and_print_can_name_one():
    module = parse_module(BUFFER_LOAD_39)
    set_module_version(module, "3.6")
    assert ": !tt.ptr<f32> ->" not in print_module(module)
    assert ": !tt.ptr<f32> ->" in print_module(module, triton_version="3.9")


def test_the_module_attribute_only_39_writes_shows_the_version():
    module = parse_module('module attributes {"ttng.two-ctas" = false} {\n}\n')
    assert module_version(module) == "3.9"
