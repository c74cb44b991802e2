// RUN: tileopt %s -split-input-file --tritonamdgpu-canonicalize-pointers | FileCheck %s
// RUN: tileopt %s -split-input-file --tritonamdgpu-canonicalize-pointers="enable-large-tensor-ptr-canon=true" | FileCheck %s --check-prefix=LARGE
// RUN: tileopt %s -split-input-file --tritonamdgpu-canonicalize-pointers --verify-diagnostics | FileCheck %s --check-prefix=DIAG

// A tt.pointer_range = 32 argument: the base stays the argument and the scalar and
// tensor offsets add up into one i32 offset: row + (pid * 1024 + range).
// CHECK-LABEL: tt.func @small_tensor
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f32> {tt.pointer_range = 32 : i32}, %[[ROW:.*]]: i32)
// CHECK: %[[START:.*]] = arith.muli
// CHECK: %[[R:.*]] = tt.make_range
// CHECK: %[[ROWS:.*]] = tt.splat %[[ROW]] : i32 -> tensor<1024xi32, #blocked>
// CHECK: %[[REST:.*]] = arith.addi %[[R]], %[[ROWS]]
// CHECK: %[[STARTS:.*]] = tt.splat %[[START]]
// CHECK: %[[OFF:.*]] = arith.addi %[[STARTS]], %[[REST]]
// CHECK: %[[BASE:.*]] = tt.splat %[[P]] : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
// CHECK: %[[PTRS:.*]] = tt.addptr %[[BASE]], %[[OFF]]
// CHECK: tt.load %[[PTRS]]
// CHECK-NOT: tt.addptr %arg0, %arg1
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @small_tensor(%p: !tt.ptr<f32> {tt.pointer_range = 32 : i32}, %row: i32) -> tensor<1024xf32, #blocked> {
    %c1024 = arith.constant 1024 : i32
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c1024 : i32
    %q = tt.addptr %p, %row : !tt.ptr<f32>, i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %s = tt.splat %start : i32 -> tensor<1024xi32, #blocked>
    %o = arith.addi %s, %r : tensor<1024xi32, #blocked>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %qa = tt.addptr %qs, %o : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %x = tt.load %qa : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return %x : tensor<1024xf32, #blocked>
  }
}

// -----

// An unmarked argument is left alone by default (only dead ops go); with
// enable-large-tensor-ptr-canon the offset is split and carried in 64 bits, narrowed at
// the load.
// CHECK-LABEL: tt.func @not_marked
// CHECK-NEXT: tt.make_range
// CHECK-NEXT: tt.splat %arg0
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.load
// CHECK-NOT: arith.addi
// LARGE-LABEL: tt.func @not_marked
// LARGE: %[[Z:.*]] = arith.constant 0 : i32
// LARGE: %[[B:.*]] = tt.addptr %arg0, %[[Z]] : !tt.ptr<f32>, i32
// LARGE: %[[W:.*]] = arith.extsi %{{.*}} : tensor<1024xi32, #blocked> to tensor<1024xi64, #blocked>
// LARGE: %[[N:.*]] = arith.trunci %[[W]] : tensor<1024xi64, #blocked> to tensor<1024xi32, #blocked>
// LARGE: %[[S:.*]] = tt.splat %[[B]]
// LARGE: %[[Q:.*]] = tt.addptr %[[S]], %[[N]]
// LARGE: tt.load %[[Q]]
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @not_marked(%p: !tt.ptr<f32>) -> tensor<1024xf32, #blocked> {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %pa = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %dead = arith.addi %r, %r : tensor<1024xi32, #blocked>
    %x = tt.load %pa : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return %x : tensor<1024xf32, #blocked>
  }
}

// -----

// Triton's remark for a pointer argument it would start from that has no use (its
// placeholder cast is left without users); the function is rewritten as usual. Expected
// text: Triton 3.6's pass on this input.
// DIAG-LABEL: tt.func public @unused_pointer
// DIAG:         %[[R:.*]] = tt.make_range
// DIAG-NEXT:    %[[S1:.*]] = tt.splat %arg1
// DIAG-NEXT:    %[[A1:.*]] = tt.addptr %[[S1]], %[[R]]
// DIAG-NEXT:    %[[V:.*]] = tt.load %[[A1]]
// DIAG-NEXT:    %[[S2:.*]] = tt.splat %arg1
// DIAG-NEXT:    %[[A2:.*]] = tt.addptr %[[S2]], %[[R]]
// DIAG-NEXT:    tt.store %[[A2]], %[[V]]
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @+1 {{expected at least 1 use of unrealized_cast}}
  tt.func public @unused_pointer(%p: !tt.ptr<f16> {tt.pointer_range = 32 : i32}, %q: !tt.ptr<f16> {tt.pointer_range = 32 : i32}, %n: i32) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %s = tt.splat %q : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #blocked>
    %a = tt.addptr %s, %r : tensor<256x!tt.ptr<f16>, #blocked>, tensor<256xi32, #blocked>
    %v = tt.load %a : tensor<256x!tt.ptr<f16>, #blocked>
    tt.store %a, %v : tensor<256x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// A function holding a ub.poison is left alone, with a remark at the poison (Triton 3.6).
// DIAG-LABEL: tt.func public @poisoned
// DIAG:         %[[R:.*]] = tt.make_range
// DIAG-NEXT:    %[[S:.*]] = tt.splat %arg0
// DIAG-NEXT:    %[[A:.*]] = tt.addptr %[[S]], %[[R]]
// DIAG-NEXT:    %[[B:.*]] = scf.if %arg1
// DIAG:         %[[V:.*]] = tt.load %[[B]]
// DIAG-NEXT:    tt.store %[[A]], %[[V]]

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @poisoned(%p: !tt.ptr<f16> {tt.pointer_range = 32 : i32}, %c: i1) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %s = tt.splat %p : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>, #blocked>
    %a = tt.addptr %s, %r : tensor<256x!tt.ptr<f16>, #blocked>, tensor<256xi32, #blocked>
    %b = scf.if %c -> (tensor<256x!tt.ptr<f16>, #blocked>) {
      scf.yield %a : tensor<256x!tt.ptr<f16>, #blocked>
    } else {
      // expected-remark @+1 {{skipping canonicalize-pointers due to ub.poison}}
      %u = ub.poison : tensor<256x!tt.ptr<f16>, #blocked>
      scf.yield %u : tensor<256x!tt.ptr<f16>, #blocked>
    }
    %v = tt.load %b : tensor<256x!tt.ptr<f16>, #blocked>
    tt.store %a, %v : tensor<256x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
