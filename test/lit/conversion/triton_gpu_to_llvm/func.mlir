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
