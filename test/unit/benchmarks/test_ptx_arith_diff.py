"""The pure-Python pieces of benchmarks/inductor/ptx_arith_diff.py: what counts as a float
operation of a PTX file, which forms count as one, and the rewriting of Triton's LLVM IR
for tileopt-run. (The script itself needs Triton; the lead runs it, see its docstring.)"""

from __future__ import annotations

import sys
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[3] / "benchmarks" / "inductor"
sys.path.insert(0, str(HARNESS))

import ptx_arith_diff as P  # noqa: E402

PTX = """
.visible .entry k(
\t.param .u64 .ptr .global .align 1 k_param_0
)
{
\t.reg .b32 \t%r<20>;
// %bb.0:
\tld.param.b64 \t%rd1, [k_param_0];
\tmov.u32 \t%r1, %tid.x;
\tld.global.b32 \t%r2, [%rd1];
\tshfl.sync.bfly.b32 \t%r3, %r2, 16, 31, -1;
\tselp.f32 \t%r4, %r2, 0f00000000, %p1;
\tadd.f32 \t%r5, %r3, %r4;
\tsub.f32 \t%r6, %r5, 0f3F800000;
\tfma.rn.f32 \t%r7, %r5, %r6, %r2;
\tneg.f32 \t%r8, %r7;
\t@%p1 bra \t$L__BB0_2;
\tcvt.rn.bf16x2.f32 \t%r9, %r8, %r7;
\tcvt.rn.bf16.f32 \t%rs1, %r8;
\t@%p2 atom.global.gpu.relaxed.add.v4.f32 { %r10, %r11, %r12, %r13 }, [ %rd1 + 0 ], { %r1, %r2, %r3, %r4 };
\tbar.sync \t0;
\tret;
}
\t.section\t.debug_info
\t{
.b8 1 // add.f32 in a debug string is not an instruction
\t}
"""


def test_features_count_float_operations_only():
    rounding, other = P.features(PTX)
    # no loads, moves, selects, shuffles, barriers, branches, debug sections
    assert rounding == {"add.f32": 2, "fma.rn.f32": 1, "cvt.rn.bf16.f32": 3,
                        "atom.global.gpu.relaxed.add.f32": 4}
    assert other == {"neg.f32": 1, "constant 0f3F800000": 1}


def test_forms_that_round_alike_count_as_one():
    assert P._normalised("sub.rn.ftz.f32") == ("add.rn.ftz.f32", 1)
    assert P._normalised("cvt.rn.f16x2.f32") == ("cvt.rn.f16.f32", 2)
    assert P._normalised("red.global.gpu.relaxed.add.v2.f32") == \
        ("red.global.gpu.relaxed.add.f32", 2)
    assert P._normalised("div.full.f32") == ("div.full.f32", 1)


def test_counter_diff_lists_only_what_differs():
    a, _ = P.features("\tadd.f32 \t%r1, %r2, %r3;\n\tmul.f32 \t%r4, %r1, %r1;\n")
    b, _ = P.features("\tfma.rn.f32 \t%r4, %r2, %r2, %r3;\n\tmul.f32 \t%r5, %r1, %r1;\n")
    assert P.counter_diff(a, b) == [("add.f32", 1, 0), ("fma.rn.f32", 0, 1)]


def test_reflect_calls_answered_as_nvptx_does():
    ir = "\n".join([
        '@.str = private unnamed_addr constant [11 x i8] c"__CUDA_FTZ\\00", align 1',
        '@.str.2 = private unnamed_addr constant [17 x i8] c"__CUDA_PREC_SQRT\\00", align 1',
        "  %11 = tail call i32 @__nvvm_reflect(ptr nonnull @.str) #4, !dbg !11",
        "  %12 = tail call i32 @__nvvm_reflect(ptr nonnull @.str.2) #4, !dbg !11",
    ])
    out = P.resolve_reflect(ir)
    assert "  %11 = add i32 0, 1" in out
    assert "  %12 = add i32 0, 0" in out
    assert "__nvvm_reflect" not in out


def test_runnable_ir_has_rcp_as_an_intrinsic_and_no_contraction_flags():
    ir = ('  %50 = tail call float asm "rcp.approx.ftz.f32 $0,$1;", "=f,f"(float %x) #7\n'
          "  %51 = fmul contract float %50, %50\n")
    out = P._runnable(ir)
    assert "call float @llvm.nvvm.rcp.approx.ftz.f(float %x) #7" in out
    assert "declare float @llvm.nvvm.rcp.approx.ftz.f(float)" in out
    assert "%51 = fmul float %50, %50" in out
