"""Every pinned kernel of test/inputs/inductor (what Inductor and the hand-written kernels
made Triton 3.6 compile on the GPU machine) goes through tileopt's whole NVIDIA pipeline,
with the options Triton compiled it with, to PTX; the dot kernels (GEMM templates among
them) also through ``nvidia-sm80`` (mma.sync instead of wgmma). The ttgir stage's match
with Triton's is tested apart. ``benchmarks/inductor/compile_all.py`` prints the same by
kernel kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tileopt.target import translate
from tileopt.testing.inductor_cases import lower_with_options

INPUTS = Path(__file__).resolve().parents[2] / "inputs" / "inductor"
KERNELS = sorted(INPUTS.rglob("*.ttir"))
DOT_KERNELS = [p for p in KERNELS if "tt.dot" in p.read_text()]


def test_the_pinned_set_is_there():
    assert len(KERNELS) >= 100
    assert len(DOT_KERNELS) >= 10


def _cases():
    for ttir in KERNELS:
        name = ttir.relative_to(INPUTS).as_posix()
        yield pytest.param(ttir, None, id=name)
        if ttir in DOT_KERNELS:
            yield pytest.param(ttir, "80", id=f"{name}-sm80")


@pytest.mark.parametrize("ttir,arch", _cases())
def test_compiles_to_ptx(ttir: Path, arch: str | None):
    meta = json.loads(ttir.with_suffix(".json").read_text())
    sm = arch or ("80" if meta.get("arch") == "sm80" else "90")
    ptx = translate(lower_with_options(ttir, f"nvidia-sm{sm}"), emit="ptx",
                    arch="sm_80" if sm == "80" else "sm_90a", filename=str(ttir))
    assert ".entry" in ptx
