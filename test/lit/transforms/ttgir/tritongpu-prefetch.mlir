// RUN: tileopt %s -split-input-file --tritongpu-prefetch --triton-version=3.9 | FileCheck %s --check-prefixes=CHECK,V39
// RUN: tileopt %s -split-input-file --tritongpu-prefetch | FileCheck %s --check-prefixes=CHECK,V36

// The pipeliner's loop (Triton 3.9's sm80 shape): each iteration picks a ring buffer with
// an index computed in the body and waits for its copies. K = 32, kWidth 2: slices of 16.
// 3.9: the ring index, the wait and the first K-slice of each operand are rebuilt before
// the loop from the init values and carried (buffers, tokens, slices); the body loads the
// second slice from the carried buffers, multiplies the carried slices first, and the last
// dot sinks below the rest of the body (the counter update) and the next iteration's
// index, waits and first slices. The full-K loads and dot stay, unused.
// 3.6 left such loops alone (its own pass, on 3.9's pipelined matmuls).

// CHECK-LABEL: tt.func @ring
// V39: %[[N0:.+]] = arith.addi %c-1_i32, %c1_i32 : i32
// V39: %[[W0:.+]] = arith.cmpi sge, %[[N0]], %c2_i32 : i32
// V39: %[[J0:.+]] = arith.select %[[W0]], %c0_i32, %[[N0]] : i32
// V39: %[[AV0:.+]] = ttg.memdesc_index %arg2[%[[J0]]]
// V39: %[[T0:.+]] = ttg.async_wait %arg1 {num = 0 : i32}
// V39: %[[AS0:.+]] = ttg.memdesc_subslice %[[AV0]][0, 0] : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x32>
// V39: %[[AH:.+]] = ttg.local_load %[[AS0]] token %[[T0]] : !ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x32> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// V39: %[[BV0:.+]] = ttg.memdesc_index %arg3[%[[J0]]]
// V39: %[[BS0:.+]] = ttg.memdesc_subslice %[[BV0]][0, 0] : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable, 32x64>
// V39: %[[BH:.+]] = ttg.local_load %[[BS0]] token %[[T0]]
// V39: scf.for %[[I:.+]] = %c0_i32 to %arg0 step %c1_i32 iter_args(%[[ACC:.+]] = %cst, %[[IDX:.+]] = %c-1_i32, %[[TOK:.+]] = %arg1, %[[CNT:.+]] = %c0_i32, %[[AV:.+]] = %[[AV0]], %[[BV:.+]] = %[[BV0]], %[[TA:.+]] = %[[T0]], %[[TB:.+]] = %[[T0]], %[[A1:.+]] = %[[AH]], %[[B1:.+]] = %[[BH]])
// V39: %[[NX:.+]] = arith.addi %[[IDX]], %c1_i32
// V39: %[[J:.+]] = arith.select
// V39: %[[WT:.+]] = ttg.async_wait %[[TOK]] {num = 0 : i32}
// V39: ttg.local_load %{{.+}} token %[[WT]] : !ttg.memdesc<64x32xf16
// V39: ttg.local_load %{{.+}} token %[[WT]] : !ttg.memdesc<32x64xf16
// V39: tt.dot %{{.+}}, %{{.+}}, %[[ACC]] : tensor<64x32xf16
// V39: %[[AS:.+]] = ttg.memdesc_subslice %[[AV]][0, 16] : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x32>
// V39: %[[A2:.+]] = ttg.local_load %[[AS]] token %[[TA]]
// V39: %[[BS:.+]] = ttg.memdesc_subslice %[[BV]][16, 0] : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable, 32x64>
// V39: %[[B2:.+]] = ttg.local_load %[[BS]] token %[[TB]]
// V39: %[[D1:.+]] = tt.dot %[[A1]], %[[B1]], %[[ACC]] : tensor<64x16xf16
// V39: %[[CNT1:.+]] = arith.addi %[[CNT]], %c1_i32
// V39: %[[NA:.+]] = arith.addi %[[J]], %c1_i32
// V39: %[[JA:.+]] = arith.select
// V39: %[[AVN:.+]] = ttg.memdesc_index %arg2[%[[JA]]]
// V39: %[[NB:.+]] = arith.addi %[[J]], %c1_i32
// V39: %[[JB:.+]] = arith.select
// V39: %[[BVN:.+]] = ttg.memdesc_index %arg3[%[[JB]]]
// V39: %[[TAN:.+]] = ttg.async_wait %[[WT]] {num = 0 : i32}
// V39: %[[TBN:.+]] = ttg.async_wait %[[WT]] {num = 0 : i32}
// V39: %[[ASN:.+]] = ttg.memdesc_subslice %[[AVN]][0, 0]
// V39: %[[AN:.+]] = ttg.local_load %[[ASN]] token %[[TAN]]
// V39: %[[BSN:.+]] = ttg.memdesc_subslice %[[BVN]][0, 0]
// V39: %[[BN:.+]] = ttg.local_load %[[BSN]] token %[[TBN]]
// V39: %[[D2:.+]] = tt.dot %[[A2]], %[[B2]], %[[D1]] : tensor<64x16xf16
// V39: scf.yield %[[D2]], %[[J]], %[[WT]], %[[CNT1]], %[[AVN]], %[[BVN]], %[[TAN]], %[[TBN]], %[[AN]], %[[BN]] :
// V36-NOT: ttg.memdesc_subslice
// V36: scf.yield %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<64x64xf32, #mma>, i32, !ttg.async.token, i32
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @ring(%n: i32, %t0: !ttg.async.token, %a: !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>, %b: !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %cm1 = arith.constant -1 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %idx = %cm1, %tok = %t0, %cnt = %c0) -> (tensor<64x64xf32, #mma>, i32, !ttg.async.token, i32) : i32 {
      %next = arith.addi %idx, %c1 : i32
      %wrap = arith.cmpi sge, %next, %c2 : i32
      %j = arith.select %wrap, %c0, %next : i32
      %w = ttg.async_wait %tok {num = 0 : i32}
      %av = ttg.memdesc_index %a[%j] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      %x = ttg.local_load %av token %w : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %bv = ttg.memdesc_index %b[%j] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
      %y = ttg.local_load %bv token %w : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %x, %y, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %cnt1 = arith.addi %cnt, %c1 : i32
      scf.yield %d, %j, %w, %cnt1 : tensor<64x64xf32, #mma>, i32, !ttg.async.token, i32
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// Loop-carried buffers (what 3.6's pass took; both versions do the same, as Triton 3.6's
// own pass does on this input): no token, the buffers are iter args already. The op that
// uses the dot's result stops the sinking: the last dot comes before it.

// CHECK-LABEL: tt.func @carried
// CHECK: %[[AS0:.+]] = ttg.memdesc_subslice %arg1[0, 0] : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x32>
// CHECK: %[[AH:.+]] = ttg.local_load %[[AS0]] : !ttg.memdesc<64x16xf16
// CHECK: %[[BS0:.+]] = ttg.memdesc_subslice %arg2[0, 0]
// CHECK: %[[BH:.+]] = ttg.local_load %[[BS0]] : !ttg.memdesc<16x64xf16
// CHECK: scf.for %[[I:.+]] = %c0_i32 to %arg0 step %c1_i32 iter_args(%[[ACC:.+]] = %cst, %[[AV:.+]] = %arg1, %[[BV:.+]] = %arg2, %[[A1:.+]] = %[[AH]], %[[B1:.+]] = %[[BH]])
// CHECK: tt.dot %{{.+}}, %{{.+}}, %[[ACC]] : tensor<64x32xf16
// CHECK: %[[AS:.+]] = ttg.memdesc_subslice %[[AV]][0, 16]
// CHECK: %[[A2:.+]] = ttg.local_load %[[AS]] :
// CHECK: %[[BS:.+]] = ttg.memdesc_subslice %[[BV]][16, 0]
// CHECK: %[[B2:.+]] = ttg.local_load %[[BS]] :
// CHECK: %[[D1:.+]] = tt.dot %[[A1]], %[[B1]], %[[ACC]]
// CHECK-NEXT: %[[D2:.+]] = tt.dot %[[A2]], %[[B2]], %[[D1]]
// CHECK-NEXT: %[[E:.+]] = arith.mulf %[[D2]], %[[D2]]
// CHECK-NEXT: %[[AVN:.+]] = ttg.memdesc_index %arg3[%[[I]]]
// CHECK-NEXT: %[[BVN:.+]] = ttg.memdesc_index %arg4[%[[I]]]
// CHECK-NEXT: %[[ASN:.+]] = ttg.memdesc_subslice %[[AVN]][0, 0]
// CHECK-NEXT: %[[AN:.+]] = ttg.local_load %[[ASN]] :
// CHECK-NEXT: %[[BSN:.+]] = ttg.memdesc_subslice %[[BVN]][0, 0]
// CHECK-NEXT: %[[BN:.+]] = ttg.local_load %[[BSN]] :
// CHECK-NEXT: scf.yield %[[E]], %[[AVN]], %[[BVN]], %[[AN]], %[[BN]] :
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @carried(%n: i32, %a0: !ttg.memdesc<64x32xf16, #shared, #smem, mutable>, %b0: !ttg.memdesc<32x64xf16, #shared, #smem, mutable>, %a: !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>, %b: !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %av = %a0, %bv = %b0) -> (tensor<64x64xf32, #mma>, !ttg.memdesc<64x32xf16, #shared, #smem, mutable>, !ttg.memdesc<32x64xf16, #shared, #smem, mutable>) : i32 {
      %x = ttg.local_load %av : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y = ttg.local_load %bv : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %x, %y, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %e = arith.mulf %d, %d : tensor<64x64xf32, #mma>
      %an = ttg.memdesc_index %a[%i] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
      %bn = ttg.memdesc_index %b[%i] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
      scf.yield %e, %an, %bn : tensor<64x64xf32, #mma>, !ttg.memdesc<64x32xf16, #shared, #smem, mutable>, !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// K is one slice: no remainder. The dot takes the carried slices and goes last, after the
// next iteration's buffers and their loads (as Triton 3.6's own pass does here).

// CHECK-LABEL: tt.func @one_slice
// CHECK: scf.for %[[I:.+]] = %c0_i32 to %arg0 step %c1_i32 iter_args(%[[ACC:.+]] = %cst, %[[AV:.+]] = %arg1, %[[BV:.+]] = %arg2, %[[A1:.+]] = %{{.+}}, %[[B1:.+]] = %{{.+}})
// CHECK: %[[AVN:.+]] = ttg.memdesc_index %arg3[%[[I]]]
// CHECK: %[[BVN:.+]] = ttg.memdesc_index %arg4[%[[I]]]
// CHECK: %[[AN:.+]] = ttg.local_load %{{.+}} : !ttg.memdesc<64x16xf16, #shared, #smem, mutable> -> tensor<64x16xf16
// CHECK: %[[BN:.+]] = ttg.local_load %{{.+}} : !ttg.memdesc<16x64xf16, #shared, #smem, mutable> -> tensor<16x64xf16
// CHECK-NEXT: %[[D:.+]] = tt.dot %[[A1]], %[[B1]], %[[ACC]]
// CHECK-NEXT: scf.yield %[[D]], %[[AVN]], %[[BVN]], %[[AN]], %[[BN]] :
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @one_slice(%n: i32, %a0: !ttg.memdesc<64x16xf16, #shared, #smem, mutable>, %b0: !ttg.memdesc<16x64xf16, #shared, #smem, mutable>, %a: !ttg.memdesc<2x64x16xf16, #shared, #smem, mutable>, %b: !ttg.memdesc<2x16x64xf16, #shared, #smem, mutable>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %av = %a0, %bv = %b0) -> (tensor<64x64xf32, #mma>, !ttg.memdesc<64x16xf16, #shared, #smem, mutable>, !ttg.memdesc<16x64xf16, #shared, #smem, mutable>) : i32 {
      %x = ttg.local_load %av : !ttg.memdesc<64x16xf16, #shared, #smem, mutable> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y = ttg.local_load %bv : !ttg.memdesc<16x64xf16, #shared, #smem, mutable> -> tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %x, %y, %acc : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %an = ttg.memdesc_index %a[%i] : !ttg.memdesc<2x64x16xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable>
      %bn = ttg.memdesc_index %b[%i] : !ttg.memdesc<2x16x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
      scf.yield %d, %an, %bn : tensor<64x64xf32, #mma>, !ttg.memdesc<64x16xf16, #shared, #smem, mutable>, !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// Two dots in the loop: left alone.

// CHECK-LABEL: tt.func @two_dots
// CHECK-NOT: ttg.memdesc_subslice
// CHECK: scf.yield %{{.+}}, %{{.+}}, %{{.+}} : tensor<64x64xf32, #mma>,
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_dots(%n: i32, %a0: !ttg.memdesc<64x32xf16, #shared, #smem, mutable>, %b0: !ttg.memdesc<32x64xf16, #shared, #smem, mutable>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %av = %a0, %bv = %b0) -> (tensor<64x64xf32, #mma>, !ttg.memdesc<64x32xf16, #shared, #smem, mutable>, !ttg.memdesc<32x64xf16, #shared, #smem, mutable>) : i32 {
      %x = ttg.local_load %av : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y = ttg.local_load %bv : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %x, %y, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %x2 = ttg.local_load %av : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y2 = ttg.local_load %bv : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %e = tt.dot %x2, %y2, %d : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      scf.yield %e, %av, %bv : tensor<64x64xf32, #mma>, !ttg.memdesc<64x32xf16, #shared, #smem, mutable>, !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}
