"""Triton's LLVM-dialect output is read and printed back unchanged.

The ``nvvm`` dialect, ``llvm_ext`` (the llvm ops xDSL lacks or reads differently, and the
``#llvm.di_*`` attributes) and the LLVM-level ``rocdl`` ops must print what they read,
in MLIR's syntax, so that ``tileopt`` passes can write LLVM-dialect files back out.
"""

from __future__ import annotations

import re

import pytest

from tileopt.ir import print_module
from tileopt.target import parse_llvm_dialect

# Between them: every nvvm and rocdl op Triton emits, atomics, inline asm of all shapes.
CASES = [("cuda-sm80", "softmax"), ("cuda-sm90", "matmul_small"), ("cuda-sm90", "block_ptr_matmul"),
         ("hip-gfx942", "atomic_hist"), ("hip-gfx942", "softmax"), ("hip-gfx1100", "matmul_small")]


def last_dump(passes_root, target, kernel):
    folder = passes_root / target / "passes" / kernel
    return sorted(p for p in folder.iterdir() if p.suffix == ".mlir")[-1]


@pytest.mark.parametrize("target,kernel", CASES)
def test_roundtrip(passes_root, target, kernel):
    """Every nvvm/rocdl/atomic/inline-asm line of Triton's dump appears verbatim (minus
    SSA names and locations) in tileopt's printing, and that printing reads back to itself."""
    text = last_dump(passes_root, target, kernel).read_text()
    printed = print_module(parse_llvm_dialect(text))

    def shape(line: str) -> str:
        line = re.sub(r"\s+loc\(.*$", "", line.strip())
        # MLIR prints "nvvm.shfl.sync  bfly" (two spaces) and the members of an
        # !llvm.struct without their "!llvm." (xDSL keeps it): both read back the same.
        line = line.replace("!llvm.", "")
        return " ".join(re.sub(r"%[\w.]+", "%_", line).split())

    ours = {shape(line) for line in printed.splitlines()}
    interesting = re.compile(
        r"^\s*(%\S+ = )?((nvvm|rocdl)\.|llvm\.(atomicrmw|inline_asm|extractelement|intr\.))")
    theirs = {shape(line) for line in text.splitlines() if interesting.search(line)}
    assert theirs, "the dump has vendor ops"
    assert theirs <= ours
    assert print_module(parse_llvm_dialect(printed)) == printed
