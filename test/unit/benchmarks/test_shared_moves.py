"""The pure-Python pieces of benchmarks/inductor/shared_moves.py: which PTX instructions it
counts (shared-memory moves, matrix moves by count and ``.trans``, bf16 truncations; a
predicate guard in front does not hide one) and the tensor it reads off Triton's ``.ttgir``."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[3] / "benchmarks" / "inductor"
sys.path.insert(0, str(HARNESS))

import shared_moves as M  # noqa: E402

PTX = """
\tcvt.rn.bf16x2.f32 \t%r34, %r97, %r96;
\tcvt.rn.bf16.f32 \t%rs1, %r5;
\tcvt.rn.f32.bf16 \t%r6, %rs2;
\tstmatrix.sync.aligned.m8n8.x4.shared.b16 [%r229], {%r172, %r187, %r202, %r217};
\tbar.sync \t0;
\tldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r38, %r39, %r40, %r41}, [%r237];
\tldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r42}, [%r238];
\t@%p1 st.shared.v4.b32 \t[%r198], {%r162, %r161, %r160, %r159};
\t@!%p2 ld.shared.b32 \t%r7, [%r8];
\tld.shared.v2.b64 \t{%rd1, %rd2}, [%r9];
\tld.global.v4.b32 \t{%r1, %r2, %r3, %r4}, [%rd3];
\tst.global.b16 \t[%rd4], %rs1;
"""


def test_counts_shared_and_matrix_moves_and_bf16_truncations():
    assert M.histogram(PTX) == Counter({
        "cvt.bf16x2.f32": 1, "cvt.bf16.f32": 1, "stmatrix.x4": 1, "ldmatrix.x4.trans": 1,
        "ldmatrix.x1": 1, "st.v4.b32": 1, "ld.b32": 1, "ld.v2.b64": 1})


def test_describe_lists_counts_in_opcode_order():
    assert M.describe(Counter({"st.v4.b32": 2, "ldmatrix.x4": 1})) == "1 ldmatrix.x4, 2 st.v4.b32"
    assert M.describe(Counter()) == "-"


def test_converted_tensor_is_the_first_conversion_of_the_ttgir():
    ttgir = ("%a = arith.addf %x, %y : tensor<2x512xf32, #blocked>\n"
             "%17 = ttg.convert_layout %tmp29 : tensor<2x512xf32, #blocked> -> "
             "tensor<2x512xf32, #blocked1>\n")
    assert M.converted_tensor(ttgir) == "2x512xf32"
    assert M.converted_tensor("tt.return") == "-"
