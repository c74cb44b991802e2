"""Each op family of the LLVM dialect (and nvvm/rocdl) translated to LLVM IR.

Every expectation is the LLVM IR instruction LangRef (and MLIR's translation) prescribe
for the op; the IR is verified by LLVM before these checks see it, so a wrong type or
operand would already fail the translation.
"""

from __future__ import annotations

import re

from tileopt.target import module_to_llvm_ir, parse_llvm_dialect

V = r"%\d+"  # any numbered LLVM value


def to_llvm_ir(mlir: str, target: str | None = None) -> str:
    return module_to_llvm_ir(parse_llvm_dialect(mlir, "test.mlir"), target)


def function(signature: str, body: str, result: str = "", attrs: str = "") -> str:
    arrow = f" -> {result}" if result else ""
    return (f"module {{\n  llvm.func @f({signature}){arrow} {attrs}{{\n{body}\n  }}\n}}\n")


def contains(ir: str, pattern: str) -> bool:
    """``pattern`` is a regex in which ``%V`` stands for any numbered value."""
    return re.search(pattern.replace("%V", V), ir) is not None


def check(ir: str, *patterns: str) -> None:
    missing = [p for p in patterns if not contains(ir, p)]
    assert not missing, f"not found: {missing}\n--- IR ---\n{ir}"


# --------------------------------------------------------------------------- arithmetic


def test_integer_arithmetic_with_flags():
    ir = to_llvm_ir(function("%a: i32, %b: i32", """
    %0 = llvm.add %a, %b overflow<nsw> : i32
    %1 = llvm.mul %0, %b overflow<nsw, nuw> : i32
    %2 = llvm.or disjoint %1, %a : i32
    %3 = llvm.udiv exact %2, %b : i32
    %4 = llvm.lshr %3, %b : i32
    %5 = llvm.srem %4, %b : i32
    llvm.return %5 : i32""", "i32"))
    check(ir, r"= add nsw i32 %0, %1", r"= mul nuw nsw i32 %V, %1", r"= or disjoint i32",
          r"= udiv exact i32", r"= lshr i32", r"= srem i32")


def test_float_arithmetic_and_fastmath():
    ir = to_llvm_ir(function("%a: f32, %b: f32", """
    %0 = llvm.fadd %a, %b {fastmathFlags = #llvm.fastmath<fast>} : f32
    %1 = llvm.fmul %0, %b {fastmathFlags = #llvm.fastmath<contract>} : f32
    %2 = llvm.fdiv %1, %a : f32
    %3 = llvm.fneg %2 : f32
    llvm.return %3 : f32""", "f32"))
    check(ir, r"= fadd fast float %0, %1", r"= fmul contract float", r"= fdiv float",
          r"= fneg float")


def test_comparisons_and_select():
    ir = to_llvm_ir(function("%a: i32, %b: i32, %x: f32, %y: f32", """
    %0 = llvm.icmp "ult" %a, %b : i32
    %1 = llvm.fcmp "ogt" %x, %y : f32
    %2 = llvm.fcmp "uno" %x, %y : f32
    %3 = llvm.and %0, %1 : i1
    %4 = llvm.or %3, %2 : i1
    %5 = llvm.select %4, %x, %y : i1, f32
    llvm.return %5 : f32""", "f32"))
    check(ir, r"= icmp ult i32 %0, %1", r"= fcmp ogt float %2, %3", r"= fcmp uno float",
          r"= select i1 %V, float %2, float %3")


def test_casts():
    ir = to_llvm_ir(function("%i: i32, %h: f16, %p: !llvm.ptr<1>", """
    %0 = llvm.trunc %i : i32 to i16
    %1 = llvm.zext %0 : i16 to i64
    %2 = llvm.sext %i : i32 to i64
    %3 = llvm.fpext %h : f16 to f32
    %4 = llvm.fptrunc %3 : f32 to bf16
    %5 = llvm.sitofp %i : i32 to f32
    %6 = llvm.uitofp %i : i32 to f64
    %7 = llvm.fptosi %3 : f32 to i32
    %8 = llvm.fptoui %3 : f32 to i8
    %9 = llvm.bitcast %i : i32 to vector<2xf16>
    %10 = llvm.ptrtoint %p : !llvm.ptr<1> to i64
    %11 = llvm.inttoptr %10 : i64 to !llvm.ptr<1>
    %12 = llvm.addrspacecast %11 : !llvm.ptr<1> to !llvm.ptr
    llvm.return""", attrs=""))
    check(ir, r"trunc i32 %0 to i16", r"zext i16 %V to i64", r"sext i32 %0 to i64",
          r"fpext half %1 to float", r"fptrunc float %V to bfloat", r"sitofp i32 %0 to float",
          r"uitofp i32 %0 to double", r"fptosi float %V to i32", r"fptoui float %V to i8",
          r"bitcast i32 %0 to <2 x half>", r"ptrtoint ptr addrspace\(1\) %2 to i64",
          r"inttoptr i64 %V to ptr addrspace\(1\)", r"addrspacecast ptr addrspace\(1\) %V to ptr")


