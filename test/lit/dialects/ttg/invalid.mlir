// RUN: tileopt %s -split-input-file -verify-diagnostics
// Layout and op verifiers reject what Triton rejects, with messages that say why.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<32x64xf16, #blocked>) {
    // expected-error @+1 {{ttg.convert_layout: shapes differ (32x64 vs 64x32)}}
    %y = ttg.convert_layout %x : tensor<32x64xf16, #blocked> -> tensor<64x32xf16, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<32x64xf16, #blocked>, %b: !ttg.memdesc<32x64xf16, #shared, #smem>) {
    // expected-error @+1 {{cannot store into immutable memory}}
    ttg.local_store %x, %b : tensor<32x64xf16, #blocked> -> !ttg.memdesc<32x64xf16, #shared, #smem>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%b: !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>, %i: i32) {
    // expected-error @+1 {{result shape must be the source shape without its leading dimension (32x64), got 64x32}}
    %s = ttg.memdesc_index %b[%i] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// expected-error @+1 {{slice dim=2 must be less than the parent rank=2}}
#bad = #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>

// -----

// expected-error @+1 {{order must be a permutation of 0..1, but was [0, 0]}}
#bad = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 0]}>

// -----

#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_element_type(%b: !ttg.memdesc<32x16xf16, #shared, #smem>) {
  // expected-error @+1 {{ttg.memdesc_subslice: result element type must match desc element type, got f16 and bf16}}
  %v = ttg.memdesc_subslice %b [0, 0] : !ttg.memdesc<32x16xf16, #shared, #smem> -> !ttg.memdesc<16x16xbf16, #shared, #smem, 32x16>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_touches_tile(%b: !ttg.memdesc<32x16xf16, #shared, #smem>) {
  // expected-error @+1 {{ttg.memdesc_subslice: the split offset 12 may not touch the tile (it must be a multiple of the result's size 8)}}
  %v = ttg.memdesc_subslice %b [12, 0] : !ttg.memdesc<32x16xf16, #shared, #smem> -> !ttg.memdesc<8x16xf16, #shared, #smem, 32x16>
  tt.return
}

// -----

// Rows 0 and 4 of this layout are swizzled differently: a 4-row tile at row 4 is not laid
// out as the one at row 0.
#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_splits_swizzle(%b: !ttg.memdesc<32x16xf16, #shared, #smem>) {
  // expected-error @+1 {{ttg.memdesc_subslice: tiles of 4x16 along dim 0 split the swizzling pattern}}
  %v = ttg.memdesc_subslice %b [4, 0] : !ttg.memdesc<32x16xf16, #shared, #smem> -> !ttg.memdesc<4x16xf16, #shared, #smem, 32x16>
  tt.return
}

// -----

// Tiles of whole swizzle periods (8 rows) or of columns within a vector row are fine.
#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_along_swizzle_ok(%b: !ttg.memdesc<32x16xf16, #shared, #smem>) {
  %v = ttg.memdesc_subslice %b [16, 0] : !ttg.memdesc<32x16xf16, #shared, #smem> -> !ttg.memdesc<8x16xf16, #shared, #smem, 32x16>
  %w = ttg.memdesc_subslice %b [0, 8] : !ttg.memdesc<32x16xf16, #shared, #smem> -> !ttg.memdesc<32x8xf16, #shared, #smem, 32x16>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_of_view(%b: !ttg.memdesc<2x32x16xf16, #shared, #smem>, %i: i32) {
  // expected-error @+1 {{ttg.memdesc_index: alloc shape must match shape for both result and src, got 2x32x16 allocated as 2x32x16 and 32x16 allocated as 2x32x16}}
  %v = ttg.memdesc_index %b[%i] : !ttg.memdesc<2x32x16xf16, #shared, #smem> -> !ttg.memdesc<32x16xf16, #shared, #smem, 2x32x16>
  tt.return
}

// -----

#padded = #ttg.padded_shared<[8:+2] {order = [1, 0], shape = [16, 64]}>
#smem = #ttg.shared_memory
tt.func @subslice_padded_low_rank(%b: !ttg.memdesc<4x16x64xf16, #padded, #smem>) {
  // expected-error @+1 {{ttg.memdesc_subslice: a subslice of a lower-rank padded shared layout (rank 2) from a rank 3 buffer is not supported yet}}
  %v = ttg.memdesc_subslice %b [0, 0, 32] : !ttg.memdesc<4x16x64xf16, #padded, #smem> -> !ttg.memdesc<4x16x32xf16, #padded, #smem, 4x16x64>
  tt.return
}
