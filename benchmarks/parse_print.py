"""Parse and print throughput of tileopt's IR layer on the largest real Triton files.

    python benchmarks/parse_print.py [--repeat 5] [--profile parse|print] [--llvm N]

Files: the ``.ttgir`` of ``matmul`` and ``block_ptr_matmul`` for every target, the
largest TritonGPU-level per-pass dumps, and the largest LLVM-dialect per-pass dumps
(those that parse; the rest are listed with the reason). Each time is the best of
``--repeat`` runs, in CPU time of this process (the machine is shared); ops counts
every operation in the module.
Parsing includes verification, as ``parse_module`` does by default.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

from tileopt.ir import TileoptError, make_context, parse_module, print_module
from tileopt.testing.corpus_compare import (
    TARGETS,
    corpus_files,
    find_corpus,
    split_debug_dumps,
    unpack_passes,
)


def _best(repeat: int, fn):
    best = float("inf")
    result = None
    for _ in range(repeat):
        start = time.process_time()
        result = fn()
        best = min(best, time.process_time() - start)
    return best, result


def _llvm_dumps(passes: Path) -> list[tuple[str, Path]]:
    """Every stored dump taken after a pipeline's first LLVM-lowering pass ran."""
    from tileopt.testing.corpus_compare import LLVM_LOWERING_PASSES

    found = []
    for target in TARGETS:
        for kernel in sorted(p.name for p in (passes / target / "passes").iterdir()):
            folder = passes / target / "passes" / kernel
            lowered = False
            for line in (folder / "ORDER.txt").read_text().splitlines()[1:]:
                name = line.split()[0]
                if lowered and (folder / name).exists():
                    found.append((f"passes/{target}/{kernel}/{name}", folder / name))
                # a dump is the IR before its pass: the lowering's output is the next one
                lowered = lowered or name.split("-", 1)[1].removesuffix(".mlir") in \
                    LLVM_LOWERING_PASSES
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tt", type=int, default=4, help="largest TritonGPU dumps")
    parser.add_argument("--llvm", type=int, default=4,
                        help="largest LLVM-dialect dumps that parse")
    parser.add_argument("--profile", choices=("parse", "print"),
                        help="profile this step on the first file, print the top 25")
    args = parser.parse_args(argv)

    corpus = find_corpus()
    if corpus is None:
        print("reference corpus not found (set TILEOPT_CORPUS)", file=sys.stderr)
        return 2
    passes = unpack_passes(corpus)
    chosen = [(f"{t}/{k}.ttgir", corpus / t / f"{k}.ttgir")
              for t in TARGETS for k in ("matmul", "block_ptr_matmul")]
    tt_dumps = [f for f in corpus_files(corpus, passes) if f[0].startswith("passes/")]
    tt_dumps.sort(key=lambda f: -f[1].stat().st_size)
    chosen += tt_dumps[:args.tt]
    llvm = sorted(_llvm_dumps(passes), key=lambda f: -f[1].stat().st_size)

    ctx = make_context()
    rows = []
    skipped = []
    llvm_parsed = 0
    for file_id, path in chosen + llvm:
        is_llvm = (file_id, path) in llvm
        if is_llvm and llvm_parsed >= args.llvm:
            break
        text = split_debug_dumps(path.read_text())[0]
        try:
            module = parse_module(text, file_id, ctx)
        except TileoptError as err:
            skipped.append((file_id, err.format().splitlines()[0]))
            continue
        llvm_parsed += is_llvm
        if args.profile and not rows:
            step = (lambda: parse_module(text, file_id, ctx)) if args.profile == "parse" \
                else (lambda: print_module(module))
            profiler = cProfile.Profile()
            profiler.runcall(step)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        ops = sum(1 for _ in module.walk())
        parse_s, _ = _best(args.repeat, lambda: parse_module(text, file_id, ctx))
        print_s, printed = _best(args.repeat, lambda: print_module(module))
        rows.append((file_id, len(text), ops, parse_s, print_s))

    header = f"{'file':60} {'KiB':>6} {'ops':>6} {'parse ms':>9} {'ops/s':>7} " \
             f"{'print ms':>9} {'ops/s':>7}"
    print(header)
    print("-" * len(header))
    for file_id, size, ops, parse_s, print_s in rows:
        print(f"{file_id:60} {size / 1024:6.1f} {ops:6d} {parse_s * 1e3:9.1f} "
              f"{ops / parse_s:7.0f} {print_s * 1e3:9.1f} {ops / print_s:7.0f}")
    total_ops = sum(r[2] for r in rows)
    print(f"{'total':60} {sum(r[1] for r in rows) / 1024:6.1f} {total_ops:6d} "
          f"{sum(r[3] for r in rows) * 1e3:9.1f} "
          f"{total_ops / max(sum(r[3] for r in rows), 1e-9):7.0f} "
          f"{sum(r[4] for r in rows) * 1e3:9.1f} "
          f"{total_ops / max(sum(r[4] for r in rows), 1e-9):7.0f}")
    if skipped:
        reasons: dict[str, int] = {}
        for _, reason in skipped:
            reason = reason.split("error: ", 1)[-1]
            reasons[reason] = reasons.get(reason, 0) + 1
        print(f"\n{len(skipped)} larger LLVM-dialect dumps do not parse yet:")
        for reason, count in sorted(reasons.items(), key=lambda r: -r[1]):
            print(f"  {count:3d} x {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
