// A hand-written vector-add kernel in the LLVM dialect, as Triton's NVIDIA lowering prints
// it: thread and block ids from nvvm, a bounds check, address arithmetic with GEP, loads
// and a store with alignment, and the kernel attributes (nvvm.kernel, nvvm.reqntid).

// RUN: tileopt-translate %s --emit=llvm-ir --arch=sm_90a | FileCheck %s --check-prefix=LLVM
// RUN: tileopt-translate %s --mlir-to-llvmir | FileCheck %s --check-prefix=NOTARGET
// RUN: tileopt-translate %s --emit=ptx --arch=sm_90a | FileCheck %s --check-prefix=PTX
// RUN: tileopt-translate %s --emit=ptx --arch=sm_80 | FileCheck %s --check-prefix=SM80

// LLVM: target datalayout = "e-p3:32:32-
// LLVM: target triple = "nvptx64-nvidia-cuda"
// LLVM-LABEL: define ptx_kernel void @vector_add(ptr addrspace(1) %0, ptr addrspace(1) %1, ptr addrspace(1) %2, i32 %3)
// LLVM:         %[[PID:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// LLVM:         %[[TID:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// LLVM:         %[[BASE:.*]] = mul i32 %[[PID]], 128
// LLVM:         %[[I:.*]] = add i32 %[[BASE]], %[[TID]]
// LLVM:         %[[IN:.*]] = icmp slt i32 %[[I]], %3
// LLVM:         br i1 %[[IN]], label %[[BODY:.*]], label %[[EXIT:.*]]
// LLVM:         getelementptr float, ptr addrspace(1) %0, i32 %[[I]]
// LLVM:         load float, ptr addrspace(1) %{{.*}}, align 4
// LLVM:         load float, ptr addrspace(1) %{{.*}}, align 4
// LLVM:         fadd float
// LLVM:         store float %{{.*}}, ptr addrspace(1) %{{.*}}, align 4
// LLVM:         ret void
// LLVM:       attributes #{{.*}} = { "nvvm.reqntid"="128" }
// LLVM:       !{i32 4, !"nvvm-reflect-ftz", i32 1}

// Without --arch the translation is target-neutral, as mlir-translate's.
// NOTARGET-NOT: target triple
// NOTARGET:     define ptx_kernel void @vector_add

// PTX:      .version 8.7
// PTX-NEXT: .target sm_90a
// PTX-NEXT: .address_size 64
// PTX-LABEL: .visible .entry vector_add(
// PTX-NEXT:   .param .u64 .ptr .global .align 1 vector_add_param_0,
// PTX:        .param .u32 vector_add_param_3
// PTX-NEXT: )
// PTX-NEXT: .reqntid 128
// PTX:        mov.u32 %r{{[0-9]+}}, %ctaid.x;
// PTX:        mov.u32 %r{{[0-9]+}}, %tid.x;
// PTX:        setp.ge.s32 %p1, %r{{[0-9]+}}, %r{{[0-9]+}};
// PTX-NEXT:   @%p1 bra $L__BB0_2;
// PTX:        ld.global.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}];
// PTX:        ld.global.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}];
// PTX:        add.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// PTX:        st.global.b32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX:      $L__BB0_2:
// PTX-NEXT:   ret;

// SM80: .target sm_80
// SM80: .reqntid 128

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  llvm.func @vector_add(%x: !llvm.ptr<1> {tt.divisibility = 16 : i32}, %y: !llvm.ptr<1>, %out: !llvm.ptr<1>, %n: i32) attributes {nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 128>} {
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %pid = nvvm.read.ptx.sreg.ctaid.x : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %base = llvm.mul %pid, %c128 : i32
    %i = llvm.add %base, %tid : i32
    %in = llvm.icmp "slt" %i, %n : i32
    llvm.cond_br %in, ^body, ^exit
  ^body:
    %px = llvm.getelementptr %x[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %py = llvm.getelementptr %y[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %a = llvm.load %px {alignment = 4 : i64} : !llvm.ptr<1> -> f32
    %b = llvm.load %py {alignment = 4 : i64} : !llvm.ptr<1> -> f32
    %sum = llvm.fadd %a, %b : f32
    %po = llvm.getelementptr %out[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    llvm.store %sum, %po {alignment = 4 : i64} : f32, !llvm.ptr<1>
    llvm.br ^exit
  ^exit:
    llvm.return
  }
}
