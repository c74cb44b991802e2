"""Layout parity on what PyTorch writes (issue 18): every pinned kernel of
``test/inputs/inductor`` (Inductor's and hand-written kernels, GEMM templates included,
with Triton 3.6's output on the H100) goes through the ``ttgir`` stage of ``nvidia-sm90`` with the options Triton
compiled it with, as ``benchmarks/inductor/compile_all.py`` runs it, and must hold the same
ops, types, layouts and attributes as Triton's pinned ``.ttgir`` (any order, any value
names).

The kernels that do not match yet are strict xfails that name why, so the count can only
go up: one that starts matching fails here until its entry goes. Kernels with an op tileopt
cannot read yet are expected to fail only while that op is unregistered.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tileopt.ir import make_context, parse_module

ROOT = Path(__file__).resolve().parents[3]
INPUTS = ROOT / "test" / "inputs" / "inductor"
sys.path.insert(0, str(ROOT / "benchmarks" / "inductor"))

from compile_all import compare_ttgir_stage  # noqa: E402

# Ops a kernel needs before it can even be read (issue 18's op work).
NEEDS_OP = ("gpu.barrier", "llvm.intr.assume")
# Known differences, by kernel (path under test/inputs/inductor, without .ttir).
KNOWN: dict[str, str] = {
    "hand_chained_dot/chained_dot":
        "Triton keeps the second dot's A (the first dot's result) in registers "
        "(convert_layout to dot_op); tileopt stores it to shared memory (local_alloc)",
}


def _kernels() -> list[Path]:
    return sorted(INPUTS.rglob("*.ttir"))


def _cases():
    registered = make_context()
    for ttir in _kernels():
        name = str(ttir.relative_to(INPUTS).with_suffix(""))
        text = ttir.read_text()
        marks = []
        missing = [op for op in NEEDS_OP
                   if op in text and registered.get_optional_op(op) is None]
        if missing:
            marks.append(pytest.mark.xfail(
                reason=f"tileopt cannot read {', '.join(missing)} yet", strict=True))
        elif name in KNOWN:
            marks.append(pytest.mark.xfail(reason=KNOWN[name], strict=True))
        yield pytest.param(ttir, id=name, marks=marks)


def test_the_pinned_set_is_there():
    kernels = _kernels()
    assert len(kernels) >= 143, f"only {len(kernels)} kernels under {INPUTS}"
    for name in KNOWN:
        assert (INPUTS / f"{name}.ttir").exists(), f"{name} is not pinned"


@pytest.mark.parametrize("ttir", _cases())
def test_ttgir_stage_matches_triton(ttir: Path):
    ctx = make_context()
    module = parse_module(ttir.read_text(), str(ttir), ctx)
    result = compare_ttgir_stage(ttir, ctx, module)
    assert result.equal, result.summary(limit=8)
