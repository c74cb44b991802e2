// RUN: tileopt %s -split-input-file -canonicalize | FileCheck %s

// MLIR's arith folders and canonicalization patterns, on scalars and on tensors (splat
// constants keep the tensor's layout).

// A constant on the left of a commutative op moves right, then x * 1 is x.
// CHECK-LABEL: tt.func @muli_one_on_the_left
// CHECK-NOT:     arith.muli
// CHECK:         tt.return %arg0
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @muli_one_on_the_left(%x: tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked> {
    %c1 = arith.constant dense<1> : tensor<128xi32, #blocked>
    %r = arith.muli %c1, %x : tensor<128xi32, #blocked>
    tt.return %r : tensor<128xi32, #blocked>
  }
}

// -----

// The constant moves right without folding; the op keeps its flags.
// CHECK-LABEL: func.func @commutative_constant_moves_right
// CHECK:         %[[C:.*]] = arith.constant dense<3> : tensor<4xi32>
// CHECK:         arith.addi %arg0, %[[C]] overflow<nsw> : tensor<4xi32>
func.func @commutative_constant_moves_right(%x: tensor<4xi32>) -> tensor<4xi32> {
  %c = arith.constant dense<3> : tensor<4xi32>
  %r = arith.addi %c, %x overflow<nsw> : tensor<4xi32>
  func.return %r : tensor<4xi32>
}

// -----

