"""Registers and spills of tileopt's PTX against Triton's, per corpus kernel (``ptxas -v``).

For each NVIDIA corpus kernel this assembles, with ``ptxas -v`` for the kernel's
architecture:

- ``triton``: Triton 3.6's own PTX (the corpus ``.ptx``);
- ``llir``:   tileopt's PTX from Triton's LLVM IR (``.llir`` -> ``llvm_ir_to_ptx`` at -O0,
              i.e. Triton's ``make_ptx`` on llvmlite's LLVM 22.1); ``=`` marks code
              identical to Triton's;
- ``mlir``:   tileopt's PTX from Triton's last LLVM-dialect dump (``tileopt-translate``,
              -O3 + code generation, i.e. ``make_llir`` + ``make_ptx``), when the per-pass
              dumps are available.

and prints registers / spill stores / spill loads / stack bytes. ``compare`` is the
reusable part: give it any ``{kernel: ptx}`` of tileopt's own lowering to get the same
table against Triton.

    python benchmarks/ptx_vs_triton.py [--corpus DIR] [--passes DIR] [--kernel NAME]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tileopt.ir import TileoptError  # noqa: E402
from tileopt.target import llvm_ir_to_ptx, translate  # noqa: E402
from tileopt.target.ptxas import find_ptxas  # noqa: E402
from tileopt.testing.corpus_compare import code_part  # noqa: E402

ARCHES = {"cuda-sm80": "sm_80", "cuda-sm90": "sm_90a"}


@dataclass(frozen=True)
class PtxasStats:
    registers: int
    spill_stores: int
    spill_loads: int
    stack: int

    def __str__(self) -> str:
        return f"{self.registers:>4} {self.spill_stores:>5} {self.spill_loads:>5} {self.stack:>5}"


def ptxas_stats(ptx: str, arch: str) -> PtxasStats | str:
    """``ptxas -v`` figures of one-kernel PTX, or the first error line."""
    with tempfile.TemporaryDirectory(prefix="tileopt-ptxas-") as work:
        source = Path(work) / "kernel.ptx"
        source.write_text(ptx)
        result = subprocess.run([find_ptxas(), "-v", f"-arch={arch}", str(source),
                                 "-o", str(Path(work) / "kernel.cubin")],
                                capture_output=True, text=True)
    if result.returncode != 0:
        return (result.stderr.strip().splitlines() or ["ptxas failed"])[0]
    log = result.stderr
    number = lambda pattern: int(m.group(1)) if (m := re.search(pattern, log)) else 0
    return PtxasStats(number(r"Used (\d+) registers"), number(r"(\d+) bytes spill stores"),
                      number(r"(\d+) bytes spill loads"), number(r"(\d+) bytes stack frame"))


def compare(target: str, ours: dict[str, dict[str, str]], corpus: Path) -> list[str]:
    """Table rows: for each kernel, Triton's figures and those of each of ``ours[column]``."""
    arch = ARCHES[target]
    columns = list(ours)
    rows = []
    for kernel in sorted({k for column in ours.values() for k in column}):
        triton_ptx = (corpus / target / f"{kernel}.ptx").read_text()
        cells = [_cell(ptxas_stats(triton_ptx, arch))]
        for column in columns:
            ptx = ours[column].get(kernel)
            if ptx is None:
                cells.append(f"{'-':>21}")
                continue
            same = "=" if code_part(ptx) == code_part(triton_ptx) else " "
            cells.append(_cell(ptxas_stats(ptx, arch)) + same)
        rows.append(f"{target:10} {kernel:17} " + " | ".join(cells))
    return rows


def _cell(stats: PtxasStats | str) -> str:
    return f"{str(stats):>20}" if isinstance(stats, PtxasStats) else f"{stats[:20]:>20}"


def _last_dump(passes: Path, target: str, kernel: str) -> Path | None:
    folder = passes / target / "passes" / kernel
    if not folder.is_dir():
        return None
    return sorted(p for p in folder.iterdir() if p.suffix == ".mlir")[-1]


def _passes_root(corpus: Path, explicit: str | None) -> Path | None:
    if explicit:
        return Path(explicit)
    archive = corpus / "passes.tar.xz"
    if not archive.exists():
        return None
    dest = Path(tempfile.gettempdir()) / f"tileopt-corpus-passes-{archive.stat().st_size}-" \
                                         f"{int(archive.stat().st_mtime)}"
    if not (dest / ".unpacked").exists():
        dest.mkdir(parents=True, exist_ok=True)
        with tarfile.open(archive) as tar:
            tar.extractall(dest, filter="data")
        (dest / ".unpacked").touch()
    return dest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("TILEOPT_CORPUS",
                                                           str(REPO.parent / "shared" / "corpus")))
    parser.add_argument("--passes", help="unpacked per-pass dumps (default: unpack the corpus's)")
    parser.add_argument("--kernel", action="append", help="only these kernels")
    parser.add_argument("--no-mlir", action="store_true", help="skip the LLVM-dialect column")
    args = parser.parse_args()
    if find_ptxas() is None:
        print("ptxas not found (nvidia-cuda-nvcc wheel or PATH)", file=sys.stderr)
        return 1
    corpus = Path(args.corpus)
    passes = None if args.no_mlir else _passes_root(corpus, args.passes)
    header = (f"{'target':10} {'kernel':17} " +
              " | ".join(f"{name + ': regs  st/ld spill stack':>21}"
                         for name in ("triton", "llir", "mlir")))
    print(header)
    print("-" * len(header))
    for target, arch in ARCHES.items():
        kernels = sorted(p.stem for p in (corpus / target).glob("*.ptx"))
        kernels = [k for k in kernels if not args.kernel or k in args.kernel]
        ours: dict[str, dict[str, str]] = {"llir": {}, "mlir": {}}
        for kernel in kernels:
            llir = (corpus / target / f"{kernel}.llir").read_text()
            ours["llir"][kernel] = llvm_ir_to_ptx(llir, arch, opt_level=0)
            dump = _last_dump(passes, target, kernel) if passes else None
            if dump is not None:
                try:
                    ours["mlir"][kernel] = translate(dump.read_text(), "ptx", arch, str(dump))
                except TileoptError as err:
                    print(f"{target} {kernel}: {err.format()}", file=sys.stderr)
        for row in compare(target, ours, corpus):
            print(row)
    print("\n(= : the PTX code is identical to Triton's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
