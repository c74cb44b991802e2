// A reproducer as MLIR and Triton write them (the pipeline in a {-# external_resources #-}
// block at the end; Triton's canonicalize prints all of MLIR's options) runs with
// --run-reproducer; without the flag the block is read and ignored, as in mlir-opt.
// RUN: tileopt %s --run-reproducer | FileCheck %s
// RUN: tileopt %s | FileCheck %s --check-prefix=PLAIN
// RUN: tileopt %s --run-reproducer --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: not tileopt %s --run-reproducer --cse 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not tileopt %S/Inputs/simple.mlir --run-reproducer 2>&1 | FileCheck %s --check-prefix=NONE

// CHECK-LABEL: func.func @f
// CHECK-NEXT:    return %arg0 : i32
// PLAIN:         %0 = arith.addi %arg0, %c0_i32 : i32
// DUMP: builtin.module(canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true})
// BOTH: error: --run-reproducer runs the pipeline the input names: it cannot be combined with --pass-pipeline or pass flags
// NONE: error: --run-reproducer: the input has no 'mlir_reproducer' entry in a {-# external_resources: ... #-} block
module {
  func.func @f(%a: i32) -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %0 = arith.addi %a, %c0_i32 : i32
    func.return %0 : i32
  }
}

{-#
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(canonicalize{  max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true})",
      disable_threading: false,
      verify_each: true
    }
  }
#-}
