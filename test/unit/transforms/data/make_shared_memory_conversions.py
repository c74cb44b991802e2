"""Regenerate ``shared_memory_conversions.txt``: which conversions to a dot operand
Triton 3.6's ``tritongpu-reduce-data-duplication`` sends through shared memory (its
``cvtNeedsSharedMemory``), read from Triton itself (its Python bindings; CPU only).

    python -m venv .venv-triton && .venv-triton/bin/pip install triton==3.6.0
    .venv-triton/bin/python test/unit/transforms/data/make_shared_memory_conversions.py

The cases: a 16x128 f16 A operand of an Ampere MMA in one warp (the conversion never
leaves the warp, so only the register/lane permutation decides), converted from every
blocked layout of a grid of sizePerThread x threadsPerWarp x order, for kWidth 2, 4 and
8. Each line of the output is ``SIZE_PER_THREAD THREADS_PER_WARP ORDER KWIDTH SHARED``
(SHARED: 1 when the pass put in a ``ttg.local_alloc``, 0 when the conversion stayed).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent / "shared_memory_conversions.txt"
SIZES = ([1, 1], [2, 1], [4, 1], [8, 1], [1, 2], [1, 4], [1, 8], [2, 2], [4, 4], [8, 8],
         [16, 1], [16, 2])
LANES = ([32, 1], [16, 2], [8, 4], [4, 8], [2, 16], [1, 32])
ORDERS = ([0, 1], [1, 0])
KWIDTHS = (2, 4, 8)


def cases():
    for size in SIZES:
        for lanes in LANES:
            for order in ORDERS:
                for k_width in KWIDTHS:
                    yield size, lanes, order, k_width


def module_text(size, lanes, order, k_width) -> str:
    """One function converting the blocked tensor to the dot operand (no aliases)."""
    blocked = (f"#ttg.blocked<{{sizePerThread = {size}, threadsPerWarp = {lanes}, "
               f"warpsPerCTA = [1, 1], order = {order}}}>")
    mma = ("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], "
           "instrShape = [16, 8]}>")
    dot = f"#ttg.dot_op<{{opIdx = 0, parent = {mma}, kWidth = {k_width}}}>"
    return (
        'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, '
        'ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {\n'
        f"  tt.func @f(%x: tensor<16x128xf16, {blocked}>) -> tensor<16x128xf16, {dot}> {{\n"
        f"    %y = ttg.convert_layout %x : tensor<16x128xf16, {blocked}> -> "
        f"tensor<16x128xf16, {dot}>\n"
        f"    tt.return %y : tensor<16x128xf16, {dot}>\n  }}\n}}\n")


def main() -> None:
    from triton._C.libtriton import ir, passes

    lines = []
    for size, lanes, order, k_width in cases():
        with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
            f.write(module_text(size, lanes, order, k_width))
            f.flush()
            ctx = ir.context()
            ir.load_dialects(ctx)
            module = ir.parse_mlir_module(f.name, ctx)
        manager = ir.pass_manager(ctx)
        passes.ttgpuir.add_reduce_data_duplication(manager)
        manager.run(module, "reduce-data-duplication")
        shared = int("ttg.local_alloc" in module.str())
        lines.append(" ".join(",".join(map(str, v)) for v in (size, lanes, order))
                     + f" {k_width} {shared}")
    OUT.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