// Integer identities on tensors: x + 0, x - 0, x * 1, x / 1, x | 0, x ^ 0, x & -1,
// x << 0 are x; x * 0, x & 0 are 0; x - x, x ^ x, x % 1 are 0.
// CHECK-LABEL: func.func @integer_identities
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0> : tensor<4xi32>
// CHECK-NOT:     arith.{{(addi|subi|muli|divsi|divui|remsi|ori|xori|andi|shli)}}
// CHECK:         return %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %[[ZERO]], %[[ZERO]], %[[ZERO]], %[[ZERO]], %[[ZERO]]
func.func @integer_identities(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %c0 = arith.constant dense<0> : tensor<4xi32>
  %c1 = arith.constant dense<1> : tensor<4xi32>
  %cm1 = arith.constant dense<-1> : tensor<4xi32>
  %0 = arith.addi %x, %c0 : tensor<4xi32>
  %1 = arith.subi %x, %c0 : tensor<4xi32>
  %2 = arith.muli %x, %c1 : tensor<4xi32>
  %3 = arith.divsi %x, %c1 : tensor<4xi32>
  %4 = arith.divui %x, %c1 : tensor<4xi32>
  %5 = arith.ori %x, %c0 : tensor<4xi32>
  %6 = arith.xori %x, %c0 : tensor<4xi32>
  %7 = arith.andi %x, %cm1 : tensor<4xi32>
  %8 = arith.muli %x, %c0 : tensor<4xi32>
  %9 = arith.andi %x, %c0 : tensor<4xi32>
  %10 = arith.subi %x, %x : tensor<4xi32>
  %11 = arith.xori %x, %x : tensor<4xi32>
  %12 = arith.remsi %x, %c1 : tensor<4xi32>
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// Constant folding wraps around at the type's width and reads signedness from the op.
// CHECK-LABEL: func.func @integer_constants
// CHECK-DAG:     %[[ADD:.*]] = arith.constant -128 : i8
// CHECK-DAG:     %[[MUL:.*]] = arith.constant dense<0> : tensor<4xi16>
// CHECK-DAG:     %[[DIVSI:.*]] = arith.constant -3 : i32
// CHECK-DAG:     %[[DIVUI:.*]] = arith.constant 127 : i8
// CHECK-DAG:     %[[REMSI:.*]] = arith.constant dense<-1> : tensor<4xi32>
// CHECK-DAG:     %[[SHRSI:.*]] = arith.constant -4 : i8
// CHECK-DAG:     %[[SHRUI:.*]] = arith.constant 124 : i8
// CHECK:         return %[[ADD]], %[[MUL]], %[[DIVSI]], %[[DIVUI]], %[[REMSI]], %[[SHRSI]], %[[SHRUI]]
func.func @integer_constants() -> (i8, tensor<4xi16>, i32, i8, tensor<4xi32>, i8, i8) {
  %c127 = arith.constant 127 : i8
  %c1_i8 = arith.constant 1 : i8
  %add = arith.addi %c127, %c1_i8 : i8
  %c256 = arith.constant dense<256> : tensor<4xi16>
  %mul = arith.muli %c256, %c256 : tensor<4xi16>
  %c7 = arith.constant 7 : i32
  %cm2 = arith.constant -2 : i32
  %divsi = arith.divsi %c7, %cm2 : i32
  %cm1_i8 = arith.constant -1 : i8
  %c2_i8 = arith.constant 2 : i8
  %divui = arith.divui %cm1_i8, %c2_i8 : i8
  %cm7 = arith.constant dense<-7> : tensor<4xi32>
  %c2 = arith.constant dense<2> : tensor<4xi32>
  %remsi = arith.remsi %cm7, %c2 : tensor<4xi32>
  %cm8 = arith.constant -8 : i8
  %shrsi = arith.shrsi %cm8, %c1_i8 : i8
  %shrui = arith.shrui %cm8, %c1_i8 : i8
  func.return %add, %mul, %divsi, %divui, %remsi, %shrsi, %shrui : i8, tensor<4xi16>, i32, i8, tensor<4xi32>, i8, i8
}

// -----

// What MLIR does not fold: division by zero, MIN / -1, shifts by the width or more.
// CHECK-LABEL: func.func @integer_constants_left_alone
// CHECK:         arith.divsi
// CHECK:         arith.divsi
// CHECK:         arith.remui
// CHECK:         arith.shli
func.func @integer_constants_left_alone() -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %min = arith.constant -2147483648 : i32
  %cm1 = arith.constant -1 : i32
  %c32 = arith.constant 32 : i32
  %0 = arith.divsi %c5, %c0 : i32
  %1 = arith.divsi %min, %cm1 : i32
  %2 = arith.remui %c5, %c0 : i32
  %3 = arith.shli %c5, %c32 : i32
  func.return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// Comparisons: of constants (signed and unsigned read the same bits differently), of a
// value with itself; a constant on the left moves right with the mirrored predicate.
// CHECK-LABEL: tt.func @cmpi
// CHECK-DAG:     %[[T:.*]] = arith.constant dense<true> : tensor<128xi1, #blocked>
// CHECK-DAG:     %[[F:.*]] = arith.constant dense<false> : tensor<128xi1, #blocked>
// CHECK-DAG:     %[[C10:.*]] = arith.constant 10 : i32
// CHECK:         %[[SWAPPED:.*]] = arith.cmpi sgt, %arg1, %[[C10]] : i32
// CHECK:         tt.return %[[T]], %[[F]], %[[T]], %[[F]], %[[SWAPPED]]
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @cmpi(%x: tensor<128xi32, #blocked>, %y: i32) -> (tensor<128xi1, #blocked>, tensor<128xi1, #blocked>, tensor<128xi1, #blocked>, tensor<128xi1, #blocked>, i1) {
    %a = arith.constant dense<-1> : tensor<128xi32, #blocked>
    %b = arith.constant dense<0> : tensor<128xi32, #blocked>
    %0 = arith.cmpi slt, %a, %b : tensor<128xi32, #blocked>
    %1 = arith.cmpi ult, %a, %b : tensor<128xi32, #blocked>
    %2 = arith.cmpi sge, %x, %x : tensor<128xi32, #blocked>
    %3 = arith.cmpi ne, %x, %x : tensor<128xi32, #blocked>
    %c10 = arith.constant 10 : i32
    %4 = arith.cmpi slt, %c10, %y : i32
    tt.return %0, %1, %2, %3, %4 : tensor<128xi1, #blocked>, tensor<128xi1, #blocked>, tensor<128xi1, #blocked>, tensor<128xi1, #blocked>, i1
  }
}

// -----

