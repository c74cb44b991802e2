// RUN: tileopt %s -split-input-file --allocate-amdgpu-shared-memory --convert-triton-amdgpu-to-llvm | FileCheck %s
// RUN: tileopt %s -split-input-file --allocate-amdgpu-shared-memory --convert-triton-amdgpu-to-llvm | tileopt-translate -split-input-file --emit=llvm-ir --arch=gfx942 | FileCheck %s --check-prefix=LLIR

// A reduction over a whole wave of 64 (gfx942, CDNA3): each row of 16 lanes folds into its
// last lane with DPP row_shr 8, 4, 2, 1 (0x118, 0x114, 0x112, 0x111, bound_ctrl so lanes
// shifted in from outside the row read 0), row_bcast15 (0x142) on rows 1 and 3 (row mask
// 0xa) and row_bcast31 (0x143) carry the row totals to lane 63, which every lane reads.
// Then one lane per warp writes its partial to LDS, a barrier (fences around s_barrier);
// threads 0-3 read one partial each, a butterfly of DPP quad_perms ([2,3,0,1] = 78, then
// [1,0,3,2] = 177) adds them, lane 0 writes the sum back; a barrier; every thread reads it.
// CHECK-LABEL: llvm.func @sum_all
// CHECK-SAME:    nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 256>
// CHECK:         rocdl.workitem.id.x : i32
// CHECK:         %[[C63:.*]] = llvm.mlir.constant(63 : i32) : i32
// CHECK:         %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-3: llvm.fadd
// CHECK:         %[[S8:.*]] = rocdl.update.dpp %[[A8:.*]], %[[A8]] with 280, 15, 15, true : f32
// CHECK-NEXT:    %[[R8:.*]] = llvm.fadd %[[A8]], %[[S8]] : f32
// CHECK-NEXT:    rocdl.update.dpp %[[R8]], %[[R8]] with 276, 15, 15, true : f32
// CHECK:         rocdl.update.dpp %{{.*}} with 274, 15, 15, true : f32
// CHECK:         rocdl.update.dpp %{{.*}} with 273, 15, 15, true : f32
// CHECK:         rocdl.update.dpp %{{.*}} with 322, 10, 15, true : f32
// CHECK:         rocdl.update.dpp %{{.*}} with 323, 15, 15, true : f32
// CHECK-NEXT:    %[[T:.*]] = llvm.fadd
// CHECK-NEXT:    %[[W:.*]] = rocdl.readlane %[[T]], %[[C63]] : (f32, i32) -> f32
// CHECK:         llvm.cond_br
// CHECK:         llvm.store %[[W]], %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK:         rocdl.barrier
// CHECK:         llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK:         rocdl.update.dpp %{{.*}} with 78, 15, 15, false : i32
// CHECK:         llvm.fadd
// CHECK:         rocdl.update.dpp %{{.*}} with 177, 15, 15, false : i32
// CHECK:         llvm.fadd
// CHECK:         llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK:         rocdl.barrier
// CHECK-NEXT:    llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// LLIR-LABEL: define amdgpu_kernel void @sum_all
// LLIR:         call float @llvm.amdgcn.update.dpp.f32(float %{{.*}}, float %{{.*}}, i32 280, i32 15, i32 15, i1 true)
// LLIR:         call float @llvm.amdgcn.readlane.f32(float %{{.*}}, i32 63)
// LLIR:         fence syncscope("workgroup") release
// LLIR-NEXT:    call void @llvm.amdgcn.s.barrier()
// LLIR-NEXT:    fence syncscope("workgroup") acquire
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @sum_all(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %x = tt.load %pp : tensor<1024x!tt.ptr<f32>, #blocked>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    tt.store %out, %s : !tt.ptr<f32>
    tt.return
  }
}

// -----

