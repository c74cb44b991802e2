"""The report of benchmarks/inductor/run_models.py (pure Python: the GPU phases are stood in
for by the files they leave), with figures worked out by hand."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

HARNESS = Path(__file__).resolve().parents[3] / "benchmarks" / "inductor"
sys.path.insert(0, str(HARNESS))

import report  # noqa: E402


@pytest.mark.parametrize("name, has_dot, kind", [
    ("triton_poi_fused_add_0", False, "pointwise"),
    ("triton_red_fused_sum_1", False, "reduction"),
    ("triton_per_fused__softmax_2", False, "persistent reduction"),
    ("triton_tem_fused_addmm_relu_0", False, "template"),
    ("triton_mm", True, "template"),
    ("my_kernel", False, "other"),
])
def test_kernel_kinds(name, has_dot, kind):
    assert report.kernel_kind(name, has_dot) == kind


def _record(name, by="tileopt", reason=None, failed_at=None, has_dot=False):
    return {"name": name, "compiled_by": by, "reason": reason, "failed_at": failed_at,
            "has_dot": has_dot, "seconds": 0.5}


LOG = [
    {"model": "m1"},
    _record("triton_poi_a"), _record("triton_poi_a"),
    _record("triton_red_b"), _record("triton_red_b", "triton", "x.ttir:1:2: error: no", "pipeline"),
    {"model": "m2"},
    _record("triton_mm", "triton", "k:3:4: error: dot", "pipeline", has_dot=True),
    _record("triton_per_c"),
]


def test_records_split_by_model_markers():
    found = report.records_by_model(LOG)
    assert {m: [r["name"] for r in rs] for m, rs in found.items()} == {
        "m1": ["triton_poi_a", "triton_poi_a", "triton_red_b", "triton_red_b"],
        "m2": ["triton_mm", "triton_per_c"]}


def test_kernel_table_counts_variants():
    table = report.kernel_table(report.records_by_model(LOG)["m1"])
    assert (table["triton_poi_a"]["by"], table["triton_poi_a"]["variants"]) == ("tileopt", 2)
    assert table["triton_red_b"]["by"] == "mixed"
    assert table["triton_red_b"]["reasons"] == ["[pipeline] x.ttir:1:2: error: no"]


def _phase(loss, kernels, tensors="t.pt"):
    return {"facts": {"gpu": "H100"}, "planned": ["m1", "m2"],
            "models": {"m1": {"status": "ok", "losses": loss, "tensors": tensors,
                              "kernels": kernels},
                       "m2": {"status": "failed", "error": "RuntimeError: boom"}}}


def _kernels(a_us, red_us, cublas_us):
    return {"triton_poi_a": {"count": 10, "total_us": 10 * a_us},
            "triton_red_b": {"count": 5, "total_us": 5 * red_us},
            "sm90_xmma_gemm": {"count": 2, "total_us": 2 * cublas_us},
            "triton_per_c": {"count": 1, "total_us": 4.0}}


def _summary():
    phases = {"triton-a": _phase([2.0, 1.5], _kernels(4.0, 9.0, 50.0)),
              "tileopt": _phase([2.0, 1.5 + 2e-7], _kernels(2.0, 10.0, 50.0)),
              "triton-b": _phase([2.0, 1.5 + 1e-7], _kernels(4.0, 9.0, 50.0))}

    def compare(a, b):
        return {"max_rel": 0.0 if a == b else 1e-3}

    return report.build_summary(phases, LOG, {"triton-a": 60.0}, "nvidia-sm90", compare)


def test_summary_numerics():
    entry = _summary()["models"]["m1"]
    assert entry["loss_diff"] == pytest.approx(2e-7)
    assert entry["loss_spread"] == pytest.approx(1e-7)
    assert entry["verdict"] == "OUTSIDE spread"  # 2e-7 > 1e-7
    assert _summary()["models"]["m2"]["errors"]["tileopt"] == "RuntimeError: boom"


def test_summary_timing_and_geomeans():
    summary = _summary()
    rows = {r["kernel"]: r for r in summary["timing"] if r["model"] == "m1"}
    assert "sm90_xmma_gemm" not in rows  # not a Triton kernel
    assert rows["triton_poi_a"]["speedup"] == pytest.approx(2.0)  # 4 us / 2 us
    assert rows["triton_red_b"]["speedup"] == pytest.approx(0.9)
    assert rows["triton_red_b"]["by"] == "mixed"
    # triton_per_c was compiled for m2 only: m1 found it there.
    assert rows["triton_per_c"]["by"] == "tileopt (cached)"
    g = summary["geomeans"]["tileopt_kernels"]
    assert g["n"] == 2 and g["geomean"] == pytest.approx(math.sqrt(2.0 * 1.0))
    assert g["below_floor"] == 0
    assert summary["geomeans"]["triton_spread"]["geomean"] == pytest.approx(1.0)


def test_by_kind_and_failures():
    summary = _summary()
    kinds = summary["by_kind"]
    assert (kinds["pointwise"]["tileopt"], kinds["pointwise"]["total"]) == (1, 1)
    assert (kinds["reduction"]["tileopt"], kinds["reduction"]["total"]) == (0, 1)
    assert (kinds["template"]["tileopt"], kinds["template"]["total"]) == (0, 1)
    assert (kinds["all"]["tileopt"], kinds["all"]["total"]) == (2, 4)
    assert (kinds["all"]["variants_tileopt"], kinds["all"]["variants"]) == (4, 6)
    assert [(f["kernel"], f["by"]) for f in summary["failures"]] == \
        [("triton_red_b", "mixed"), ("triton_mm", "triton")]


def test_format_has_every_section():
    text = report.format_summary(_summary())
    for needle in ("Kernels compiled by tileopt / total", "m2/triton_mm [template, triton]: "
                   "[pipeline] k:3:4: error: dot", "OUTSIDE spread", "geomean compiled by "
                   "tileopt: 1.414 over 2 kernels", "triton_poi_a"):
        assert needle in text, needle
    json.dumps(_summary())


def test_partial_results_still_report(tmp_path):
    # A phase that never wrote anything, and a kernel log cut mid-line.
    (tmp_path / "kernels.jsonl").write_text('{"model": "m1"}\n{"name": "triton_poi_a", "comp')
    log = report.read_jsonl(tmp_path / "kernels.jsonl")
    summary = report.build_summary({"triton-a": report.load_phase(tmp_path / "none")}, log,
                                   {}, "nvidia-sm90")
    assert summary["models"] == {} and "none" in report.format_summary(summary)