// i1 comparisons against 0 and 1, and an i1 widened then compared with 0, are the i1.
// CHECK-LABEL: func.func @cmpi_of_i1
// CHECK-NOT:     arith.cmpi
// CHECK:         return %arg0, %arg0, %arg0
func.func @cmpi_of_i1(%b: i1) -> (i1, i1, i1) {
  %false = arith.constant false
  %true = arith.constant true
  %0 = arith.cmpi ne, %b, %false : i1
  %1 = arith.cmpi eq, %b, %true : i1
  %w = arith.extui %b : i1 to i32
  %c0 = arith.constant 0 : i32
  %2 = arith.cmpi ne, %w, %c0 : i32
  func.return %0, %1, %2 : i1, i1, i1
}

// -----

// not(cmpi) is the inverse comparison.
// CHECK-LABEL: func.func @xori_of_cmpi
// CHECK:         %[[R:.*]] = arith.cmpi sge, %arg0, %arg1 : i32
// CHECK-NOT:     arith.xori
// CHECK:         return %[[R]]
func.func @xori_of_cmpi(%a: i32, %b: i32) -> i1 {
  %true = arith.constant true
  %c = arith.cmpi slt, %a, %b : i32
  %r = arith.xori %c, %true : i1
  func.return %r : i1
}

// -----

// select: constant condition, equal arms, i1 select of true/false, select of 1/0.
// CHECK-LABEL: func.func @select
// CHECK:         %[[EXT:.*]] = arith.extui %arg0 : i1 to i32
// CHECK-NOT:     arith.select
// CHECK:         return %arg1, %arg2, %arg1, %arg0, %[[EXT]]
func.func @select(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, i1, i32) {
  %true = arith.constant true
  %all = arith.constant dense<false> : tensor<4xi1>
  %false = arith.constant false
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %0 = arith.select %true, %a, %b : tensor<4xf32>
  %1 = arith.select %all, %a, %b : tensor<4xi1>, tensor<4xf32>
  %2 = arith.select %c, %a, %a : tensor<4xf32>
  %3 = arith.select %c, %true, %false : i1
  %4 = arith.select %c, %c1, %c0 : i32
  func.return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, i1, i32
}

// -----

// Integer casts of constants: sign or zero extension, truncation, index casts.
// CHECK-LABEL: func.func @integer_casts
// CHECK-DAG:     %[[SEXT:.*]] = arith.constant dense<-1> : tensor<4xi32>
// CHECK-DAG:     %[[ZEXT:.*]] = arith.constant 255 : i32
// CHECK-DAG:     %[[TRUNC:.*]] = arith.constant 1 : i8
// CHECK-DAG:     %[[IDX:.*]] = arith.constant -1 : index
// CHECK-DAG:     %[[IDXU:.*]] = arith.constant 255 : index
// CHECK:         return %[[SEXT]], %[[ZEXT]], %[[TRUNC]], %[[IDX]], %[[IDXU]]
func.func @integer_casts() -> (tensor<4xi32>, i32, i8, index, index) {
  %m1 = arith.constant dense<-1> : tensor<4xi8>
  %m1s = arith.constant -1 : i8
  %c257 = arith.constant 257 : i32
  %0 = arith.extsi %m1 : tensor<4xi8> to tensor<4xi32>
  %1 = arith.extui %m1s : i8 to i32
  %2 = arith.trunci %c257 : i32 to i8
  %3 = arith.index_cast %m1s : i8 to index
  %4 = arith.index_castui %m1s : i8 to index
  func.return %0, %1, %2, %3, %4 : tensor<4xi32>, i32, i8, index, index
}

// -----

