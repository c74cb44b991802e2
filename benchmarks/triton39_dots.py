"""The dot kernels of Triton 3.9's corpus through tileopt's ``-triton39`` pipelines, beside
Triton 3.9's own code (issue 19).

For matmul, matmul_small and desc_matmul on every target, the corpus ``.ttir`` goes through
``NAME-triton39`` with the options of its ``.json`` (as ``tileopt --emit=ptx|hsaco`` would
compile it) and is compared with the corpus code:

- NVIDIA: ``ptxas -v`` of both PTX files (registers, spill stores/loads, stack) and the
  count of ``mma.sync`` / ``wgmma.mma_async`` and of ``ldmatrix`` instructions. Triton 3.9
  writes ``.version 9.4`` on sm90, newer than the ptxas of the ``nvidia-cuda-nvcc`` wheel
  (CUDA 13.0) reads; such PTX is assembled again with the version that ptxas names as its
  newest (the kernels use nothing newer). sm80 PTX is also assembled for sm_90, as the
  H100 of the GPU check runs it;
- AMD: ``benchmarks/amd/compare.py``'s figures of both code objects (VGPR, SGPR, LDS,
  scratch, occupancy, MFMA/WMMA count, instructions).

A kernel tileopt cannot compile shows its error's first line.

    python benchmarks/triton39_dots.py [--corpus DIR] [--target cuda-sm80] [--kernel NAME]
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "benchmarks" / "amd"))

from compare import Figures, figures, triton_figures  # noqa: E402
from ptx_vs_triton import PtxasStats, ptxas_stats  # noqa: E402

from tileopt.driver.pass_manager import PassManager  # noqa: E402
from tileopt.ir import make_context, parse_module  # noqa: E402
from tileopt.pipelines import resolve_pass_pipeline  # noqa: E402
from tileopt.target import translate  # noqa: E402
from tileopt.target.hsaco_metadata import launch_lds  # noqa: E402
from tileopt.testing.run_cases import DOT_39, compile_options  # noqa: E402

TARGETS = {"cuda-sm80": ("nvidia-sm80-triton39", "sm_80"),
           "cuda-sm90": ("nvidia-sm90-triton39", "sm_90a"),
           "hip-gfx942": ("amd-cdna3-triton39", "gfx942"),
           "hip-gfx1100": ("amd-rdna3-triton39", "gfx1100")}
_MMA = re.compile(r"^\s*(?:@%p\d+\s+)?(mma\.sync|wgmma\.mma_async)\b", re.M)
_LDMATRIX = re.compile(r"^\s*(?:@%p\d+\s+)?ldmatrix\b", re.M)


def default_corpus() -> Path:
    return REPO.parent / "shared" / "corpus-3.9"


@dataclass
class NvidiaFigures:
    ptxas: PtxasStats | str
    mma: int
    ldmatrix: int
    h100: PtxasStats | str | None = None
    """sm80 PTX assembled for sm_90, as the H100's driver does when it loads it."""


def compile_kernel(corpus: Path, target: str, kernel: str, emit: str) -> str | bytes:
    """The corpus ``.ttir`` through the target's 3.9 pipeline, then ``emit``."""
    pipeline, arch = TARGETS[target]
    source = corpus / target / f"{kernel}.ttir"
    ctx = make_context()
    module = parse_module(source.read_text(), str(source), ctx)
    text = pipeline + compile_options(source.with_suffix(".json"))
    PassManager(resolve_pass_pipeline(text), str(source)).run(ctx, module)
    if emit == "figures":  # AMD: assembly and code object of the same module
        amdgcn = translate(module, emit="amdgcn", arch=arch, filename=str(source))
        hsaco = translate(module, emit="hsaco", arch=arch, filename=str(source))
        return figures(amdgcn, arch, launch_lds(module), hsaco)
    return translate(module, emit=emit, arch=arch, filename=str(source))


def assembled(ptx: str, arch: str) -> PtxasStats | str:
    stats = ptxas_stats(ptx, arch)
    newest = re.search(r"current version is '(\d+\.\d+)'", stats) if isinstance(stats, str) \
        else None
    if newest:  # a .version newer than this ptxas reads: lower it and assemble again
        stats = ptxas_stats(re.sub(r"^\.version \d+\.\d+", f".version {newest.group(1)}", ptx,
                                   count=1, flags=re.M), arch)
    return stats


def nvidia_figures(ptx: str, arch: str) -> NvidiaFigures:
    # The GPU check runs sm80 PTX on an H100: its driver compiles it for sm_90, where
    # registers and spills may differ (desc_matmul spilled 8 bytes there, none on sm_80).
    h100 = assembled(ptx, "sm_90") if arch == "sm_80" else None
    return NvidiaFigures(assembled(ptx, arch), len(_MMA.findall(ptx)),
                         len(_LDMATRIX.findall(ptx)), h100)


def ours(corpus: Path, target: str, kernel: str) -> NvidiaFigures | Figures | str:
    try:
        if target.startswith("cuda"):
            return nvidia_figures(compile_kernel(corpus, target, kernel, "ptx"),
                                  TARGETS[target][1])
        return compile_kernel(corpus, target, kernel, "figures")
    except Exception as err:  # noqa: BLE001 - the table reports every failure
        return "error: " + (str(err).strip().splitlines() or [type(err).__name__])[0]


def theirs(corpus: Path, target: str, kernel: str) -> NvidiaFigures | Figures:
    if target.startswith("cuda"):
        return nvidia_figures((corpus / target / f"{kernel}.ptx").read_text(),
                              TARGETS[target][1])
    return triton_figures(corpus, target, kernel)


def cells(fig: NvidiaFigures | Figures | str) -> str:
    if isinstance(fig, str):
        return fig
    if isinstance(fig, NvidiaFigures):
        stats = fig.ptxas
        if isinstance(stats, str):
            return stats
        h100 = fig.h100
        on_h100 = "" if h100 is None else f"  on sm_90: {h100}" if isinstance(h100, str) else (
            f"  on sm_90: regs {h100.registers:3} spill st/ld {h100.spill_stores}/"
            f"{h100.spill_loads}")
        return (f"regs {stats.registers:3}  spill st/ld {stats.spill_stores}/"
                f"{stats.spill_loads}  stack {stats.stack}  mma {fig.mma}  "
                f"ldmatrix {fig.ldmatrix}{on_h100}")
    r = fig.resources
    return (f"vgpr {r.vgpr_count:3} sgpr {r.sgpr_count:3} lds {fig.lds:5} scratch "
            f"{r.private_segment_size:4} waves {str(fig.occupancy):>2} mfma {fig.matrix:3} "
            f"instrs {fig.instructions}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument("--target", choices=tuple(TARGETS), action="append")
    parser.add_argument("--kernel", choices=DOT_39, action="append")
    args = parser.parse_args(argv)
    for target in args.target or TARGETS:
        for kernel in args.kernel or DOT_39:
            print(f"{target:11} {kernel:12} triton  {cells(theirs(args.corpus, target, kernel))}")
            print(f"{target:11} {kernel:12} tileopt {cells(ours(args.corpus, target, kernel))}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