# --------------------------------------------------------------------------- aggregates and vectors


def test_struct_and_vector_element_access():
    ir = to_llvm_ir(function("%s: !llvm.struct<(i32, f32)>, %v: vector<4xf32>, %x: f32, %i: i32", """
    %0 = llvm.extractvalue %s[1] : !llvm.struct<(i32, f32)>
    %1 = llvm.insertvalue %x, %s[1] : !llvm.struct<(i32, f32)>
    %2 = llvm.extractelement %v[%i : i32] : vector<4xf32>
    %3 = llvm.insertelement %x, %v[%i : i32] : vector<4xf32>
    %4 = llvm.shufflevector %3, %v [0, 5, 2, 7] : vector<4xf32>
    llvm.return""", attrs=""))
    check(ir, r"= extractvalue \{ i32, float \} %0, 1",
          r"= insertvalue \{ i32, float \} %0, float %2, 1",
          r"= extractelement <4 x float> %1, i32 %3",
          r"= insertelement <4 x float> %1, float %2, i32 %3",
          r"= shufflevector <4 x float> %V, <4 x float> %1, <4 x i32> <i32 0, i32 5, i32 2, i32 7>")


def test_constants_undef_poison_zero():
    ir = to_llvm_ir(function("%p: !llvm.ptr<1>", """
    %0 = llvm.mlir.constant(-7 : i32) : i32
    %1 = llvm.mlir.constant(true) : i1
    %2 = llvm.mlir.constant(1.500000e+00 : f32) : f32
    %3 = llvm.mlir.constant(dense<2.000000e+00> : vector<2xf16>) : vector<2xf16>
    %4 = llvm.mlir.constant(0 : index) : i64
    %5 = llvm.mlir.undef : vector<2xf32>
    %6 = llvm.mlir.poison : i32
    %7 = llvm.mlir.zero : !llvm.ptr<1>
    %8 = llvm.insertelement %2, %5[%4 : i64] : vector<2xf32>
    llvm.store %0, %p : i32, !llvm.ptr<1>
    llvm.store %1, %p : i1, !llvm.ptr<1>
    llvm.store %3, %p : vector<2xf16>, !llvm.ptr<1>
    llvm.store %8, %p : vector<2xf32>, !llvm.ptr<1>
    llvm.store %6, %p : i32, !llvm.ptr<1>
    llvm.store %7, %p : !llvm.ptr<1>, !llvm.ptr<1>
    llvm.return"""))
    check(ir, r"store i32 -7, ", r"store i1 true, ", r"store <2 x half> splat \(half 0xH4000\)",
          r"insertelement <2 x float> undef, float 1\.500000e\+00, i64 0",
          r"store i32 poison, ", r"store ptr addrspace\(1\) null, ")


def test_half_bfloat_and_hex_float_constants():
    """bf16 has no llvmlite type: its constants are LLVM's ``0xR`` bit patterns, rounded to
    nearest even (-3.140625 is 0xC049); hex literals are bit patterns (0xFC00 is -inf)."""
    ir = to_llvm_ir(function("%p: !llvm.ptr<1>", """
    %0 = llvm.mlir.constant(1.0 : bf16) : bf16
    %1 = llvm.mlir.constant(-3.140625 : bf16) : bf16
    %2 = llvm.mlir.constant(0xFC00 : f16) : f16
    %3 = llvm.mlir.constant(dense<0xFF800000> : vector<2xf32>) : vector<2xf32>
    llvm.store %0, %p : bf16, !llvm.ptr<1>
    llvm.store %1, %p : bf16, !llvm.ptr<1>
    llvm.store %2, %p : f16, !llvm.ptr<1>
    llvm.store %3, %p : vector<2xf32>, !llvm.ptr<1>
    llvm.return"""))
    check(ir, r"store bfloat 0xR3F80, ", r"store bfloat 0xRC049, ", r"store half 0xHFC00, ",
          r"store <2 x float> splat \(float 0xFFF0000000000000\), ")


