"""Run one tileopt pass wherever Triton's pipelines run it, and compare with Triton.

Shared by the per-pass corpus tests in this folder (one file per pass, each a declaration:
``test_matches_triton, test_print_match_table = pass_match_tests("triton-combine")``).

Every run of the pass in a corpus pipeline is a case: the dump taken before it is the
input, the dump taken before the next pass the expected output. tileopt's result must
verify and hold the same ops (names, types, attributes) as Triton's; for passes that only
move ops, in the same order too. Pass options come from the kernel's
``<target>/<kernel>.json`` (what Triton was asked to compile with), never from the
expected output. Run with ``-s`` to see a kernel x target match table (``k/n``: k of the
n runs in that pipeline match).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from tileopt.dialects.triton_version import set_module_version
from tileopt.ir import make_context, parse_module
from tileopt.passes.registry import get_pass
from tileopt.testing.corpus_compare import (CompareResult, PassCase, compare_modules,
                                            corpus_pass_cases, op_order_difference)

NVIDIA = ("cuda-sm80", "cuda-sm90")
AMD = ("hip-gfx942", "hip-gfx1100")
TARGETS = NVIDIA + AMD
KERNELS = ("add", "add_nodiv", "axpy_f16", "gelu", "softmax", "layernorm_fwd", "sum_rows",
           "sum_cols", "cumsum", "transpose", "atomic_hist", "matmul", "matmul_small",
           "block_ptr_matmul")
# Triton 3.9's corpus: block pointers are gone from its frontend, tensor descriptors came.
KERNELS_39 = (*KERNELS[:-1], "desc_matmul")

PassOptions = Callable[[dict], Mapping[str, object]]
"""Pass options from a kernel's compile metadata (its ``<target>/<kernel>.json``)."""


def no_options(meta: dict) -> Mapping[str, object]:
    return {}


def tritongpu_conversion_options(meta: dict) -> Mapping[str, object]:
    """convert-triton-to-tritongpu as Triton runs it for the kernel."""
    return {"target": meta["target"], "num-warps": meta["num_warps"],
            "threads-per-warp": meta["warp_size"], "num-ctas": meta["num_ctas"]}


def f32_dot_tc_options(meta: dict) -> Mapping[str, object]:
    """tritongpu-F32DotTC: Triton emulates tf32x3 only on NVIDIA."""
    return {"emu-tf32": meta["target"].startswith("cuda")}


def compute_capability(meta: dict) -> int:
    """The NVIDIA compute capability the kernel was compiled for (``"sm90"`` -> 90)."""
    arch = str(meta["arch"])
    assert arch.startswith("sm"), f"not an NVIDIA arch: {arch}"
    return int(arch[2:])


def compute_capability_options(meta: dict) -> Mapping[str, object]:
    """Passes with Triton's ``compute-capability`` option (NVIDIA targets only)."""
    return {"compute-capability": compute_capability(meta)}


def num_stages_options(meta: dict) -> Mapping[str, object]:
    """Passes with Triton's ``num-stages`` option (the software-pipelining depth)."""
    return {"num-stages": meta["num_stages"]}


def compile_metadata(corpus: Path, target: str, kernel: str) -> dict:
    """num_warps, num_ctas, num_stages, warp_size, arch and target of the kernel's compile."""
    return json.loads((corpus / target / f"{kernel}.json").read_text())


@dataclass
class PassRun:
    case: PassCase
    result: CompareResult
    order: str | None
    """First op-order difference, or None (also when order is not checked)."""

    @property
    def matches(self) -> bool:
        return self.result.equal and self.order is None


def run_pass_everywhere(passes_root: Path, pass_name: str, target: str, kernel: str,
                        options: Mapping[str, object],
                        check_order: bool = False,
                        triton_version: str = "3.6") -> list[PassRun]:
    """Every run of ``pass_name`` in the (target, kernel) pipeline, run by tileopt on a
    module of that Triton version (as that version's pipeline sets it)."""
    pass_class = get_pass(pass_name)
    assert pass_class is not None, f"pass {pass_name} is not registered"
    runs = []
    for case in corpus_pass_cases(passes_root, pass_name, (target,), (kernel,)):
        ctx = make_context()
        module = parse_module(case.input_text, str(case.input_path), ctx)
        set_module_version(module, triton_version)
        pass_class.from_options(dict(options)).apply(ctx, module)
        module.verify()
        expected = parse_module(case.expected_text, str(case.expected_path), make_context())
        order = op_order_difference(module, expected) if check_order else None
        runs.append(PassRun(case, compare_modules(module, expected), order))
    return runs


