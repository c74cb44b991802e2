// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

// One asm per register (packed_element = 1); pure asm has no side effects.
// CHECK-LABEL: llvm.func @one_per_register
// CHECK-COUNT-2: llvm.inline_asm asm_dialect = att operand_attrs = [] "shf.l.wrap.b32 $0, $1, $1, 3;", "=r,r" %{{.*}} : (i32) -> i32
// CHECK-NOT:     llvm.inline_asm
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @one_per_register(%x: i32, %p: !tt.ptr<i32>) {
    %s = tt.splat %x : i32 -> tensor<64xi32, #b>
    %y = tt.elementwise_inline_asm "shf.l.wrap.b32 $0, $1, $1, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %s : tensor<64xi32, #b> -> tensor<64xi32, #b>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #b>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %pp = tt.addptr %ps, %r : tensor<64x!tt.ptr<i32>, #b>, tensor<64xi32, #b>
    tt.store %pp, %y : tensor<64x!tt.ptr<i32>, #b>
    tt.return
  }
}

// -----

// packed_element = 4 on i8: four registers go in as one vector<4xi8> (a 32-bit register);
// two results come back as a struct of vectors, unpacked into registers. Impure asm keeps
// has_side_effects.
// CHECK-LABEL: llvm.func @packed_two_results
// CHECK:         %[[R:.*]] = llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "prmt.b32 $0, $2, 0, 0x0123; mov.b32 $1, $2;", "=r,=r,r" %{{[0-9]+}} : (vector<4xi8>) -> !llvm.struct<(vector<4xi8>, vector<4xi8>)>
// CHECK:         llvm.extractvalue %[[R]][0]
// CHECK:         llvm.extractvalue %[[R]][1]
// CHECK-NOT:     llvm.inline_asm
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @packed_two_results(%p: !tt.ptr<i8> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b4>
    %ps = tt.splat %p : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>, #b4>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<i8>, #b4>, tensor<128xi32, #b4>
    %x = tt.load %pp : tensor<128x!tt.ptr<i8>, #b4>
    %y:2 = tt.elementwise_inline_asm "prmt.b32 $0, $2, 0, 0x0123; mov.b32 $1, $2;" {constraints = "=r,=r,r", packed_element = 4 : i32, pure = false} %x : tensor<128xi8, #b4> -> tensor<128xi8, #b4>, tensor<128xi8, #b4>
    %z = arith.addi %y#0, %y#1 : tensor<128xi8, #b4>
    tt.store %pp, %z : tensor<128x!tt.ptr<i8>, #b4>
    tt.return
  }
}
