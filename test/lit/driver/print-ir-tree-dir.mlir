// --mlir-print-ir-tree-dir=DIR: the dumps --mlir-print-ir-* asks for go to files, laid out as
// MLIR does: a directory per op from the module down (op name with '_' for '.', then its
// symbol or no-symbol-name), in it "<each of those ops' dump count>_<pass>.mlir".
// RUN: rm -rf %t && mkdir -p %t
// RUN: tileopt %s --pass-pipeline='builtin.module(func.func(cse, canonicalize), cse)' --mlir-print-ir-after-all --mlir-print-ir-tree-dir=%t/tree -o /dev/null 2>&1 | FileCheck %s --check-prefix=STDERR --allow-empty
// RUN: FileCheck %s --check-prefix=CSE < %t/tree/builtin_module_no-symbol-name/func_func_f/0_0_cse.mlir
// RUN: FileCheck %s --check-prefix=CANON < %t/tree/builtin_module_no-symbol-name/func_func_f/0_1_canonicalize.mlir
// RUN: FileCheck %s --check-prefix=MODULE < %t/tree/builtin_module_no-symbol-name/1_cse.mlir
// RUN: %python -c "import pathlib, sys; print(sorted(str(p.relative_to(sys.argv[1])) for p in pathlib.Path(sys.argv[1]).rglob('*.mlir')))" %t/tree | FileCheck %s --check-prefix=FILES

// STDERR-NOT: IR Dump
// CSE: // -----// IR Dump After CSE (cse) ('func.func' operation: @f) //----- //
// CSE-NEXT: module {
// CANON: // -----// IR Dump After Canonicalize (canonicalize) ('func.func' operation: @f) //----- //
// MODULE: // -----// IR Dump After CSE (cse) ('builtin.module' operation) //----- //
// FILES: ['builtin_module_no-symbol-name/1_cse.mlir', 'builtin_module_no-symbol-name/func_func_f/0_0_cse.mlir', 'builtin_module_no-symbol-name/func_func_f/0_1_canonicalize.mlir']
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  func.return %0 : i32
}
