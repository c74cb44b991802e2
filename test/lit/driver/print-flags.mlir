// mlir-opt's printing and listing flags (issue 16).
// --mlir-print-local-scope: attributes and locations in place, no alias definitions.
// RUN: tileopt %s --mlir-print-local-scope --mlir-print-debuginfo | FileCheck %s --check-prefix=LOCAL
// --mlir-print-op-generic: every op in the generic form, which reads back to the same IR.
// RUN: tileopt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tileopt %s --mlir-print-op-generic | tileopt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: tileopt --show-dialects | FileCheck %s --check-prefix=DIALECTS
// RUN: not tileopt %s --emit-bytecode 2>&1 | FileCheck %s --check-prefix=BYTECODE

// LOCAL-NOT: #blocked =
// LOCAL-NOT: #loc
// LOCAL: tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> loc("offs"("k.py":3:7))
// GENERIC: "builtin.module"() ({
// GENERIC: "tt.func"() <{
// GENERIC: "tt.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32, #blocked>
// GENERIC: "tt.return"() : () -> ()
// ROUNDTRIP: module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// ROUNDTRIP: tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
// DIALECTS: Available Dialects: {{.*}}arith, builtin{{.*}}tt, ttg, ttng
// BYTECODE: error: --emit-bytecode is not supported: tileopt reads and writes MLIR text only
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k() {
    %offs = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked> loc(#loc1)
    tt.return
  }
}
#loc1 = loc("offs"("k.py":3:7))
