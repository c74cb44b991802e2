"""Triton 3.6's own ttgir passes on a pinned kernel, on the CPU (no GPU needed).

    python benchmarks/inductor/triton_passes.py K.ttir [--out DIR]

Parses ``K.ttir`` with Triton's Python bindings and runs its CUDA ``make_ttgir`` with the
options of ``K.json``. Prints Triton's ``ttgir``; with ``--out``, also writes the IR before
each pass as ``DIR/NN-<pass>.mlir`` (and the result as ``DIR/final.ttgir``), so that one
tileopt pass can be run on exactly Triton's input to it and compared with Triton's output
(``tileopt DIR/NN-<pass>.mlir --<pass>`` against ``DIR/NN+1-*.mlir``).

Needs ``pip install triton==3.6.0`` (in its own environment is fine); tileopt does not import
Triton.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ttir", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    os.environ["MLIR_ENABLE_DUMP"] = "1" if args.out else "0"
    from triton._C.libtriton import ir, nvidia
    from triton.backends.nvidia.compiler import CUDABackend

    meta = json.loads(args.ttir.with_suffix(".json").read_text())
    ctx = ir.context()
    ir.load_dialects(ctx)
    nvidia.load_dialects(ctx)
    module = ir.parse_mlir_module(str(args.ttir), ctx)
    module.context = ctx
    options = SimpleNamespace(maxnreg=None, num_warps=meta["num_warps"],
                              num_ctas=meta["num_ctas"], num_stages=meta["num_stages"])
    capability = 80 if meta.get("arch") == "sm80" else 90
    with tempfile.TemporaryFile("w+") as dumps:
        saved = os.dup(2)
        os.dup2(dumps.fileno(), 2)  # MLIR prints its dumps on the C stderr
        try:
            CUDABackend.make_ttgir(module, {}, options, capability)
        finally:
            os.dup2(saved, 2)
        dumps.seek(0)
        text = dumps.read()
    final = str(module)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        header = re.compile(r"^// -----// IR Dump Before \S+ \(([^)]+)\).*$", re.M)
        parts = header.split(text)
        for n, (name, body) in enumerate(zip(parts[1::2], parts[2::2])):
            (args.out / f"{n:02d}-{name}.mlir").write_text(body.split("// -----//")[0])
        (args.out / "final.ttgir").write_text(final)
    sys.stdout.write(final)


if __name__ == "__main__":
    main()
