// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv=compute-capability=90 | FileCheck %s
// RUN: tileopt %s -split-input-file --allocate-shared-memory | FileCheck %s --check-prefix=GENERIC

// A reduction along the axis that 4 warps share: one partial per warp for each of the
// 128 columns (4 x 128 x 4 bytes). Along the other axis one warp holds each row: no
// scratch, no offset.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: module attributes {{.*}}ttg.shared = 2048 : i32
// CHECK-LABEL: tt.func public @reduce
  tt.func public @reduce(%a: tensor<64x128xf32, #blocked>) -> (tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) {
    %0 = "tt.reduce"(%a) <{axis = 0 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      tt.reduce.return %s : f32
    }) : (tensor<64x128xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
// CHECK: }) {allocation.offset = 0 : i32} : (tensor<64x128xf32, #blocked>) -> tensor<128xf32
    %1 = "tt.reduce"(%a) <{axis = 1 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      tt.reduce.return %s : f32
    }) : (tensor<64x128xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK: }) : (tensor<64x128xf32, #blocked>) -> tensor<64xf32
    tt.return %0, %1 : tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

// 64x64 f32 transpose: no register bit is shared by the two layouts, so the whole tile
// goes through shared memory in one round: 16384 bytes on every target.

#src = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#dst = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: ttg.shared = 16384 : i32
// GENERIC: ttg.shared = 16384 : i32
// CHECK-LABEL: tt.func public @transpose
  tt.func public @transpose(%a: tensor<64x64xf32, #src>) -> tensor<64x64xf32, #dst> {
// CHECK: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}
    %0 = ttg.convert_layout %a : tensor<64x64xf32, #src> -> tensor<64x64xf32, #dst>
    tt.return %0 : tensor<64x64xf32, #dst>
  }
}

// -----

// 512 f32 from 4 to 1 consecutive elements per thread (one warp). Triton's NVIDIA
// rule reads with ldmatrix: vector {1, 2}, and the common register bits 128, 256 become
// sequential rounds: 128 elements (512 bytes). tileopt's lowering splits the conversion
// into rounds over the same register bits, so the pass gives Triton's 512; plain loads
// and stores (the generic pass) need all 512 elements (2048 bytes).

#s4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#s1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: ttg.shared = 512 : i32
// GENERIC: ttg.shared = 2048 : i32
  tt.func public @rounds(%a: tensor<512xf32, #s4>) -> tensor<512xf32, #s1> {
    %0 = ttg.convert_layout %a : tensor<512xf32, #s4> -> tensor<512xf32, #s1>
    tt.return %0 : tensor<512xf32, #s1>
  }
}

// -----

// Register order only: no shared memory, no offset.

#row = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: tt.func public @registers
  tt.func public @registers(%a: tensor<8x64xf32, #row>) -> tensor<8x64xf32, #col> {
// CHECK: ttg.convert_layout %{{[a-z0-9_]+}} : tensor<8x64xf32, #blocked> -> tensor<8x64xf32, #blocked1>
    %0 = ttg.convert_layout %a : tensor<8x64xf32, #row> -> tensor<8x64xf32, #col>
    tt.return %0 : tensor<8x64xf32, #col>
  }
}

// -----

// Buffers share bytes when their lifetimes do not overlap. a (4096 B) lives to the end;
// b (1024 B) dies before the conversion (512 B scratch), which takes b's slot above a.

#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
#s4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#s1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: ttg.shared = 5120 : i32
// CHECK-LABEL: tt.func public @reuse
  tt.func public @reuse(%x: tensor<128xf32, #s4>) {
// CHECK: %0 = ttg.local_alloc {allocation.offset = 0 : i32}
// CHECK: %1 = ttg.local_alloc {allocation.offset = 4096 : i32}
// CHECK: ttg.convert_layout %arg0 {allocation.offset = 4096 : i32}
    %a = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #sh, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<16x16xf32, #sh, #smem, mutable>
    ttg.local_dealloc %b : !ttg.memdesc<16x16xf32, #sh, #smem, mutable>
    %c = ttg.convert_layout %x : tensor<128xf32, #s4> -> tensor<128xf32, #s1>
    ttg.local_dealloc %a : !ttg.memdesc<32x32xf32, #sh, #smem, mutable>
    tt.return
  }
}

// -----

// cumsum over 512 f32 with 4 warps along the axis: 4 warps x 4 blocks x 4 bytes.
// A histogram of 16 bins keeps one counter per lane (32 x 4 bytes); both scratches are
// live at different times, so both sit at offset 0.

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: ttg.shared = 128 : i32
// CHECK-LABEL: tt.func public @scan_and_histogram
  tt.func public @scan_and_histogram(%a: tensor<512xf32, #b>, %h: tensor<1024xi32, #b>) -> (tensor<512xf32, #b>, tensor<16xi32, #b>) {
    %0 = "tt.scan"(%a) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      tt.scan.return %s : f32
    }) : (tensor<512xf32, #b>) -> tensor<512xf32, #b>
// CHECK: }) {allocation.offset = 0 : i32} : (tensor<512xf32, #blocked>)
// CHECK: tt.histogram %{{.*}} {allocation.offset = 0 : i32}
    %1 = tt.histogram %h : tensor<1024xi32, #b> -> tensor<16xi32, #b>
    tt.return %0, %1 : tensor<512xf32, #b>, tensor<16xi32, #b>
  }
}
