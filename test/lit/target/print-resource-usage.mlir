// tileopt-translate --print-resource-usage: each AMD kernel's registers, spills, scratch, LDS
// and occupancy on stderr, spelled as LLVM's kernel-resource-usage remarks. The figures come
// from the code object's metadata (the hsaco's msgpack note, or the assembly's YAML), the
// LDS adds the module's ttg.shared (what Triton's launcher asks for), and the occupancy is
// for a workgroup of the kernel's flat work-group size (4 warps of the GPU's wave size).
// REQUIRES: ld.lld

// RUN: tileopt-translate %s --emit=hsaco --arch=gfx942 --print-resource-usage -o %t.hsaco 2>&1 | FileCheck %s --check-prefix=GFX942
// RUN: tileopt-translate %s --emit=amdgcn --arch=gfx942 --print-resource-usage 2>&1 >/dev/null | FileCheck %s --check-prefix=GFX942
// RUN: tileopt-translate %s --emit=amdgcn --arch=gfx1100 --print-resource-usage 2>&1 >/dev/null | FileCheck %s --check-prefix=GFX1100
// RUN: not tileopt-translate %s --emit=ptx --arch=sm_90a --print-resource-usage 2>&1 | FileCheck %s --check-prefix=ERR

// 32 KiB per workgroup: two 256-thread workgroups (4 waves) per 64 KiB CU, 8 waves on 4 SIMDs.
// GFX942:      remark: {{.*}}print-resource-usage.mlir: Function Name: lds_kernel
// GFX942-NEXT: remark: {{.*}}:     SGPRs: {{[0-9]+}}
// GFX942-NEXT: remark: {{.*}}:     VGPRs: {{[0-9]+}}
// GFX942-NEXT: remark: {{.*}}:     AGPRs: 0
// GFX942-NEXT: remark: {{.*}}:     ScratchSize [bytes/lane]: 0
// GFX942-NEXT: remark: {{.*}}:     Occupancy [waves/SIMD]: 2
// GFX942-NEXT: remark: {{.*}}:     SGPRs Spill: 0
// GFX942-NEXT: remark: {{.*}}:     VGPRs Spill: 0
// GFX942-NEXT: remark: {{.*}}:     LDS Size [bytes/block]: 32768

// wave32: 128-thread workgroups (4 waves); a 128 KiB WGP holds four, 16 waves on 4 SIMDs.
// GFX1100:     Function Name: lds_kernel
// GFX1100:     Occupancy [waves/SIMD]: 4
// GFX1100:     LDS Size [bytes/block]: 32768

// ERR: error: --print-resource-usage needs --emit=amdgcn or --emit=hsaco, not --emit=ptx

module attributes {"ttg.num-warps" = 4 : i32, "ttg.shared" = 32768 : i32} {
  llvm.func @lds_kernel(%x: !llvm.ptr<1>, %n: i32) attributes {nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 256>} {
    %tid = rocdl.workitem.id.x : i32
    %in = llvm.icmp "slt" %tid, %n : i32
    llvm.cond_br %in, ^body, ^exit
  ^body:
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %a = llvm.load %p {alignment = 4 : i64} : !llvm.ptr<1> -> f32
    %b = llvm.fadd %a, %a : f32
    llvm.store %b, %p {alignment = 4 : i64} : f32, !llvm.ptr<1>
    llvm.br ^exit
  ^exit:
    llvm.return
  }
}
