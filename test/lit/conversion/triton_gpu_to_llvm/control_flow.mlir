// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s
// RUN: tileopt %s -split-input-file --convert-scf-to-cf --convert-triton-gpu-to-llvm | FileCheck %s --check-prefix=CF

// A loop carrying a tensor: one block argument per register (4 here) besides the
// induction variable; the loop test is a signed compare, the back edge adds the step.
// CHECK-LABEL: llvm.func @loop
// CHECK:         llvm.br ^[[HEAD:.*]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, f32, f32, f32, f32)
// CHECK:       ^[[HEAD]](%[[IV:.*]]: i32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK:         %[[C:.*]] = llvm.icmp "slt" %[[IV]], %arg1 : i32
// CHECK:         llvm.cond_br %[[C]], ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK:       ^[[BODY]]:
// CHECK-COUNT-4: llvm.fadd
// CHECK:         %[[NEXT:.*]] = llvm.add %[[IV]], %{{.*}} : i32
// CHECK:         llvm.br ^[[HEAD]](%[[NEXT]], {{.*}} : i32, f32, f32, f32, f32)
// CHECK:       ^[[EXIT]]:
// CF-LABEL:    llvm.func @loop
// CF:            llvm.br ^{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, f32, f32, f32, f32)
// CF:            llvm.cond_br
// CF-COUNT-4:    llvm.fadd
// CF-NOT:        cf.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @loop(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<512xf32, #blocked>
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<512xf32, #blocked>) : i32 {
      %x = tt.load %pp : tensor<512x!tt.ptr<f32>, #blocked>
      %s = arith.addf %a, %x : tensor<512xf32, #blocked>
      scf.yield %s : tensor<512xf32, #blocked>
    }
    tt.store %pp, %acc : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// scf.if with a result: both branches jump to a merge block that takes it as argument.
// CHECK-LABEL: llvm.func @branch
// CHECK:         llvm.cond_br %{{.*}}, ^[[THEN:.*]], ^[[ELSE:.*]]
// CHECK:       ^[[THEN]]:
// CHECK:         llvm.br ^[[MERGE:.*]](%{{.*}} : i32)
// CHECK:       ^[[ELSE]]:
// CHECK:         llvm.br ^[[MERGE]](%{{.*}} : i32)
// CHECK:       ^[[MERGE]](%[[V:.*]]: i32):
// CHECK:         "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b" %[[V]]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @branch(%out: !tt.ptr<i32>, %a: i32, %b: i32) {
    %c = arith.cmpi sgt, %a, %b : i32
    %v = scf.if %c -> (i32) {
      %d = arith.subi %a, %b : i32
      scf.yield %d : i32
    } else {
      %d = arith.subi %b, %a : i32
      scf.yield %d : i32
    }
    tt.store %out, %v : !tt.ptr<i32>
    tt.return
  }
}

// -----

// scf.while: a header evaluating the condition, the body jumping back, the exit taking
// the carried values.
// CHECK-LABEL: llvm.func @while_loop
// CHECK:         llvm.br ^[[HEAD:.*]](%{{.*}} : i32)
// CHECK:       ^[[HEAD]](%[[X:.*]]: i32):
// CHECK:         %[[C:.*]] = llvm.icmp "slt" %[[X]], %arg1 : i32
// CHECK:         llvm.cond_br %[[C]], ^[[BODY:.*]](%[[X]] : i32), ^[[EXIT:.*]](%[[X]] : i32)
// CHECK:       ^[[BODY]](%[[Y:.*]]: i32):
// CHECK:         llvm.br ^[[HEAD]](%{{.*}} : i32)
// CHECK:       ^[[EXIT]](%[[R:.*]]: i32):
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @while_loop(%out: !tt.ptr<i32>, %n: i32) {
    %c1 = arith.constant 1 : i32
    %r = scf.while (%x = %c1) : (i32) -> i32 {
      %c = arith.cmpi slt, %x, %n : i32
      scf.condition(%c) %x : i32
    } do {
    ^bb0(%y: i32):
      %z = arith.muli %y, %y : i32
      %w = arith.addi %z, %c1 : i32
      scf.yield %w : i32
    }
    tt.store %out, %r : !tt.ptr<i32>
    tt.return
  }
}
