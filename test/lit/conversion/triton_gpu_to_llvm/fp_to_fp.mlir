// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm=compute-capability=90 | FileCheck %s

// 8-bit floats on sm_89+: cvt on a pair whose other half is 0 (f32 -> e4m3, rtne with
// saturation as Triton), back through f16 (exact); f32 -> f16 rtz is cvt.rz; rtne
// between the 16/32-bit floats is LLVM's fptrunc.
// CHECK-LABEL: llvm.func @fp8_and_rounding
// CHECK:         %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK:         %[[P:.*]] = llvm.inline_asm asm_dialect = att operand_attrs = [] "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f" %[[ZERO]], %{{.*}} : (f32, f32) -> i16
// CHECK:         %[[Q:.*]] = llvm.trunc %[[P]] : i16 to i8
// CHECK:         %[[W:.*]] = llvm.zext %[[Q]] : i8 to i16
// CHECK:         %[[H2:.*]] = llvm.inline_asm asm_dialect = att operand_attrs = [] "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %[[W]] : (i16) -> i32
// CHECK:         %[[H:.*]] = llvm.trunc %[[H2]] : i32 to i16
// CHECK:         %[[F:.*]] = llvm.bitcast %[[H]] : i16 to f16
// CHECK:         llvm.fpext %[[F]] : f16 to f32
// CHECK:         llvm.inline_asm asm_dialect = att operand_attrs = [] "cvt.rz.f16.f32 $0, $1;", "=h,f"
// CHECK:         llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK:         llvm.inline_asm asm_dialect = att operand_attrs = [] "cvt.rn.satfinite.e5m2x2.f32 $0, $1, $2;"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_and_rounding(%x: f32, %p: !tt.ptr<f32>, %h: !tt.ptr<f16>, %q: !tt.ptr<bf16>, %e: !tt.ptr<f8E5M2>) {
    %a = tt.fp_to_fp %x, rounding = rtne : f32 -> f8E4M3FN
    %b = tt.fp_to_fp %a : f8E4M3FN -> f32
    %c = tt.fp_to_fp %b, rounding = rtz : f32 -> f16
    %d = tt.fp_to_fp %b, rounding = rtne : f32 -> bf16
    %f = tt.fp_to_fp %x, rounding = rtne : f32 -> f8E5M2
    tt.store %p, %b : !tt.ptr<f32>
    tt.store %h, %c : !tt.ptr<f16>
    tt.store %q, %d : !tt.ptr<bf16>
    tt.store %e, %f : !tt.ptr<f8E5M2>
    tt.return
  }
}

