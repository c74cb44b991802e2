// A bf16 atomic add on sm_80, which PTX lacks (atom.add.noftz.bf16 needs sm_90): the
// lowering's LLVM atomicrmw becomes a compare-and-swap loop that ptxas takes for sm_80.
// REQUIRES: ptxas
// RUN: tileopt %s --convert-triton-gpu-to-llvm | tileopt-translate --emit=ptx --arch=sm_80 -o %t.ptx
// RUN: ptxas -arch=sm_80 %t.ptx -o %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// CHECK-NOT: add.noftz.bf16
// CHECK:     atom.acq_rel.gpu.global.cas.b32
// CHECK-NOT: add.noftz.bf16

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rmw_bf16(%p: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %out: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<bf16> -> tensor<128x!tt.ptr<bf16>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<bf16>, #blocked>, tensor<128xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<128xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #blocked>
    %v = arith.constant dense<1.0> : tensor<128xbf16, #blocked>
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %pp, %v, %m : (tensor<128x!tt.ptr<bf16>, #blocked>, tensor<128xbf16, #blocked>, tensor<128xi1, #blocked>) -> tensor<128xbf16, #blocked>
    %os = tt.splat %out : !tt.ptr<bf16> -> tensor<128x!tt.ptr<bf16>, #blocked>
    %oo = tt.addptr %os, %r : tensor<128x!tt.ptr<bf16>, #blocked>, tensor<128xi32, #blocked>
    tt.store %oo, %old : tensor<128x!tt.ptr<bf16>, #blocked>
    tt.return
  }
}

