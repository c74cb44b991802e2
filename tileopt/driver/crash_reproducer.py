"""``--mlir-pass-pipeline-crash-reproducer=FILE``: MLIR's local reproducer of a failing
pass (the format: ``tileopt/driver/reproducer.py``)."""

from __future__ import annotations

import sys

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from tileopt.driver import ir_io
from tileopt.driver.output import write_output
from tileopt.driver.pass_manager import Instrumentation
from tileopt.driver.reproducer import reproducer_text
from tileopt.pipelines.model import PassStep


class CrashReproducer(Instrumentation):
    """Keeps the IR from before the running pass; writes a reproducer if the pass fails."""

    def __init__(self, path: str, verify_each: bool):
        self.path = path
        self.verify_each = verify_each
        self._before: ModuleOp | None = None

    def before_pass(self, step: PassStep, op: Operation, module: ModuleOp) -> None:
        self._before = module.clone()

    def after_pass_failed(self, step: PassStep, op: Operation, module: ModuleOp) -> None:
        if self._before is None:
            return
        text = step.pass_.pipeline_text()
        if op is not module:  # a nested pass: run it on the same kind of op
            text = f"{op.name}({text})"
        write_output(reproducer_text(ir_io.render(self._before, True),
                                     f"builtin.module({text})", self.verify_each), self.path)
        print(f"note: a reproducer of the failing pass was written to '{self.path}' (run it "
              f"with: tileopt --run-reproducer {self.path})", file=sys.stderr)
        self._before = None