// gfx1100 (RDNA3, wave 32) has no DPP row broadcast: after the row shifts, permlanex16
// makes lanes 0-15 read lane 31 and lanes 16-31 read lane 15, and lane 31 is read out.
// Integer max: the combiner region (arith.maxsi) is inlined at every step.
// CHECK-LABEL: llvm.func @max_all
// CHECK-SAME:    nvvm.reqntid = array<i32: 128>
// CHECK-DAG:     %[[ALL:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-DAG:     %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK:         rocdl.update.dpp %{{.*}} with 280, 15, 15, true : i32
// CHECK:         rocdl.update.dpp %{{.*}} with 273, 15, 15, true : i32
// CHECK-NEXT:    %[[M:.*]] = llvm.intr.smax
// CHECK-NEXT:    %[[X:.*]] = rocdl.permlanex16 %[[M]], %[[M]], %[[ALL]], %[[ALL]], true, false : i32, i32
// CHECK-NEXT:    %[[N:.*]] = llvm.intr.smax(%[[M]], %[[X]])
// CHECK-NEXT:    rocdl.readlane %[[N]], %[[C31]] : (i32, i32) -> i32
// CHECK-NOT:     row_bcast
// CHECK-NOT:     with 322
// LLIR-LABEL: define amdgpu_kernel void @max_all
// LLIR:         call i32 @llvm.amdgcn.permlanex16.i32(i32 %{{.*}}, i32 %{{.*}}, i32 -1, i32 -1, i1 true, i1 false)
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @max_all(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<i32>, #blocked>, tensor<512xi32, #blocked>
    %x = tt.load %pp : tensor<512x!tt.ptr<i32>, #blocked>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.maxsi %a, %b : i32
      tt.reduce.return %c : i32
    }) : (tensor<512xi32, #blocked>) -> i32
    tt.store %out, %s : !tt.ptr<i32>
    tt.return
  }
}

// -----

// A reduction over 4 lanes of a row: butterflies of 2 and 1 lanes are each one DPP
// quad_perm without bound_ctrl: [2,3,0,1] (78) then [1,0,3,2] (177). An f16 travels
// sign-extended in a 32-bit register, as the cross-lane instructions move dwords.
// CHECK-LABEL: llvm.func internal @rows
// CHECK:         %[[X:.*]] = llvm.extractvalue %arg0[0] : !llvm.struct<(f16)>
// CHECK:         %[[H:.*]] = llvm.bitcast %[[X]] : f16 to i16
// CHECK-NEXT:    %[[W:.*]] = llvm.sext %[[H]] : i16 to i32
// CHECK-NEXT:    %[[D:.*]] = rocdl.update.dpp %[[W]], %[[W]] with 78, 15, 15, false : i32
// CHECK-NEXT:    %[[T:.*]] = llvm.trunc %[[D]] : i32 to i16
// CHECK-NEXT:    %[[F:.*]] = llvm.bitcast %[[T]] : i16 to f16
// CHECK-NEXT:    llvm.fadd %[[X]], %[[F]] : f16
// CHECK:         rocdl.update.dpp %{{.*}} with 177, 15, 15, false : i32
// CHECK-NOT:     rocdl.readlane
// CHECK-NOT:     rocdl.barrier
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func private @rows(%x: tensor<64x4xf16, #b>, %out: tensor<64x!tt.ptr<f16>, #ttg.slice<{dim = 1, parent = #b}>>) {
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f16, %c: f16):
      %d = arith.addf %a, %c : f16
      tt.reduce.return %d : f16
    }) : (tensor<64x4xf16, #b>) -> tensor<64xf16, #ttg.slice<{dim = 1, parent = #b}>>
    tt.store %out, %s : tensor<64x!tt.ptr<f16>, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return
  }
}

// -----

