// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

// One atom per element, predicated by the mask; the returned old values are used.
// CHECK-LABEL: llvm.func @rmw_used
// CHECK-COUNT-2: "mov.u32 $0, 0x0;\0A\09@$3 atom.global.gpu.acq_rel.add.u32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"
// CHECK-NOT:     atom.global
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rmw_used(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<256xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<256xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<i32>, #blocked>, tensor<256xi32, #blocked>
    %one = arith.constant dense<1> : tensor<256xi32, #blocked>
    %old = tt.atomic_rmw add, acq_rel, gpu, %pp, %one, %m : (tensor<256x!tt.ptr<i32>, #blocked>, tensor<256xi32, #blocked>, tensor<256xi1, #blocked>) -> tensor<256xi32, #blocked>
    tt.store %pp, %old : tensor<256x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// Unused result, relaxed: a `red` (nothing comes back). f32 adds say add.f32.
// CHECK-LABEL: llvm.func @rmw_red
// CHECK-COUNT-2: "@$2 red.global.gpu.relaxed.add.f32 [ $0 + 0 ], $1;", "l,r,b"
// CHECK-NOT:     atom.global
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rmw_red(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<256xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<256xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %v = arith.constant dense<0.5> : tensor<256xf32, #blocked>
    %old = tt.atomic_rmw fadd, relaxed, gpu, %pp, %v, %m : (tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xf32, #blocked>, tensor<256xi1, #blocked>) -> tensor<256xf32, #blocked>
    tt.return
  }
}

// -----

// A scalar compare-and-swap: one thread (thread 0) does it, and shares the old value
// with the whole block through shared memory.
// CHECK-LABEL: llvm.func @cas_scalar
// CHECK:         %[[T0:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK:         %[[OLD:.*]] = llvm.inline_asm has_side_effects "mov.u32 $0, 0x0;\0A\09@$4 atom.global.acquire.gpu.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r,b" %{{.*}}, %{{.*}}, %{{.*}}, %[[T0]]
// CHECK:         "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %{{.*}}, %[[OLD]], %[[T0]]
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NEXT:    llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cas_scalar(%lock: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %old = tt.atomic_cas acquire, gpu, %lock, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
    tt.store %out, %old : !tt.ptr<i32>
    tt.return
  }
}
