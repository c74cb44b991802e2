// RUN: tileopt %s -split-input-file --tritongpu-global-scratch-memory-allocation -verify-diagnostics | FileCheck %s

// Allocations in walk order, each at the running size rounded up to its alignment; the
// function and the module get the total rounded up to the largest alignment.
// CHECK:       module attributes {{{.*}}ttg.global_scratch_memory_alignment = 128 : i32, ttg.global_scratch_memory_size = 256 : i32
// CHECK-LABEL: tt.func public @two_allocations
// CHECK:         ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 64 : i32, ttg.global_scratch_memory_offset = 0 : i32}
// CHECK:         ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32, ttg.global_scratch_memory_offset = 128 : i32}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_allocations() {
    %a = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 64 : i32} : !tt.ptr<i8>
    %b = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    tt.return
  }
}

// -----

// A call into a noinline helper that has no global scratch needs none (Inductor's and
// hand-written kernels with @triton.jit(noinline=True) helpers).
// CHECK:       module attributes {{{.*}}ttg.global_scratch_memory_alignment = 1 : i32, ttg.global_scratch_memory_size = 0 : i32
// CHECK-LABEL: tt.func public @caller
// CHECK:         tt.call @helper
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @caller(%x: i32) {
    %y = tt.call @helper(%x) : (i32) -> i32
    tt.return
  }
  tt.func private @helper(%x: i32) -> i32 attributes {noinline = true} {
    tt.return %x : i32
  }
}

// -----

// A helper that has global scratch of its own would need the caller's to cover it: refused.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @caller() {
    // expected-error @below {{global scratch memory across calls is not supported}}
    tt.call @helper() : () -> ()
    tt.return
  }
  tt.func private @helper() attributes {noinline = true} {
    %a = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 64 : i32} : !tt.ptr<i8>
    tt.return
  }
}
