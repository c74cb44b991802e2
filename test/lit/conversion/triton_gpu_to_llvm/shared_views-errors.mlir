// RUN: tileopt %s -split-input-file -verify-diagnostics --convert-triton-gpu-to-llvm

// A transposed view whose type describes other bytes than its source.
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @trans_mismatch() {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    // expected-error @+1 {{does not describe the same bytes as the source view}}
    %t = ttg.memdesc_trans %a {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Explicit buffers need the allocator's offsets (it did not run here).
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @not_allocated() {
    // expected-error @+1 {{has no 'allocation.offset': run allocate-shared-memory(-nv) before the lowering}}
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// A reshape whose result layout is not the row-major reinterpretation of the buffer.
#rows = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#cols = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bad_reshape() {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16x32xf32, #rows, #smem, mutable>
    // expected-error @+1 {{does not describe the same bytes as the source view}}
    %r = ttg.memdesc_reshape %a : !ttg.memdesc<16x32xf32, #rows, #smem, mutable> -> !ttg.memdesc<32x16xf32, #cols, #smem, mutable>
    tt.return
  }
}
