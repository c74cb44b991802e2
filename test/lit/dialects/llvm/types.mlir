// RUN: tileopt %s -split-input-file | FileCheck %s
// RUN: tileopt %s -split-input-file | tileopt -split-input-file | FileCheck %s

// Inside an LLVM type, MLIR writes the dialect's own types without `!llvm.` and every
// other type as usual (Triton's lowering tests check `!llvm.struct<(ptr<3>, i32)>`);
// the long spelling is read too.
// CHECK-LABEL: llvm.func @nested
// CHECK-SAME:    !llvm.struct<(ptr<3>, i32)>
// CHECK-SAME:    !llvm.array<4 x ptr<1>>
// CHECK-SAME:    !llvm.struct<(struct<(i32, ptr)>, array<2 x vector<4xf32>>)>
// CHECK-SAME:    !llvm.struct<(ptr<3>, i32)>
llvm.func @nested(%a: !llvm.struct<(ptr<3>, i32)>, %b: !llvm.array<4 x !llvm.ptr<1>>,
                  %c: !llvm.struct<(struct<(i32, ptr)>, array<2 x vector<4xf32>>)>,
                  %d: !llvm.struct<(!llvm.ptr<3>, i32)>) {
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @declared(!llvm.ptr) -> !llvm.struct<(i32, array<2 x ptr<3>>)>
llvm.func @declared(!llvm.ptr) -> !llvm.struct<(i32, array<2 x ptr<3>>)>

// -----

// A void inline_asm has a result of type void, as MLIR and Triton's builder make it.
// CHECK-LABEL: llvm.func @void_asm
// CHECK:         %{{.*}} = llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "bar.sync 0;", "" : () -> !llvm.void
llvm.func @void_asm() {
  llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "bar.sync 0;", ""  : () -> !llvm.void
  llvm.return
}
