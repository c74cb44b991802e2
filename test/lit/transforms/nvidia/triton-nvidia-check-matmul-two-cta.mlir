// RUN: tileopt %s -split-input-file --allow-unregistered-dialect --verify-diagnostics --triton-nvidia-check-matmul-two-cta | FileCheck %s

// A module without two-CTA matmuls says so (what Triton writes on every CUDA module).
// CHECK-LABEL: module attributes
// CHECK-SAME: "ttng.two-ctas" = false
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @none() {
    tt.return
  }
}

// -----

// A matmul in two-CTA mode makes it true (the attribute replaces an earlier one).
// CHECK-LABEL: module attributes
// CHECK-SAME: "ttng.two-ctas" = true
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
  tt.func @two() {
    "test.mma"() {two_ctas} : () -> ()
    "test.mma"() {two_ctas} : () -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mixed() {
    "test.mma"() {two_ctas} : () -> ()
    // expected-error @+1 {{matmuls of one module disagree on two-CTA mode (this one does not use it)}}
    "test.mma"() {two_ctas = false} : () -> ()
    tt.return
  }
}
