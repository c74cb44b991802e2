"""Every pinned kernel (test/inputs/inductor) through tileopt's NVIDIA pipeline, on the CPU.

    python benchmarks/inductor/compile_all.py [--dir test/inputs/inductor] [-k SUBSTR] [-v]

Per kernel, in-process and exactly as `tileopt K.ttir --pass-pipeline=nvidia-smNN{...}` then
`tileopt-translate --emit=ptx` do, with the options Triton compiled it with (its `.json`):
does it parse, reach the `ttgir` stage, match Triton's `.ttgir` there (same ops, types,
layouts, attributes; any order and value names), get through the whole pipeline, and give
PTX. Prints one table by kind (pointwise, reduction, persistent reduction, template, hand)
and, with -v, the first line of each failure. The GPU side (the kernels inside the models)
is benchmarks/inductor/run_models.py.
"""
from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

from tileopt.driver.ir_io import render
from tileopt.driver.pass_manager import PassManager
from tileopt.ir import make_context, parse_module
from tileopt.pipelines import resolve_pass_pipeline, slice_stages
from tileopt.target import translate
from tileopt.testing.corpus_compare import compare_modules

STEPS = ("parse", "ttgir", "ttgir=triton", "llir", "ptx")


def kind_of(path: Path) -> str:
    name = path.stem
    for prefix, kind in (("triton_poi", "pointwise"), ("triton_red", "reduction"),
                         ("triton_per", "persistent_red"), ("triton_tem", "template")):
        if name.startswith(prefix):
            return kind
    return "hand"


def has_dot(text: str) -> bool:
    return "tt.dot" in text


def run_one(ttir: Path) -> tuple[list[str], str]:
    """The steps ``ttir`` passed, and the first line of the failure ('' if none)."""
    meta = json.loads(ttir.with_suffix(".json").read_text())
    arch = meta.get("arch", "sm90")
    pipeline_name = "nvidia-sm80" if arch == "sm80" else "nvidia-sm90"
    text = (f"{pipeline_name}{{num-warps={meta['num_warps']} num-ctas={meta['num_ctas']} "
            f"num-stages={meta['num_stages']}}}")
    whole = resolve_pass_pipeline(text)
    passed: list[str] = []
    try:
        ctx = make_context()
        module = parse_module(ttir.read_text(), str(ttir), ctx)
        passed.append("parse")
        PassManager(slice_stages(whole, None, "ttgir"), str(ttir)).run(ctx, module)
        passed.append("ttgir")
        expected = ttir.with_suffix(".ttgir")
        result = compare_modules(module, parse_module(expected.read_text(), str(expected),
                                                      make_context()))
        if result.equal:
            passed.append("ttgir=triton")
        PassManager(slice_stages(whole, "llir", None), str(ttir)).run(ctx, module)
        passed.append("llir")
        translate(render(module, False), emit="ptx", arch="sm_90a" if arch != "sm80"
                  else "sm_80", filename=str(ttir))
        passed.append("ptx")
        return passed, "" if "ttgir=triton" in passed else "ttgir differs: " + \
            result.summary(limit=2).splitlines()[0]
    except Exception as err:  # noqa: BLE001 - the table reports every failure
        return passed, f"{type(err).__name__}: {str(err).splitlines()[0][:160]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default="test/inputs/inductor")
    parser.add_argument("-k", default="")
    parser.add_argument("-v", action="store_true")
    args = parser.parse_args()
    files = sorted(p for p in Path(args.dir).rglob("*.ttir") if args.k in str(p))
    table: dict[str, Counter] = defaultdict(Counter)
    failures: Counter = Counter()
    start = time.perf_counter()
    for ttir in files:
        kind = kind_of(ttir) + (" (dot)" if has_dot(ttir.read_text()) else "")
        passed, why = run_one(ttir)
        table[kind]["kernels"] += 1
        for step in passed:
            table[kind][step] += 1
        if why:
            failures[why.split("error: ", 1)[-1][:100]] += 1
            if args.v:
                print(f"{ttir.relative_to(args.dir)}: {why}")
    print(f"\n{'kind':22s} {'kernels':>7s} " + " ".join(f"{s:>12s}" for s in STEPS))
    total: Counter = Counter()
    for kind, row in sorted(table.items()):
        total.update(row)
        print(f"{kind:22s} {row['kernels']:7d} " + " ".join(f"{row[s]:12d}" for s in STEPS))
    print(f"{'all':22s} {total['kernels']:7d} " + " ".join(f"{total[s]:12d}" for s in STEPS))
    print(f"\n{time.perf_counter() - start:.1f} s; most common stops:")
    for why, n in failures.most_common(12):
        print(f"  {n:3d}  {why}")


if __name__ == "__main__":
    main()
