// IR printing around passes, on stderr, under MLIR's header lines.
// RUN: tileopt %s -cse -canonicalize --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=AFTERALL
// RUN: tileopt %s -cse -canonicalize --mlir-print-ir-before-all 2>&1 >/dev/null | FileCheck %s --check-prefix=BEFOREALL
// RUN: tileopt %s -cse -canonicalize -symbol-dce --mlir-print-ir-before=canonicalize --mlir-print-ir-after=cse,symbol-dce 2>&1 >/dev/null | FileCheck %s --check-prefix=SOME
// RUN: tileopt %s -cse -symbol-dce -cse --mlir-print-ir-after-change 2>&1 >/dev/null | FileCheck %s --check-prefix=CHANGE
// RUN: tileopt %s -cse -symbol-dce --mlir-print-ir-after-all --mlir-print-ir-after-change 2>&1 >/dev/null | FileCheck %s --check-prefix=CHANGE
// RUN: not tileopt %s -cse --test-crash --load-pass-plugin=%S/Inputs/test_passes.py --mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=FAILURE
// RUN: tileopt %s -cse --mlir-print-ir-after-all --mlir-print-debuginfo 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUGINFO

// AFTERALL: // -----// IR Dump After CSE (cse) ('builtin.module' operation) //----- //
// AFTERALL-NEXT: module {
// AFTERALL-COUNT-1: arith.addi
// AFTERALL: // -----// IR Dump After Canonicalize (canonicalize) ('builtin.module' operation) //----- //
// AFTERALL-NOT: IR Dump Before

// BEFOREALL: // -----// IR Dump Before CSE (cse) ('builtin.module' operation) //----- //
// BEFOREALL-COUNT-2: arith.addi
// BEFOREALL: // -----// IR Dump Before Canonicalize (canonicalize)
// BEFOREALL-NOT: IR Dump After

// SOME-NOT: IR Dump Before CSE
// SOME: IR Dump After CSE (cse)
// SOME-NEXT: module
// SOME: IR Dump Before Canonicalize (canonicalize)
// SOME-NOT: IR Dump After Canonicalize
// SOME: IR Dump After SymbolDCE (symbol-dce)

// The first cse changes the IR; symbol-dce and the second cse do not.
// CHANGE: IR Dump After CSE (cse)
// CHANGE-NOT: IR Dump After

// FAILURE: // -----// IR Dump After Crash Failed (test-crash) ('builtin.module' operation) //----- //
// FAILURE: error: internal error in pass 'test-crash': RuntimeError: deliberate crash

// DEBUGINFO: loc(

func.func @f(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i32
  %y = arith.addi %a, %a : i32
  %r = arith.muli %x, %y : i32
  func.return %r : i32
}
