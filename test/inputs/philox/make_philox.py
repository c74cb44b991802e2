"""Regenerate the Philox fixtures of this folder with upstream Triton 3.6.0 (no GPU needed).

``tl.rand`` calls the Philox helpers of ``triton.language.random``, so the frontend output
holds several ``tt.func`` that ``inline`` must inline: the case the shared corpus lacks.

Run with a Python that has ``triton==3.6.0`` installed (a separate venv, CPU only):

    python -m venv .venv-triton && .venv-triton/bin/pip install triton==3.6.0
    .venv-triton/bin/python test/inputs/philox/make_philox.py

For each target it writes ``<target>/dropout.inline.mlir`` (the IR before Triton's first
pass, ``inline``: the raw frontend output, read from the ``MLIR_ENABLE_DUMP`` dump),
``<target>/dropout.ttir`` and ``<target>/dropout.ttgir`` (``triton.compile(...).asm``) and
``<target>/dropout.json`` (the compile options). Every file is Triton's output; the one
edit is in location strings: the absolute paths of this script and of Triton's package
become ``make_philox.py`` and ``triton/...``, so no machine's paths end up in the repository.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGETS = {"cuda-sm80": ("cuda", 80, 32), "cuda-sm90": ("cuda", 90, 32),
           "hip-gfx942": ("hip", "gfx942", 64), "hip-gfx1100": ("hip", "gfx1100", 32)}
OPTIONS = {"num_warps": 4, "num_stages": 3}
DUMP_HEADER = re.compile(r"^// -----// IR Dump Before (\S+) .*$", re.MULTILINE)


def compile_one(target: str) -> None:
    """Compile the kernel for one target (in a child process: the dump goes to stderr)."""
    import triton
    import triton.language as tl
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    @triton.jit
    def dropout_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        keep = tl.rand(seed, offs) > p
        tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)

    backend, arch, warp = TARGETS[target]
    signature = {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "p": "fp32", "seed": "i32",
                 "BLOCK": "constexpr"}
    divisible = [["tt.divisibility", 16]]
    attrs = {(0,): divisible, (1,): divisible, (2,): divisible}
    src = ASTSource(dropout_kernel, signature, constexprs={"BLOCK": 1024}, attrs=attrs)
    kernel = triton.compile(src, target=GPUTarget(backend, arch, warp), options=OPTIONS)
    out = HERE / target
    out.mkdir(exist_ok=True)
    (out / "dropout.ttir").write_text(relative_paths(kernel.asm["ttir"]))
    (out / "dropout.ttgir").write_text(relative_paths(kernel.asm["ttgir"]))
    meta = {"target": target, "num_warps": OPTIONS["num_warps"], "num_ctas": 1,
            "num_stages": OPTIONS["num_stages"], "warp_size": warp,
            "arch": f"sm{arch}" if backend == "cuda" else arch}
    (out / "dropout.json").write_text(json.dumps(meta, indent=1) + "\n")


def relative_paths(text: str) -> str:
    """Location file names without this machine's directories."""
    import importlib.util

    package = Path(importlib.util.find_spec("triton").origin).parent
    return text.replace(f'"{HERE}/', '"').replace(f'"{package}/', '"triton/')


def first_dump(stderr: str) -> str:
    """The IR the dump printed before the first pass (``inline``)."""
    headers = list(DUMP_HEADER.finditer(stderr))
    assert headers and headers[0].group(1) == "Inliner", "no dump before the inliner"
    end = headers[1].start() if len(headers) > 1 else len(stderr)
    return stderr[headers[0].end():end].strip("\n") + "\n"


def main() -> int:
    if len(sys.argv) == 2:
        compile_one(sys.argv[1])
        return 0
    for target in TARGETS:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, MLIR_ENABLE_DUMP="1", TRITON_CACHE_DIR=cache,
                       TRITON_ALWAYS_COMPILE="1")
            run = subprocess.run([sys.executable, __file__, target], env=env,
                                 capture_output=True, text=True, check=False)
        if run.returncode != 0:
            print(run.stderr[-4000:], file=sys.stderr)
            return run.returncode
        (HERE / target / "dropout.inline.mlir").write_text(relative_paths(first_dump(run.stderr)))
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