// Chains of integer casts: extsi(extsi(x)) is one extsi; trunci(extsi(x)) to x's type is x;
// trunci(extui(x)) to a type between is extui; extsi(extui(x)) is extui.
// CHECK-LABEL: func.func @cast_chains
// CHECK-DAG:     %[[S:.*]] = arith.extsi %arg0 : i8 to i64
// CHECK-DAG:     %[[U:.*]] = arith.extui %arg0 : i8 to i16
// CHECK-DAG:     %[[SU:.*]] = arith.extui %arg0 : i8 to i64
// CHECK:         return %[[S]], %arg0, %[[U]], %[[SU]]
func.func @cast_chains(%x: i8) -> (i64, i8, i16, i64) {
  %a = arith.extsi %x : i8 to i32
  %0 = arith.extsi %a : i32 to i64
  %1 = arith.trunci %a : i32 to i8
  %b = arith.extui %x : i8 to i32
  %2 = arith.trunci %b : i32 to i16
  %c = arith.extui %x : i8 to i16
  %3 = arith.extsi %c : i16 to i64
  func.return %0, %1, %2, %3 : i64, i8, i16, i64
}

// -----

// Int-to-float conversions round to nearest even once (2^60 + 2^36 + 1 is above the
// halfway point of f32's 2^37 step, though rounding through f64 would land on it).
// CHECK-LABEL: func.func @int_to_float
// CHECK-DAG:     %[[S:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-DAG:     %[[U:.*]] = arith.constant 4.2949673E+9 : f32
// CHECK-DAG:     %[[BIG:.*]] = arith.constant 1.15292164E+18 : f32
// CHECK-DAG:     %[[SPLAT:.*]] = arith.constant dense<3.000000e+00> : tensor<4xf16>
// CHECK:         return %[[S]], %[[U]], %[[BIG]], %[[SPLAT]]
func.func @int_to_float() -> (f32, f32, f32, tensor<4xf16>) {
  %m1 = arith.constant -1 : i32
  %big = arith.constant 1152921573326323713 : i64
  %c3 = arith.constant dense<3> : tensor<4xi32>
  %0 = arith.sitofp %m1 : i32 to f32
  %1 = arith.uitofp %m1 : i32 to f32
  %2 = arith.sitofp %big : i64 to f32
  %3 = arith.sitofp %c3 : tensor<4xi32> to tensor<4xf16>
  func.return %0, %1, %2, %3 : f32, f32, f32, tensor<4xf16>
}

// -----

// Float-to-int conversions truncate toward zero; NaN and out-of-range values stay.
// CHECK-LABEL: func.func @float_to_int
// CHECK-DAG:     %[[P:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[N:.*]] = arith.constant -3 : i32
// CHECK-DAG:     %[[U:.*]] = arith.constant dense<255> : tensor<4xi32>
// CHECK:         %[[BIG:.*]] = arith.fptosi %{{.*}} : f32 to i32
// CHECK:         %[[NAN:.*]] = arith.fptosi %{{.*}} : f32 to i32
// CHECK:         return %[[P]], %[[N]], %[[U]], %[[BIG]], %[[NAN]]
func.func @float_to_int() -> (i32, i32, tensor<4xi32>, i32, i32) {
  %a = arith.constant 3.9 : f32
  %b = arith.constant -3.9 : f32
  %c = arith.constant dense<255.5> : tensor<4xf32>
  %d = arith.constant 1.0e10 : f32
  %e = arith.constant 0x7FC00000 : f32
  %0 = arith.fptosi %a : f32 to i32
  %1 = arith.fptosi %b : f32 to i32
  %2 = arith.fptoui %c : tensor<4xf32> to tensor<4xi32>
  %3 = arith.fptosi %d : f32 to i32
  %4 = arith.fptosi %e : f32 to i32
  func.return %0, %1, %2, %3, %4 : i32, i32, tensor<4xi32>, i32, i32
}

// -----

