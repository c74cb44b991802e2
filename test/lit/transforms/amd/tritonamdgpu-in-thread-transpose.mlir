// RUN: tileopt %s -split-input-file --tritonamdgpu-in-thread-transpose | FileCheck %s

// A dot's A operand loaded M-contiguous (one element per thread, 64 lanes down M): the
// load now holds 4 K-elements per thread (64-bit LDS writes of f16), its pointer and mask
// converted to that layout and its value back; before the local_alloc the value goes to
// that layout and through amdg.in_thread_transpose; the buffer becomes
// amd_rotating_shared with the K-contiguous MFMA swizzle. B is K-contiguous: unchanged.

// CHECK-DAG: #[[WIDE:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [64, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[ROT:.*]] = #ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[T:.*]] = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 16]], lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], warp = {{\[\[}}0, 4], [0, 8]], block = []}>
// CHECK-LABEL: tt.func @m_contiguous_a
// CHECK: %[[P:.*]] = ttg.convert_layout %arg0 : {{.*}} -> tensor<64x32x!tt.ptr<f16>, #[[WIDE]]>
// CHECK: %[[M:.*]] = ttg.convert_layout %arg1 : {{.*}} -> tensor<64x32xi1, #[[WIDE]]>
// CHECK: %[[L:.*]] = tt.load %[[P]], %[[M]] : tensor<64x32x!tt.ptr<f16>, #[[WIDE]]>
// CHECK: %[[BACK:.*]] = ttg.convert_layout %[[L]]
// CHECK: tt.load %arg2
// CHECK: %[[W:.*]] = ttg.convert_layout %[[BACK]] : {{.*}} -> tensor<64x32xf16, #[[WIDE]]>
// CHECK: %[[X:.*]] = amdg.in_thread_transpose %[[W]] : tensor<64x32xf16, #[[WIDE]]> -> tensor<64x32xf16, #[[T]]>
// CHECK: ttg.local_alloc %[[X]] : (tensor<64x32xf16, #[[T]]>) -> !ttg.memdesc<64x32xf16, #[[ROT]], #smem>
// CHECK: ttg.local_alloc %{{.*}} : (tensor<32x64xf16, #{{.*}}>) -> !ttg.memdesc<32x64xf16, #shared
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
#sa = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#sb = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @m_contiguous_a(%pa: tensor<64x32x!tt.ptr<f16>, #a>, %m: tensor<64x32xi1, #a>, %pb: tensor<32x64x!tt.ptr<f16>, #b>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %x = tt.load %pa, %m : tensor<64x32x!tt.ptr<f16>, #a>
    %y = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #b>
    %xs = ttg.local_alloc %x : (tensor<64x32xf16, #a>) -> !ttg.memdesc<64x32xf16, #sa, #smem>
    %xd = ttg.local_load %xs : !ttg.memdesc<64x32xf16, #sa, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %ys = ttg.local_alloc %y : (tensor<32x64xf16, #b>) -> !ttg.memdesc<32x64xf16, #sb, #smem>
    %yd = ttg.local_load %ys : !ttg.memdesc<32x64xf16, #sb, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
    %d = tt.dot %xd, %yd, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// 4 lanes x 4 warps along a K of 16: one K element per thread is all the layout leaves,
// nothing to transpose, nothing changes.

// CHECK-LABEL: tt.func @no_room_along_k
// CHECK-NOT: amdg.in_thread_transpose
// CHECK-NOT: amd_rotating_shared
// CHECK: tt.return
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
#sa = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @no_room_along_k(%pa: tensor<64x16x!tt.ptr<f16>, #a>) -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> {
    %x = tt.load %pa : tensor<64x16x!tt.ptr<f16>, #a>
    %xs = ttg.local_alloc %x : (tensor<64x16xf16, #a>) -> !ttg.memdesc<64x16xf16, #sa, #smem>
    %xd = ttg.local_load %xs : !ttg.memdesc<64x16xf16, #sa, #smem> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    tt.return %xd : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
  }
}

// -----

// A buffer a function returns cannot be followed: left alone.

// CHECK-LABEL: tt.func @escaping_buffer
// CHECK-NOT: amdg.in_thread_transpose
// CHECK: tt.return
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
#sa = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @escaping_buffer(%pa: tensor<64x32x!tt.ptr<f16>, #a>) -> !ttg.memdesc<64x32xf16, #sa, #smem> {
    %x = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #a>
    %xs = ttg.local_alloc %x : (tensor<64x32xf16, #a>) -> !ttg.memdesc<64x32xf16, #sa, #smem>
    %xd = ttg.local_load %xs : !ttg.memdesc<64x32xf16, #sa, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    tt.return %xs : !ttg.memdesc<64x32xf16, #sa, #smem>
  }
}

