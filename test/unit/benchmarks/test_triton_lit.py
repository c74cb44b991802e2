"""benchmarks/triton_lit.py, the runner of Triton's lit tests with tileopt: how it reads RUN
lines, which tools it runs, LLVM's split-file, and the three outcomes on a made-up test
directory (Python filecheck, this environment's tileopt)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "triton_lit.py"
_spec = importlib.util.spec_from_file_location("triton_lit", SCRIPT)
triton_lit = importlib.util.module_from_spec(_spec)
sys.modules["triton_lit"] = triton_lit  # its dataclasses look their module up
_spec.loader.exec_module(triton_lit)


def test_run_lines_join_continuations_and_read_requires(tmp_path):
    path = tmp_path / "t.mlir"
    path.write_text("// REQUIRES: shared-libs\n// RUN: triton-opt %s \\\n"
                    "// RUN:   -canonicalize | FileCheck %s\n// RUN: cat %s\n")
    commands, requires = triton_lit.run_lines(path)
    assert [c.command for c in commands] == ["triton-opt %s -canonicalize | FileCheck %s",
                                             "cat %s"]
    assert [c.line for c in commands] == [2, 4]
    assert requires == ["shared-libs"]


def test_tools_of_a_command():
    assert triton_lit.tools_of("not triton-opt %s 2>&1 | FileCheck %s") == \
        ["not", "triton-opt", "FileCheck"]
    assert triton_lit.tools_of("env X=1 triton-llvm-opt %s | FileCheck %s") == \
        ["triton-llvm-opt", "FileCheck"]


def test_split_file_keeps_line_numbers(tmp_path):
    source = tmp_path / "s.mlir"
    source.write_text("// RUN: split-file %s %t\n//--- a.mlir\nA\n//--- b.mlir\nB\nB2\n")
    triton_lit.split_file(source, tmp_path / "out")
    assert (tmp_path / "out" / "a.mlir").read_text() == "\n\nA\n"
    assert (tmp_path / "out" / "b.mlir").read_text() == "\n\n\n\nB\nB2\n"


def test_pass_fail_and_unsupported(tmp_path):
    body = "tt.func @f(%arg0: i32) -> i32 {\n  tt.return %arg0 : i32\n}\n"
    (tmp_path / "good.mlir").write_text(
        "// RUN: triton-opt %s -canonicalize | FileCheck %s\n// CHECK: tt.return %arg0\n" + body)
    (tmp_path / "bad.mlir").write_text(
        "// RUN: triton-opt %s -canonicalize | FileCheck %s\n// CHECK: tt.return %arg1\n" + body)
    (tmp_path / "missing.mlir").write_text(
        "// RUN: triton-opt %s -no-such-pass | FileCheck %s\n// CHECK: x\n" + body)
    (tmp_path / "tool.mlir").write_text("// RUN: mlir-translate %s | FileCheck %s\n" + body)
    outcomes = {}
    for name in ("good", "bad", "missing", "tool"):
        path = tmp_path / f"{name}.mlir"
        commands, requires = triton_lit.run_lines(path)
        outcomes[name] = triton_lit.run_file(path, commands, requires,
                                             triton_lit.find_tileopt(),
                                             triton_lit.find_filecheck(), 60.0)[0]
    assert outcomes["good"].status == "pass"
    assert outcomes["bad"].status == "fail" and "error" in outcomes["bad"].detail
    assert outcomes["missing"].status == "unsupported"
    assert outcomes["missing"].detail == "-no-such-pass"
    assert (outcomes["tool"].status, outcomes["tool"].detail) == ("unsupported",
                                                                   "tool mlir-translate")


def test_a_failure_in_a_split_file_names_it_by_percent_t(tmp_path):
    body = "tt.func @f(%arg0: i32) -> i32 {\n  tt.return %arg0 : i32\n}\n"
    path = tmp_path / "split.mlir"
    path.write_text("// RUN: split-file %s %t\n"
                    "// RUN: triton-opt %t/a.mlir -canonicalize | FileCheck %t/a.mlir\n"
                    "//--- a.mlir\n// CHECK: tt.return %arg1\n" + body)
    commands, requires = triton_lit.run_lines(path)
    outcomes = triton_lit.run_file(path, commands, requires, triton_lit.find_tileopt(),
                                   triton_lit.find_filecheck(), 60.0)
    assert outcomes[-1].status == "fail"
    assert outcomes[-1].detail.startswith("%t/a.mlir:"), outcomes[-1].detail

