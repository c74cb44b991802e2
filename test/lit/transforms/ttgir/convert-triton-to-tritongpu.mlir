// RUN: tileopt %s -split-input-file --convert-triton-to-tritongpu="target=cuda:80 num-warps=4" | FileCheck %s
// RUN: tileopt %s -split-input-file --convert-triton-to-tritongpu="target=hip:gfx942 num-warps=8 threads-per-warp=64" | FileCheck %s --check-prefix=WAVE64
// RUN: tileopt %s -split-input-file --convert-triton-to-tritongpu="target=cuda:80 enable-source-remat=true" | FileCheck %s --check-prefix=REMAT
// RUN: not tileopt %s -split-input-file --convert-triton-to-tritongpu 2>&1 | FileCheck %s --check-prefix=NOTARGET

// NOTARGET: error: 'convert-triton-to-tritongpu' requires 'target' option to be set

// Every tensor gets the default layout of its shape: one element per thread, lanes then
// warps along the last dim first. Scalars are left alone.

// CHECK: #[[B1D:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func @add
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #[[B1D]]>
// CHECK: tt.addptr %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>, #[[B1D]]>, tensor<256xi32, #[[B1D]]>
// CHECK: tt.load %{{.*}} : tensor<256x!tt.ptr<f32>, #[[B1D]]>
// CHECK: arith.addf %{{.*}} : tensor<256xf32, #[[B1D]]>
// CHECK-NOT: ttg.convert_layout

// WAVE64: #[[W1D:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [8], order = [0]}>
// WAVE64: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32}
// WAVE64-LABEL: tt.func @add
// WAVE64: tt.load %{{.*}} : tensor<256x!tt.ptr<f32>, #[[W1D]]>
module {
  tt.func @add(%x: !tt.ptr<f32>, %n: i32) {
    %pid = tt.get_program_id x : i32
    %c256 = arith.constant 256 : i32
    %base = arith.muli %pid, %c256 : i32
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %b = tt.splat %base : i32 -> tensor<256xi32>
    %offs = arith.addi %b, %r : tensor<256xi32>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %ptrs = tt.addptr %p, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %v = tt.load %ptrs : tensor<256x!tt.ptr<f32>>
    %w = arith.addf %v, %v : tensor<256xf32>
    tt.store %ptrs, %w : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// expand_dims reads a slice of a blocked layout with the new dim inserted (order 0, 1)
// and its users get the default layout back through a convert_layout; broadcast keeps
// its operand's layout; a reduction yields a slice of its operand's layout.

// CHECK-DAG: #[[ROW:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[COL_EXP:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-DAG: #[[COL:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[ROW_EXP:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[TILE:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @tile
// CHECK: %[[ROWS:.+]] = tt.make_range {{.*}} : tensor<64xi32, #[[ROW]]>
// CHECK: %[[S1:.+]] = ttg.convert_layout %[[ROWS]] : tensor<64xi32, #[[ROW]]> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[COL_EXP]]}>>
// CHECK: %[[R2:.+]] = tt.expand_dims %[[S1]] {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[COL_EXP]]}>> -> tensor<64x1xi32, #[[COL_EXP]]>
// CHECK: %[[R2D:.+]] = ttg.convert_layout %[[R2]] : tensor<64x1xi32, #[[COL_EXP]]> -> tensor<64x1xi32, #[[COL]]>
// CHECK: arith.muli %[[R2D]], %{{.*}} : tensor<64x1xi32, #[[COL]]>
// CHECK: tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #[[ROW_EXP]]}>> -> tensor<1x32xi32, #[[ROW_EXP]]>
// CHECK: ttg.convert_layout %{{.*}} : tensor<1x32xi32, #[[ROW_EXP]]> -> tensor<1x32xi32, #[[TILE]]>
// CHECK: %[[RB:.+]] = tt.broadcast %{{.*}} : tensor<64x1xi32, #[[COL]]> -> tensor<64x32xi32, #[[COL]]>
// CHECK: %[[RBT:.+]] = ttg.convert_layout %[[RB]] : tensor<64x32xi32, #[[COL]]> -> tensor<64x32xi32, #[[TILE]]>
// CHECK: %[[CB:.+]] = tt.broadcast %{{.*}} : tensor<1x32xi32, #[[TILE]]> -> tensor<64x32xi32, #[[TILE]]>
// CHECK: arith.addi %[[RBT]], %[[CB]] : tensor<64x32xi32, #[[TILE]]>
// CHECK: %[[SUM:.+]] = "tt.reduce"
// CHECK: }) : (tensor<64x32xf16, #[[TILE]]>) -> tensor<64xf16, #ttg.slice<{dim = 1, parent = #[[TILE]]}>>
// CHECK: %[[SUMD:.+]] = ttg.convert_layout %[[SUM]] : tensor<64xf16, #ttg.slice<{dim = 1, parent = #[[TILE]]}>> -> tensor<64xf16, #[[ROW]]>
// CHECK: tt.store %{{.*}}, %[[SUMD]] : tensor<64x!tt.ptr<f16>, #[[ROW]]>
module {
  tt.func @tile(%x: !tt.ptr<f16>, %stride: i32) {
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %cols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %s = tt.splat %stride : i32 -> tensor<64x1xi32>
    %roff = arith.muli %r2, %s : tensor<64x1xi32>
    %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %rb = tt.broadcast %roff : tensor<64x1xi32> -> tensor<64x32xi32>
    %cb = tt.broadcast %c2 : tensor<1x32xi32> -> tensor<64x32xi32>
    %off = arith.addi %rb, %cb : tensor<64x32xi32>
    %p = tt.splat %x : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %ptrs = tt.addptr %p, %off : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %v = tt.load %ptrs : tensor<64x32x!tt.ptr<f16>>
    %sum = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f16, %b: f16):
      %t = arith.addf %a, %b : f16
      tt.reduce.return %t : f16
    }) : (tensor<64x32xf16>) -> tensor<64xf16>
    %rp = tt.splat %x : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
    %rptrs = tt.addptr %rp, %rows : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
    tt.store %rptrs, %sum : tensor<64x!tt.ptr<f16>>
    tt.return
  }
}

