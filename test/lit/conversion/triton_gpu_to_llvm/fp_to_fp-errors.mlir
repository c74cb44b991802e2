// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm=compute-capability=80 --verify-diagnostics

// sm_80 has no 8-bit float conversions: the op is reported.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_on_sm80(%x: f32, %p: !tt.ptr<f8E4M3FN>) {
    // expected-error @below {{tt.fp_to_fp from f32 to f8E4M3FN is not supported on this target}}
    %a = tt.fp_to_fp %x, rounding = rtne : f32 -> f8E4M3FN
    tt.store %p, %a : !tt.ptr<f8E4M3FN>
    tt.return
  }
}