// Buffer accesses: a resource descriptor for each base pointer (stride 0, Triton's record
// count 0x7FFFFFFE = 2147483646, the CDNA3 flags 0x27000 = 159744); the byte offset of a
// masked-off access becomes 0x80000000, out of range, so the load reads zeros (then `other`
// is selected in) and the store is dropped: no branch. Four f32 per access (128 bits).
// CHECK-LABEL: llvm.func @buffer_copy
// CHECK-DAG:     %[[STRIDE:.*]] = llvm.mlir.constant(0 : i16) : i16
// CHECK-DAG:     %[[RECORDS:.*]] = llvm.mlir.constant(2147483646) : i64
// CHECK-DAG:     %[[FLAGS:.*]] = llvm.mlir.constant(159744 : i32) : i32
// CHECK-DAG:     %[[OOR:.*]] = llvm.mlir.constant(-2147483648 : i32) : i32
// CHECK-DAG:     %[[OTHER:.*]] = llvm.mlir.constant(-1.000000e+00 : f32) : f32
// CHECK:         %[[M:.*]] = llvm.icmp "slt" %[[I:.*]], %arg2 : i32
// CHECK:         %[[RIN:.*]] = rocdl.make.buffer.rsrc %arg0, %[[STRIDE]], %[[RECORDS]], %[[FLAGS]] : <1> to <8>
// CHECK:         %[[B:.*]] = llvm.mul %[[I]], %{{.*}} : i32
// CHECK-NEXT:    %[[OFF:.*]] = llvm.select %[[M]], %[[B]], %[[OOR]] : i1, i32
// CHECK-NEXT:    %[[L:.*]] = rocdl.raw.ptr.buffer.load %[[RIN]], %[[OFF]], %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:         llvm.select %[[M]], %{{.*}}, %[[OTHER]] : i1, f32
// CHECK:         %[[ROUT:.*]] = rocdl.make.buffer.rsrc %arg1, %[[STRIDE]], %[[RECORDS]], %[[FLAGS]] : <1> to <8>
// CHECK:         rocdl.raw.ptr.buffer.store %{{.*}}, %[[ROUT]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NOT:     llvm.cond_br
// LLIR-LABEL: define amdgpu_kernel void @buffer_copy
// LLIR:         call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %{{.*}}, i16 0, i64 2147483646, i32 159744)
// LLIR:         call <4 x float> @llvm.amdgcn.raw.ptr.buffer.load.v4f32(ptr addrspace(8) %{{.*}}, i32 %{{.*}}, i32 0, i32 0)
// LLIR:         call void @llvm.amdgcn.raw.ptr.buffer.store.v4f32(<4 x float> %{{.*}}, ptr addrspace(8) %{{.*}}, i32 %{{.*}}, i32 0, i32 0)
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @buffer_copy(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %other = arith.constant dense<-1.000000e+00> : tensor<1024xf32, #blocked>
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #blocked>
    %x = amdg.buffer_load %in[%r], %m, %other : tensor<1024xf32, #blocked>
    amdg.buffer_store %x, %out[%r], %m : tensor<1024xf32, #blocked>
    tt.return
  }
}

// -----

// A masked atomic: AMD memory instructions take no predicate, so a branch goes around an
// atomicrmw at the agent scope (Triton's `gpu`); the old value (0 where masked off) comes
// through the join block.
// CHECK-LABEL: llvm.func internal @hist
// CHECK:         %[[P:.*]] = llvm.extractvalue %arg0[0]
// CHECK:         %[[M:.*]] = llvm.extractvalue %arg1[0]
// CHECK:         llvm.cond_br %[[M]], ^[[DO:.*]], ^[[JOIN:.*]](%{{.*}} : i32)
// CHECK:       ^[[DO]]:
// CHECK-NEXT:    %[[OLD:.*]] = llvm.atomicrmw add %[[P]], %{{.*}} syncscope("agent") acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, i32
// CHECK-NEXT:    llvm.br ^[[JOIN]](%[[OLD]] : i32)
// LLIR-LABEL: define internal void @hist
// LLIR:         %[[P:.*]] = extractvalue { ptr addrspace(1) } %0, 0
// LLIR:         atomicrmw add ptr addrspace(1) %[[P]], i32 1 syncscope("agent") acq_rel, align 4
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func private @hist(%bins: tensor<256x!tt.ptr<i32>, #blocked>, %m: tensor<256xi1, #blocked>) {
    %one = arith.constant dense<1> : tensor<256xi32, #blocked>
    %old = tt.atomic_rmw add, acq_rel, gpu, %bins, %one, %m : (tensor<256x!tt.ptr<i32>, #blocked>, tensor<256xi32, #blocked>, tensor<256xi1, #blocked>) -> tensor<256xi32, #blocked>
    tt.return
  }
}

