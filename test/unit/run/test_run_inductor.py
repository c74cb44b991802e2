"""The pinned Inductor kernels (test/inputs/inductor) compiled by tileopt and run on the CPU
by tileopt-run, against the TTIR reference evaluator (tileopt.run.reference) on the same
arguments (tileopt/testing/inductor_cases.py: sizes, buffers, tolerance).

CI runs a sample: per group (model or hand-written kernel), the first kernel of each kind
(pointwise, reduction, persistent reduction, template, hand-written), about 25 kernels in
about a minute on 2 cores; ``TILEOPT_INDUCTOR_ALL=1`` runs every pinned kernel (the figures
of docs/plans/issue-18.md). Kernels that cannot be checked yet are strict xfails with the
reason.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tileopt.run.launch import compile_source, run_kernel
from tileopt.ir import make_context, parse_module
from tileopt.run.reference import kernel_of
from tileopt.target.nvptx import find_libdevice
from tileopt.testing.inductor_cases import case_for, compare, kind_of, sized

INPUTS = Path(__file__).resolve().parents[2] / "inputs" / "inductor"
ALL = sorted(INPUTS.rglob("*.ttir"))

# Why a kernel cannot be checked yet: by what its .ttir contains (tileopt-run's gaps), and
# by path under test/inputs/inductor.
GAPS = [
    (re.compile("tt.elementwise_inline_asm"), "the reference does not evaluate inline PTX"),
]
# libdevice calls (Inductor's tt.extern_elementwise; math ops with no PTX instruction),
# but __nv_erff, which the NVIDIA lowering writes out inline: tileopt-run runs libdevice's
# own bitcode (the test extras install it), so without it they cannot run at all.
LIBDEVICE = re.compile(r'symbol = "__nv_(?!erff")|math\.(sin|cos|tan|tanh|log10|powf|log|log2|'
                       r'floor|ceil) ')
NO_LIBDEVICE = None if find_libdevice() else \
    "libdevice.10.bc is not installed (pip install -e '.[test]' brings it)"
XFAIL: dict[str, str] = {}


def why_not(p: Path) -> str | None:
    rel = p.relative_to(INPUTS).as_posix()
    if rel in XFAIL:
        return XFAIL[rel]
    text = p.read_text()
    return next((why for pattern, why in GAPS if pattern.search(text)), None)


def _sample(paths):
    """Per (group, kind) the first kernel that can be checked, else the first one."""
    chosen = {}
    for p in paths:
        key = (p.parent.name, kind_of(p.stem))
        if key not in chosen or (why_not(chosen[key]) and not why_not(p)):
            chosen[key] = p
    return sorted(chosen.values())


KERNELS = ALL if os.environ.get("TILEOPT_INDUCTOR_ALL") else _sample(ALL)


def _param(p: Path):
    why = why_not(p)
    marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
    if NO_LIBDEVICE and LIBDEVICE.search(p.read_text()):
        marks.append(pytest.mark.skip(reason=NO_LIBDEVICE))
    return pytest.param(p, id=p.relative_to(INPUTS).as_posix(), marks=marks)


def test_the_sample_covers_every_group_and_kind():
    groups = {p.parent.name for p in ALL}
    assert {p.parent.name for p in KERNELS} == groups
    assert {kind_of(p.stem) for p in KERNELS} >= {"pointwise", "reduction", "persistent",
                                                   "template", "hand"}
    # and libdevice's functions run from its bitcode
    assert sum(bool(LIBDEVICE.search(p.read_text())) for p in KERNELS) >= 3


@pytest.mark.parametrize("ttir", [_param(p) for p in KERNELS])
def test_compiled_kernel_matches_the_reference(ttir: Path):
    case = case_for(ttir)
    args, want = sized(case)
    compiled = compile_source(case.ttir, case.filename, case.pipeline)
    got = run_kernel(compiled, args, case.grid, arg_names=case.names)
    assert got.reports == []
    func = kernel_of(parse_module(case.ttir, case.filename, make_context()), None)
    compare(case, list(func.function_type.inputs.data), got.outputs, want)
