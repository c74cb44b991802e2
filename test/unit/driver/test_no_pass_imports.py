"""A ``tileopt`` run without passes (parse, verify, print) imports no pass machinery: the
pass manager, the pipelines, the instrumentations, xDSL's pass and DCE/CSE modules are
imported only when a run needs them (issue 14). Each case runs a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys

import pytest

MACHINERY = ("tileopt.driver.pass_manager", "tileopt.pipelines", "tileopt.pipelines.model",
             "tileopt.driver.instrumentation", "tileopt.driver.crash_reproducer",
             "tileopt.driver.verify_diagnostics", "xdsl.passes",
             "xdsl.transforms.dead_code_elimination",
             "xdsl.transforms.common_subexpression_elimination")

CODE = """
import sys
from tileopt.driver.opt import run_opt
status = run_opt(sys.argv[1:])
print("loaded:", sorted(m for m in {machinery} if m in sys.modules), file=sys.stderr)
print("status:", status, file=sys.stderr)
"""

MODULE = "func.func @f(%a: i32) -> i32 {\n  func.return %a : i32\n}\n"


def run(*args: str) -> tuple[list[str], int, str]:
    code = CODE.format(machinery=MACHINERY)
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    lines = done.stderr.splitlines()
    loaded, status = lines[-2], lines[-1]
    assert loaded.startswith("loaded: ") and status.startswith("status: "), done.stderr
    return eval(loaded[len("loaded: "):]), int(status.split()[1]), done.stdout


def test_a_run_without_passes_loads_none_of_it(tmp_path):
    source = tmp_path / "k.mlir"
    source.write_text(MODULE)
    loaded, status, out = run(str(source))
    assert (loaded, status) == ([], 0)
    assert "func.func @f(" in out


@pytest.mark.parametrize("flags, needed", [
    (["--cse"], ["tileopt.driver.pass_manager", "tileopt.pipelines.model",
                 "xdsl.transforms.common_subexpression_elimination"]),
    (["--mlir-timing"], ["tileopt.driver.instrumentation", "tileopt.driver.pass_manager"]),
    (["--dump-pass-pipeline"], ["tileopt.pipelines.model"]),
    (["--mlir-pass-pipeline-crash-reproducer=/dev/null"],
     ["tileopt.driver.crash_reproducer", "tileopt.driver.pass_manager"]),
    (["--verify-diagnostics"], ["tileopt.driver.verify_diagnostics"]),
])
def test_what_a_run_needs_is_loaded(tmp_path, flags, needed):
    source = tmp_path / "k.mlir"
    source.write_text(MODULE)
    loaded, status, _ = run(str(source), *flags)
    assert status == 0
    assert set(needed) <= set(loaded), loaded


def test_no_pass_output_matches_an_empty_pipeline(tmp_path):
    # The pass manager skipped: the same text as an explicit empty pipeline through it.
    source = tmp_path / "k.mlir"
    source.write_text(MODULE)
    _, _, plain = run(str(source))
    loaded, _, through = run(str(source), "--pass-pipeline=builtin.module()")
    assert "tileopt.driver.pass_manager" in loaded
    assert plain == through
