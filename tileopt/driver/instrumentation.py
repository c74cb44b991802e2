"""Pass instrumentation: ``--mlir-print-ir-*`` dumps and the ``--mlir-timing`` report.

IR is printed to stderr at module scope (the whole module, as mlir-opt's
``--mlir-print-ir-module-scope``), under MLIR's header line, e.g.
``// -----// IR Dump After CommonSubexpressionElimination (cse) ('builtin.module' operation) //----- //``.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from tileopt.driver import ir_io
from tileopt.driver.pass_manager import Instrumentation, symbol_suffix
from tileopt.ir import TileoptError
from tileopt.pipelines.model import NestStep, PassStep, Pipeline, Step


def _op_description(op: Operation) -> str:
    return f"('{op.name}' operation{symbol_suffix(op, ': @')})"


@dataclass
class IRPrinter(Instrumentation):
    """Prints the IR before/after the chosen passes (``all`` for every pass)."""

    before: set[str] = field(default_factory=set)
    after: set[str] = field(default_factory=set)
    before_all: bool = False
    after_all: bool = False
    only_if_changed: bool = False
    after_failure: bool = False
    print_options: ir_io.PrintOptions = ir_io.PrintOptions()
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    # --mlir-print-ir-tree-dir: each dump in a file of this directory tree instead.
    tree_dir: str | None = None
    _text_before: dict[int, str] = field(default_factory=dict)
    _counters: dict[int, int] = field(default_factory=dict)

    def _print(self, when: str, step: PassStep, op: Operation, text: str,
               failed: bool = False) -> None:
        # As MLIR: "IR Dump After CSE Failed (cse) ..." for the IR a failing pass left.
        status = " Failed" if failed else ""
        header = (f"// -----// IR Dump {when} {type(step.pass_).__name__}{status} ({step.name}) "
                  f"{_op_description(op)} //----- //")
        dump = header + "\n" + text + ("" if text.endswith("\n") else "\n") + "\n"
        if self.tree_dir is not None:
            self._write_in_tree(step, op, dump)
            return
        self.stream.write(dump)
        self.stream.flush()

    def _write_in_tree(self, step: PassStep, op: Operation, dump: str) -> None:
        """MLIR's file tree: a directory per op from the module down to ``op``, named
        ``<op name, '.' as '_'>_<symbol or no-symbol-name>``, and in it the file
        ``<the dump count of each of those ops, joined by '_'>_<pass>.mlir``."""
        self._counters[id(op)] = self._counters.get(id(op), -1) + 1
        chain = []
        ancestor: Operation | None = op
        while ancestor is not None:
            chain.append(ancestor)
            ancestor = ancestor.parent_op()
        chain.reverse()
        directory = Path(self.tree_dir).joinpath(*(
            f"{o.name.replace('.', '_')}_{symbol_suffix(o, '') or 'no-symbol-name'}"
            for o in chain))
        counts = "_".join(str(self._counters.setdefault(id(o), 0)) for o in chain)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            (directory / f"{counts}_{step.name}.mlir").write_text(dump)
        except OSError as err:
            raise TileoptError(f"--mlir-print-ir-tree-dir: cannot write in '{directory}': "
                               f"{err.strerror}") from None

    def _wants_after(self, step: PassStep) -> bool:
        return self.after_all or step.name in self.after or (
            self.only_if_changed and not self.after)

    def before_pass(self, step: PassStep, op: Operation, module: ModuleOp) -> None:
        if self.before_all or step.name in self.before:
            self._print("Before", step, op, ir_io.render(module, self.print_options))
        if self.only_if_changed and self._wants_after(step):
            self._text_before[id(step)] = ir_io.render(module, True)

    def after_pass(self, step: PassStep, op: Operation, module: ModuleOp) -> None:
        if not self._wants_after(step):
            return
        if self.only_if_changed:
            previous = self._text_before.pop(id(step), None)
            if previous == ir_io.render(module, True):
                return
        self._print("After", step, op, ir_io.render(module, self.print_options))

    def after_pass_failed(self, step: PassStep, op: Operation, module: ModuleOp) -> None:
        if self.after_failure:
            self._print("After", step, op, ir_io.render(module, self.print_options), failed=True)


@dataclass
class Timer(Instrumentation):
    """Wall time per pipeline step, reported as MLIR's "Execution time report"."""

    pass_seconds: dict[int, float] = field(default_factory=dict)
    nest_seconds: dict[int, float] = field(default_factory=dict)
    phases: dict[str, float] = field(default_factory=dict)
    _started: dict[int, float] = field(default_factory=dict)
    _begin: float = field(default_factory=time.perf_counter)

    def add_phase(self, name: str, seconds: float) -> None:
        self.phases[name] = self.phases.get(name, 0.0) + seconds

    def before_pass(self, step: PassStep, op: Operation, module: ModuleOp) -> None:
        self._started[id(step)] = time.perf_counter()

    def _stop(self, step: PassStep) -> None:
        start = self._started.pop(id(step), None)
        if start is not None:
            self.pass_seconds[id(step)] = self.pass_seconds.get(id(step), 0.0) + (
                time.perf_counter() - start)

    def after_pass(self, step: PassStep, op: Operation, module: ModuleOp) -> None:
        self._stop(step)

    def after_pass_failed(self, step: PassStep, op: Operation, module: ModuleOp) -> None:
        self._stop(step)

    def nest_time(self, step: NestStep, seconds: float) -> None:
        self.nest_seconds[id(step)] = self.nest_seconds.get(id(step), 0.0) + seconds

    def verify_time(self, seconds: float) -> None:
        self.add_phase("Verifier", seconds)
        # Verification runs before the pass's clock stops: keep it out of the pass's time.
        for key in self._started:
            self._started[key] += seconds

    def report(self, pipeline: Pipeline | None, display: str = "tree") -> str:
        """MLIR's report: ``tree`` (the default) nests passes under their pipelines;
        ``list`` sums each pass's time over its runs, longest first."""
        total = time.perf_counter() - self._begin
        rows: list[tuple[float, str]] = []
        if "Parser" in self.phases:
            rows.append((self.phases["Parser"], "Parser"))
        if pipeline is not None:
            rows.append((self.phases.get("Pipeline", 0.0), f"'{pipeline.anchor}' Pipeline"))
            self._rows(pipeline.steps, 1, rows)
            if "Verifier" in self.phases:
                rows.append((self.phases["Verifier"], "  (verify after each pass)"))
        for phase in ("Translate", "Output"):
            if phase in self.phases:
                rows.append((self.phases[phase], phase))
        accounted = sum(seconds for seconds, name in rows if not name.startswith(" "))
        rows.append((max(total - accounted, 0.0), "Rest"))
        if display == "list":
            rows = self._listed(rows)
        rows.append((total, "Total"))
        bar = "===" + "-" * 73 + "==="
        lines = [bar, "                         ... Execution time report ...", bar,
                 f"  Total Execution Time: {total:.4f} seconds", "",
                 "  ----Wall Time----  ----Name----"]
        for seconds, name in rows:
            share = 100.0 * seconds / total if total > 0 else 0.0
            lines.append(f"  {seconds:8.4f} ({share:5.1f}%)  {name}")
        return "\n".join(lines) + "\n"

    @staticmethod
    def _listed(rows: list[tuple[float, str]]) -> list[tuple[float, str]]:
        """The tree's leaves (passes and phases, not the pipelines that hold them), each
        name once with its time summed, longest first."""
        summed: dict[str, float] = {}
        for seconds, name in rows:
            name = name.strip()
            if not name.endswith("Pipeline"):
                summed[name] = summed.get(name, 0.0) + seconds
        return sorted(((s, n) for n, s in summed.items()), key=lambda row: -row[0])

    def _step_seconds(self, step: Step) -> float:
        if isinstance(step, PassStep):
            return self.pass_seconds.get(id(step), 0.0)
        return self.nest_seconds.get(id(step), 0.0)

    def _rows(self, steps: list[Step], depth: int, rows: list[tuple[float, str]]) -> None:
        for step in steps:
            indent = "  " * depth
            if isinstance(step, PassStep):
                rows.append((self._step_seconds(step), indent + step.name))
            else:
                rows.append((self._step_seconds(step), f"{indent}'{step.anchor}' Pipeline"))
                self._rows(step.steps, depth + 1, rows)


def statistics_report(pipeline: Pipeline, statistics: dict[int, dict[str, list]]) -> str:
    """MLIR's "Pass statistics report" in its pipeline form: each pass (by class name, as
    MLIR names it there) under its nesting, with its ``(S) value name - description``."""
    bar = "===" + "-" * 73 + "==="
    title = "... Pass statistics report ..."
    lines = [bar, " " * ((80 - len(title)) // 2) + title, bar]

    def add(steps: list[Step], indent: int) -> None:
        for step in steps:
            if isinstance(step, NestStep):
                lines.append(" " * indent + f"'{step.anchor}' Pipeline")
                add(step.steps, indent + 2)
                continue
            lines.append(" " * indent + type(step.pass_).__name__)
            stats = sorted(statistics.get(id(step), {}).items())
            name_width = max((len(name) for name, _ in stats), default=0)
            value_width = max((len(str(value)) for _, (value, _) in stats), default=0)
            for name, (value, description) in stats:
                lines.append(" " * (indent + 2) + f"(S) {value:>{value_width}} "
                             f"{name:<{name_width}} - {description}")

    add(pipeline.steps, 0)
    return "\n".join(lines) + "\n\n"
