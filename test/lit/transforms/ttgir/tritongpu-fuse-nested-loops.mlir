// RUN: tileopt %s -split-input-file --tritongpu-fuse-nested-loops | FileCheck %s

// Expected text: Triton 3.6.0's own tritongpu-fuse-nested-loops on the same inputs (its
// output and tileopt's are the same line for line).

// A nest marked ttg.always-fuse: for i { x = 4 i; r = for j in [0, 4) { acc + x + j };
// store p[i] = r }. The fused loop runs len_i * max(1, len_j) times with a counter T
// (from 0): T == 0 runs the prologue (i += 1, x = 4 i, j = 0), 0 <= T < len_j the inner
// body (j += 1), T == inner_len - 1 the epilogue (the store, which also resets the inner
// accumulator), and T rolls over at the end. The inner length and inner_len are carried
// too; a loop over the outer range first sums the lengths of outer-variant inner loops
// (none here: it passes the product through).

// CHECK-LABEL: tt.func @always_fuse
// CHECK: arith.ceildivsi
// CHECK: %[[LEN_J:[^ ,:)]+]] = arith.ceildivsi
// CHECK: %[[INNER:[^ ,:)]+]] = arith.subi %{{.+}}, %c0_i32_2 : i32
// CHECK-NEXT: %[[PRODUCT:[^ ,:)]+]] = arith.muli %{{.+}}, %[[INNER]] : i32
// CHECK-NEXT: %[[TOTAL:[^ ,:)]+]] = scf.for %{{.+}} = %c0_i32 to %arg0 step %c1_i32 iter_args(%[[SUM:[^ ,:)]+]] = %[[PRODUCT]]) -> (i32)  : i32 {
// CHECK-NEXT: scf.yield %[[SUM]] : i32
// CHECK: %[[I0:[^ ,:)]+]] = arith.subi %c0_i32, %c1_i32 : i32
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[TOTAL]] step %{{.+}} iter_args(%[[T:[^ ,:)]+]] = %c0_i32_3, %[[I:[^ ,:)]+]] = %[[I0]], %[[LJ:[^ ,:)]+]] = %[[LEN_J]], %[[IL:[^ ,:)]+]] = %[[INNER]], %[[J:[^ ,:)]+]] = %c0_i32_4, %[[ACC:[^ ,:)]+]] = %c0_i32, %[[X:[^ ,:)]+]] = %c0_i32_6) -> (i32, i32, i32, i32, i32, i32, i32)  : i32 {
// CHECK: %[[START:[^ ,:)]+]] = arith.subi
// CHECK-NEXT: %[[IS_PRO:[^ ,:)]+]] = arith.cmpi eq, %[[T]], %[[START]] : i32
// CHECK-NEXT: %[[PRO:[^ ,:)]+]]:5 = scf.if %[[IS_PRO]] -> (i32, i32, i32, i32, i32) {
// CHECK-NEXT: %[[INEW:[^ ,:)]+]] = arith.addi %[[I]], %c1_i32 : i32
// CHECK-NEXT: %[[XNEW:[^ ,:)]+]] = arith.muli %[[INEW]], %c4_i32 : i32
// CHECK-NEXT: scf.yield %c0_i32, %[[XNEW]], %[[INEW]], %[[LJ]], %[[INNER]] : i32, i32, i32, i32, i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[J]], %[[X]], %[[I]], %[[LJ]], %[[INNER]] : i32, i32, i32, i32, i32
// CHECK: %[[BODY:[^ ,:)]+]]:2 = scf.if %{{.+}} -> (i32, i32) {
// CHECK-NEXT: %[[Y:[^ ,:)]+]] = arith.addi %[[ACC]], %[[PRO]]#1 : i32
// CHECK-NEXT: %[[Z:[^ ,:)]+]] = arith.addi %[[Y]], %[[PRO]]#0 : i32
// CHECK-NEXT: %[[JNEXT:[^ ,:)]+]] = arith.addi %[[PRO]]#0, %c1_i32 : i32
// CHECK-NEXT: scf.yield %[[JNEXT]], %[[Z]] : i32, i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[PRO]]#0, %[[ACC]] : i32, i32
// CHECK: %[[LAST:[^ ,:)]+]] = arith.subi %[[PRO]]#4, %c1_i32_11 : i32
// CHECK-NEXT: %[[IS_EPI:[^ ,:)]+]] = arith.cmpi eq, %[[T]], %[[LAST]] : i32
// CHECK-NEXT: %[[EPI:[^ ,:)]+]] = scf.if %[[IS_EPI]] -> (i32) {
// CHECK-NEXT: %[[Q:[^ ,:)]+]] = tt.addptr %arg1, %[[PRO]]#2
// CHECK-NEXT: tt.store %[[Q]], %[[BODY]]#1
// CHECK-NEXT: scf.yield %c0_i32 : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[BODY]]#1 : i32
// CHECK: %[[TINC:[^ ,:)]+]] = arith.addi %[[T]], %c1_i32_12 : i32
// CHECK: %[[ROLL:[^ ,:)]+]] = arith.cmpi eq, %[[T]], %{{.+}} : i32
// CHECK: %[[TNEXT:[^ ,:)]+]] = arith.select %[[ROLL]], %c0_i32_14, %[[TINC]] : i32
// CHECK-NEXT: scf.yield %[[TNEXT]], %[[PRO]]#2, %[[PRO]]#3, %[[PRO]]#4, %[[BODY]]#0, %[[EPI]], %[[PRO]]#1
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

// An outer loop around one inner loop with a dot, not marked tt.flatten, is left alone
// (Triton 3.6 fuses only what the frontend marked).

// CHECK-LABEL: tt.func @persistent
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: scf.if
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

// Marked tt.flatten: the offset computed before the inner loop but only used after it
// sinks into the epilogue; the inner loop must run at least once (ttg.must-execute: its
// body runs under `true`), so its length is tested before the nest: at 0 a copy of the
// nest without the inner loop runs instead.

// CHECK-LABEL: tt.func @flatten_speculate
// CHECK: %[[LEN:[^ ,:)]+]] = arith.ceildivsi
// CHECK-NEXT: %[[ZERO:[^ ,:)]+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[EMPTY:[^ ,:)]+]] = arith.cmpi eq, %[[LEN]], %[[ZERO]] : i32
// CHECK-NEXT: %[[R:[^ ,:)]+]] = scf.if %[[EMPTY]] -> (i32) {
// CHECK-NEXT: %[[COPY:[^ ,:)]+]] = scf.for
// CHECK-NEXT: arith.muli
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.store
// CHECK-NEXT: arith.addi
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {tt.flatten}
// CHECK-NEXT: scf.yield %[[COPY]] : i32
// CHECK-NEXT: } else {
// CHECK: %[[FUSED:[^ ,:)]+]]:6 = scf.for
// CHECK: %[[TRUE:[^ ,:)]+]] = arith.constant true
// CHECK-NEXT: scf.if %[[TRUE]] -> (i32) {
// CHECK-NEXT: tt.store %arg2
// CHECK: scf.if %{{.+}} -> (i32) {
// CHECK-NEXT: arith.muli %{{.+}}#1, %arg1 : i32
// CHECK: scf.yield %[[FUSED]]#2 : i32
// CHECK: tt.return %[[R]] : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @flatten_speculate(%ntiles: i32, %k: i32, %p: !tt.ptr<i32>) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %done = scf.for %t = %c0 to %ntiles step %c1 iter_args(%n = %c0) -> (i32) : i32 {
      %off = arith.muli %t, %k : i32
      scf.for %kk = %c0 to %k step %c1  : i32 {
        tt.store %p, %kk : !tt.ptr<i32>
        scf.yield
      }
      %q = tt.addptr %p, %off : !tt.ptr<i32>, i32
      tt.store %q, %off : !tt.ptr<i32>
      %n1 = arith.addi %n, %c1 : i32
      scf.yield %n1 : i32
    } {tt.flatten}
    tt.return %done : i32
  }
}

// -----

// A nest without tt.flatten (and not marked ttg.always-fuse) is left alone.

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
