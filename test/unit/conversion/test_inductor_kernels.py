"""Every pinned kernel of test/inputs/inductor without ``tt.dot`` (what Inductor and the
hand-written kernels made Triton 3.6 compile on the GPU machine) goes through tileopt's
whole NVIDIA pipeline, with the options Triton compiled it with, to PTX. The dot kernels
wait for the tensor-core lowering (issue 8); the ttgir stage's match with Triton's is
tested apart. ``benchmarks/inductor/compile_all.py`` prints the same by kernel kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tileopt.target import translate
from tileopt.testing.inductor_cases import lower_with_options

INPUTS = Path(__file__).resolve().parents[2] / "inputs" / "inductor"
KERNELS = sorted(p for p in INPUTS.rglob("*.ttir") if "tt.dot" not in p.read_text())


def test_the_pinned_set_is_there():
    assert len(KERNELS) >= 100


@pytest.mark.parametrize("ttir", KERNELS, ids=lambda p: p.relative_to(INPUTS).as_posix())
def test_compiles_to_ptx(ttir: Path):
    meta = json.loads(ttir.with_suffix(".json").read_text())
    sm = "80" if meta.get("arch") == "sm80" else "90"
    ptx = translate(lower_with_options(ttir, f"nvidia-sm{sm}"), emit="ptx",
                    arch="sm_80" if sm == "80" else "sm_90a", filename=str(ttir))
    assert ".entry" in ptx
