// The example custom pipeline (examples/pipelines/custom.yaml): it extends amd-cdna3,
// loads the example plugin through its 'plugins:' list, and runs its pass after ttir/cse.
// RUN: tileopt %s --pass-pipeline=%examples/pipelines/custom.yaml --dump-pass-pipeline 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: tileopt %s --pass-pipeline=%examples/pipelines/custom.yaml --stop-after=ttgir | FileCheck %s
// RUN: env TILEOPT_PIPELINE_PATH=%examples/pipelines tileopt %s --pass-pipeline='custom{num-warps=4}' --stop-after=ttir --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=STAGE

// PIPELINE: builtin.module(inline{default-pipeline=canonicalize inlining-threshold=4294967295 max-iterations=4}, triton-rewrite-tensor-pointer, triton-rewrite-tensor-descriptor-to-pointer, canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}, triton-combine, triton-reorder-broadcast, cse, example-mul-to-shift{emit-remarks=false}, triton-licm, symbol-dce,
// CHECK-LABEL: tt.func public @scale
// CHECK:         arith.shli
// CHECK-NOT:     arith.muli
// STAGE: IR Dump After Inline (inline)
// STAGE: IR Dump After Canonicalize (canonicalize)
// STAGE: IR Dump After CSE (cse)
// STAGE: IR Dump After MulToShift (example-mul-to-shift)
// STAGE: IR Dump After TritonLICM (triton-licm)
// STAGE: IR Dump After SymbolDCE (symbol-dce)
// STAGE: IR Dump After LoopUnroll (triton-loop-unroll)
// STAGE-NOT: IR Dump
tt.func public @scale(%p: !tt.ptr<i32>, %i: i32) {
  %c16 = arith.constant 16 : i32
  %x = arith.muli %i, %c16 : i32
  tt.store %p, %x : !tt.ptr<i32>
  tt.return
}
