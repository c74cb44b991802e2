// --mlir-pass-pipeline-crash-reproducer=FILE: when a pass fails, FILE gets the IR that pass
// started from (with locations) and that pass alone as the pipeline, nested as it ran; the
// reproducer fails the same way with --run-reproducer, and a good run writes no file.
// RUN: rm -f %t.repro.mlir
// RUN: not tileopt %s --pass-pipeline='builtin.module(cse, convert-triton-gpu-to-llvm)' --mlir-pass-pipeline-crash-reproducer=%t.repro.mlir 2>&1 | FileCheck %s --check-prefix=RUN1
// RUN: FileCheck %s --check-prefix=REPRO < %t.repro.mlir
// RUN: not tileopt %t.repro.mlir --run-reproducer 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: rm -f %t.good.mlir
// RUN: tileopt %s --cse --mlir-pass-pipeline-crash-reproducer=%t.good.mlir -o /dev/null
// RUN: not test -e %t.good.mlir

// RUN1: note: a reproducer of the failing pass was written to '{{.*}}.repro.mlir' (run it with: tileopt --run-reproducer {{.*}}.repro.mlir)
// RUN1: {{.*}}crash-reproducer.mlir:[[# @LINE + 14]]:5: error: {{.*}}allocation.offset
// REPRO:      ttg.local_alloc
// REPRO:      loc(
// REPRO:      {-#
// REPRO-NEXT:   external_resources: {
// REPRO-NEXT:     mlir_reproducer: {
// REPRO-NEXT:       pipeline: "builtin.module(convert-triton-gpu-to-llvm{compute-capability=80 ptx-version=80})",
// REPRO-NEXT:       disable_threading: true,
// REPRO-NEXT:       verify_each: true
// AGAIN: {{.*}}.repro.mlir:{{[0-9]+}}:5: error: {{.*}}allocation.offset
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_allocation() {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
    ttg.local_dealloc %a : !ttg.memdesc<64xf32, #shared, #smem, mutable>
    tt.return
  }
}
