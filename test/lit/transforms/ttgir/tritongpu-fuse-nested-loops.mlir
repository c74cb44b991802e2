// RUN: tileopt %s -split-input-file --tritongpu-fuse-nested-loops | FileCheck %s

// A nest marked ttg.always-fuse: for i { x = 4 i; r = for j in [0, 4) { acc + x + j };
// store p[i] = r }. The fused loop runs len_i * max(1, len_j) times with a counter T in
// [0, len_j): T == 0 runs the prologue (i += 1, x = 4 i, j = 0), 0 <= T < len_j the inner
// body (j += 1), T == len_j - 1 the epilogue (the store), which also resets the inner
// accumulator to its initial value for the next i.

// CHECK-LABEL: tt.func @always_fuse
// CHECK: %[[LEN_I:.+]] = arith.ceildivsi
// CHECK: %[[LEN_J:.+]] = arith.ceildivsi
// CHECK: %[[MAXJ:.+]] = arith.maxsi %{{.*}}, %[[LEN_J]] : i32
// CHECK: %[[TOTAL:.+]] = arith.muli %[[LEN_I]], %{{.*}} : i32
// CHECK: %[[FUSED:.+]]:5 = scf.for %{{.*}} = %{{.*}} to %[[TOTAL]] step %{{.*}} iter_args(%[[T:.+]] = %c-1_i32, %[[I:.+]] = %{{.*}}, %[[J:.+]] = %{{.*}}, %[[ACC:.+]] = %c0_i32, %[[X:.+]] = %{{.*}}) -> (i32, i32, i32, i32, i32)
// CHECK: %[[TNEXT:.+]] = arith.select
// CHECK: %[[PRO:.+]]:3 = scf.if %{{.*}} -> (i32, i32, i32) {
// CHECK-NEXT: %[[INEW:.+]] = arith.addi %[[I]], %c1_i32 : i32
// CHECK-NEXT: %[[XNEW:.+]] = arith.muli %[[INEW]], %c4_i32 : i32
// CHECK-NEXT: scf.yield %c0_i32, %[[XNEW]], %[[INEW]] : i32, i32, i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[J]], %[[X]], %[[I]] : i32, i32, i32
// CHECK: %[[BODY:.+]]:2 = scf.if %{{.*}} -> (i32, i32) {
// CHECK-NEXT: %[[Y:.+]] = arith.addi %[[ACC]], %[[PRO]]#1 : i32
// CHECK-NEXT: %[[Z:.+]] = arith.addi %[[Y]], %[[PRO]]#0 : i32
// CHECK-NEXT: %[[JNEXT:.+]] = arith.addi %[[PRO]]#0, %c1_i32 : i32
// CHECK-NEXT: scf.yield %[[JNEXT]], %[[Z]] : i32, i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[PRO]]#0, %[[ACC]] : i32, i32
// CHECK: %[[EPI:.+]] = scf.if %{{.*}} -> (i32) {
// CHECK-NEXT: %[[Q:.+]] = tt.addptr %{{.*}}, %[[PRO]]#2
// CHECK-NEXT: tt.store %[[Q]], %[[BODY]]#1
// CHECK-NEXT: scf.yield %c0_i32 : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[BODY]]#1 : i32
// CHECK: scf.yield %[[TNEXT]], %[[PRO]]#2, %[[BODY]]#0, %[[EPI]], %[[PRO]]#1
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @always_fuse(%ub: i32, %p: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    scf.for %i = %c0 to %ub step %c1 : i32 {
      %x = arith.muli %i, %c4 : i32
      %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
        %y = arith.addi %acc, %x : i32
        %z = arith.addi %y, %j : i32
        scf.yield %z : i32
      }
      %q = tt.addptr %p, %i : !tt.ptr<i32>, i32
      tt.store %q, %r : !tt.ptr<i32>
    } {"ttg.always-fuse"}
    tt.return
  }
}

// -----

// The persistent-matmul shape: an outer loop around one inner loop with a dot. The offset
// computed before the inner loop but only used after it sinks into the epilogue, and the
// inner loop is assumed to run at least once (ttg.must-execute): its body is not guarded.

// CHECK-LABEL: tt.func @persistent
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: %[[PRO:.+]]:2 = scf.if
// CHECK-NEXT: arith.addi
// CHECK-NEXT: scf.yield
// CHECK: %[[TRUE:.+]] = arith.constant true
// CHECK-NEXT: scf.if %[[TRUE]] -> (i32, tensor<16x16xf32, #{{.*}}>) {
// CHECK-NEXT: tt.dot
// CHECK: scf.if
// CHECK-NEXT: arith.muli %[[PRO]]#1, %{{.*}} : i32
// CHECK: tt.store
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @persistent(%ntiles: i32, %k: i32, %a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>>, %bb: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>>, %p: tensor<16x16x!tt.ptr<f32>, #b>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #b>
    scf.for %t = %c0 to %ntiles step %c1 : i32 {
      %off = arith.muli %t, %k : i32
      %acc = scf.for %kk = %c0 to %k step %c1 iter_args(%c = %zero) -> (tensor<16x16xf32, #b>) : i32 {
        %d = tt.dot %a, %bb, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #b}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #b}>> -> tensor<16x16xf32, #b>
        scf.yield %d : tensor<16x16xf32, #b>
      }
      %ps = tt.splat %off : i32 -> tensor<16x16xi32, #b>
      %pp = tt.addptr %p, %ps : tensor<16x16x!tt.ptr<f32>, #b>, tensor<16x16xi32, #b>
      tt.store %pp, %acc : tensor<16x16x!tt.ptr<f32>, #b>
    }
    tt.return
  }
}

// -----

// A nest without a dot (and not marked) is left alone.

// CHECK-LABEL: tt.func @no_dot
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: scf.if
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_dot(%ub: i32, %p: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %ub step %c1 : i32 {
      scf.for %j = %c0 to %ub step %c1 : i32 {
        tt.store %p, %j : !tt.ptr<i32>
      }
    }
    tt.return
  }
}
