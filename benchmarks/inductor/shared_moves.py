"""Shared-memory instructions of tileopt's PTX beside Triton's, kernel by kernel, on the CPU.

    python benchmarks/inductor/shared_moves.py DIR... [-k SUBSTR] [--no-ptxas]

Each DIR is one kernel of a Triton cache as run_models.py keeps them (``triton-a/<hash>``:
``NAME.ttir``, Triton's options ``NAME.json``, ``NAME.ttgir``, ``NAME.ptx``). Its ``.ttir``
goes through ``tileopt K.ttir --pass-pipeline='nvidia-smNN{num-warps=W num-stages=S}'
--emit=ptx`` with Triton's options; a row per kernel gives the tensor of the first
``ttg.convert_layout`` of Triton's ``.ttgir``, the warps, how many of each shared-memory
instruction (``st.shared``/``ld.shared`` by width, ``stmatrix``/``ldmatrix`` by count and
``.trans``) and bf16 truncation (``cvt.rn.bf16x2.f32`` packs two) each PTX has, and
``ptxas -v`` registers of both (``find_ptxas()``). What the issue-18 plan's table of the
rotary kernel's conversions is made of.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

PTXAS_ARCH = {"sm90": "sm_90a", "sm80": "sm_80"}
# The opcodes counted: shared-memory moves and the bf16 truncations they decide the packing of.
COUNTED = re.compile(r"^\s*(?:@!?%\w+\s+)?((?:st|ld)\.shared[\w.]*|(?:st|ld)matrix[\w.]*|"
                     r"cvt\.rn\.bf16(?:x2)?\.f32)\s")


def short(opcode: str) -> str:
    """``ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16`` -> ``ldmatrix.x4.trans``;
    ``st.shared.v4.b32`` -> ``st.v4.b32``."""
    if "matrix" in opcode:
        parts = opcode.split(".")
        return ".".join([parts[0]] + [p for p in parts if p in ("x1", "x2", "x4", "trans")])
    return opcode.replace(".shared", "").replace("cvt.rn.", "cvt.")


def histogram(ptx: str) -> Counter:
    found: Counter = Counter()
    for line in ptx.splitlines():
        m = COUNTED.match(line)
        if m:
            found[short(m.group(1))] += 1
    return found


def describe(counts: Counter) -> str:
    return ", ".join(f"{n} {op}" for op, n in sorted(counts.items())) or "-"


def converted_tensor(ttgir: str) -> str:
    m = re.search(r"ttg\.convert_layout [^:]*: tensor<([^,>]+)", ttgir)
    return m.group(1) if m else "-"


def kernel_files(folder: Path) -> tuple[Path, dict] | None:
    ttirs = [p for p in folder.glob("*.ttir") if not p.name.startswith("__grp__")]
    if len(ttirs) != 1:
        return None
    return ttirs[0], json.loads(ttirs[0].with_suffix(".json").read_text())


def main() -> None:
    from gemm_templates import tileopt_ptx
    from ptx_vs_triton import ptxas_stats

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("-k", default="", help="only kernels whose name contains this")
    parser.add_argument("--no-ptxas", action="store_true")
    args = parser.parse_args()
    print("| kernel | tensor | warps | Triton | tileopt | registers Triton/tileopt |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="tileopt-moves-") as tmp:
        for folder in args.dirs:
            found = kernel_files(folder)
            if found is None or args.k not in found[0].stem:
                continue
            ttir, meta = found
            arch = meta.get("arch", "sm90")
            out = Path(tmp) / f"{folder.name}.ptx"
            err = tileopt_ptx(ttir, arch, meta["num_warps"], meta["num_stages"], out)
            theirs = ttir.with_suffix(".ptx").read_text()
            ours = None if err else out.read_text()
            registers = "-"
            if not args.no_ptxas and ours is not None:
                stats = [ptxas_stats(p, PTXAS_ARCH[arch]) for p in (theirs, ours)]
                registers = "/".join(str(getattr(s, "registers", s)) for s in stats)
            print(f"| {ttir.stem[:60]} ({folder.name[:8]}) "
                  f"| {converted_tensor(ttir.with_suffix('.ttgir').read_text())} "
                  f"| {meta['num_warps']} | {describe(histogram(theirs))} "
                  f"| {err or describe(histogram(ours))} | {registers} |", flush=True)


if __name__ == "__main__":
    main()
