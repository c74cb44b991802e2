"""Running a pipeline: nesting on anchor ops, verification after each pass, failures.

Instrumentations (IR printing, timing) observe every pass execution through
``before``/``after`` hooks, as MLIR's ``PassInstrumentation`` does.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException

from tileopt.dialects.triton_version import set_module_version
from tileopt.driver import ir_io
from tileopt.driver.report import InternalPassError
from tileopt.ir.gc_scans import heap_frozen
from tileopt.ir.locations import error_at_op
from tileopt.ir import TileoptError
from tileopt.passes.base import PassFailure
from tileopt.passes.diagnostics import Handler, diagnostic_handler
from tileopt.passes.statistics import debug_log, statistics_of_pass
from tileopt.pipelines.model import NestStep, PassStep, Pipeline, Step
from tileopt.pipelines.text import ANY


class Instrumentation:
    """Hooks around each pass execution; ``op`` is the op the pass runs on."""

    def before_pipeline(self, module: ModuleOp) -> None: ...
    def before_pass(self, step: PassStep, op: Operation, module: ModuleOp) -> None: ...
    def after_pass(self, step: PassStep, op: Operation, module: ModuleOp) -> None: ...
    def after_pass_failed(self, step: PassStep, op: Operation, module: ModuleOp) -> None: ...
    def nest_time(self, step: NestStep, seconds: float) -> None: ...
    def verify_time(self, seconds: float) -> None: ...


@dataclass
class PassManager:
    pipeline: Pipeline
    filename: str
    verify_each: bool = True
    instrumentations: list[Instrumentation] = field(default_factory=list)
    # Where warnings/remarks emitted by passes go (None: printed on stderr).
    diagnostics: Handler | None = None
    # --mlir-pass-statistics: id(step) -> that step's statistics, summed over its runs.
    statistics: dict[int, dict[str, list]] | None = None
    # The Triton version to compile as (--triton-version); else the pipeline's, else the
    # one the parser read off the input.
    triton_version: str | None = None

    @heap_frozen
    def run(self, ctx: Context, module: ModuleOp) -> None:
        version = self.triton_version or self.pipeline.triton_version
        if version is not None:
            set_module_version(module, version)
        for inst in self.instrumentations:
            inst.before_pipeline(module)
        self._verifier = ir_io.incremental_verifier()
        # How many passes have changed the IR so far, and for each run of an idempotent
        # pass, (pass, its op) -> that count after it ran (ops compare by identity).
        self._changes = 0
        self._idempotent_runs: dict[tuple[object, Operation], int] = {}
        if self.verify_each and self.pipeline.steps:  # (no pass: nothing to compare with)
            self._verifier.start(module)
        with self._verifier.kept(), diagnostic_handler(self.diagnostics, self.filename):
            self._run_steps(self.pipeline.steps, ctx, module, module)

    def _run_steps(self, steps: list[Step], ctx: Context, op: Operation,
                   module: ModuleOp) -> None:
        for step in steps:
            if isinstance(step, PassStep):
                self._run_pass(step, ctx, op, module)
                continue
            start = time.perf_counter()
            for child in [c for region in op.regions for block in region.blocks
                          for c in block.ops if step.anchor in (c.name, ANY)]:
                self._run_steps(step.steps, ctx, child, module)
            for inst in self.instrumentations:
                inst.nest_time(step, time.perf_counter() - start)

    def _run_pass(self, step: PassStep, ctx: Context, op: Operation, module: ModuleOp) -> None:
        for inst in self.instrumentations:
            inst.before_pass(step, op, module)
        log = debug_log(step.name)
        if self._unchanged_since_last_run(step, op, log):
            # Its output would be its input (it ran on this very IR before): skipped, as
            # is the verification (nothing changed).
            for inst in self.instrumentations:
                inst.after_pass(step, op, module)
            return
        if log.isEnabledFor(logging.DEBUG):
            log.debug("running on '%s'%s", op.name, symbol_suffix(op, " @"))
        try:
            if self.statistics is None:
                step.pass_.apply(ctx, op)
            else:
                with statistics_of_pass(self.statistics.setdefault(id(step), {})):
                    step.pass_.apply(ctx, op)
        except TileoptError:
            self._failed(step, op, module)
            raise
        except PassFailure as err:
            self._failed(step, op, module)
            raise error_at_op(err.message, err.op or op, self.filename) from err
        except DiagnosticException as err:
            self._failed(step, op, module)
            message = str(err.args[0]) if err.args else type(err).__name__
            raise TileoptError(f"pass '{step.name}' failed: {message.splitlines()[0]}",
                               self.filename) from err
        except Exception as err:
            self._failed(step, op, module)
            raise InternalPassError(step.name, err) from err
        if self.verify_each:
            # As in MLIR, verification comes before the after-pass hooks: a pass that leaves
            # invalid IR has failed, and only --mlir-print-ir-after-failure shows its IR.
            start = time.perf_counter()
            try:
                if self._verifier.verify(module, self.filename):
                    self._changes += 1
            except TileoptError as err:
                err.message = f"invalid IR after pass '{step.name}': {err.message}"
                self._failed(step, op, module)
                raise
            finally:
                for inst in self.instrumentations:
                    inst.verify_time(time.perf_counter() - start)
            if type(step.pass_).idempotent:
                self._idempotent_runs[(step.pass_, op)] = self._changes
        for inst in self.instrumentations:
            inst.after_pass(step, op, module)

    def _unchanged_since_last_run(self, step: PassStep, op: Operation,
                                  log: logging.Logger) -> bool:
        """Whether ``step`` is an idempotent pass that ran on ``op`` with the same options
        and no pass has changed the IR since (known only while every pass is verified);
        not when its statistics or debug output are asked for."""
        if not self.verify_each or self.statistics is not None or \
                log.isEnabledFor(logging.DEBUG) or not type(step.pass_).idempotent:
            return False
        return self._idempotent_runs.get((step.pass_, op)) == self._changes

    def _failed(self, step: PassStep, op: Operation, module: ModuleOp) -> None:
        debug_log(step.name).debug("failed")
        for inst in self.instrumentations:
            inst.after_pass_failed(step, op, module)


def symbol_suffix(op: Operation, prefix: str) -> str:
    """``prefix`` and the op's symbol name, for naming the op in messages ("" if none)."""
    name = op.attributes.get("sym_name") or op.properties.get("sym_name")
    return f"{prefix}{name.data}" if name is not None and hasattr(name, "data") else ""
