// RUN: tileopt %s -split-input-file --enable-line-info --mlir-print-debuginfo | FileCheck %s
// RUN: tileopt %s -split-input-file --enable-line-info --mlir-print-debuginfo | tileopt -split-input-file --enable-line-info --mlir-print-debuginfo | FileCheck %s
// RUN: tileopt-translate --emit=llvm-ir %S/enable-line-info.mlir -split-input-file | FileCheck %s --check-prefix=IR
// RUN: tileopt %s -split-input-file --enable-line-info --mlir-print-debuginfo | tileopt-translate --emit=llvm-ir -split-input-file | FileCheck %s --check-prefix=IR

// A definition gets a subprogram at its own file and line, in a compile unit of that
// file; a declaration one without compile unit, flagged Optimized only. The second run
// (second RUN line) changes nothing: both are scoped already.
// CHECK-LABEL: llvm.func @decl
// CHECK-SAME:  (f32) -> f32 loc(#[[DECL:loc[0-9]*]])
// CHECK:       llvm.func @kernel
// CHECK:       } loc(#[[KERNEL:loc[0-9]*]])
// CHECK: #[[DECL]] = loc(fused<#llvm.di_subprogram<scope = #llvm.di_file<"math.py" in "lib">, name = "decl", linkageName = "decl", file = #llvm.di_file<"math.py" in "lib">, line = 7, scopeLine = 7, subprogramFlags = Optimized, type = #llvm.di_subroutine_type<callingConvention = DW_CC_normal>>>[#{{loc[0-9]*}}])
// CHECK: #[[KERNEL]] = loc(fused<#llvm.di_subprogram<id = distinct[0]<>, compileUnit = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C, file = #llvm.di_file<"k.py" in ".">, producer = "tileopt", isOptimized = true, emissionKind = LineTablesOnly>, scope = #llvm.di_file<"k.py" in ".">, name = "kernel", linkageName = "kernel", file = #llvm.di_file<"k.py" in ".">, line = 11, scopeLine = 11, subprogramFlags = "Definition|Optimized", type = #llvm.di_subroutine_type<callingConvention = DW_CC_normal>>>[#{{loc[0-9]*}}])
// The translation makes the same metadata as from the plain locations: one of each.
// IR: define float @kernel(float %0) !dbg ![[SP:[0-9]+]]
// IR: ![[SP]] = distinct !DISubprogram(name: "kernel", linkageName: "kernel", scope: ![[FILE:[0-9]+]], file: ![[FILE]], line: 11, type: !{{[0-9]+}}, scopeLine: 11, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !{{[0-9]+}})
// IR-NOT: DISubprogram
module {
  llvm.func @decl(f32) -> f32 loc("lib/math.py":7:3)
  llvm.func @kernel(%x: f32) -> f32 {
    %y = llvm.call @decl(%x) : (f32) -> f32
    llvm.return %y : f32 loc("k.py":16:5)
  } loc("k.py":11:0)
}

// -----

// Code inlined from another file: each leaf of the call-site chain is fused with the
// lexical block of its own file in the function's subprogram; plain locations stay.
// CHECK-LABEL: llvm.func @inlined
// CHECK:         llvm.fadd {{.*}} loc(#[[SITE:loc[0-9]*]])
// CHECK:         llvm.fmul {{.*}} loc(#[[PLAIN:loc[0-9]*]])
// CHECK-DAG: #[[PLAIN]] = loc("k.py":15:5)
// CHECK-DAG: #[[CALLEE:loc[0-9]*]] = loc(fused<#llvm.di_lexical_block_file<scope = #llvm.di_subprogram<{{.*}}name = "inlined"{{.*}}>, file = #llvm.di_file<"standard.py" in "triton/language">, discriminator = 0>>[#{{loc[0-9]*}}])
// CHECK-DAG: #[[CALLER:loc[0-9]*]] = loc(fused<#llvm.di_lexical_block_file<scope = #llvm.di_subprogram<{{.*}}name = "inlined"{{.*}}>, file = #llvm.di_file<"k.py" in ".">, discriminator = 0>>[#{{loc[0-9]*}}])
// CHECK-DAG: #[[SITE]] = loc(callsite(#[[CALLEE]] at #[[CALLER]]))
// IR: define float @inlined(float %0) !dbg ![[SP:[0-9]+]]
// IR:   fadd float %0, %0, !dbg ![[AT:[0-9]+]]
// IR: ![[AT]] = !DILocation(line: 50, column: 30, scope: ![[BLOCK:[0-9]+]], inlinedAt: !{{[0-9]+}})
// IR: ![[BLOCK]] = distinct !DILexicalBlockFile(scope: ![[SP]], file: ![[STD:[0-9]+]], discriminator: 0)
// IR: ![[STD]] = !DIFile(filename: "standard.py", directory: "triton/language")
// IR-NOT: DILexicalBlockFile(scope: ![[SP]], file: ![[STD]]
module {
  llvm.func @inlined(%x: f32) -> f32 {
    %y = llvm.fadd %x, %x : f32 loc(callsite("triton/language/standard.py":50:30 at "k.py":14:9))
    %z = llvm.fmul %y, %y : f32 loc("k.py":15:5)
    llvm.return %z : f32 loc("k.py":16:5)
  } loc("k.py":11:0)
}

// -----

// Two definitions: a compile unit each, told apart by their distinct ids; a function
// without a location points at "<unknown>" line 0 (the translation emits nothing for it).
// CHECK-LABEL: llvm.func @first
// CHECK: distinct[0]<>{{.*}}name = "first"
// CHECK: distinct[1]<>{{.*}}file = #llvm.di_file<"<unknown>" in "">{{.*}}name = "nowhere"{{.*}}line = 0
// IR: define void @first() !dbg
// IR: define void @nowhere() {
module {
  llvm.func @first() {
    llvm.return loc("k.py":3:1)
  } loc("k.py":2:0)
  llvm.func @nowhere() {
    llvm.return
  }
}

// -----

// A subprogram already there stays, and the translation takes its line (77) over the
// plain location's (11).
// CHECK-LABEL: llvm.func @scoped
// CHECK: #{{loc[0-9]*}} = loc(fused<#llvm.di_subprogram<id = distinct[0]<>, {{.*}}line = 77, scopeLine = 77
// IR: distinct !DISubprogram(name: "scoped", linkageName: "scoped", scope: !{{[0-9]+}}, file: !{{[0-9]+}}, line: 77, type: !{{[0-9]+}}, scopeLine: 77
#di_file = #llvm.di_file<"k.py" in ".">
#di_compile_unit = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C, file = #di_file, producer = "tileopt", isOptimized = true, emissionKind = LineTablesOnly>
#di_subroutine_type = #llvm.di_subroutine_type<callingConvention = DW_CC_normal>
#di_subprogram = #llvm.di_subprogram<id = distinct[0]<>, compileUnit = #di_compile_unit, scope = #di_file, name = "scoped", linkageName = "scoped", file = #di_file, line = 77, scopeLine = 77, subprogramFlags = "Definition|Optimized", type = #di_subroutine_type>
module {
  llvm.func @scoped() {
    llvm.return loc("k.py":12:1)
  } loc(fused<#di_subprogram>["k.py":11:0])
}
