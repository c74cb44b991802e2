"""The pass manager skips a run of an idempotent pass (``Pass.idempotent``: canonicalize,
cse) when no pass has changed the IR since that pass last ran with the same options on
the same op: its output would be its input. Anything in between that changes the IR,
other options, statistics or debug output, or no verification after each pass (which is
what tells a change) make it run."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from tileopt.driver.pass_manager import Instrumentation, PassManager
from tileopt.ir import make_context, parse_module, print_module
from tileopt.passes.base import Pass
from tileopt.passes.options import option
from tileopt.passes.statistics import debug_log
from tileopt.pipelines import resolve_pass_pipeline
from tileopt.pipelines.model import NestStep, PassStep, Pipeline

TEXT = """\
func.func @f(%a: i32) -> i32 {
  %one = arith.constant 1 : i32
  %x = arith.addi %a, %one : i32
  func.return %x : i32
}
"""

RUNS: list[str] = []


@dataclass(frozen=True)
class _Counted(Pass):
    """Counts its runs; changes nothing (a test pass)."""

    name = "test-idempotent-counted"
    anchor = None
    idempotent = True
    tag: int = option(0, "a value to tell runs apart")

    def apply(self, ctx, op):
        RUNS.append(f"counted{self.tag}")


@dataclass(frozen=True)
class _Other(Pass):
    """Not idempotent; swaps the operands of the addi with ``swap`` (a test pass)."""

    name = "test-idempotent-other"
    anchor = None
    swap: bool = option(False, "change the IR")

    def apply(self, ctx, op):
        RUNS.append("changer" if self.swap else "quiet")
        if self.swap:
            add = next(o for o in op.walk() if o.name == "arith.addi")
            add.operands = [add.operands[1], add.operands[0]]


class _Seen(Instrumentation):
    def __init__(self):
        self.after: list[str] = []

    def after_pass(self, step, op, module):
        self.after.append(step.name)


def _run(*passes, verify_each=True, statistics=None, instrumentations=()):
    RUNS.clear()
    module = parse_module(TEXT, "in.mlir")
    manager = PassManager(Pipeline([PassStep(p) for p in passes]), "in.mlir", verify_each,
                          list(instrumentations), statistics=statistics)
    manager.run(None, module)
    return list(RUNS)


def test_a_second_run_on_unchanged_ir_is_skipped_and_still_seen():
    seen = _Seen()
    assert _run(_Counted(), _Other(), _Counted(), instrumentations=[seen]) == \
        ["counted0", "quiet"]
    # Instrumentations (IR printing, timing) still see the skipped run.
    assert seen.after == ["test-idempotent-counted", "test-idempotent-other",
                          "test-idempotent-counted"]


def test_a_change_in_between_makes_it_run_again():
    assert _run(_Counted(), _Other(True), _Counted(), _Counted()) == \
        ["counted0", "changer", "counted0"]


def test_other_options_are_another_pass():
    assert _run(_Counted(1), _Counted(2), _Counted(1)) == ["counted1", "counted2"]


def test_no_skip_without_verification_statistics_or_debug_output():
    assert _run(_Counted(), _Counted(), verify_each=False) == ["counted0", "counted0"]
    assert _run(_Counted(), _Counted(), statistics={}) == ["counted0", "counted0"]
    log = debug_log(_Counted.name)
    level = log.level
    log.setLevel(logging.DEBUG)
    try:
        assert _run(_Counted(), _Counted()) == ["counted0", "counted0"]
    finally:
        log.setLevel(level)


def test_nested_runs_are_per_op():
    RUNS.clear()
    module = parse_module(TEXT + TEXT.replace("@f", "@g"), "in.mlir")
    step = NestStep("func.func", [PassStep(_Counted())])
    PassManager(Pipeline([step, step]), "in.mlir").run(None, module)
    assert RUNS == ["counted0", "counted0"]  # once per function


def test_canonicalize_and_cse_twice_give_the_same_text():
    # The real passes: the pipeline with the skipped runs prints what one run of each does.
    text = TEXT.replace("func.return %x", "%y = arith.addi %a, %one : i32\n"
                        "  %z = arith.addi %x, %y : i32\n  func.return %z")
    ctx = make_context()
    once, twice = parse_module(text, "in.mlir", ctx), parse_module(text, "in.mlir", ctx)
    PassManager(resolve_pass_pipeline("builtin.module(canonicalize, cse)"),
                "in.mlir").run(ctx, once)
    PassManager(resolve_pass_pipeline("builtin.module(canonicalize, cse, canonicalize, "
                                      "cse)"), "in.mlir").run(ctx, twice)
    assert print_module(once) == print_module(twice)
    assert print_module(once).count("arith.addi") == 2
