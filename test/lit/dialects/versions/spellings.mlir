// RUN: tileopt %s -split-input-file | FileCheck %s --check-prefixes=CHECK,AS-READ
// RUN: tileopt %s -split-input-file --triton-version=3.6 | FileCheck %s --check-prefixes=CHECK,V36
// RUN: tileopt %s -split-input-file --triton-version=3.9 | FileCheck %s --check-prefixes=CHECK,V39
// RUN: not tileopt %s -split-input-file --triton-version=3.7 2>&1 | FileCheck %s --check-prefix=BAD
// The text Triton 3.6 and 3.9 spell differently: each is read in either spelling and
// printed as the module's version writes it (the input's own spelling without
// --triton-version; docs/triton-versions.md).

// BAD: error: --triton-version: unsupported Triton version '3.7' (supported: 3.6, 3.9)

// 3.6's buffer ops give the data type only, 3.9's the pointer type too.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: tt.func @buffer_ops_36
  tt.func @buffer_ops_36(%p: !tt.ptr<f32>, %o: tensor<1024xi32, #blocked>, %m: tensor<1024xi1, #blocked>) {
    // AS-READ: amdg.buffer_load %{{.+}}[%{{.+}}], %{{.+}} : tensor<1024xf32, #blocked>
    // V36: amdg.buffer_load %{{.+}}[%{{.+}}], %{{.+}} : tensor<1024xf32, #blocked>
    // V39: amdg.buffer_load %{{.+}}[%{{.+}}], %{{.+}} : !tt.ptr<f32> -> tensor<1024xf32, #blocked>
    %x = amdg.buffer_load %p[%o], %m : tensor<1024xf32, #blocked>
    // AS-READ: amdg.buffer_store %{{.+}}, %{{.+}}[%{{.+}}] : tensor<1024xf32, #blocked>
    // V39: amdg.buffer_store %{{.+}}, %{{.+}}[%{{.+}}] : !tt.ptr<f32> -> tensor<1024xf32, #blocked>
    amdg.buffer_store %x, %p[%o] : tensor<1024xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: tt.func @buffer_ops_39
  tt.func @buffer_ops_39(%p: !tt.ptr<f32>, %o: tensor<1024xi32, #blocked>) {
    // AS-READ: amdg.buffer_load %{{.+}}[%{{.+}}] : !tt.ptr<f32> -> tensor<1024xf32, #blocked>
    // V36: amdg.buffer_load %{{.+}}[%{{.+}}] : tensor<1024xf32, #blocked>
    // V39: amdg.buffer_load %{{.+}}[%{{.+}}] : !tt.ptr<f32> -> tensor<1024xf32, #blocked>
    %x = amdg.buffer_load %p[%o] : !tt.ptr<f32> -> tensor<1024xf32, #blocked>
    // AS-READ: amdg.buffer_atomic_rmw fadd, acq_rel, gpu, %{{.+}}, %{{.+}}[%{{.+}}] : !tt.ptr<f32> -> tensor<1024xf32, #blocked>
    // V36: amdg.buffer_atomic_rmw fadd, acq_rel, gpu, %{{.+}}, %{{.+}}[%{{.+}}] : tensor<1024xf32, #blocked>
    %y = amdg.buffer_atomic_rmw fadd, acq_rel, gpu, %x, %p[%o] : !tt.ptr<f32> -> tensor<1024xf32, #blocked>
    tt.return
  }
}

// -----

// #ttg.amd_wmma: 3.6 writes warpsPerCTA, 3.9 the warp bases of its CTA layout, fastest
// (last) dimension first.
// AS-READ: #mma = #ttg.amd_wmma<{version = 1, isTranspose = true, ctaLayout = {warp = {{\[\[}}0, 1], [0, 2], [1, 0]]}}>
// V36: #mma = #ttg.amd_wmma<{version = 1, isTranspose = true, warpsPerCTA = [2, 4]}>
// V39: #mma = #ttg.amd_wmma<{version = 1, isTranspose = true, ctaLayout = {warp = {{\[\[}}0, 1], [0, 2], [1, 0]]}}>
#mma = #ttg.amd_wmma<{version = 1, isTranspose = true, ctaLayout = {warp = [[0, 1], [0, 2], [1, 0]]}}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @wmma
  tt.func @wmma(%x: tensor<32x64xf32, #mma>) -> tensor<32x64xf32, #mma> {
    tt.return %x : tensor<32x64xf32, #mma>
  }
}

