// RUN: tileopt %s -split-input-file -verify-diagnostics
// What the 3.9 spellings and ops accept, and what they reject.

// A broadcast whose layouts would move elements between threads is still wrong.
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<1x128xi32, #a>) {
    // expected-error @+1 {{requires the same encoding for all operands and results, or layouts that keep each element in its thread}}
    %y = tt.broadcast %x : tensor<1x128xi32, #a> -> tensor<64x128xi32, #b>
    tt.return
  }
}

// -----

module {
  tt.func @f() {
    // expected-error @+1 {{ttg.barrier: unknown address space 'shared' (one of none, all, local, global_read, global_write, tensor_read, tensor_write)}}
    ttg.barrier shared
    tt.return
  }
}

// -----

module {
  tt.func @f() {
    // expected-error @+1 {{rocdl.sched.barrier: unknown mask 'alu'}}
    rocdl.sched.barrier alu
    tt.return
  }
}

// -----

// expected-error @+1 {{ctaLayout warp bases [(1, 0), (0, 1)] are not the dimension-ordered warps of a warpsPerCTA}}
#mma = #ttg.amd_wmma<{version = 1, isTranspose = true, ctaLayout = {warp = [[1, 0], [0, 1]]}}>
module {
  tt.func @f(%x: tensor<32x32xf32, #mma>) {
    tt.return
  }
}

// -----

module {
  tt.func @f(%p: !tt.ptr<f32>, %m: i32) {
    %c1 = arith.constant 1 : i64
    // expected-error @+1 {{does not point to the block's f16}}
    %d = tt.make_tensor_descriptor %p, [%m, %m], [%c1, %c1] : <f32>, <16x16xf16>
    tt.return
  }
}
