"""CPU ms (minimum of N rounds, default 3) of what the overrides of docs/upstream/xdsl/
speed up: the 200-kernel file of ``benchmarks/compile_time.py`` parsed and verified, then
through ``canonicalize, cse``; and the ttir..llir stages of two corpus kernels, in process.

Run from the repository root; with ``TILEOPT_XDSL_OVERRIDES_OFF`` set the overrides it
names are switched off first (``overrides_off.py``). docs/upstream/README.md has the
figures and how they were taken (the same script with xDSL 0.74.0 and the patched xDSL).
"""

import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
if os.environ.get("TILEOPT_XDSL_OVERRIDES_OFF"):
    sys.path.insert(0, str(Path(__file__).parent))
    import overrides_off  # noqa: F401  (before tileopt.dialects)
sys.path.insert(0, str(REPO / "benchmarks"))
import compile_time as ct  # noqa: E402

CASES = (("cuda-sm80", "layernorm_fwd"), ("cuda-sm90", "matmul"))


def main(rounds: int) -> None:
    corpus = Path(os.environ.get("TILEOPT_CORPUS", REPO.parent / "shared" / "corpus"))
    ct.clock = time.process_time
    text = ct.many_kernels(corpus, 200)
    canonicalize_cse = ct.resolve_pass_pipeline("builtin.module(canonicalize, cse)")
    best: dict[str, float] = {}

    def keep(name: str, seconds: float) -> None:
        best[name] = min(best.get(name, seconds), seconds)

    for _ in range(rounds):
        keep("200 kernels: parse+verify", ct._cpu(lambda: ct.parse_module(text, "k200"))[0])
        ctx = ct.make_context()
        module = ct.parse_module(text, "k200", ctx)
        keep("200 kernels: canonicalize+cse",
             ct._cpu(lambda: ct._run_pipeline(canonicalize_cse, module, ctx, "k200"))[0])
        for target, kernel in CASES:
            stages = ct.time_tileopt(corpus, target, kernel)
            if "stopped" in stages:
                raise SystemExit(f"{target} {kernel}: {stages['stopped']}")
            keep(f"{target} {kernel}: ttir+ttgir+llir",
                 sum(stages[stage] for stage in ct.STAGES))
    for name, seconds in best.items():
        print(f"{name}: {seconds * 1000:.0f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
