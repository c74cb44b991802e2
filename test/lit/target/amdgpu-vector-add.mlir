// A hand-written vector-add kernel in the LLVM dialect, as Triton's AMD lowering prints
// it: rocdl work-item and work-group ids, a masked load/store in branches, and the kernel
// marked with nvvm.kernel (Triton's AMD lowering keeps that attribute; the back end makes
// it an amdgpu_kernel with the attributes Triton's make_llir adds).

// RUN: tileopt-translate %s --emit=llvm-ir --arch=gfx942 | FileCheck %s --check-prefix=LLVM
// RUN: tileopt-translate %s --emit=amdgcn --arch=gfx942 | FileCheck %s --check-prefix=GFX942
// RUN: tileopt-translate %s --emit=amdgcn --arch=gfx1100 | FileCheck %s --check-prefix=GFX1100

// LLVM: target triple = "amdgcn-amd-amdhsa"
// LLVM-LABEL: define amdgpu_kernel void @vector_add(ptr addrspace(1) inreg %0, ptr addrspace(1) inreg %1, ptr addrspace(1) inreg %2, i32 inreg %3) #0
// LLVM:         %[[BID:.*]] = call i32 @llvm.amdgcn.workgroup.id.x()
// LLVM:         %[[TID:.*]] = call i32 @llvm.amdgcn.workitem.id.x()
// LLVM:         %[[BASE:.*]] = mul i32 %[[BID]], 256
// LLVM:         add i32 %[[BASE]], %[[TID]]
// LLVM:         load float, ptr addrspace(1) %{{.*}}, align 4
// LLVM:         store float %{{.*}}, ptr addrspace(1) %{{.*}}, align 4
// LLVM:       attributes #0 = { "amdgpu-flat-work-group-size"="1,256" "amdgpu-waves-per-eu"="0, 0" "denormal-fp-math-f32"="ieee" "uniform-work-group-size"="true" }
// LLVM:       !{i32 1, !"amdhsa_code_object_version", i32 500}

// GFX942:      .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// GFX942:      .amdhsa_code_object_version 5
// GFX942-LABEL: vector_add:
// GFX942:        global_load_dword
// GFX942:        global_load_dword
// GFX942:        v_add_f32
// GFX942:        global_store_dword
// GFX942:        s_endpgm
// GFX942:      .max_flat_workgroup_size: 256
// GFX942-NEXT: .name: vector_add
// GFX942:      .wavefront_size: 64
// GFX942:      amdhsa.target: amdgcn-amd-amdhsa--gfx942

// RDNA3 runs wave32.
// GFX1100:     .amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
// GFX1100:     v_add_f32
// GFX1100:     .wavefront_size: 32

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  llvm.func @vector_add(%x: !llvm.ptr<1>, %y: !llvm.ptr<1>, %out: !llvm.ptr<1>, %n: i32) attributes {nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 256>} {
    %c256 = llvm.mlir.constant(256 : i32) : i32
    %bid = rocdl.workgroup.id.x : i32
    %tid = rocdl.workitem.id.x : i32
    %base = llvm.mul %bid, %c256 : i32
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