def run_chain(passes_root: Path, target: str, kernel: str,
              passes: list[tuple[str, Mapping[str, object]]], until: str) -> CompareResult | None:
    """Run ``passes`` from the input of the first one and compare with the dump taken
    before Triton's (first) ``until`` pass; None where the pipeline has neither."""
    first = list(corpus_pass_cases(passes_root, passes[0][0], (target,), (kernel,)))
    last = list(corpus_pass_cases(passes_root, until, (target,), (kernel,)))
    if not first or not last:
        return None
    ctx = make_context()
    module = parse_module(first[0].input_text, str(first[0].input_path), ctx)
    expected = parse_module(last[0].input_text, str(last[0].input_path), make_context())
    for name, options in passes:
        pass_class = get_pass(name)
        assert pass_class is not None, f"pass {name} is not registered"
        pass_class.from_options(dict(options)).apply(ctx, module)
    return compare_modules(module, expected)


def format_table(results: dict[tuple[str, str], str], targets: tuple[str, ...] = TARGETS,
                 kernels: tuple[str, ...] = KERNELS) -> str:
    """A kernel x target table of the cells in ``results``; '-' where there is none."""
    width = max(len(k) for k in kernels) + 2
    lines = ["".ljust(width) + "".join(t.ljust(13) for t in targets)]
    for kernel in kernels:
        cells = [results.get((t, kernel), "-").ljust(13) for t in targets]
        lines.append(kernel.ljust(width) + "".join(cells))
    return "\n".join(lines)


def print_table(capsys, title: str, results: dict[tuple[str, str], str],
                targets: tuple[str, ...] = TARGETS, kernels: tuple[str, ...] = KERNELS) -> None:
    """Print past pytest's capture, so that ``-s`` is not needed to see the table."""
    if not results:
        pytest.skip("no corpus cases ran")
    with capsys.disabled():
        print(f"\n{title}\n" + format_table(results, targets, kernels))


def module_table(title: str, kernels: tuple[str, ...] = KERNELS):
    """A module-scoped fixture: a dict the tests fill with ``(target, kernel) -> cell``,
    printed as a table past pytest's capture once the module's tests are done."""

    @pytest.fixture(scope="module")
    def table(request):
        rows: dict[tuple[str, str], str] = {}
        yield rows
        if rows:
            capture = request.config.pluginmanager.getplugin("capturemanager")
            with capture.global_and_fixture_disabled():
                print(f"\n{title}\n" + format_table(rows, TARGETS, kernels))

    return table


def compare_with_file(module, path: Path) -> CompareResult:
    """``module`` against the corpus file ``path``, parsed in a fresh context."""
    return compare_modules(module, parse_module(path.read_text(), str(path), make_context()))


def difference_cell(result: CompareResult) -> str:
    """``match``, else ``-missing/+extra`` op counts."""
    if result.equal:
        return "match"
    return f"-{sum(result.missing.values())}/+{sum(result.extra.values())}"


