// RUN: tileopt %s -split-input-file | FileCheck %s
// RUN: tileopt %s -split-input-file --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=NAMELOC

// Value names are chosen when printing, as MLIR's printer chooses them; the input's SSA
// names are not kept. The expected lines are what Triton 3.6.0's MLIR prints for this
// input (its Python bindings; its printing sets --mlir-use-nameloc-as-prefix, which
// changes nothing here: there are no name locations). Only arith.constant names its
// result; entry block arguments are %argN, sibling loops reuse names, a loop body is
// numbered after everything of the function body.

// CHECK-LABEL: tt.func @names(%arg0: !tt.ptr<f32>, %arg1: i32, %arg2: i1) -> i32 {
// CHECK-NEXT:    %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:    %c-845247145_i32 = arith.constant -845247145 : i32
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %c4294967295_i64 = arith.constant 4294967295 : i64
// CHECK-NEXT:    %cst_0 = arith.constant dense<2> : tensor<4xi32>
// CHECK-NEXT:    %0 = arith.addi %arg1, %c7_i32 : i32
// CHECK-NEXT:    %1 = scf.for %arg3 = %c0_i32 to %arg1 step %c7_i32 iter_args(%arg4 = %0) -> (i32)  : i32 {
// CHECK-NEXT:      %7 = arith.addi %arg4, %arg3 : i32
// CHECK-NEXT:      scf.yield %7 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %2 = scf.for %arg3 = %c0_i32 to %arg1 step %c7_i32 iter_args(%arg4 = %1) -> (i32)  : i32 {
// CHECK-NEXT:      %7 = arith.muli %arg4, %arg3 : i32
// CHECK-NEXT:      scf.yield %7 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %3 = arith.select %arg2, %2, %c-845247145_i32 : i32
// CHECK-NEXT:    %4 = tt.addptr %arg0, %3 : !tt.ptr<f32>, i32
// CHECK-NEXT:    %5 = tt.load %4 : !tt.ptr<f32>
// CHECK-NEXT:    %6 = arith.addf %5, %cst : f32
// CHECK-NEXT:    tt.store %4, %6 : !tt.ptr<f32>
// CHECK-NEXT:    tt.return %3 : i32
// CHECK-NEXT:  }
// NAMELOC-LABEL: tt.func @names(%arg0: !tt.ptr<f32>, %arg1: i32, %arg2: i1) -> i32 {
// NAMELOC-NEXT:    %c7_i32 = arith.constant 7 : i32
module {
  tt.func @names(%ptr: !tt.ptr<f32>, %n: i32, %flag: i1) -> i32 {
    %c = arith.constant 7 : i32
    %neg = arith.constant -845247145 : i32
    %idx = arith.constant 3 : index
    %t = arith.constant true
    %f = arith.constant 1.000000e+00 : f32
    %zero = arith.constant 0 : i32
    %wide = arith.constant 4294967295 : i64
    %dense = arith.constant dense<2> : tensor<4xi32>
    %sum = arith.addi %n, %c : i32
    %loop = scf.for %i = %zero to %n step %c iter_args(%acc = %sum) -> (i32)  : i32 {
      %inner = arith.addi %acc, %i : i32
      scf.yield %inner : i32
    }
    %other = scf.for %j = %zero to %n step %c iter_args(%acc2 = %loop) -> (i32)  : i32 {
      %inner2 = arith.muli %acc2, %j : i32
      scf.yield %inner2 : i32
    }
    %sel = arith.select %flag, %other, %neg : i32
    %p = tt.addptr %ptr, %sel : !tt.ptr<f32>, i32
    %v = tt.load %p : !tt.ptr<f32>
    %g = arith.addf %v, %f : f32
    tt.store %p, %g : !tt.ptr<f32>
    tt.return %sel : i32
  }
}

// -----

// Name locations: with --mlir-use-nameloc-as-prefix a value is named after the first
// loc("name") inside its location (the location itself, then what it wraps: fusions,
// both sides of a call site), ahead of arith.constant's own name; an empty one gives a
// number; other characters are escaped. Without the flag (triton-opt's default) they are
// not used. The NAMELOC lines are what Triton 3.6.0's MLIR prints.

