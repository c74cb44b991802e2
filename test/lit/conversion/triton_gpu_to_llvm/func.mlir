// RUN: tileopt %s -split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

// A public tt.func is a kernel: nvvm.kernel, a launch bound of num-warps x 32 threads,
// its parameters converted (pointers to !llvm.ptr<1>, attributes kept), and Triton 3.6's
// two scratch-pointer parameters appended. The module gets the dynamic shared memory
// array and its size.
// CHECK:       module attributes {{{.*}}ttg.shared = 0 : i32
// CHECK:       llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @kernel(
// CHECK-SAME:    %{{.*}}: !llvm.ptr<1> {tt.divisibility = 16 : i32}, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>)
// CHECK-SAME:    attributes {noinline = false, nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 256>}
// CHECK:         llvm.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %x: f32) {
    tt.return
  }
}

// -----

// Program ids read the ctaid/nctaid special registers.
// CHECK-LABEL: llvm.func @ids
// CHECK-DAG:     nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-DAG:     nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK-DAG:     nvvm.read.ptx.sreg.nctaid.z : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ids(%out: !tt.ptr<i32>) {
    %x = tt.get_program_id x : i32
    %y = tt.get_program_id y : i32
    %z = tt.get_num_programs z : i32
    %s = arith.addi %x, %y : i32
    %t = arith.addi %s, %z : i32
    tt.store %out, %t : !tt.ptr<i32>
    tt.return
  }
}

// -----

// A kernel's tensor and memdesc parameters, as Triton's lit tests write kernels: each is
// one struct (a tensor's registers, even just one; a memdesc's base and one offset per
// dim), attributes kept; an async token is an i32. The signature is Triton 3.6's for the
// same input (its pointers print as `ptr<3>` inside the struct).
// CHECK-LABEL: llvm.func @tensor_params(
// CHECK-SAME:    %[[A:.*]]: !llvm.struct<(f32, f32)> {tt.divisibility = 16 : i32}, %{{.*}}: !llvm.struct<(i1)>, %{{.*}}: i32, %{{.*}}: i32,
// CHECK-SAME:    %{{.*}}: !llvm.struct<({{(!llvm.)?}}ptr<3>, i32, i32)>, %{{.*}}: !llvm.struct<({{(!llvm.)?}}ptr<1>, {{(!llvm.)?}}ptr<1>)>,
// CHECK-SAME:    %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>)
// CHECK-SAME:    nvvm.kernel = 1 : ui1
// CHECK:         llvm.extractvalue %[[A]][0] : !llvm.struct<(f32, f32)>
// CHECK:         llvm.extractvalue %[[A]][1] : !llvm.struct<(f32, f32)>
// CHECK-COUNT-2: llvm.fadd %{{.*}}, %{{.*}} : f32
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tensor_params(%a: tensor<256xf32, #b2> {tt.divisibility = 16 : i32}, %m: tensor<128xi1, #b1>, %n: i32, %t: !ttg.async.token, %s: !ttg.memdesc<4x8xf16, #shared, #smem>, %out: tensor<256x!tt.ptr<f32>, #b2>) {
    %d = arith.addf %a, %a : tensor<256xf32, #b2>
    tt.store %out, %d : tensor<256x!tt.ptr<f32>, #b2>
    tt.return
  }
}

// -----

// A memdesc parameter that spans its whole buffer has offsets 0 whatever its struct holds,
// so an mbarrier may live there (as in Triton's tritonnvidiagpu_to_llvm.mlir).
// CHECK-LABEL: llvm.func @barrier_param(
// CHECK:         %[[BASE:.*]] = llvm.extractvalue %arg0[0]
// CHECK:         "@$0 mbarrier.init.shared::cta.b64 [$1], 1;", "b,r" %{{.*}}, %[[BASE]] : (i1, !llvm.ptr<3>) -> {{\(\)|!llvm.void}}
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @barrier_param(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    tt.return
  }
}