// -----

// A scan: shuffles up by 1, 2, 4, 8, 16, 32 lanes read lane - d (own lane below d) with
// ds_bpermute, whose address is the lane times 4.
// CHECK-LABEL: llvm.func internal @prefix
// CHECK:         %[[LANE:.*]] = llvm.urem %{{.*}}, %{{.*}} : i32
// CHECK:         %[[X:.*]] = llvm.extractvalue %arg0[0] : !llvm.struct<(i32)>
// CHECK:         %[[LOW:.*]] = llvm.icmp "ult" %[[LANE]], %[[ONE:.*]] : i32
// CHECK-NEXT:    %[[DOWN:.*]] = llvm.sub %[[LANE]], %[[ONE]] : i32
// CHECK-NEXT:    %[[SRC:.*]] = llvm.select %[[LOW]], %[[LANE]], %[[DOWN]] : i1, i32
// CHECK-NEXT:    %[[ADDR:.*]] = llvm.shl %[[SRC]], %{{.*}} : i32
// CHECK-NEXT:    rocdl.ds_bpermute %[[ADDR]], %[[X]] : (i32, i32) -> i32
// CHECK-COUNT-5: rocdl.ds_bpermute
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func private @prefix(%x: tensor<64xi32, #blocked>, %out: tensor<64x!tt.ptr<i32>, #blocked>) {
    %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.scan.return %c : i32
    }) : (tensor<64xi32, #blocked>) -> tensor<64xi32, #blocked>
    tt.store %out, %s : tensor<64x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// A buffer atomic: one raw.ptr.buffer.atomic per element (no vector atomics), a release
// fence before it and an acquire fence after it at the agent scope (acq_rel, gpu); a
// masked-off element's offset is out of range, so nothing is updated there.
// CHECK-LABEL: llvm.func @buffer_add
// CHECK-DAG:     %[[OOR:.*]] = llvm.mlir.constant(-2147483648 : i32) : i32
// CHECK:         %[[R:.*]] = rocdl.make.buffer.rsrc %arg0
// CHECK:         llvm.fence syncscope("agent") release
// CHECK:         %[[OFF:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[OOR]] : i1, i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.amdgcn.raw.ptr.buffer.atomic.fadd"(%{{.*}}, %[[R]], %[[OFF]], %{{.*}}, %{{.*}}) : (f32, !llvm.ptr<8>, i32, i32, i32) -> f32
// CHECK-COUNT-3: llvm.call_intrinsic "llvm.amdgcn.raw.ptr.buffer.atomic.fadd"
// CHECK-NEXT:    llvm.fence syncscope("agent") acquire
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @buffer_add(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %one = arith.constant dense<1.000000e+00> : tensor<1024xf32, #blocked>
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #blocked>
    %old = amdg.buffer_atomic_rmw fadd, acq_rel, gpu, %one, %p[%r], %m : tensor<1024xf32, #blocked>
    tt.return
  }
}

// -----