// NAMELOC-LABEL: tt.func @name_locations(%a_in: i32, %arg1: i32) -> i32 {
// NAMELOC-NEXT:    %one = arith.constant 1 : i32
// NAMELOC-NEXT:    %y = arith.addi %a_in, %one : i32
// NAMELOC-NEXT:    %y_0 = arith.addi %y, %arg1 : i32
// NAMELOC-NEXT:    %w = arith.addi %y_0, %arg1 : i32
// NAMELOC-NEXT:    %caller = arith.addi %w, %arg1 : i32
// NAMELOC-NEXT:    %0 = arith.addi %caller, %arg1 : i32
// NAMELOC-NEXT:    %a_b = arith.addi %0, %arg1 : i32
// NAMELOC-NEXT:    tt.return %a_b : i32
// NAMELOC-NEXT:  }
// CHECK-LABEL: tt.func @name_locations(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %0 = arith.addi %arg0, %c1_i32 : i32
// CHECK-NEXT:    %1 = arith.addi %0, %arg1 : i32
// CHECK-NEXT:    %2 = arith.addi %1, %arg1 : i32
// CHECK-NEXT:    %3 = arith.addi %2, %arg1 : i32
// CHECK-NEXT:    %4 = arith.addi %3, %arg1 : i32
// CHECK-NEXT:    %5 = arith.addi %4, %arg1 : i32
// CHECK-NEXT:    tt.return %5 : i32
// CHECK-NEXT:  }
module {
  tt.func @name_locations(%a: i32 loc("a_in"), %b: i32) -> i32 {
    %x = arith.constant 1 : i32 loc("one")
    %y = arith.addi %a, %x : i32 loc("y"("f.py":1:2))
    %y2 = arith.addi %y, %b : i32 loc("y")
    %w = arith.addi %y2, %b : i32 loc(fused["f.py":3:4, "w"])
    %v = arith.addi %w, %b : i32 loc(callsite("f.py":5:6 at "caller"))
    %e = arith.addi %v, %b : i32 loc("")
    %s = arith.addi %e, %b : i32 loc("a b")
    tt.return %s : i32
  }
}

// -----

// Ops of several declared results without a name hook of their own are named after their
// ODS results (mlir-tblgen's getAsmResultNames), each result on its own; a name location
// names every result. Expected: Triton 3.6.0's MLIR printing this input.
// CHECK-LABEL: tt.func @named_results(%arg0: i32, %arg1: i32, %arg2: tensor<4x2xf32>) -> (i32, tensor<4xf32>) {
// CHECK-NEXT:    %low, %high = arith.mulsi_extended %arg0, %arg1 : i32
// CHECK-NEXT:    %sum, %overflow = arith.addui_extended %arg0, %arg1 : i32, i1
// CHECK-NEXT:    %low_0, %high_1 = arith.mului_extended %high, %sum : i32
// CHECK-NEXT:    %outLHS, %outRHS = tt.split %arg2 : tensor<4x2xf32> -> tensor<4xf32>
// CHECK-NEXT:    %0 = arith.addf %outLHS, %outRHS : tensor<4xf32>
// CHECK-NEXT:    %outLHS_2, %outRHS_3 = tt.split %arg2 : tensor<4x2xf32> -> tensor<4xf32>
// CHECK-NEXT:    %1 = arith.addf %outLHS_2, %outRHS_3 : tensor<4xf32>
// NAMELOC-LABEL: tt.func @named_results
// NAMELOC:         %outLHS, %outRHS = tt.split %arg2
// NAMELOC-NEXT:    %0 = arith.addf %outLHS, %outRHS : tensor<4xf32>
// NAMELOC-NEXT:    %sp, %sp_2 = tt.split %arg2
// NAMELOC-NEXT:    %1 = arith.addf %sp, %sp_2 : tensor<4xf32>
module {
  tt.func @named_results(%a: i32, %b: i32, %t: tensor<4x2xf32>) -> (i32, tensor<4xf32>) {
    %0:2 = arith.mulsi_extended %a, %b : i32
    %1:2 = arith.addui_extended %a, %b : i32, i1
    %2:2 = arith.mului_extended %0#1, %1#0 : i32
    %3:2 = tt.split %t : tensor<4x2xf32> -> tensor<4xf32>
    %4 = arith.addf %3#0, %3#1 : tensor<4xf32>
    %5:2 = tt.split %t : tensor<4x2xf32> -> tensor<4xf32> loc("sp")
    %6 = arith.addf %5#0, %5#1 : tensor<4xf32>
    %7 = arith.addf %4, %6 : tensor<4xf32>
    tt.return %2#0, %7 : i32, tensor<4xf32>
  }
}