# --------------------------------------------------------------------------- memory


def test_global_shared_memory_and_addressof():
    ir = to_llvm_ir("""module {
  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal constant @table(dense<[1, 2, 3]> : tensor<3xi32>) {addr_space = 1 : i32} : !llvm.array<3 x i32>
  llvm.func @f(%i: i32) -> f32 {
    %0 = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
    %1 = llvm.getelementptr %0[%i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    %2 = llvm.load %1 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
    llvm.return %2 : f32
  }
}""")
    check(ir, r"@global_smem = external addrspace\(3\) global \[0 x i8\], align 16",
          r"@table = internal addrspace\(1\) constant \[3 x i32\] \[i32 1, i32 2, i32 3\]",
          r"= getelementptr float, ptr addrspace\(3\) @global_smem, i32 %0",
          r"= load float, ptr addrspace\(3\) %V, align 4")


def test_loads_and_stores_volatile_atomic():
    ir = to_llvm_ir(function("%p: !llvm.ptr<1>, %v: vector<4xi32>", """
    %0 = llvm.load volatile %p {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
    %1 = llvm.load %p atomic syncscope("agent") acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
    %2 = llvm.load %p invariant : !llvm.ptr<1> -> i32
    llvm.store volatile %v, %p {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
    llvm.store %1, %p atomic syncscope("workgroup") release {alignment = 4 : i64} : i32, !llvm.ptr<1>
    llvm.return"""))
    check(ir, r"= load volatile <4 x i32>, ptr addrspace\(1\) %0, align 16",
          r'= load atomic i32, ptr addrspace\(1\) %0 syncscope\("agent"\) acquire, align 4',
          r"= load i32, ptr addrspace\(1\) %0, align 4, !invariant.load !\d+|"
          r"= load i32, ptr addrspace\(1\) %0, !invariant.load !\d+",
          r"store volatile <4 x i32> %1, ptr addrspace\(1\) %0, align 16",
          r'store atomic i32 %V, ptr addrspace\(1\) %0 syncscope\("workgroup"\) release, align 4')


def test_getelementptr_struct_and_inbounds():
    ir = to_llvm_ir(function("%p: !llvm.ptr, %i: i64", """
    %0 = llvm.getelementptr inbounds %p[%i, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f64)>
    %1 = llvm.load %0 : !llvm.ptr -> f64
    llvm.return"""))
    check(ir, r"= getelementptr inbounds \{ i32, double \}, ptr %0, i64 %1, i32 1")


def test_alloca_in_private_address_space():
    ir = to_llvm_ir(function("", """
    %n = llvm.mlir.constant(4 : i32) : i32
    %0 = llvm.alloca %n x f32 {alignment = 16 : i64} : (i32) -> !llvm.ptr<5>
    llvm.return"""))
    check(ir, r"= alloca float, i32 4, align 16, addrspace\(5\)")


def test_atomics_and_fence():
    ir = to_llvm_ir(function("%p: !llvm.ptr<1>, %v: i32, %f: f32", """
    %0 = llvm.atomicrmw add %p, %v syncscope("agent") monotonic : !llvm.ptr<1>, i32
    %1 = llvm.atomicrmw _and %p, %0 acq_rel : !llvm.ptr<1>, i32
    %2 = llvm.atomicrmw fadd %p, %f syncscope("agent") seq_cst {alignment = 4 : i64} : !llvm.ptr<1>, f32
    %3 = llvm.cmpxchg %p, %v, %1 syncscope("agent") acq_rel monotonic : !llvm.ptr<1>, i32
    %4 = llvm.extractvalue %3[1] : !llvm.struct<(i32, i1)>
    llvm.fence syncscope("workgroup") release
    llvm.return"""))
    check(ir, r'= atomicrmw add ptr addrspace\(1\) %0, i32 %1 syncscope\("agent"\) monotonic',
          r"= atomicrmw and ptr addrspace\(1\) %0, i32 %V acq_rel",
          r'= atomicrmw fadd ptr addrspace\(1\) %0, float %2 syncscope\("agent"\) seq_cst, align 4',
          r'= cmpxchg ptr addrspace\(1\) %0, i32 %1, i32 %V syncscope\("agent"\) acq_rel monotonic',
          r'fence syncscope\("workgroup"\) release')


# --------------------------------------------------------------------------- calls and intrinsics