// Math on AMD: exp is exp2 of x * log2(e); sqrt is the AMDGPU instruction; erf is written
// out in two branches, one polynomial per range (|x| >= 1.00296: 1 - 2^p(|x|) with the
// sign of x; below: x + x * p(x^2)), so a lane keeps one set of coefficients live.
// CHECK-LABEL: llvm.func internal @math
// CHECK-DAG:     %[[LOG2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
// CHECK-DAG:     %[[EDGE:.*]] = llvm.mlir.constant(1.0029{{[0-9e+.]*}} : f32) : f32
// CHECK:         %[[X:.*]] = llvm.extractvalue %arg0[0] : !llvm.struct<(f32)>
// CHECK:         %[[S:.*]] = llvm.fmul %[[X]], %[[LOG2E]] : f32
// CHECK-NEXT:    llvm.intr.exp2(%[[S]]) : (f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.amdgcn.sqrt"(%[[X]]) : (f32) -> f32
// CHECK:         %[[A:.*]] = llvm.intr.fabs(%[[X]]) : (f32) -> f32
// CHECK-NEXT:    %[[FAR:.*]] = llvm.fcmp "oge" %[[A]], %[[EDGE]] : f32
// CHECK:         llvm.cond_br %[[FAR]], ^[[LARGE:.*]], ^[[J1:.*]](%{{.*}} : f32)
// CHECK:       ^[[LARGE]]:
// CHECK-COUNT-6: llvm.intr.fma
// CHECK:         llvm.intr.exp2
// CHECK:         llvm.intr.copysign
// CHECK:       ^[[J1]](%[[R1:.*]]: f32):
// CHECK:         llvm.cond_br %{{.*}}, ^[[SMALL:.*]], ^[[J2:.*]](%[[R1]] : f32)
// CHECK:       ^[[SMALL]]:
// CHECK-NEXT:    llvm.fmul %[[X]], %[[X]] : f32
// CHECK-COUNT-7: llvm.intr.fma
// CHECK:       ^[[J2]](%{{.*}}: f32):
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func private @math(%x: tensor<64xf32, #blocked>) -> (tensor<64xf32, #blocked>, tensor<64xf32, #blocked>, tensor<64xf32, #blocked>) {
    %e = math.exp %x : tensor<64xf32, #blocked>
    %s = math.sqrt %x : tensor<64xf32, #blocked>
    %f = math.erf %x : tensor<64xf32, #blocked>
    tt.return %e, %s, %f : tensor<64xf32, #blocked>, tensor<64xf32, #blocked>, tensor<64xf32, #blocked>
  }
}

// -----

// tt.print through ROCm's printf protocol: begin, the format (the print's prefix written
// into it: the protocol carries a string's characters, not its address), then the
// arguments as 64-bit words in one group (three program ids and the value; the three
// unused slots are 0, the last flag is 1). A failed scalar tt.assert: below.
// CHECK-DAG:   llvm.mlir.global internal constant @[[FMT:printfFormat_[0-9]+]]("pid (%u, %u, %u) idx () x: %i\0A\00")
// CHECK-DAG:   llvm.func @__ockl_printf_begin(i64) -> i64
// CHECK-DAG:   llvm.func @__ockl_printf_append_string_n(i64, !llvm.ptr<0>, i64, i32) -> i64
// CHECK-DAG:   llvm.func @__ockl_printf_append_args(i64, i32, i64, i64, i64, i64, i64, i64, i64, i32) -> i64
// CHECK-LABEL: llvm.func @print_assert
// CHECK-SAME:    (%[[XARG:[^:]+]]: i32
// CHECK:         %[[M:.*]] = llvm.call @__ockl_printf_begin(%{{.*}}) : (i64) -> i64
// CHECK-NEXT:    %[[M2:.*]] = llvm.call @__ockl_printf_append_string_n(%[[M]], %{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i64, i32) -> i64
// CHECK:         %[[X:.*]] = llvm.zext %[[XARG]] : i32 to i64
// CHECK-NEXT:    llvm.call @__ockl_printf_append_args(%[[M2]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[X]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:         llvm.cond_br %{{.*}}, ^[[FAIL:.*]], ^[[OK:.*]]
// CHECK:       ^[[FAIL]]:
// CHECK-NEXT:    llvm.call @__ockl_fprintf_stderr_begin
// CHECK:         llvm.call @__ockl_printf_append_string_n
// CHECK-NEXT:    rocdl.barrier
// CHECK-NEXT:    llvm.call_intrinsic "llvm.trap"() : () -> ()
// CHECK-NEXT:    llvm.br ^[[OK]]
// CHECK:       ^[[OK]]:
// CHECK-NEXT:    llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @print_assert(%x: i32, %c: i1) {
    tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : i32
    tt.assert %c, "x must hold" : i1
    tt.return
  }
}