// -----

// The buffer is carried by a loop that yields it back unchanged (a cycle through the
// iter arg): the network is walked once per value, and the alloc before the loop is
// rewritten as in @m_contiguous_a (the IR Triton 3.6's wheel gives for this input).

// CHECK-LABEL: tt.func @carried_unchanged
// CHECK: %[[X:.*]] = amdg.in_thread_transpose %{{.*}} : tensor<64x32xf16, #{{.*}}> -> tensor<64x32xf16, #[[T:.*]]>
// CHECK: %[[S:.*]] = ttg.local_alloc %[[X]] : (tensor<64x32xf16, #[[T]]>) -> !ttg.memdesc<64x32xf16, #[[ROT:.*]], #smem>
// CHECK: scf.for {{.*}} iter_args(%[[BUF:.*]] = %[[S]], %{{.*}} = %{{.*}}) -> (!ttg.memdesc<64x32xf16, #[[ROT]], #smem>
// CHECK: ttg.local_load %[[BUF]] : !ttg.memdesc<64x32xf16, #[[ROT]], #smem>
// CHECK: scf.yield %[[BUF]], %{{.*}} : !ttg.memdesc<64x32xf16, #[[ROT]], #smem>
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
#sa = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @carried_unchanged(%pa: tensor<64x32x!tt.ptr<f16>, #a>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>, %acc: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %x = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #a>
    %xs = ttg.local_alloc %x : (tensor<64x32xf16, #a>) -> !ttg.memdesc<64x32xf16, #sa, #smem>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%buf = %xs, %c = %acc) -> (!ttg.memdesc<64x32xf16, #sa, #smem>, tensor<64x64xf32, #mma>) : i32 {
      %xd = ttg.local_load %buf : !ttg.memdesc<64x32xf16, #sa, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %d = tt.dot %xd, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
      scf.yield %buf, %d : !ttg.memdesc<64x32xf16, #sa, #smem>, tensor<64x64xf32, #mma>
    }
    tt.return %r#1 : tensor<64x64xf32, #mma>
  }
}

// -----

// The buffer reaches the local_load as an scf.if result: both branches' allocs are
// followed back through the yields, both loads refined and both writes transposed, and
// the if's result takes the rotating layout. (Expected text: Triton 3.6's own output.)

// CHECK-LABEL: tt.func @through_if
// CHECK: %[[BUF:.*]] = scf.if %{{.*}} -> (!ttg.memdesc<64x32xf16, #[[ROT:.*]], #smem>) {
// CHECK:   %[[X:.*]] = amdg.in_thread_transpose %{{.*}} : tensor<64x32xf16, #{{.*}}> -> tensor<64x32xf16, #[[T:.*]]>
// CHECK:   %[[XS:.*]] = ttg.local_alloc %[[X]] : (tensor<64x32xf16, #[[T]]>) -> !ttg.memdesc<64x32xf16, #[[ROT]], #smem>
// CHECK:   scf.yield %[[XS]]
// CHECK: } else {
// CHECK:   %[[Y:.*]] = amdg.in_thread_transpose %{{.*}} : tensor<64x32xf16, #{{.*}}> -> tensor<64x32xf16, #[[T]]>
// CHECK:   %[[YS:.*]] = ttg.local_alloc %[[Y]] : (tensor<64x32xf16, #[[T]]>) -> !ttg.memdesc<64x32xf16, #[[ROT]], #smem>
// CHECK:   scf.yield %[[YS]]
// CHECK: }
// CHECK: ttg.local_load %[[BUF]] : !ttg.memdesc<64x32xf16, #[[ROT]], #smem>
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
#sa = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @through_if(%pa: tensor<64x32x!tt.ptr<f16>, #a>, %qa: tensor<64x32x!tt.ptr<f16>, #a>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>, %acc: tensor<64x64xf32, #mma>, %cond: i1) -> tensor<64x64xf32, #mma> {
    %buf = scf.if %cond -> (!ttg.memdesc<64x32xf16, #sa, #smem>) {
      %x = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #a>
      %xs = ttg.local_alloc %x : (tensor<64x32xf16, #a>) -> !ttg.memdesc<64x32xf16, #sa, #smem>
      scf.yield %xs : !ttg.memdesc<64x32xf16, #sa, #smem>
    } else {
      %y = tt.load %qa : tensor<64x32x!tt.ptr<f16>, #a>
      %ys = ttg.local_alloc %y : (tensor<64x32xf16, #a>) -> !ttg.memdesc<64x32xf16, #sa, #smem>
      scf.yield %ys : !ttg.memdesc<64x32xf16, #sa, #smem>
    }
    %xd = ttg.local_load %buf : !ttg.memdesc<64x32xf16, #sa, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %d = tt.dot %xd, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}
