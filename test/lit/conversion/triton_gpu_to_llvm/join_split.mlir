// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm --verify-diagnostics | FileCheck %s

// join puts the two operands in the new last dim, which each thread holds in registers
// (register 0: the first operand, 1: the second); split takes them apart again. No
// instruction: values only change places.
// CHECK-LABEL: llvm.func @join_split
// CHECK:         %[[A:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:         %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:         llvm.fsub %[[B]], %[[A]] : f32
// CHECK:         llvm.store %[[B]], %{{.*}} : f32, !llvm.ptr<1>
// CHECK:         llvm.store %[[A]], %{{.*}} : f32, !llvm.ptr<1>
#pair = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @join_split(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #row>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #row>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #row>, tensor<128xi32, #row>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #row>
    %qq = tt.addptr %qs, %r : tensor<128x!tt.ptr<f32>, #row>, tensor<128xi32, #row>
    %a = tt.load %pp : tensor<128x!tt.ptr<f32>, #row>
    %b = tt.load %qq : tensor<128x!tt.ptr<f32>, #row>
    %j = tt.join %b, %a : tensor<128xf32, #row> -> tensor<128x2xf32, #pair>
    %lo, %hi = tt.split %j : tensor<128x2xf32, #pair> -> tensor<128xf32, #row>
    %d = arith.subf %lo, %hi : tensor<128xf32, #row>
    tt.store %pp, %lo : tensor<128x!tt.ptr<f32>, #row>
    tt.store %qq, %hi : tensor<128x!tt.ptr<f32>, #row>
    tt.store %pp, %d : tensor<128x!tt.ptr<f32>, #row>
    tt.return
  }
}

// -----

// A join whose operands' threads do not line up with the result's is refused at the op (by
// the verifier, as Triton's: the result's layout split is not the operands').
#pair = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#two = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @join_other_threads(%a: f32) {
    %s = tt.splat %a : f32 -> tensor<256xf32, #two>
    // expected-error @below {{incompatible join layout}}
    %j = tt.join %s, %s : tensor<256xf32, #two> -> tensor<256x2xf32, #pair>
    tt.return
  }
}

// -----

// cat (can_reorder): each thread's registers of the first operand, then the second's.
// CHECK-LABEL: llvm.func @cat
// CHECK:         %[[A:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:         %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:         llvm.insertelement %[[A]]
// CHECK:         llvm.insertelement %[[B]]
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#two = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cat(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #row>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #row>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #row>, tensor<128xi32, #row>
    %a = tt.load %pp : tensor<128x!tt.ptr<f32>, #row>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #row>
    %qq = tt.addptr %qs, %r : tensor<128x!tt.ptr<f32>, #row>, tensor<128xi32, #row>
    %b = tt.load %qq : tensor<128x!tt.ptr<f32>, #row>
    %c = tt.cat %a, %b : tensor<128xf32, #row> -> tensor<256xf32, #two>
    %r2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #two>
    %os = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #two>
    %oo = tt.addptr %os, %r2 : tensor<256x!tt.ptr<f32>, #two>, tensor<256xi32, #two>
    tt.store %oo, %c : tensor<256x!tt.ptr<f32>, #two>
    tt.return
  }
}