// truncf folds only values the narrower type holds exactly (0.5, -inf), not 0.1 or 1e10;
// extf always does.
// CHECK-LABEL: func.func @float_casts
// CHECK-DAG:     %[[HALF:.*]] = arith.constant dense<5.000000e-01> : tensor<4xf16>
// CHECK-DAG:     %[[NINF:.*]] = arith.constant 0xFC00 : f16
// CHECK-DAG:     %[[WIDE:.*]] = arith.constant dense<1.000000e-01> : tensor<4xf32>
// CHECK-DAG:     %[[EXT:.*]] = arith.constant 9.765625E-4 : f32
// CHECK:         %[[TENTH:.*]] = arith.truncf %[[WIDE]] : tensor<4xf32> to tensor<4xf16>
// CHECK:         %[[HUGE:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK:         return %[[HALF]], %[[NINF]], %[[TENTH]], %[[HUGE]], %[[EXT]]
func.func @float_casts() -> (tensor<4xf16>, f16, tensor<4xf16>, f16, f32) {
  %half = arith.constant dense<0.5> : tensor<4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %tenth = arith.constant dense<0.1> : tensor<4xf32>
  %huge = arith.constant 1.0e10 : f32
  %small = arith.constant 9.765625E-4 : f16
  %0 = arith.truncf %half : tensor<4xf32> to tensor<4xf16>
  %1 = arith.truncf %ninf : f32 to f16
  %2 = arith.truncf %tenth : tensor<4xf32> to tensor<4xf16>
  %3 = arith.truncf %huge : f32 to f16
  %4 = arith.extf %small : f16 to f32
  func.return %0, %1, %2, %3, %4 : tensor<4xf16>, f16, tensor<4xf16>, f16, f32
}

// -----

// bitcast to the same type is its input; constants are reinterpreted bit for bit.
// CHECK-LABEL: func.func @bitcast
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1065353216 : i32
// CHECK-DAG:     %[[NINF:.*]] = arith.constant dense<-8388608> : tensor<4xi32>
// CHECK-DAG:     %[[BF:.*]] = arith.constant 1.000000e+00 : bf16
// CHECK-DAG:     %[[TWICE:.*]] = arith.bitcast %arg1 : i32 to f32
// CHECK:         return %arg0, %[[ONE]], %[[NINF]], %[[BF]], %[[TWICE]]
func.func @bitcast(%x: i32, %y: i32) -> (i32, i32, tensor<4xi32>, bf16, f32) {
  %0 = arith.bitcast %x : i32 to i32
  %one = arith.constant 1.0 : f32
  %1 = arith.bitcast %one : f32 to i32
  %ninf = arith.constant dense<0xFF800000> : tensor<4xf32>
  %2 = arith.bitcast %ninf : tensor<4xf32> to tensor<4xi32>
  %bits = arith.constant 16256 : i16
  %3 = arith.bitcast %bits : i16 to bf16
  %f = arith.bitcast %y : i32 to f32
  %i = arith.bitcast %f : f32 to i32
  %4 = arith.bitcast %i : i32 to f32
  func.return %0, %1, %2, %3, %4 : i32, i32, tensor<4xi32>, bf16, f32
}

// -----

// Float identities: x + -0.0, x - 0.0, x * 1.0, x / 1.0 are x; x + 0.0 and x * 0.0 are not
// (-0.0 + 0.0 is +0.0, inf * 0.0 is NaN).
// CHECK-LABEL: func.func @float_identities
// CHECK:         %[[PZ:.*]] = arith.addf %arg0, %{{.*}} : tensor<4xf32>
// CHECK:         %[[MZ:.*]] = arith.mulf %arg0, %{{.*}} : tensor<4xf32>
// CHECK:         return %arg0, %arg0, %arg0, %arg0, %[[PZ]], %[[MZ]]
func.func @float_identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %nz = arith.constant dense<-0.0> : tensor<4xf32>
  %pz = arith.constant dense<0.0> : tensor<4xf32>
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %0 = arith.addf %x, %nz : tensor<4xf32>
  %1 = arith.subf %x, %pz : tensor<4xf32>
  %2 = arith.mulf %x, %one : tensor<4xf32>
  %3 = arith.divf %x, %one : tensor<4xf32>
  %4 = arith.addf %x, %pz : tensor<4xf32>
  %5 = arith.mulf %x, %pz : tensor<4xf32>
  func.return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Float constants fold in the element type: f16 rounds 2048 + 1 to even (2048) and