// -----

// Loop-carried values, loop results and the function signature get layouts too.

// CHECK: #[[L:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @loop
// CHECK-SAME: -> tensor<128xf32, #[[L]]>
// CHECK: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<128xf32, #[[L]]>
// CHECK: scf.for %{{.*}} iter_args(%[[A:.+]] = %[[ZERO]]) -> (tensor<128xf32, #[[L]]>)
// CHECK: arith.addf %[[A]], %{{.*}} : tensor<128xf32, #[[L]]>
// CHECK: scf.yield %{{.*}} : tensor<128xf32, #[[L]]>
// CHECK: tt.return %{{.*}} : tensor<128xf32, #[[L]]>
module {
  tt.func @loop(%x: !tt.ptr<f32>, %n: i32) -> tensor<128xf32> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128xf32>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %ptrs = tt.addptr %p, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<128xf32>) : i32 {
      %v = tt.load %ptrs : tensor<128x!tt.ptr<f32>>
      %s = arith.addf %a, %v : tensor<128xf32>
      scf.yield %s : tensor<128xf32>
    }
    tt.return %acc : tensor<128xf32>
  }
}

// -----

// A dot computes in a blocked layout with a 4x4 tile per thread (64*64 / 128 threads >= 16
// elements each); its operands go to #ttg.dot_op of it, the accumulator to it. tt.trans
// permutes its operand's layout.

// CHECK-DAG: #[[A:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[SQ:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[D:.+]] = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[SQT:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
// CHECK-LABEL: tt.func @dot
// CHECK: %[[A0:.+]] = ttg.convert_layout %{{.*}} : tensor<64x32xf16, #[[A]]> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[D]]}>>
// CHECK: %[[B0:.+]] = ttg.convert_layout %{{.*}} : tensor<32x64xf16, #[[SQ]]> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #[[D]]}>>
// CHECK: %[[C0:.+]] = ttg.convert_layout %{{.*}} : tensor<64x64xf32, #[[SQ]]> -> tensor<64x64xf32, #[[D]]>
// CHECK: %[[R:.+]] = tt.dot %[[A0]], %[[B0]], %[[C0]] : {{.*}} -> tensor<64x64xf32, #[[D]]>
// CHECK: %[[RD:.+]] = ttg.convert_layout %[[R]] : tensor<64x64xf32, #[[D]]> -> tensor<64x64xf32, #[[SQ]]>
// CHECK: tt.trans %[[RD]] {order = array<i32: 1, 0>} : tensor<64x64xf32, #[[SQ]]> -> tensor<64x64xf32, #[[SQT]]>
module {
  tt.func @dot(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %t = tt.trans %d {order = array<i32: 1, 0>} : tensor<64x64xf32> -> tensor<64x64xf32>
    tt.return %t : tensor<64x64xf32>
  }
}

// -----

// An op Triton has no conversion pattern for (math.tanh) gets the default layout like the
// rest; with enable-source-remat it keeps its layout-less types behind casts instead, as
// Triton's source materialization does.

// CHECK-LABEL: tt.func @no_pattern
// CHECK: math.tanh %{{.*}} : tensor<64xf32, #{{.*}}>
// REMAT-LABEL: tt.func @no_pattern
// REMAT: %[[IN:.+]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<64xf32, #[[L:.+]]> to tensor<64xf32>
// REMAT: %[[T:.+]] = math.tanh %[[IN]] : tensor<64xf32>
// REMAT: %[[OUT:.+]] = ttg.convert_layout %[[T]] : tensor<64xf32> -> tensor<64xf32, #[[L]]>
// REMAT: arith.addf %[[OUT]], %{{.*}} : tensor<64xf32, #[[L]]>
module {
  tt.func @no_pattern(%x: tensor<64xf32>) -> tensor<64xf32> {
    %t = math.tanh %x : tensor<64xf32>
    %y = arith.addf %t, %x : tensor<64xf32>
    tt.return %y : tensor<64xf32>
  }
}

// -----

// A call of a device function: operands and results get the default layout, as the
// callee's signature does; the callee keeps its arguments' tt.divisibility.
// CHECK-LABEL: tt.func public @call_device_function
// CHECK:         tt.call @device_helper(%{{.*}}, %{{.*}}) : (tensor<128xf32, #blocked>, i32) -> tensor<128xf32, #blocked>
// CHECK-LABEL: tt.func private @device_helper
// CHECK-SAME:    (%arg0: tensor<128xf32, #blocked>, %arg1: i32 {tt.divisibility = 16 : i32}) -> tensor<128xf32, #blocked>
module {
  tt.func public @call_device_function(%p: !tt.ptr<f32>, %n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %x = tt.load %pp : tensor<128x!tt.ptr<f32>>
    %y = tt.call @device_helper(%x, %n) : (tensor<128xf32>, i32) -> tensor<128xf32>
    tt.store %pp, %y : tensor<128x!tt.ptr<f32>>
    tt.return
  }
  tt.func private @device_helper(%x: tensor<128xf32>, %n: i32 {tt.divisibility = 16 : i32}) -> tensor<128xf32> attributes {noinline = true} {
    tt.return %x : tensor<128xf32>
  }
}
