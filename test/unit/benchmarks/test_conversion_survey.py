"""benchmarks/inductor/conversion_survey.py over pinned kernels whose conversions were
classified by hand: the f32 dot's accumulator goes from 1x4 to 2x2 elements a thread
inside each warp (a register bit and a lane bit trade places); the looped reductions'
results move 4 rows from registers to lanes (selects, then one shuffle)."""

from __future__ import annotations

import sys
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[3] / "benchmarks" / "inductor"
INPUTS = Path(__file__).resolve().parents[2] / "inputs" / "inductor"
sys.path.insert(0, str(HARNESS))

import conversion_survey  # noqa: E402


def test_kinds(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["conversion_survey.py",
                                      str(INPUTS / "hand_dot_f32_ieee" / "dot_case.ttgir"),
                                      str(INPUTS / "block_fp32" / "triton_red_fused_sum_1.ttgir")])
    assert conversion_survey.main() == 0
    out = capsys.readouterr().out
    assert "warp: swap                   2" in out
    assert "warp: shuffles               1" in out