def pass_match_tests(pass_name: str, options: PassOptions = no_options,
                     targets: tuple[str, ...] = TARGETS, check_order: bool = False,
                     triton_version: str = "3.6",
                     not_yet: Mapping[tuple[str, str], str] | None = None):
    """The two tests of a per-pass corpus file: every run of ``pass_name`` for each kernel
    on each of ``targets`` (those whose Triton pipeline runs the pass), then the match
    table. ``check_order`` also compares op order, for passes that only move ops.
    ``triton_version`` picks the corpus (3.9: ``../shared/corpus-3.9``); ``not_yet``
    names the (target, kernel) cases known to differ, with why (strict xfails)."""
    results: dict[tuple[str, str], str] = {}
    suffix = "" if triton_version == "3.6" else "39"
    not_yet = not_yet or {}
    cases = [pytest.param(target, kernel, id=f"{target}-{kernel}", marks=(
        [pytest.mark.xfail(reason=not_yet[(target, kernel)], strict=True)]
        if (target, kernel) in not_yet else []))
        for target in targets for kernel in (KERNELS if not suffix else KERNELS_39)]

    @pytest.mark.parametrize(("target", "kernel"), cases)
    def test_matches_triton(request, target, kernel):
        corpus = request.getfixturevalue("corpus" + suffix)
        passes_root = request.getfixturevalue("passes_root" + suffix)
        meta = compile_metadata(corpus, target, kernel)
        runs = run_pass_everywhere(passes_root, pass_name, target, kernel, options(meta),
                                   check_order, triton_version)
        assert runs, f"Triton's {target} pipeline for {kernel} has no run of {pass_name}"
        good = sum(run.matches for run in runs)
        results[(target, kernel)] = "match" if good == len(runs) else f"{good}/{len(runs)}"
        for run in runs:
            assert run.result.equal, f"{run.case.id}:\n{run.result.summary()}"
            assert run.order is None, f"{run.case.id}: {run.order}"

    def test_print_match_table(capsys):
        print_table(capsys, f"{pass_name}: tileopt vs Triton {triton_version}", results,
                    targets, KERNELS if not suffix else KERNELS_39)

    return test_matches_triton, test_print_match_table


def chain_match_tests(targets: tuple[str, ...], kernels: tuple[str, ...],
                      passes: Callable[[dict], list[tuple[str, Mapping[str, object]]]],
                      until: str, title: str):
    """The two tests of a chain check: ``passes(meta)`` (names and options) run from the
    input of the first one on tileopt's own output, compared with the dump taken before
    Triton's ``until`` pass, for each kernel on each target; then the match table."""
    results: dict[tuple[str, str], str] = {}

    @pytest.mark.parametrize("kernel", kernels)
    @pytest.mark.parametrize("target", targets)
    def test_chain_matches_triton(corpus, passes_root, target, kernel):
        chain = passes(compile_metadata(corpus, target, kernel))
        result = run_chain(passes_root, target, kernel, chain, until)
        assert result is not None, f"Triton's {target} pipeline for {kernel} lacks these passes"
        results[(target, kernel)] = "match" if result.equal else "DIFF"
        assert result.equal, result.summary()

    def test_print_chain_table(capsys):
        print_table(capsys, title, results, targets)

    return test_chain_matches_triton, test_print_chain_table


def pipeline_with_options(corpus: Path, name: str, target: str, kernel: str) -> str:
    """``NAME{num-warps=.. num-ctas=.. num-stages=..}`` with what Triton compiled with."""
    meta = compile_metadata(corpus, target, kernel)
    return (f"{name}{{num-warps={meta['num_warps']} "
            f"num-ctas={meta['num_ctas']} num-stages={meta['num_stages']}}}")


def check_stage(corpus: Path, table: dict, pipeline_name: str, target: str, kernel: str,
                stage: str = "ttgir"):
    """Run the YAML pipeline ``pipeline_name`` with the kernel's options from its
    ``.ttir`` up to the end of ``stage``, as ``tileopt --stop-after`` does, and compare
    with the corpus file ``<kernel>.<stage>`` (ops, types, layouts, attributes, module
    attributes); the table gets the cell, the test fails on a difference. Returns the
    pipeline run."""
    from tileopt.driver.pass_manager import PassManager
    from tileopt.pipelines import resolve_pass_pipeline, slice_stages

    text = pipeline_with_options(corpus, pipeline_name, target, kernel)
    pipeline = slice_stages(resolve_pass_pipeline(text), None, stage)
    source = corpus / target / f"{kernel}.ttir"
    ctx = make_context()
    module = parse_module(source.read_text(), str(source), ctx)
    table[(target, kernel)] = "error"
    PassManager(pipeline, str(source)).run(ctx, module)  # verifies after every pass
    result = compare_with_file(module, corpus / target / f"{kernel}.{stage}")
    table[(target, kernel)] = difference_cell(result) + (
        "/attrs" if not result.equal and result.module_attributes_differ else "")
    assert result.equal, result.summary()
    return pipeline

