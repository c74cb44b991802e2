// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s
// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm="compute-capability=90 ptx-version=87" | FileCheck %s --check-prefix=SM90
// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm="compute-capability=90 ptx-version=80" | FileCheck %s --check-prefix=PTX80

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
// CHECK:         %[[OLD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mov.u32 $0, 0x0;\0A\09@$4 atom.global.acquire.gpu.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r,b" %{{.*}}, %{{.*}}, %{{.*}}, %[[T0]]
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

// -----

// A float add over consecutive elements of one thread: before sm_90 one `red` per element;
// from sm_90 one vector atom per 128 bits (Triton's spelling; the old values come back
// though unused): four f32, eight f16.
// CHECK-LABEL: llvm.func @rmw_vector
// CHECK-COUNT-8: "red.global.gpu.relaxed.add.f32 [ $0 + 0 ], $1;", "l,r"
// CHECK-COUNT-8: "red.global.gpu.relaxed.add.noftz.f16 [ $0 + 0 ], $1;", "l,h"
// CHECK-NOT:     atom.global
// SM90-LABEL: llvm.func @rmw_vector
// SM90-COUNT-2: "atom.global.gpu.relaxed.add.v4.f32 { $0, $1, $2, $3 }, [ $4 + 0 ], { $5, $6, $7, $8 };", "=r,=r,=r,=r,l,r,r,r,r"
// SM90:         "atom.global.gpu.relaxed.add.noftz.v8.f16 { $0, $1, $2, $3, $4, $5, $6, $7 }, [ $8 + 0 ], { $9, $10, $11, $12, $13, $14, $15, $16 };", "=h,=h,=h,=h,=h,=h,=h,=h,l,h,h,h,h,h,h,h,h"
// SM90-NOT:     red.global
// SM90-NOT:     atom.global
// Vector atomics need PTX 8.1 too (Triton 3.6: sm_90 with PTX 8.0 adds one element, or
// two f16, per instruction).
// PTX80-LABEL: llvm.func @rmw_vector
// PTX80-NOT:     .v4.f32
// PTX80-NOT:     .v8.f16
// PTX80:         llvm.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rmw_vector(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = arith.constant dense<0.5> : tensor<1024xf32, #blocked>
    %old = tt.atomic_rmw fadd, relaxed, gpu, %pp, %v : (tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xf32, #blocked>) -> tensor<1024xf32, #blocked>
    %qs = tt.splat %q : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %qq = tt.addptr %qs, %r : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %h = arith.constant dense<0.5> : tensor<1024xf16, #blocked>
    %old16 = tt.atomic_rmw fadd, relaxed, gpu, %qq, %h : (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>) -> tensor<1024xf16, #blocked>
    tt.return
  }
}

// -----

// A bf16 add: PTX has it from sm_90 on; before, LLVM's atomicrmw in a branch where the
// mask holds (a CAS loop in the PTX: test/lit/target/atomic-bf16-sm80.mlir), as Triton
// 3.6 lowers it (which decides by the module's ttg.target; tileopt by the pass option).
// CHECK-LABEL: llvm.func @rmw_bf16
// CHECK:         llvm.cond_br %{{.*}}, ^[[RMW:bb[0-9]+]], ^[[JOIN:bb[0-9]+]](%{{.*}} : bf16)
// CHECK:       ^[[RMW]]:
// CHECK-NEXT:    %[[OLD:.*]] = llvm.atomicrmw fadd %{{.*}}, %{{.*}} syncscope("device") acq_rel : !llvm.ptr<1>, bf16
// CHECK-NEXT:    llvm.br ^[[JOIN]](%[[OLD]] : bf16)
// CHECK-NOT:     atom.global
// SM90-LABEL: llvm.func @rmw_bf16
// SM90:         "mov.u16 $0, 0x0;\0A\09@$3 atom.global.gpu.acq_rel.add.noftz.bf16 $0, [ $1 + 0 ], $2;", "=h,l,h,b"
// SM90-NOT:     llvm.atomicrmw
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
