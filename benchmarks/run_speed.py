"""tileopt-run's speed: seconds per corpus kernel at the test sizes, and the largest add and
softmax that run within a time budget.

Each kernel of ``../shared/corpus`` (``--kernels``: some) is compiled from its ``.ttir``
(the dot kernels with the options of their ``.json``; the pipeline's time is shown apart:
it is tileopt's, not the run's), then launched at the sizes the tests use
(``tileopt/testing/run_cases.py``), median of ``--repeat`` launches. Then add (elements)
and softmax (rows of 1000), where measured, double in size until a launch takes more than
``--budget`` seconds; the largest size within it is printed. Up to ``--max-scale`` only
(memory).

    python benchmarks/run_speed.py [--pipeline nvidia-sm90] [--repeat 3] [--budget 10]
                                   [--kernels matmul,matmul_small]
    python benchmarks/run_speed.py --llir hip-gfx942      # Triton's own AMD LLVM IR

With ``--llir TARGET`` the kernels are Triton's ``.llir`` of that corpus folder (AMD: run
with the folder's arch), not tileopt's output; "compile" is then reading the IR.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from tileopt.run.launch import compile_source, run_kernel
from tileopt.testing.corpus_compare import find_corpus
from tileopt.ir import TileoptError
from tileopt.testing.run_cases import CASES, DOT, NON_DOT, compile_options

FOLDER = {"nvidia-sm80": "cuda-sm80", "nvidia-sm90": "cuda-sm90"}
LLIR_ARCH = {"hip-gfx942": "gfx942", "hip-gfx1100": "gfx1100"}


def launch_seconds(compiled, kernel: str, scale: int, repeat: int) -> tuple[float, str]:
    times = []
    for _ in range(repeat):
        case = CASES[kernel](np.random.default_rng(0), scale)
        result = run_kernel(compiled, case.args, case.grid)
        case.check(result.outputs)
        times.append(result.seconds)
        grid = result.grid
    blocks = grid[0] * grid[1] * grid[2]
    return statistics.median(times), f"{blocks} x {result.threads}"


def size_of(kernel: str, scale: int) -> str:
    case = CASES[kernel](np.random.default_rng(0), scale)
    if kernel == "add":
        return f"{case.args[3]} elements"
    return f"{case.grid[0]} rows x {case.args[4]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pipeline", default="nvidia-sm90", choices=sorted(FOLDER))
    parser.add_argument("--llir", choices=sorted(LLIR_ARCH),
                        help="run Triton's .llir of this corpus folder instead")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--max-scale", type=int, default=1 << 13)
    parser.add_argument("--kernels", default=",".join(NON_DOT + DOT),
                        help="comma-separated corpus kernels (default: all)")
    args = parser.parse_args()
    corpus = find_corpus()
    if corpus is None:
        print("error: the reference corpus (../shared/corpus) is not there", file=sys.stderr)
        return 1
    print(f"tileopt-run on {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} CPUs, numpy {np.__version__}; "
          f"{f'Triton .llir of {args.llir}' if args.llir else f'pipeline {args.pipeline}'}\n")
    print("| kernel | blocks x threads | compile (s) | run (s) |")
    print("|---|---|---|---|")
    compiled = {}
    for kernel in args.kernels.split(","):
        path = Path(corpus) / FOLDER[args.pipeline] / f"{kernel}.ttir"
        options = compile_options(path.with_suffix(".json")) if kernel in DOT else ""
        start = time.perf_counter()
        try:
            if args.llir:
                path = Path(corpus) / args.llir / f"{kernel}.llir"
                compiled[kernel] = compile_source(path.read_text(), path.name,
                                                  arch=LLIR_ARCH[args.llir])
            else:
                compiled[kernel] = compile_source(path.read_text(), path.name,
                                                  args.pipeline + options)
        except TileoptError as err:
            print(f"| {kernel} | tileopt does not compile it: {err.message[:60]} | | |")
            continue
        compile_s = time.perf_counter() - start
        run_s, shape = launch_seconds(compiled[kernel], kernel, 1, args.repeat)
        print(f"| {kernel} | {shape} | {compile_s:.2f} | {run_s:.4f} |", flush=True)
    print()
    for kernel in [k for k in ("add", "softmax") if k in compiled]:
        scale, best = 1, None
        while scale <= args.max_scale:
            seconds, _ = launch_seconds(compiled[kernel], kernel, scale, 1)
            if seconds > args.budget:
                break
            best = (scale, seconds)
            scale *= 2
        if best is None:
            print(f"{kernel}: the test size already takes more than {args.budget} s")
            continue
        capped = " (the cap, --max-scale)" if scale > args.max_scale else ""
        print(f"{kernel}: largest within {args.budget:g} s: {size_of(kernel, best[0])} "
              f"in {best[1]:.2f} s{capped}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