// overflows 60000 * 2 to infinity; inf - inf is the positive quiet NaN.
// CHECK-LABEL: func.func @float_constants
// CHECK-DAG:     %[[SUM:.*]] = arith.constant dense<2.048000e+03> : tensor<4xf16>
// CHECK-DAG:     %[[INF:.*]] = arith.constant dense<0x7C00> : tensor<4xf16>
// CHECK-DAG:     %[[NAN:.*]] = arith.constant dense<0x7FC00000> : tensor<4xf32>
// CHECK:         return %[[SUM]], %[[INF]], %[[NAN]]
func.func @float_constants() -> (tensor<4xf16>, tensor<4xf16>, tensor<4xf32>) {
  %a = arith.constant dense<2048.0> : tensor<4xf16>
  %b = arith.constant dense<1.0> : tensor<4xf16>
  %c = arith.constant dense<6.0e4> : tensor<4xf16>
  %d = arith.constant dense<2.0> : tensor<4xf16>
  %inf = arith.constant dense<0x7F800000> : tensor<4xf32>
  %0 = arith.addf %a, %b : tensor<4xf16>
  %1 = arith.mulf %c, %d : tensor<4xf16>
  %2 = arith.subf %inf, %inf : tensor<4xf32>
  func.return %0, %1, %2 : tensor<4xf16>, tensor<4xf16>, tensor<4xf32>
}

// -----

// remf folds constants as C's fmod (APFloat's mod): the sign of the dividend, a zero
// divisor or an infinite dividend gives the quiet NaN, an infinite divisor gives the
// dividend; f16, bf16, f64 and splat tensors alike. x % 1.0 stays (MLIR has no identity).
// CHECK-LABEL: func.func @remf_constants
// CHECK-DAG:     %[[A:.*]] = arith.constant 1.500000e+00 : f32
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:     %[[H:.*]] = arith.constant 1.000000e+00 : f16
// CHECK-DAG:     %[[D:.*]] = arith.constant -1.250000e+00 : f64
// CHECK-DAG:     %[[X:.*]] = arith.constant 5.500000e+00 : f32
// CHECK-DAG:     %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-DAG:     %[[B:.*]] = arith.constant 1.500000e+00 : bf16
// CHECK-DAG:     %[[T:.*]] = arith.constant dense<-1.500000e+00> : tensor<4xf32>
// CHECK-DAG:     %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK:         %[[R:.*]] = arith.remf %arg0, %[[ONE]] : tensor<4xf32>
// CHECK:         return %[[A]], %[[NAN]], %[[H]], %[[D]], %[[X]], %[[NZ]], %[[B]], %[[NAN]], %[[T]], %[[R]]
func.func @remf_constants(%x: tensor<4xf32>) -> (f32, f32, f16, f64, f32, f32, bf16, f32, tensor<4xf32>, tensor<4xf32>) {
  %a = arith.constant 5.5 : f32
  %b = arith.constant -2.0 : f32
  %c = arith.constant 0.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %h1 = arith.constant 7.0 : f16
  %h2 = arith.constant 3.0 : f16
  %d1 = arith.constant -7.25 : f64
  %d2 = arith.constant 2.0 : f64
  %n4 = arith.constant -4.0 : f32
  %b1 = arith.constant 9.5 : bf16
  %b2 = arith.constant 4.0 : bf16
  %ta = arith.constant dense<-7.5> : tensor<4xf32>
  %tb = arith.constant dense<2.0> : tensor<4xf32>
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %0 = arith.remf %a, %b : f32
  %1 = arith.remf %a, %c : f32
  %2 = arith.remf %h1, %h2 : f16
  %3 = arith.remf %d1, %d2 : f64
  %4 = arith.remf %a, %inf : f32
  %5 = arith.remf %n4, %b : f32
  %6 = arith.remf %b1, %b2 : bf16
  %7 = arith.remf %inf, %b : f32
  %8 = arith.remf %ta, %tb : tensor<4xf32>
  %9 = arith.remf %x, %one : tensor<4xf32>
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : f32, f32, f16, f64, f32, f32, bf16, f32, tensor<4xf32>, tensor<4xf32>
}

// -----

