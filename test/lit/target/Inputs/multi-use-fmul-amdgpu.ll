target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @multi_use(ptr addrspace(1) %p, float %a, float %b, float %c) {
  %m = fmul float %a, %b
  %s = fadd float %m, %c
  %t = fsub float %s, %m
  store float %t, ptr addrspace(1) %p, align 4
  ret void
}