def test_calls_and_declarations():
    ir = to_llvm_ir("""module {
  llvm.func @__nv_erff(f32) -> f32
  llvm.func @helper(%x: f32) -> f32 {
    %0 = llvm.call @__nv_erff(%x) : (f32) -> f32
    llvm.return %0 : f32
  }
  llvm.func @f(%x: f32) -> f32 {
    %0 = llvm.call @helper(%x) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
    %1 = llvm.call_intrinsic "llvm.nvvm.div.full"(%0, %x) : (f32, f32) -> f32
    llvm.return %1 : f32
  }
}""")
    check(ir, r"declare float @__nv_erff\(float\)", r"= call float @__nv_erff\(float %0\)",
          r"= call afn float @helper\(float %0\)", r"= call float @llvm\.nvvm\.div\.full\(float %V, float %0\)")


def test_intrinsic_ops_get_mangled_names_and_immediate_flags():
    ir = to_llvm_ir(function("%a: i32, %b: i32, %x: f32, %y: f32, %v: vector<4xf32>, %w: i64", """
    %0 = llvm.intr.smin(%a, %b) : (i32, i32) -> i32
    %1 = llvm.intr.smin(%w, %w) : (i64, i64) -> i64
    %2 = llvm.intr.abs(%a) {is_int_min_poison = false} : (i32) -> i32
    %3 = llvm.intr.ctlz(%a) {is_zero_poison = true} : (i32) -> i32
    %4 = llvm.intr.maxnum(%x, %y) : (f32, f32) -> f32
    %5 = llvm.intr.fmuladd(%x, %y, %4) : (f32, f32, f32) -> f32
    %6 = llvm.intr.vector.reduce.fmax(%v) : (vector<4xf32>) -> f32
    %7 = llvm.intr.exp2(%x) : (f32) -> f32
    %8 = llvm.intr.ctpop(%w) : (i64) -> i64
    llvm.return"""))
    check(ir, r"= call i32 @llvm\.smin\.i32\(i32 %0, i32 %1\)",
          r"= call i64 @llvm\.smin\.i64\(i64 %5, i64 %5\)",
          r"= call i32 @llvm\.abs\.i32\(i32 %0, i1 false\)",
          r"= call i32 @llvm\.ctlz\.i32\(i32 %0, i1 true\)",
          r"= call float @llvm\.maxnum\.f32\(float %2, float %3\)",
          r"= call float @llvm\.fmuladd\.f32\(float %2, float %3, float %V\)",
          r"= call float @llvm\.vector\.reduce\.fmax\.v4f32\(<4 x float> %4\)",
          r"= call float @llvm\.exp2\.f32\(float %2\)", r"= call i64 @llvm\.ctpop\.i64\(i64 %5\)")


def test_inline_asm_is_escaped_and_keeps_void_results():
    ir = to_llvm_ir(function("%p: !llvm.ptr<1>, %m: i1, %v: i32", r"""
    %0 = llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mov.u32 $0, 0x0;\0A\09@$2 ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l,b" %p, %m : (!llvm.ptr<1>, i1) -> i32
    %1 = llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b" %0, %p, %m : (i32, !llvm.ptr<1>, i1) -> !llvm.void
    %2 = llvm.inline_asm "mov.b32 $0, \"x\";", "=r" : () -> i32
    llvm.return"""))
    check(ir,
          r'= call i32 asm sideeffect "mov\.u32 \$0, 0x0;\\0A\\09@\$2 ld\.global\.b32 \{ \$0 \}, '
          r'\[ \$1 \+ 0 \];", "=r,l,b"\(ptr addrspace\(1\) %0, i1 %1\)',
          r'call void asm sideeffect "@\$2 st\.global\.b32 \[ \$1 \+ 0 \], \{ \$0 \};", "r,l,b"'
          r"\(i32 %V, ptr addrspace\(1\) %0, i1 %1\)",
          r'= call i32 asm "mov\.b32 \$0, \\22x\\22;", "=r"\(\)')


# --------------------------------------------------------------------------- control flow


def test_branches_with_block_arguments_become_phis():
    ir = to_llvm_ir(function("%c: i1, %a: i32, %b: i32", """
    llvm.cond_br %c, ^bb1, ^bb2(%a : i32)
  ^bb1:
    %0 = llvm.add %a, %b : i32
    llvm.br ^bb2(%0 : i32)
  ^bb2(%r: i32):
    llvm.return %r : i32""", "i32"))
    check(ir, r"br i1 %0, label %\d+, label %\d+", r"= phi i32 \[ %1, %3 \], \[ %V, %\d+ \]",
          r"ret i32 %V")



