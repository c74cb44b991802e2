"""Run one tileopt pass on corpus dumps and compare with Triton's next dump.

Shared by the per-pass corpus tests in this folder: the pass options come from the
kernel's ``<target>/<kernel>.json`` (what Triton was asked to compile with), never from
the expected output.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tileopt.ir import make_context, parse_module
from tileopt.passes.registry import get_pass
from tileopt.testing.corpus_compare import CompareResult, compare_modules, corpus_pass_cases

TARGETS = ("cuda-sm80", "cuda-sm90", "hip-gfx942", "hip-gfx1100")
KERNELS = ("add", "add_nodiv", "axpy_f16", "gelu", "softmax", "layernorm_fwd", "sum_rows",
           "sum_cols", "cumsum", "transpose", "atomic_hist", "matmul", "matmul_small",
           "block_ptr_matmul")


def kernel_options(corpus: Path, target: str, kernel: str) -> dict:
    """num_warps, num_ctas, warp_size and target of the kernel's compile."""
    return json.loads((corpus / target / f"{kernel}.json").read_text())


@dataclass
class CaseResult:
    target: str
    kernel: str
    result: CompareResult
    changed: bool


def run_case(passes_root: Path, pass_name: str, target: str, kernel: str,
             options: dict[str, object]) -> CaseResult | None:
    """Run ``pass_name`` on the dump before its first run for (target, kernel)."""
    cases = list(corpus_pass_cases(passes_root, pass_name, (target,), (kernel,)))
    if not cases:
        return None
    case = cases[0]
    module = parse_module(case.input_path.read_text(), str(case.input_path))
    expected = parse_module(case.expected_path.read_text(), str(case.expected_path))
    pass_class = get_pass(pass_name)
    assert pass_class is not None, f"pass {pass_name} is not registered"
    pass_class.from_options(options).apply(make_context(), module)
    return CaseResult(target, kernel, compare_modules(module, expected), case.changed)


def format_table(results: dict[tuple[str, str], str]) -> str:
    """A kernel x target table of 'match' / 'DIFF' / '-' (no case)."""
    width = max(len(k) for k in KERNELS) + 2
    lines = ["".ljust(width) + "".join(t.ljust(13) for t in TARGETS)]
    for kernel in KERNELS:
        cells = [results.get((t, kernel), "-").ljust(13) for t in TARGETS]
        lines.append(kernel.ljust(width) + "".join(cells))
    return "\n".join(lines)


def run_chain(corpus: Path, passes_root: Path, target: str, kernel: str,
              passes: list[tuple[str, dict]], until: str) -> CompareResult | None:
    """Run ``passes`` from the input of the first one and compare with the dump taken
    before Triton's (first) ``until`` pass."""
    first = list(corpus_pass_cases(passes_root, passes[0][0], (target,), (kernel,)))
    last = list(corpus_pass_cases(passes_root, until, (target,), (kernel,)))
    if not first or not last:
        return None
    module = parse_module(first[0].input_path.read_text(), str(first[0].input_path))
    expected = parse_module(last[0].input_path.read_text(), str(last[0].input_path))
    ctx = make_context()
    for name, options in passes:
        pass_class = get_pass(name)
        assert pass_class is not None, f"pass {name} is not registered"
        pass_class.from_options(options).apply(ctx, module)
    return compare_modules(module, expected)
