// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s
// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s --check-prefix=CLEAN
// Operations and SSA values that do not exist or do not fit.
// CLEAN-NOT: {{Traceback|internal error}}

// An op no dialect defines.
// CHECK: {{.*}}invalid-ops.mlir:9:8: error: custom op 'tt.frobnicate' is unknown
module {
  %0 = tt.frobnicate : i32
}

// -----

// The same, in the generic form.
// CHECK: {{.*}}invalid-ops.mlir:17:3: error: unregistered operation 'tt.frobnicate' found in dialect ('tt') that does not allow unknown operations
module {
  "tt.frobnicate"() : () -> ()
}

// -----

// A dialect tileopt does not load.
// CHECK: {{.*}}invalid-ops.mlir:25:8: error: custom op 'foo.bar' is unknown (dialect 'foo' is not registered; with --allow-unregistered-dialect, its ops are read in the generic form, "foo.bar"(...) : (...) -> (...))
module {
  %0 = foo.bar : i32
}

// -----

// A value never defined.
// CHECK: {{.*}}invalid-ops.mlir:33:15: error: use of undeclared SSA value name '%undefined'
func.func @f(%a: i32) -> i32 {
  func.return %undefined : i32
}

// -----

// A value defined twice.
// CHECK: {{.*}}invalid-ops.mlir:42:3: error: SSA value %0 is already defined
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %0 = arith.muli %a, %a : i32
  func.return %0 : i32
}

// -----

// A value used before its definition in the same block.
// CHECK: {{.*}}invalid-ops.mlir:51:3: error: 'arith.addi' op operand #0 does not dominate this use
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %1, %a : i32
  %1 = arith.addi %a, %a : i32
  func.return %0 : i32
}

// -----

// A value defined in one branch of a CFG and used where the other branch joins: its
// block does not dominate the use (issue 13; MLIR's dominance rule across blocks).
// CHECK: {{.*}}invalid-ops.mlir:67:3: error: 'llvm.return' op operand #0 does not dominate this use
llvm.func @join(%c: i1) -> i32 {
  llvm.cond_br %c, ^then, ^join
^then:
  %x = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^join
^join:
  llvm.return %x : i32
}

// -----

// The same value used in a block that its block does dominate is fine; only the second
// function's use is an error.
// CHECK-NOT: invalid-ops.mlir:80:{{.*}}error
// CHECK: {{.*}}invalid-ops.mlir:88:3: error: 'llvm.return' op operand #0 does not dominate this use
llvm.func @chain(%c: i1) -> i32 {
  %x = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^next
^next:
  llvm.return %x : i32
}
llvm.func @unreachable_def() -> i32 {
  llvm.br ^use
^def:
  %y = llvm.mlir.constant(2 : i32) : i32
  llvm.br ^use
^use:
  llvm.return %y : i32
}

// -----

// Operand types that disagree (generic form skips the custom parser).
// CHECK: {{.*}}invalid-ops.mlir:96:3: error: 'arith.addi' op operand 'rhs' at position 1 does not verify: attribute i32 expected from variable 'T', but got i64
func.func @f(%a: i32, %b: i64) -> i32 {
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  func.return %0 : i32
}

// -----

// A function body without a terminator.
// CHECK: {{.*}}invalid-ops.mlir:105:3: error: 'arith.addi' op ends the body of 'func.func', which must end with a terminator operation
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
}

// -----

// More results bound than the op has.
// CHECK: {{.*}}invalid-ops.mlir:113:3: error: Operation has 1 results, but was given 2 to bind.
func.func @f(%a: i32) -> i32 {
  %0, %1 = arith.addi %a, %a : i32
  func.return %0 : i32
}

// -----

// A value used with another type than it was defined with.
// CHECK: {{.*}}invalid-ops.mlir:123:15: error: operand is used with type i64, but has been previously used or defined with type i32
func.func @f(%a: i32) -> i64 {
  %0 = arith.addi %a, %a : i32
  func.return %0 : i64
}

// -----

// A branch to a block that does not exist.
// CHECK: {{.*}}invalid-ops.mlir:131:9: error: reference to an undefined block '^bb7'
func.func @f(%a: i32) {
  cf.br ^bb7
}

// -----

// An integer op on floats.
// CHECK: {{.*}}invalid-ops.mlir:139:3: error: 'arith.addi' op Unexpected attribute f32
func.func @f(%a: f32) -> f32 {
  %0 = arith.addi %a, %a : f32
  func.return %0 : f32
}

// -----

// A comparison predicate arith does not have.
// CHECK: {{.*}}invalid-ops.mlir:148:19: error: unknown comparison predicate 'sideways'
func.func @f(%a: i32) -> i1 {
  %0 = arith.cmpi sideways, %a, %a : i32
  func.return %0 : i1
}

// -----

// A tensor select whose condition has another shape than its values.
// CHECK: {{.*}}invalid-ops.mlir:157:3: error: 'arith.select' op a shaped condition and the values must have the same shape: tensor<8xi1> vs tensor<4xf32>
func.func @f(%c: tensor<8xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.select %c, %a, %a : tensor<8xi1>, tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// An scf.if with a result whose else branch yields nothing (found by the fuzzer, issue 13):
// the verifier says so instead of a canonicalization pattern failing later.
// CHECK: invalid-ops.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: 'scf.yield' op yields 0 value(s) where its parent 'scf.if' has 1 result(s) (f32)
func.func @if_without_else_yield(%c: i1, %a: f32) -> f32 {
  %r = scf.if %c -> (f32) {
    scf.yield %a : f32
  } else {
  }
  func.return %r : f32
}

// -----

// An LLVM alignment that is not a power of 2 (found by the fuzzer, issue 13): the
// verifier refuses it, as MLIR's LLVM dialect does, before LLVM would.
// CHECK: invalid-ops.mlir:[[# @LINE + 2]]:3: error: 'llvm.mlir.global' op alignment attribute is not a power of 2 (0)
module {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 0 : i64} : !llvm.array<0 x i8>
}
