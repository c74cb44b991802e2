"""Pick the pinned set of collected kernels that the CI tests read.

    python benchmarks/inductor/pin.py KERNELS.tar.xz [--dest test/inputs/inductor]

Reads the archive `collect.py` wrote on the GPU machine and keeps, for every distinct kernel
(same `.ttir` text once its `loc` lines are dropped) of the models and the hand-written set,
Triton's `.ttir` (tileopt's input), Triton's `.ttgir` (the stage tileopt's `ttgir` output is
compared with) and a `.json` with the options Triton compiled it with. Inductor's autotuning
candidates (`triton_mm`, `triton_bmm` and the benchmark helpers) are left out; of each GEMM
template kernel (`triton_tem_*`) the first configuration is kept.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import tarfile
from pathlib import Path

KEEP_OPTIONS = ("name", "num_warps", "num_ctas", "num_stages", "warp_size", "arch",
                "enable_fp_fusion", "default_dot_input_precision", "shared", "triton_version")
SKIP = re.compile(r"^triton_(mm|bmm)\b|^triton_$|^triton_-")


def strip_machine_paths(text: str) -> str:
    """Locations name the files the kernels came from by their path on the GPU machine;
    keep only the file name (`standard.py`, Inductor's `<hash>.py`)."""
    return re.sub(r'"/[^"]*/([^/"]+\.py)"', r'"\1"', text)


def body_key(ttir: str) -> str:
    text = "\n".join(line for line in ttir.splitlines() if not line.startswith("#loc"))
    text = re.sub(r"\s*loc\([^()]*(\([^()]*\)[^()]*)*\)", "", text)
    return hashlib.sha256(text.encode()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive")
    parser.add_argument("--dest", default="test/inputs/inductor")
    args = parser.parse_args()
    dest = Path(args.dest)
    shutil.rmtree(dest, ignore_errors=True)
    seen: set[str] = set()
    kept = 0
    with tarfile.open(args.archive) as tar:
        members = {m.name: m for m in tar.getmembers()}
        for name in sorted(n for n in members if n.endswith(".ttir")):
            group, file = name.split("/", 1)
            stem = file[:-5]
            kernel = stem.rsplit("-", 1)[0]
            if SKIP.search(kernel) or (group.startswith("gemm") and not
                                       (kernel.startswith("triton_tem") or
                                        kernel.startswith("triton_poi"))):
                continue
            ttir = strip_machine_paths(tar.extractfile(members[name]).read().decode())
            key = body_key(ttir) if not kernel.startswith("triton_tem") else kernel
            if key in seen:
                continue
            seen.add(key)
            meta = json.load(tar.extractfile(members[f"{group}/{stem}.json"]))
            ttgir = strip_machine_paths(
                tar.extractfile(members[f"{group}/{stem}.ttgir"]).read().decode())
            out = dest / group
            out.mkdir(parents=True, exist_ok=True)
            base, n = kernel, 1
            while (out / f"{kernel}.ttir").exists():  # same name, other shapes or dtypes
                n += 1
                kernel = f"{base}-{n}"
            (out / f"{kernel}.ttir").write_text(ttir)
            (out / f"{kernel}.ttgir").write_text(ttgir)
            options = {k: meta[k] for k in KEEP_OPTIONS if k in meta}
            (out / f"{kernel}.json").write_text(json.dumps(options, indent=1) + "\n")
            kept += 1
    print(f"kept {kept} kernels under {dest}")


if __name__ == "__main__":
    main()