// min/max: maxnumf ignores a NaN operand, maximumf propagates it; -0.0 < +0.0; m(x, x) = x.
// CHECK-LABEL: func.func @float_min_max
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:     %[[PZ:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:         return %[[ONE]], %[[NAN]], %[[PZ]], %[[NZ]], %arg0
func.func @float_min_max(%x: f32) -> (f32, f32, f32, f32, f32) {
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %0 = arith.maxnumf %nan, %one : f32
  %1 = arith.maximumf %one, %nan : f32
  %2 = arith.maxnumf %nz, %pz : f32
  %3 = arith.minimumf %pz, %nz : f32
  %4 = arith.minnumf %x, %x : f32
  func.return %0, %1, %2, %3, %4 : f32, f32, f32, f32, f32
}

// -----

// Scalar constants reassociate: (x + 3) + 4 -> x + 7, (x - 3) + 4 -> x + 1,
// (x * 3) * 4 -> x * 12, x + (y * -1) -> x - y.
// CHECK-LABEL: func.func @reassociate
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C12:.*]] = arith.constant 12 : i32
// CHECK-DAG:     %[[A:.*]] = arith.addi %arg0, %[[C7]] : i32
// CHECK-DAG:     %[[B:.*]] = arith.addi %arg0, %[[C1]] : i32
// CHECK-DAG:     %[[M:.*]] = arith.muli %arg0, %[[C12]] : i32
// CHECK-DAG:     %[[S:.*]] = arith.subi %arg0, %arg1 : i32
// CHECK:         return %[[A]], %[[B]], %[[M]], %[[S]]
func.func @reassociate(%x: i32, %y: i32) -> (i32, i32, i32, i32) {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %cm1 = arith.constant -1 : i32
  %a = arith.addi %x, %c3 : i32
  %0 = arith.addi %a, %c4 : i32
  %b = arith.subi %x, %c3 : i32
  %1 = arith.addi %b, %c4 : i32
  %m = arith.muli %x, %c3 : i32
  %2 = arith.muli %m, %c4 : i32
  %n = arith.muli %y, %cm1 : i32
  %3 = arith.addi %x, %n : i32
  func.return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// The reassociation patterns take scalar constants only (MLIR's APIntAttr): on tensors the
// two additions stay.
// CHECK-LABEL: func.func @no_reassociation_of_splats
// CHECK:         arith.addi
// CHECK:         arith.addi
func.func @no_reassociation_of_splats(%x: tensor<4xi32>) -> tensor<4xi32> {
  %c3 = arith.constant dense<3> : tensor<4xi32>
  %c4 = arith.constant dense<4> : tensor<4xi32>
  %a = arith.addi %x, %c3 : tensor<4xi32>
  %r = arith.addi %a, %c4 : tensor<4xi32>
  func.return %r : tensor<4xi32>
}

// -----

// (a - b) + b -> a, (a + b) - a -> b, xor(xor(x, a), a) -> x, -(-x) -> x.
// CHECK-LABEL: func.func @cancellations
// CHECK-NOT:     arith.
// CHECK:         return %arg0, %arg1, %arg0, %arg2
func.func @cancellations(%a: i32, %b: i32, %f: f32) -> (i32, i32, i32, f32) {
  %s = arith.subi %a, %b : i32
  %0 = arith.addi %s, %b : i32
  %t = arith.addi %a, %b : i32
  %1 = arith.subi %t, %a : i32
  %x = arith.xori %a, %b : i32
  %2 = arith.xori %x, %b : i32
  %n = arith.negf %f : f32
  %3 = arith.negf %n : f32
  func.return %0, %1, %2, %3 : i32, i32, i32, f32
}

// -----

// A scalar f16 product that overflows folds to +inf (0x7C00), as APFloat rounds it.
// CHECK-LABEL: func.func @scalar_f16_overflow
// CHECK:         %[[INF:.*]] = arith.constant 0x7C00 : f16
// CHECK-NOT:     arith.mulf
// CHECK:         return %[[INF]]
func.func @scalar_f16_overflow() -> f16 {
  %a = arith.constant 6.0e4 : f16
  %b = arith.constant 2.0 : f16
  %c = arith.mulf %a, %b : f16
  func.return %c : f16
}