def test_values_are_numbered_and_local_symbols_keep_their_names():
    # As mlir-translate: arguments, blocks and instructions unnamed (numbered by LLVM),
    # internal and private globals and functions named as in the LLVM dialect.
    ir = to_llvm_ir("""module {
  llvm.mlir.global private constant @table(dense<[1, 2]> : tensor<2xi32>) {addr_space = 1 : i32} : !llvm.array<2 x i32>
  llvm.func internal @helper(%x: i32) -> i32 {
    %0 = llvm.mul %x, %x : i32
    llvm.return %0 : i32
  }
  llvm.func @f(%c: i1, %a: i32) -> i32 {
    %0 = llvm.mlir.addressof @table : !llvm.ptr<1>
    %1 = llvm.load %0 : !llvm.ptr<1> -> i32
    llvm.cond_br %c, ^bb1, ^bb2(%a : i32)
  ^bb1:
    %2 = llvm.call @helper(%1) : (i32) -> i32
    llvm.br ^bb2(%2 : i32)
  ^bb2(%r: i32):
    llvm.return %r : i32
  }
}""")
    check(ir, r"@table = private addrspace\(1\) constant \[2 x i32\]",
          r"define internal i32 @helper\(i32 %0\)", r"= mul i32 %0, %0",
          r"= load i32, ptr addrspace\(1\) @table", r"br i1 %0, label %4, label %6",
          r"\n4:\s", r"= call i32 @helper\(i32 %3\)", r"= phi i32 \[ %1, %2 \], \[ %5, %4 \]")
    assert '%"' not in ir and "%." not in ir and "bb" not in ir

# --------------------------------------------------------------------------- nvvm


def test_nvvm_special_registers_barriers_and_shuffles():
    ir = to_llvm_ir(function("%v: i32, %f: f32", """
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %bid = nvvm.read.ptx.sreg.ctaid.y : i32
    %lane = nvvm.read.ptx.sreg.laneid : i32
    %t = nvvm.read.ptx.sreg.clock64 : i64
    nvvm.barrier0
    %mask = llvm.mlir.constant(-1 : i32) : i32
    %c16 = llvm.mlir.constant(16 : i32) : i32
    %c31 = llvm.mlir.constant(31 : i32) : i32
    %0 = nvvm.shfl.sync bfly %mask, %v, %c16, %c31 : i32 -> i32
    %1 = nvvm.shfl.sync idx %mask, %f, %c16, %c31 : f32 -> f32
    %2 = nvvm.shfl.sync up %mask, %v, %c16, %tid : i32 -> i32
    nvvm.cp.async.commit.group
    nvvm.cp.async.wait.group 2
    llvm.return"""))
    check(ir, r"= call i32 @llvm\.nvvm\.read\.ptx\.sreg\.tid\.x\(\)",
          r"= call i32 @llvm\.nvvm\.read\.ptx\.sreg\.ctaid\.y\(\)",
          r"= call i32 @llvm\.nvvm\.read\.ptx\.sreg\.laneid\(\)",
          r"= call i64 @llvm\.nvvm\.read\.ptx\.sreg\.clock64\(\)",
          r"call void @llvm\.nvvm\.barrier\.cta\.sync\.aligned\.all\(i32 0\)",
          r"= call i32 @llvm\.nvvm\.shfl\.sync\.bfly\.i32\(i32 -1, i32 %0, i32 16, i32 31\)",
          r"= call float @llvm\.nvvm\.shfl\.sync\.idx\.f32\(i32 -1, float %1, i32 16, i32 31\)",
          r"= call i32 @llvm\.nvvm\.shfl\.sync\.up\.i32\(i32 -1, i32 %0, i32 16, i32 %V\)",
          r"call void @llvm\.nvvm\.cp\.async\.commit\.group\(\)",
          r"call void @llvm\.nvvm\.cp\.async\.wait\.group\(i32 2\)")


def test_nvvm_votes_reductions_and_named_barriers():
    ir = to_llvm_ir(function("%v: i32, %c: i1", """
    %mask = llvm.mlir.constant(-1 : i32) : i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %n = llvm.mlir.constant(64 : i32) : i32
    %0 = nvvm.vote.sync ballot %mask, %c -> i32
    %1 = nvvm.vote.sync any %mask, %c -> i1
    %2 = nvvm.redux.sync add %v, %mask : i32 -> i32
    nvvm.barrier id = %one number_of_threads = %n
    nvvm.barrier id = %one
    nvvm.bar.warp.sync %mask : i32
    llvm.return"""))
    check(ir, r"= call i32 @llvm\.nvvm\.vote\.ballot\.sync\(i32 -1, i1 %1\)",
          r"= call i1 @llvm\.nvvm\.vote\.any\.sync\(i32 -1, i1 %1\)",
          r"= call i32 @llvm\.nvvm\.redux\.sync\.add\(i32 %0, i32 -1\)",
          r"call void @llvm\.nvvm\.barrier\.cta\.sync\.aligned\.count\(i32 1, i32 64\)",
          r"call void @llvm\.nvvm\.barrier\.cta\.sync\.aligned\.all\(i32 1\)",
          r"call void @llvm\.nvvm\.bar\.warp\.sync\(i32 -1\)")


