// RUN: tileopt %s | FileCheck %s
// A tensor without an encoding goes with any encoding under the "same encoding" traits,
// as Triton's verifier has it (`tt.addptr` of a laid-out pointer tensor and a plain
// offset tensor, as some of Triton's tests write it).

// CHECK-LABEL: tt.func @mixed
// CHECK: tt.addptr %{{.+}}, %{{.+}} : tensor<128x!tt.ptr<f16>, #blocked>, tensor<128xi32>
#bl = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mixed(%p: tensor<128x!tt.ptr<f16>, #bl>, %o: tensor<128xi32>) -> tensor<128x!tt.ptr<f16>, #bl> {
    %r = tt.addptr %p, %o : tensor<128x!tt.ptr<f16>, #bl>, tensor<128xi32>
    tt.return %r : tensor<128x!tt.ptr<f16>, #bl>
  }
}
