// RUN: tileopt %s | FileCheck %s
// #ttg.amd_mfma as Triton 3.6 reads it: a missing version is 0 and a missing isTransposed
// false; a key it does not know (here `isTranspose`) is skipped, not an error.

// CHECK: #[[M:.+]] = #ttg.amd_mfma<{version = 0, warpsPerCTA = [1, 1], instrShape = [32, 32], isTransposed = false}>
// CHECK-LABEL: tt.func @defaults
// CHECK-SAME: tensor<32x32xf32, #[[M]]>
#m = #ttg.amd_mfma<{warpsPerCTA = [1, 1], instrShape = [32, 32], isTranspose = true}>
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @defaults(%a: tensor<32x32xf32, #m>) {
    tt.return
  }
}