def test_nvvm_matrix_loads_stores_and_wgmma_fences():
    ir = to_llvm_ir(function("%p: !llvm.ptr<3>, %a: i32", """
    %0 = nvvm.ldmatrix %p {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
    %1 = nvvm.ldmatrix %p {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 1 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> i32
    nvvm.stmatrix %p, %a, %a, %a, %a {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.wgmma.fence.aligned
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 1
    llvm.return"""))
    check(ir,
          r"= call \{ i32, i32, i32, i32 \} @llvm\.nvvm\.ldmatrix\.sync\.aligned\.m8n8\.x4\.b16\.p3\(ptr addrspace\(3\) %0\)",
          r"= call i32 @llvm\.nvvm\.ldmatrix\.sync\.aligned\.m8n8\.x1\.trans\.b16\.p3\(ptr addrspace\(3\) %0\)",
          r"call void @llvm\.nvvm\.stmatrix\.sync\.aligned\.m8n8\.x4\.b16\.p3\(ptr addrspace\(3\) %0, i32 %1, i32 %1, i32 %1, i32 %1\)",
          r"call void @llvm\.nvvm\.fence\.proxy\.async\.shared_cta\(\)",
          r"call void @llvm\.nvvm\.wgmma\.fence\.sync\.aligned\(\)",
          r"call void @llvm\.nvvm\.wgmma\.commit_group\.sync\.aligned\(\)",
          r"call void @llvm\.nvvm\.wgmma\.wait_group\.sync\.aligned\(i64 1\)")


# --------------------------------------------------------------------------- rocdl


def test_rocdl_ids_barriers_and_cross_lane_ops():
    ir = to_llvm_ir(function("%v: i32, %f: f32, %c: i1", """
    %0 = rocdl.workitem.id.x : i32
    %1 = rocdl.workgroup.id.y : i32
    rocdl.barrier
    rocdl.s.barrier
    rocdl.s.waitcnt 49279
    rocdl.sched.barrier 0
    rocdl.s.setprio 1
    %2 = rocdl.ds_bpermute %0, %v : (i32, i32) -> i32
    %3 = rocdl.update.dpp %f, %f with 280, 15, 15, true : f32
    %4 = rocdl.permlanex16 %v, %v, %0, %0, true, false : i32, i32
    %5 = rocdl.readlane %f, %0 : (f32, i32) -> f32
    %6 = rocdl.ballot %c : i64
    %7 = rocdl.mbcnt.lo %v, %0 : (i32, i32) -> i32
    llvm.return"""))
    check(ir, r"= call i32 @llvm\.amdgcn\.workitem\.id\.x\(\)",
          r"= call i32 @llvm\.amdgcn\.workgroup\.id\.y\(\)",
          r'fence syncscope\("workgroup"\) release\n\s+call void @llvm\.amdgcn\.s\.barrier\(\)\n'
          r'\s+fence syncscope\("workgroup"\) acquire',
          r"call void @llvm\.amdgcn\.s\.waitcnt\(i32 49279\)",
          r"call void @llvm\.amdgcn\.sched\.barrier\(i32 0\)",
          r"call void @llvm\.amdgcn\.s\.setprio\(i16 1\)",
          r"= call i32 @llvm\.amdgcn\.ds\.bpermute\(i32 %V, i32 %0\)",
          r"= call float @llvm\.amdgcn\.update\.dpp\.f32\(float %1, float %1, i32 280, i32 15, i32 15, i1 true\)",
          r"= call i32 @llvm\.amdgcn\.permlanex16\.i32\(i32 %0, i32 %0, i32 %V, i32 %V, i1 true, i1 false\)",
          r"= call float @llvm\.amdgcn\.readlane\.f32\(float %1, i32 %V\)",
          r"= call i64 @llvm\.amdgcn\.ballot\.i64\(i1 %2\)",
          r"= call i32 @llvm\.amdgcn\.mbcnt\.lo\(i32 %0, i32 %V\)")


