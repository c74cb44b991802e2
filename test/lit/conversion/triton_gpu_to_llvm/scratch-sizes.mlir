// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv=compute-capability=90 | FileCheck %s --check-prefix=ALLOC
// RUN: tileopt %s -split-input-file --allocate-shared-memory-nv=compute-capability=90 --convert-triton-gpu-to-llvm | FileCheck %s

// The allocator gives each op the scratch its lowering lays out (conversion/shared_memory.py):
// the reduce across 4 warps gets Triton's 1024 bytes (4 warps x 64 columns x 4 bytes); the
// conversion from warps along rows to warps along columns goes through shared memory with
// the whole tile (4 x 64 x 4 bytes). The two live at different times and share offset 0;
// the barrier analysis, run on the same sizes, puts a barrier between the reduce's reads
// and the conversion's writes.
// ALLOC: ttg.shared = 1024 : i32
// ALLOC: }) {allocation.offset = 0 : i32} : (tensor<4x64xf32, #blocked>)
// ALLOC: ttg.convert_layout %5 {allocation.offset = 0 : i32}
// CHECK-LABEL: llvm.func @reduce_and_shuffle
// CHECK:         llvm.store {{.*}} !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// CHECK-COUNT-2: "@$2 st.shared.b32 [ $0 + 0 ], $1;"
// CHECK:         nvvm.barrier0
// CHECK:         llvm.load {{.*}} !llvm.ptr<3> -> f32
// CHECK:         nvvm.barrier0
// CHECK-NEXT:    llvm.getelementptr
// CHECK:         llvm.store {{.*}} : vector<2xf32>, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// CHECK:         nvvm.ldmatrix {{.*}} {layout = #nvvm.mma_layout<row>, num = 2 : i32}
#a = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reduce_and_shuffle(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #a}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #a}>> -> tensor<1x64xi32, #a>
    %o = tt.broadcast %e : tensor<1x64xi32, #a> -> tensor<4x64xi32, #a>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<4x64x!tt.ptr<f32>, #a>
    %pp = tt.addptr %ps, %o : tensor<4x64x!tt.ptr<f32>, #a>, tensor<4x64xi32, #a>
    %x = tt.load %pp : tensor<4x64x!tt.ptr<f32>, #a>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%u: f32, %v: f32):
      %w = arith.addf %u, %v : f32
      tt.reduce.return %w : f32
    }) : (tensor<4x64xf32, #a>) -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #a}>>
    %sp = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #a}>>
    %sq = tt.addptr %sp, %r : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #a}>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #a}>>
    tt.store %sq, %s : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #a}>>
    %y = ttg.convert_layout %x : tensor<4x64xf32, #a> -> tensor<4x64xf32, #b>
    %r1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>>
    %e1 = tt.expand_dims %r1 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
    %o1 = tt.broadcast %e1 : tensor<1x64xi32, #b> -> tensor<4x64xi32, #b>
    %ps1 = tt.splat %p : !tt.ptr<f32> -> tensor<4x64x!tt.ptr<f32>, #b>
    %pp1 = tt.addptr %ps1, %o1 : tensor<4x64x!tt.ptr<f32>, #b>, tensor<4x64xi32, #b>
    tt.store %pp1, %y : tensor<4x64x!tt.ptr<f32>, #b>
    tt.return
  }
}
