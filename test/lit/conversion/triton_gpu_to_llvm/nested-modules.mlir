// RUN: tileopt %s --allocate-shared-memory-nv --convert-triton-gpu-to-llvm | FileCheck %s

// Two top-level modules read without -split-input-file are one unnamed module around them
// (as MLIR reads them, and as Triton's lit tests hold them: tritongpu_to_llvm_volta.mlir,
// bf16-atomics.mlir). Each inner module is lowered on its own, with its own attributes;
// what is already LLVM (a global, a function) stays. Triton 3.6 lowers the functions in
// place too, but puts one @global_smem in the outer module, where the inner modules'
// symbol tables do not see it (a function using shared memory then fails there); here
// each inner module gets its own, unless it has one. allocate-shared-memory-nv, as
// Triton's, runs over the whole input and records the size on the outer module.

// CHECK:       module attributes {ttg.shared = 32 : i32} {
// CHECK-NEXT:    module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32
// CHECK-NEXT:      llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT:      llvm.func @first(%{{.*}}: !llvm.struct<(f32, f32, f32, f32)>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>)
// CHECK-SAME:        nvvm.reqntid = array<i32: 128>
// CHECK:         module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32
// CHECK-NEXT:      llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT:      llvm.func @already_llvm() {
// CHECK:           llvm.func @second(
// CHECK-SAME:        nvvm.reqntid = array<i32: 256>
// CHECK:             llvm.mlir.addressof @global_smem : !llvm.ptr<3>

#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @first(%x: tensor<512xf32, #b4>) {
    tt.return
  }
}

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @already_llvm() {
    llvm.return
  }
  tt.func public @second(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b1>
    %f = arith.sitofp %r : tensor<256xi32, #b1> to tensor<256xf32, #b1>
    %s = "tt.reduce"(%f) <{axis = 0 : i32}> ({
    ^bb0(%u: f32, %v: f32):
      %w = arith.addf %u, %v : f32
      tt.reduce.return %w : f32
    }) : (tensor<256xf32, #b1>) -> f32
    tt.store %p, %s : !tt.ptr<f32>
    tt.return
  }
}