def test_rocdl_buffer_resources_and_mfma():
    ir = to_llvm_ir(function("%p: !llvm.ptr<1>, %a: vector<4xf16>, %acc: vector<16xf32>", """
    %stride = llvm.mlir.constant(0 : i16) : i16
    %n = llvm.mlir.constant(2147483646 : i64) : i64
    %flags = llvm.mlir.constant(159744 : i32) : i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    %r = rocdl.make.buffer.rsrc %p, %stride, %n, %flags : <1> to <8>
    %x = rocdl.raw.ptr.buffer.load %r, %zero, %zero, %zero : f32
    rocdl.raw.ptr.buffer.store %x, %r, %zero, %zero, %zero : f32
    %d = rocdl.mfma.f32.32x32x8f16 %a, %a, %acc, %zero, %zero, %zero : (vector<4xf16>, vector<4xf16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
    llvm.return"""))
    check(ir, r"= call ptr addrspace\(8\) @llvm\.amdgcn\.make\.buffer\.rsrc\.p8\.p1\(ptr addrspace\(1\) %0, i16 0, i64 2147483646, i32 159744\)",
          r"= call float @llvm\.amdgcn\.raw\.ptr\.buffer\.load\.f32\(ptr addrspace\(8\) %V, i32 0, i32 0, i32 0\)",
          r"call void @llvm\.amdgcn\.raw\.ptr\.buffer\.store\.f32\(float %V, ptr addrspace\(8\) %V, i32 0, i32 0, i32 0\)",
          r"= call <16 x float> @llvm\.amdgcn\.mfma\.f32\.32x32x8f16\(<4 x half> %1, <4 x half> %1, <16 x float> %2, i32 0, i32 0, i32 0\)")


# --------------------------------------------------------------------------- kernels and targets

KERNEL = """module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  llvm.func @k(%p: !llvm.ptr<1> {tt.divisibility = 16 : i32, llvm.noalias}, %n: i32) attributes {nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 256>} {
    llvm.return
  }
}"""


def test_nvidia_kernel_attributes():
    ir = to_llvm_ir(KERNEL, "sm_90a")
    check(ir, r"define ptx_kernel void @k\(ptr addrspace\(1\) noalias %0, i32 %1\) #0",
          r'attributes #0 = \{ "nvvm\.reqntid"="256" \}',
          r'target triple = "nvptx64-nvidia-cuda"',
          r'target datalayout = "e-p3:32:32-', r'!\{i32 4, !"nvvm-reflect-ftz", i32 1\}')


def test_kernel_without_target_is_a_ptx_kernel_like_mlir_translate():
    ir = to_llvm_ir(KERNEL)
    check(ir, r"define ptx_kernel void @k")
    assert "target triple" not in ir


def test_amd_kernel_attributes_follow_triton():
    ir = to_llvm_ir(KERNEL, "gfx942")
    check(ir, r"define amdgpu_kernel void @k\(ptr addrspace\(1\) inreg noalias %0, i32 inreg %1\) #0",
          r'"amdgpu-flat-work-group-size"="1,256"', r'"amdgpu-waves-per-eu"="0, 0"',
          r'"denormal-fp-math-f32"="ieee"', r'target triple = "amdgcn-amd-amdhsa"',
          r'!\{i32 1, !"amdhsa_code_object_version", i32 500\}')
    assert "nvvm.reqntid" not in ir


def test_helper_functions_are_always_inlined_for_a_target():
    ir = to_llvm_ir("""module {
  llvm.func @helper(%x: i32) -> i32 {
    llvm.return %x : i32
  }
  llvm.func @k() attributes {nvvm.kernel} {
    llvm.return
  }
}""", "sm_80")
    check(ir, r"define i32 @helper\(i32 %0\) #0", r"attributes #0 = \{ alwaysinline \}")


# --------------------------------------------------------------------------- debug info