// -----

// AS-READ: #mma = #ttg.amd_wmma<{version = 1, isTranspose = true, warpsPerCTA = [2, 2]}>
// V39: #mma = #ttg.amd_wmma<{version = 1, isTranspose = true, ctaLayout = {warp = {{\[\[}}0, 1], [1, 0]]}}>
#mma = #ttg.amd_wmma<{version = 1, isTranspose = true, warpsPerCTA = [2, 2]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @wmma_36
  tt.func @wmma_36(%x: tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #mma> {
    tt.return %x : tensor<32x32xf32, #mma>
  }
}

// -----

// Tensor descriptors: 3.6 wraps the block in tensor<...>, 3.9 writes its shape alone.
module {
  // CHECK-LABEL: tt.func @descriptors
  tt.func @descriptors(%a: !tt.ptr<f16>, %m: i32, %k: i32, %s: i64, %i: i32) -> tensor<128x64xf16> {
    %c1 = arith.constant 1 : i64
    // AS-READ: tt.make_tensor_descriptor %{{.+}}, [%{{.+}}, %{{.+}}], [%{{.+}}, %{{.+}}] : <f16>, <128x64xf16>
    // V36: tt.make_tensor_descriptor %{{.+}}, [%{{.+}}, %{{.+}}], [%{{.+}}, %{{.+}}] : <f16>, <tensor<128x64xf16>>
    %d = tt.make_tensor_descriptor %a, [%m, %k], [%s, %c1] : <f16>, <128x64xf16>
    // AS-READ: tt.descriptor_load %{{.+}}[%{{.+}}, %{{.+}}] : !tt.tensordesc<128x64xf16> -> tensor<128x64xf16>
    // V36: tt.descriptor_load %{{.+}}[%{{.+}}, %{{.+}}] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16>
    // V39: tt.descriptor_load %{{.+}}[%{{.+}}, %{{.+}}] : !tt.tensordesc<128x64xf16> -> tensor<128x64xf16>
    %x = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<128x64xf16> -> tensor<128x64xf16>
    tt.return %x : tensor<128x64xf16>
  }
}

// -----

// rocdl.sched.barrier: a number in 3.6, the mask's names in 3.9 (a mask with bits that
// have no name stays a number).
module {
  // CHECK-LABEL: tt.func @sched_barrier
  tt.func @sched_barrier() {
    // AS-READ: rocdl.sched.barrier 0
    // AS-READ-NEXT: rocdl.sched.barrier 6
    // V36: rocdl.sched.barrier 0
    // V36-NEXT: rocdl.sched.barrier 6
    // V39: rocdl.sched.barrier none
    // V39-NEXT: rocdl.sched.barrier valu|salu
    // V39-NEXT: rocdl.sched.barrier 4096
    rocdl.sched.barrier 0
    rocdl.sched.barrier 6
    rocdl.sched.barrier 4096
    tt.return
  }
}

// -----

module {
  // CHECK-LABEL: tt.func @sched_barrier_39
  tt.func @sched_barrier_39() {
    // AS-READ: rocdl.sched.barrier none
    // AS-READ-NEXT: rocdl.sched.barrier non_mem_non_sideeffect|mfma_wmma
    // V36: rocdl.sched.barrier 0
    // V36-NEXT: rocdl.sched.barrier 9
    rocdl.sched.barrier none
    rocdl.sched.barrier mfma_wmma|non_mem_non_sideeffect
    tt.return
  }
}

// -----

// A module attribute only 3.9 writes shows the version too.
// AS-READ: "ttng.two-ctas" = false
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32, "ttng.two-ctas" = false} {
  // CHECK-LABEL: tt.func @two_ctas
  tt.func @two_ctas(%p: !tt.ptr<f32>, %o: tensor<64xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>) {
    // AS-READ: amdg.buffer_load %{{.+}}[%{{.+}}] : !tt.ptr<f32> -> tensor<64xf32
    %x = amdg.buffer_load %p[%o] : tensor<64xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>
    tt.return
  }
}
