// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

// Aligned, contiguous, masked: each thread's 4 consecutive f32 are one predicated 128-bit
// access, the destination registers zeroed first (a masked-off ld leaves them as they were).
// CHECK-LABEL: llvm.func @vec4
// CHECK:         %[[MASK:.*]] = llvm.icmp "slt"
// CHECK:         %[[LD:.*]] = llvm.inline_asm has_side_effects{{.*}} "mov.u32 $0, 0x0;\0A\09mov.u32 $1, 0x0;\0A\09mov.u32 $2, 0x0;\0A\09mov.u32 $3, 0x0;\0A\09@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b" %{{.*}}, %[[MASK]] : (!llvm.ptr<1>, i1) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-4: llvm.extractvalue %[[LD]]
// CHECK:         llvm.fadd
// CHECK:         llvm.inline_asm has_side_effects{{.*}} "@$5 st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l,b"
// CHECK-NOT:     ld.global
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @vec4(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<512xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %x = tt.load %pp, %m : tensor<512x!tt.ptr<f32>, #blocked>
    %y = arith.addf %x, %x : tensor<512xf32, #blocked>
    tt.store %pp, %y, %m : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Without divisibility hints nothing is known about alignment: one b32 access per element.
// The `other` value (-inf) is moved into the destination register before the predicated
// load, as an immediate since it is a constant.
// CHECK-LABEL: llvm.func @scalar_other
// CHECK-COUNT-4: "mov.u32 $0, 0xff800000;\0A\09@$2 ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l,b"
// CHECK-NOT:     ld.global
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scalar_other(%p: !tt.ptr<f32>, %n: i32) {
    %cst = arith.constant dense<0xFF800000> : tensor<512xf32, #blocked>
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<512xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %x = tt.load %pp, %m, %cst : tensor<512x!tt.ptr<f32>, #blocked>
    tt.store %pp, %x : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Integer `other` constants become immediates. Unmasked loads and stores with default
// caching are plain LLVM vector accesses with the vector's alignment.
// CHECK-LABEL: llvm.func @int_other_and_unmasked
// CHECK:         "mov.u32 $0, 0x7;\0A\09mov.u32 $1, 0x7;\0A\09@$3 ld.global.v2.b32 { $0, $1 }, [ $2 + 0 ];"
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<1>
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @int_other_and_unmasked(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %seven = arith.constant dense<7> : tensor<256xi32, #blocked>
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<256xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<256xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<i32>, #blocked>, tensor<256xi32, #blocked>
    %x = tt.load %pp, %m, %seven : tensor<256x!tt.ptr<i32>, #blocked>
    tt.store %pp, %x : tensor<256x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// Eight f16 per thread: 128 bits, four 32-bit words of two halves each.
// Cache modifiers and eviction hints are spelled into the instruction.
// CHECK-LABEL: llvm.func @f16_cache
// CHECK:         @$5 ld.global.cg.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];
// CHECK:         llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// CHECK:         createpolicy.fractional.L2::evict_first.b64 $0, 1.0;
// CHECK:         @$6 st.global.L1::evict_first.L2::cache_hint.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 }, $5;
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f16_cache(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %x = tt.load %pp, %m cacheModifier = cg : tensor<1024x!tt.ptr<f16>, #blocked>
    tt.store %pp, %x, %m evictionPolicy = evict_first : tensor<1024x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// 16 elements over 128 threads: lane bit 4 and both warp bits repeat elements, so only
// threads with those bits zero store (and the store also keeps its mask).
// CHECK-LABEL: llvm.func @redundant_threads
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK-DAG:     %[[LANEBIT:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK-DAG:     %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG:     %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK:         %[[L:.*]] = llvm.icmp "eq"
// CHECK:         %[[W:.*]] = llvm.icmp "eq"
// CHECK:         %[[T:.*]] = llvm.and %[[L]], %[[W]] : i1
// CHECK:         %[[P:.*]] = llvm.and %[[T]], %{{.*}} : i1
// CHECK:         "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b" %{{.*}}, %{{.*}}, %[[P]]
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @redundant_threads(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<16xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<16xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<16x!tt.ptr<f32>, #blocked>, tensor<16xi32, #blocked>
    %v = arith.sitofp %r : tensor<16xi32, #blocked> to tensor<16xf32, #blocked>
    tt.store %pp, %v, %m : tensor<16x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
