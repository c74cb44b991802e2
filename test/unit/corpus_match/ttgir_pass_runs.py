"""Run a TTGIR pass on every place Triton's pipeline runs it, and compare with Triton.

A pass such as ``tritongpu-remove-layout-conversions`` runs several times in one pipeline;
each run is a case: the dump taken before it is the input, the dump before the next pass
the expected output. ``run_all(passes_root, pass_name, target, kernel)`` gives one
``(index, CompareResult)`` per run. ``same_op_order`` additionally checks the order of
ops, for passes that only move ops (which the op-multiset comparison cannot see).
"""

from __future__ import annotations

from pathlib import Path

from xdsl.ir import Operation

from tileopt.ir import make_context, parse_module
from tileopt.passes.registry import get_pass
from tileopt.testing.corpus_compare import CompareResult, compare_modules, corpus_pass_cases, op_key


def run_all(passes_root: Path, pass_name: str, target: str, kernel: str,
            check_order: bool = False) -> list[tuple[int, CompareResult, str | None]]:
    """Every run of ``pass_name`` for (target, kernel): (pipeline index, comparison,
    first op-order difference or None)."""
    pass_class = get_pass(pass_name)
    assert pass_class is not None, f"pass {pass_name} is not registered"
    runs = []
    for case in corpus_pass_cases(passes_root, pass_name, (target,), (kernel,)):
        module = parse_module(case.input_path.read_text(), str(case.input_path))
        expected = parse_module(case.expected_path.read_text(), str(case.expected_path))
        pass_class().apply(make_context(), module)
        module.verify()
        order = same_op_order(module, expected) if check_order else None
        runs.append((case.index, compare_modules(module, expected), order))
    return runs


def same_op_order(actual: Operation, expected: Operation) -> str | None:
    """None if both modules list the same ops in the same order, else the first difference."""
    a = [op_key(op) for op in actual.walk()]
    b = [op_key(op) for op in expected.walk()]
    for n, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"op #{n}: {x[0]} instead of {y[0]}"
    if len(a) != len(b):
        return f"{len(a)} ops instead of {len(b)}"
    return None


def cell(runs: list[tuple[int, CompareResult, str | None]]) -> str:
    good = sum(1 for _, result, order in runs if result.equal and order is None)
    return "match" if good == len(runs) else f"{good}/{len(runs)}"
