"""Regenerate ``mlir_float_text.txt``: how MLIR prints float constants, per type and bit
pattern, read from MLIR itself (the one bundled with Triton 3.6.0, through its Python
bindings; CPU only).

    python -m venv .venv-triton && .venv-triton/bin/pip install triton==3.6.0
    .venv-triton/bin/python test/unit/ir/data/make_mlir_float_text.py

Each line of the output is ``TYPE HEXBITS TEXT``: MLIR parsed ``arith.constant 0xBITS :
TYPE`` and printed TEXT. The patterns: special values, random ones, and random ones with
short mantissas (the constants kernels hold) for f32/f16/bf16/f64; every pattern of
Triton's f8 types (f8E4M3FN, f8E5M2) and a random quarter of the other f8 types.
"""

from __future__ import annotations

import random
import re
import tempfile
from pathlib import Path

from triton._C.libtriton import ir

OUT = Path(__file__).resolve().parent / "mlir_float_text.txt"
WIDE = {"f32": (8, 23), "f16": (5, 10), "bf16": (8, 7), "f64": (11, 52)}
SPECIAL = {"f32": [0x3C23D70A, 0x3F3504F3, 0x3F800000, 0x30000000, 0x2F800000, 0x7F7FFFFF,
                   0x00000001, 0x00800000, 0x4B800001, 0x7F800000, 0xFF800000, 0x7FC00000,
                   0xFFC00001, 0x80000000],
           "f64": [0x3F847AE147AE147B, 0x3FE6A09E667F3BCD, 0x7FF0000000000000],
           "f16": [0x211F, 0x3C00, 0x7BFF, 0x0001, 0x7C00, 0x7E00],
           "bf16": [0x3C24, 0x3F80, 0x0001, 0x7F80, 0x7FC0]}
F8_ALL = ("f8E4M3FN", "f8E5M2")
F8_SOME = ("f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3B11FNUZ", "f8E4M3", "f8E3M4")


def patterns() -> list[tuple[str, int]]:
    rng = random.Random(12)
    cases = []
    for name, (exp_bits, man_bits) in WIDE.items():
        width = 1 + exp_bits + man_bits
        values = list(SPECIAL[name])
        values += [rng.getrandbits(width) for _ in range(120)]
        bias = (1 << (exp_bits - 1)) - 1
        for _ in range(120):
            exponent = rng.randint(max(1, bias - 30), min(2 * bias, bias + 30))
            short = rng.getrandbits(rng.choice([2, 5, 9])) << max(man_bits - 9, 0)
            values.append(exponent << man_bits | short & ((1 << man_bits) - 1))
        cases += [(name, v) for v in values]
    for name in F8_ALL:
        cases += [(name, v) for v in range(256)]
    for name in F8_SOME:
        cases += [(name, v) for v in sorted(rng.sample(range(256), 64))]
    return cases


def main() -> None:
    cases = patterns()
    body = "\n".join(f"  %v{n} = arith.constant 0x{bits:X} : {name}"
                     for n, (name, bits) in enumerate(cases))
    with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
        f.write(f"module {{\n tt.func @f() {{\n{body}\n  tt.return\n }}\n}}\n")
        f.flush()
        ctx = ir.context()
        ir.load_dialects(ctx)
        printed = str(ir.parse_mlir_module(f.name, ctx))
    texts = re.findall(r"= arith\.constant (\S+) : \S+", printed)
    assert len(texts) == len(cases)
    OUT.write_text("".join(f"{name} {bits:X} {text}\n"
                           for (name, bits), text in zip(cases, texts)))


if __name__ == "__main__":
    main()