// -----

// A failed tensor tt.assert, as Triton 3.6's convert-triton-amdgpu-to-llvm writes it (the
// Inductor kernels' index checks): on the failing path, the message on stderr
// (__ockl_fprintf_stderr_begin, no arguments appended), a barrier, a trap; after the
// check, a barrier for every thread. Triton's message names the function "unknown",
// tileopt names the kernel. Only the ockl functions called are declared.
// CHECK-DAG:   llvm.mlir.global internal constant @[[MSG:printfFormat_[0-9]+]]("device assertion failed: 'index out of bounds: 0 <= tmp4 < 1000', in check at kernels.py:7\0A\00")
// CHECK-DAG:   llvm.func @__ockl_fprintf_stderr_begin() -> i64
// CHECK-DAG:   llvm.func @__ockl_printf_append_string_n(i64, !llvm.ptr<0>, i64, i32) -> i64
// CHECK-LABEL: llvm.func @check
// CHECK-NOT:     __ockl_printf_begin
// CHECK-DAG:     %[[S:.*]] = llvm.mlir.addressof @[[MSG]] : !llvm.ptr
// CHECK-DAG:     %[[N:.*]] = llvm.mlir.constant(92) : i64
// CHECK:         %[[ANY:.*]] = llvm.or %{{.*}}, %{{.*}} : i1
// CHECK:         llvm.cond_br %[[ANY]], ^[[FAIL:.*]], ^[[OK:.*]]
// CHECK:       ^[[FAIL]]:
// CHECK-NEXT:    %[[M:.*]] = llvm.call @__ockl_fprintf_stderr_begin() : () -> i64
// CHECK-NEXT:    llvm.call @__ockl_printf_append_string_n(%[[M]], %[[S]], %[[N]], %{{.*}}) : (i64, !llvm.ptr, i64, i32) -> i64
// CHECK-NEXT:    rocdl.barrier
// CHECK-NEXT:    llvm.call_intrinsic "llvm.trap"() : () -> ()
// CHECK-NEXT:    llvm.br ^[[OK]]
// CHECK:       ^[[OK]]:
// CHECK-NEXT:    rocdl.barrier
// CHECK-NEXT:    llvm.return
// CHECK-NOT:     __ockl_printf_append_args
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @check(%n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<128xi32, #blocked>
    %ok = arith.cmpi slt, %r, %ns : tensor<128xi32, #blocked>
    tt.assert %ok, "index out of bounds: 0 <= tmp4 < 1000" : tensor<128xi1, #blocked> loc("kernels.py":7:4)
    tt.return
  }
}

// -----