def test_locations_become_line_table_debug_info():
    ir = to_llvm_ir("""module {
  llvm.func @k(%a: i32) -> i32 {
    %0 = llvm.add %a, %a : i32 loc("src/kernels.py":12:5)
    %1 = llvm.mul %0, %a : i32 loc(callsite("lib/standard.py":263:15 at "src/kernels.py":13:7))
    %2 = llvm.sub %1, %a : i32 loc("x"("src/kernels.py":14:9))
    llvm.return %2 : i32 loc(unknown)
  } loc("src/kernels.py":11:0)
}""")
    check(ir, r"define i32 @k\(i32 %0\) !dbg !(\d+)",
          r'!DIFile\(filename: "kernels\.py", directory: "src"\)',
          r'distinct !DICompileUnit\(language: DW_LANG_C, file: !\d+, producer: "tileopt", '
          r"isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly\)",
          r'distinct !DISubprogram\(name: "k", linkageName: "k", scope: !\d+, file: !\d+, '
          r"line: 11, type: !\d+, scopeLine: 11, spFlags: DISPFlagDefinition \| DISPFlagOptimized, unit: !\d+\)",
          r"add i32 %0, %0, !dbg !\d+", r"!DILocation\(line: 12, column: 5, scope: !\d+\)",
          r"!DILocation\(line: 263, column: 15, scope: !\d+, inlinedAt: !\d+\)",
          r"!DILocation\(line: 13, column: 7, scope: !\d+\)",
          r"!DILocation\(line: 14, column: 9, scope: !\d+\)",
          r'!\{i32 2, !"Debug Info Version", i32 3\}')
    assert re.search(r"ret i32 %\d+\n", ir), "an unknown location carries no !dbg"


def test_a_location_shared_by_two_functions_is_scoped_by_each():
    # One location object (an alias) in two functions: each op's !DILocation has its own
    # function's subprogram as scope (the builder remembers a location per function).
    ir = to_llvm_ir("""#loc = loc("src/kernels.py":12:5)
module {
  llvm.func @f(%a: i32) -> i32 {
    %0 = llvm.add %a, %a : i32 loc(#loc)
    llvm.return %0 : i32 loc(#loc)
  } loc("src/kernels.py":11:0)
  llvm.func @g(%a: i32) -> i32 {
    %0 = llvm.add %a, %a : i32 loc(#loc)
    llvm.return %0 : i32 loc(#loc)
  } loc("src/kernels.py":20:0)
}""")
    subprograms = dict(re.findall(r"define i32 @(\w)\(i32 %0\) !dbg !(\d+)", ir))
    scopes = {}
    for function, body in re.findall(r"define i32 @(\w)\(.*?\n(.*?)\n}", ir, re.S):
        (used,) = set(re.findall(r"!dbg !(\d+)", body))
        scopes[function] = re.search(rf"^!{used} = !DILocation\(line: 12, column: 5, "
                                     r"scope: !(\d+)\)", ir, re.M).group(1)
    assert scopes == subprograms and len(set(scopes.values())) == 2


def test_inlined_code_in_two_functions_is_scoped_by_each():
    # Equal call-site locations in two functions: the inlined line and its call site are
    # scoped by lexical blocks of each function's own subprogram.
    site = 'loc(callsite("lib/standard.py":263:15 at "src/kernels.py":13:7))'
    ir = to_llvm_ir(f"""module {{
  llvm.func @f(%a: i32) -> i32 {{
    %0 = llvm.add %a, %a : i32 {site}
    %1 = llvm.mul %0, %a : i32 {site}
    llvm.return %1 : i32
  }} loc("src/kernels.py":11:0)
  llvm.func @g(%a: i32) -> i32 {{
    %0 = llvm.add %a, %a : i32 {site}
    llvm.return %0 : i32
  }} loc("src/kernels.py":20:0)
}}""")
    subprograms = dict(re.findall(r"define i32 @(\w)\(i32 %0\) !dbg !(\d+)", ir))
    metadata = dict(re.findall(r"^!(\d+) = (.*)$", ir, re.M))
    for function, body in re.findall(r"define i32 @(\w)\(.*?\n(.*?)\n}", ir, re.S):
        (used,) = set(re.findall(r"!dbg !(\d+)", body))  # both ops of @f: one node
        inlined = re.fullmatch(r"!DILocation\(line: 263, column: 15, scope: !(\d+), "
                               r"inlinedAt: !(\d+)\)", metadata[used])
        block, caller = inlined.groups()
        caller_block = re.fullmatch(r"!DILocation\(line: 13, column: 7, scope: !(\d+)\)",
                                    metadata[caller]).group(1)
        for scope in (block, caller_block):
            assert re.fullmatch(rf"distinct !DILexicalBlockFile\(scope: !{subprograms[function]}, "
                                r"file: !\d+, discriminator: 0\)", metadata[scope])


def test_no_debug_info_without_locations():
    ir = to_llvm_ir(function("%a: i32", "    llvm.return %a : i32", "i32"))
    assert "!dbg" not in ir and "DICompileUnit" not in ir