// tt.extern_elementwise of ROCm's ocml (what Triton's tl.extra.libdevice calls on AMD):
// one declaration per symbol and a call per element, as Triton 3.6 writes them (Triton's
// declarations also carry libname/libpath attributes, which the LLVM IR does not keep);
// the back end links ocml.bc (test/unit/target/test_rocm_device_libs.py).
// CHECK-DAG:   llvm.func @__ocml_tanh_f32(f32) -> f32
// CHECK-DAG:   llvm.func @__ocml_pow_f32(f32, f32) -> f32
// CHECK-LABEL: llvm.func @ocml_calls
// CHECK:         %[[X0:.+]] = llvm.extractelement %{{.+}} : vector<2xf32>
// CHECK-NEXT:    %[[X1:.+]] = llvm.extractelement %{{.+}} : vector<2xf32>
// CHECK-NEXT:    %[[T0:.+]] = llvm.call @__ocml_tanh_f32(%[[X0]]) : (f32) -> f32
// CHECK-NEXT:    %[[T1:.+]] = llvm.call @__ocml_tanh_f32(%[[X1]]) : (f32) -> f32
// CHECK-NEXT:    llvm.call @__ocml_pow_f32(%[[T0]], %[[X0]]) : (f32, f32) -> f32
// CHECK-NEXT:    llvm.call @__ocml_pow_f32(%[[T1]], %[[X1]]) : (f32, f32) -> f32
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @ocml_calls(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %x = tt.load %pp : tensor<128x!tt.ptr<f32>, #blocked>
    %t = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__ocml_tanh_f32"} : (tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
    %w = tt.extern_elementwise %t, %x {libname = "", libpath = "", pure = true, symbol = "__ocml_pow_f32"} : (tensor<128xf32, #blocked>, tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
    tt.store %pp, %w : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// The ids are LLVM-level already and go through; amdg.cond_barrier splits the block at the
// op, as Triton 3.6's lowering does: a branch around a block holding only the s_barrier.
// CHECK-LABEL: llvm.func @cond_barrier
// CHECK:         %[[WG:.*]] = rocdl.workgroup.id.y : i32
// CHECK:         %[[C:.*]] = llvm.icmp "slt" %{{.*}}, %[[WG]] : i32
// CHECK-NEXT:    llvm.cond_br %[[C]], ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    rocdl.s.barrier
// CHECK-NEXT:    llvm.br ^bb2
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    llvm.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @cond_barrier() {
    %tid = rocdl.workitem.id.x : i32
    %wg = rocdl.workgroup.id.y : i32
    %low = arith.cmpi slt, %tid, %wg : i32
    amdg.cond_barrier %low
    tt.return
  }
}

// -----

// gfx942 has no NaN-propagating llvm.minimum/maximum (Triton 3.6: only CDNA4 has):
// minnum/maxnum and a select of NaN where an operand is NaN, as Triton's own lowering of
// this input prints (for clampf only the clamped value is tested).
// CHECK-LABEL: llvm.func @nan_min_max
// CHECK-SAME:    (%[[P:[^:]+]]: !llvm.ptr<1>, %[[X:[^:]+]]: f32, %[[LO:[^:]+]]: f32, %[[HI:[^:]+]]: f32
// CHECK:         %[[NAN:.*]] = llvm.mlir.constant(0x7FC00000 : f32) : f32
// CHECK:         %[[XN:.*]] = llvm.fcmp "une" %[[X]], %[[X]] : f32
// CHECK-NEXT:    %[[LN:.*]] = llvm.fcmp "une" %[[LO]], %[[LO]] : f32
// CHECK-NEXT:    %[[EN:.*]] = llvm.or %[[XN]], %[[LN]] : i1
// CHECK-NEXT:    %[[MN:.*]] = llvm.intr.minnum(%[[X]], %[[LO]]) : (f32, f32) -> f32
// CHECK-NEXT:    %[[M:.*]] = llvm.select %[[EN]], %[[NAN]], %[[MN]] : i1, f32
// CHECK-NEXT:    llvm.fcmp "une" %[[HI]], %[[HI]] : f32
// CHECK-NEXT:    llvm.fcmp "une" %[[M]], %[[M]] : f32
// CHECK-NEXT:    llvm.or
// CHECK-NEXT:    llvm.intr.maxnum(%[[HI]], %[[M]]) : (f32, f32) -> f32
// CHECK-NEXT:    llvm.select
// CHECK-NEXT:    %[[CN:.*]] = llvm.fcmp "une" %[[M]], %[[M]] : f32
// CHECK-NEXT:    %[[C1:.*]] = llvm.intr.maxnum(%[[M]], %[[LO]]) : (f32, f32) -> f32
// CHECK-NEXT:    %[[C2:.*]] = llvm.intr.minnum(%[[C1]], %[[HI]]) : (f32, f32) -> f32
// CHECK-NEXT:    llvm.select %[[CN]], %[[NAN]], %[[C2]] : i1, f32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @nan_min_max(%p: !tt.ptr<f32>, %x: f32, %lo: f32, %hi: f32) {
    %mn = arith.minimumf %x, %lo : f32
    %mx = arith.maximumf %hi, %mn : f32
    %c = tt.clampf %mn, %lo, %hi, propagateNan = all : f32
    %s = arith.addf %c, %mx : f32
    tt.store %p, %s : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Constancy dedup where lanes split a run (each lane holds elements 64 apart; the mask is
// constant over aligned runs of 128): registers 0-1 and 2-3 share a compare, as Triton 3.6's
// maybeDeduplicate gives (its lowering of this input keeps 2 of the 4 compares).
// CHECK-LABEL: llvm.func @split_run
// CHECK-COUNT-2: llvm.icmp "slt"
// CHECK-NOT:     llvm.icmp "slt"
// CHECK:         llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @split_run(%n: i32 {tt.divisibility = 128 : i32}, %p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<256xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<256xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %v = arith.constant dense<1.0> : tensor<256xf32, #blocked>
    tt.store %pp, %v, %m : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// amdg.buffer_atomic_cas: one cmpswap per element (the new value first, then the compared
// one, as Triton's lowering passes them), between the fences of acq_rel at agent scope.
// CHECK-LABEL: llvm.func @buffer_cas
// CHECK:         llvm.fence syncscope("agent") release
// CHECK-NEXT:    %[[OFF:.*]] = llvm.mul
// CHECK-NEXT:    llvm.call_intrinsic "llvm.amdgcn.raw.ptr.buffer.atomic.cmpswap"(%arg2, %arg1, %{{[0-9]+}}, %[[OFF]], %{{.*}}) : (i32, i32, !llvm.ptr<8>, i32, i32, i32) -> i32
// CHECK-NEXT:    llvm.fence syncscope("agent") acquire
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @buffer_cas(%p: !tt.ptr<i32>, %c: i32, %v: i32) {
    %off = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %cmp = tt.splat %c : i32 -> tensor<64xi32, #blocked>
    %val = tt.splat %v : i32 -> tensor<64xi32, #blocked>
    %old = amdg.buffer_atomic_cas acq_rel, gpu, %cmp, %val, %p[%off] : tensor<64xi32, #blocked>
    amdg.buffer_store %old, %p[%off] : tensor<64xi32, #blocked>
    tt.return
  }
}

// -----

// A kernel whose parameters are a tensor and a memdesc, as Triton's AMD lit tests write
// kernels: one struct each (the thread's registers; the LDS base and one offset per dim),
// as Triton 3.6 gives them, and the struct reaches LLVM IR as a first-class aggregate.
// CHECK-LABEL: llvm.func @tensor_param(
// CHECK-SAME:    %[[X:.*]]: !llvm.struct<(f32, f32)>, %{{.*}}: !llvm.struct<({{(!llvm.)?}}ptr<3>, i32)>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>)
// CHECK:         llvm.extractvalue %[[X]][0] : !llvm.struct<(f32, f32)>
// CHECK:         llvm.extractvalue %[[X]][1] : !llvm.struct<(f32, f32)>
// LLIR-LABEL: define amdgpu_kernel void @tensor_param(
// LLIR-SAME:    { float, float } inreg %{{.*}}, { ptr addrspace(3), i32 } inreg %{{.*}}, ptr addrspace(1)
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @tensor_param(%x: tensor<128xf32, #b2>, %m: !ttg.memdesc<128xf32, #shared, #smem, mutable>, %p: !tt.ptr<f32>) {
    ttg.local_store %x, %m : tensor<128xf32, #b2> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    tt.return
  }
}
