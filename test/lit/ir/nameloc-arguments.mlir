// RUN: tileopt %s --input-uses-nameloc-as-prefix --mlir-use-nameloc-as-prefix --mlir-print-debuginfo | FileCheck %s --check-prefix=SAME
// RUN: tileopt %s --input-uses-nameloc-as-prefix --mlir-use-nameloc-as-prefix --canonicalize | FileCheck %s --check-prefix=CANON
// RUN: tileopt %s --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=PLAIN
// RUN: tileopt %s --input-uses-nameloc-as-prefix | FileCheck %s --check-prefix=NUMBERS

// The input is what Triton 3.6.0's Python prints (names from name locations) for a
// function whose loop arguments carry name locations (loc("off"), loc("acc"),
// loc("x_1")); the text writes no location for an scf.for's induction variable and
// iter_args. Read with --input-uses-nameloc-as-prefix they get back the name locations
// their names show: %acc_1 is loc("acc") made unique, %x_1 is loc("x_1") (no %x is
// taken), %arg4 had none.

// Printed again, the text is the input's.
// SAME-LABEL: tt.func public @loops(%p: !tt.ptr<i32> loc("p"(#loc)), %n: i32 loc("n"(#loc)), %m: i32 loc("m"(#loc))) -> i32 attributes {noinline = false} {
// SAME:         %acc = arith.addi %n, %m : i32 loc(#loc7)
// SAME-NEXT:    %acc_0 = scf.for %off = %c0_i32 to %n step %c1_i32 iter_args(%acc_1 = %c0_i32) -> (i32)  : i32 {
// SAME-NEXT:      %acc_2 = arith.addi %acc_1, %off : i32 loc(#loc8)
// SAME:         %0 = scf.for %x_1 = %c0_i32 to %m step %c1_i32 iter_args(%arg4 = %acc_0) -> (i32)  : i32 {
// SAME-NEXT:      %1 = arith.muli %arg4, %x_1 : i32 loc(#loc3)
// SAME:         scf.for %off = %c0_i32 to %n step %c1_i32  : i32 {
// SAME-NEXT:      %w = arith.addi %off, %0 : i32 loc(#loc9)

// canonicalize erases the first %acc; the names are those Triton 3.6.0 prints after
// its canonicalizer ran on the IR in memory (loop arguments located): the iter_arg's
// loc("acc") is made unique anew (%acc_0), not kept as spelled (%acc_1).
// CANON-LABEL: tt.func public @loops(%p: !tt.ptr<i32>, %n: i32, %m: i32) -> i32 attributes {noinline = false} {
// CANON-NEXT:    %c0_i32 = arith.constant 0 : i32
// CANON-NEXT:    %c1_i32 = arith.constant 1 : i32
// CANON-NEXT:    %acc = scf.for %off = %c0_i32 to %n step %c1_i32 iter_args(%acc_0 = %c0_i32) -> (i32)  : i32 {
// CANON-NEXT:      %acc_1 = arith.addi %acc_0, %off : i32
// CANON-NEXT:      scf.yield %acc_1 : i32
// CANON-NEXT:    }
// CANON-NEXT:    %0 = scf.for %x_1 = %c0_i32 to %m step %c1_i32 iter_args(%arg4 = %acc) -> (i32)  : i32 {
// CANON-NEXT:      %1 = arith.muli %arg4, %x_1 : i32
// CANON-NEXT:      scf.yield %1 : i32
// CANON-NEXT:    }
// CANON-NEXT:    scf.for %off = %c0_i32 to %n step %c1_i32  : i32 {
// CANON-NEXT:      %w = arith.addi %off, %0 : i32

// Without the flag the loop arguments have no name locations, as when triton-opt (or
// Triton's Python) reads the text: these lines are what Triton 3.6.0 prints for it.
// PLAIN:         %acc = arith.addi %n, %m : i32
// PLAIN-NEXT:    %acc_0 = scf.for %arg3 = %c0_i32 to %n step %c1_i32 iter_args(%arg4 = %c0_i32) -> (i32)  : i32 {
// PLAIN-NEXT:      %acc_1 = arith.addi %arg4, %arg3 : i32
// PLAIN:         %0 = scf.for %arg3 = %c0_i32 to %m step %c1_i32 iter_args(%arg4 = %acc_0) -> (i32)  : i32 {
// PLAIN:         scf.for %arg3 = %c0_i32 to %n step %c1_i32  : i32 {
// PLAIN-NEXT:      %w = arith.addi %arg3, %0 : i32

// Names from locations are printed only with --mlir-use-nameloc-as-prefix.
// NUMBERS:       %0 = arith.addi %arg1, %arg2 : i32
// NUMBERS-NEXT:  %1 = scf.for %arg3 = %c0_i32 to %arg1 step %c1_i32 iter_args(%arg4 = %c0_i32) -> (i32)  : i32 {

#loc = loc("k.py":1:0)
#loc4 = loc("p"(#loc))
#loc5 = loc("n"(#loc))
#loc6 = loc("m"(#loc))
module {
  tt.func public @loops(%p: !tt.ptr<i32> loc("p"(#loc)), %n: i32 loc("n"(#loc)), %m: i32 loc("m"(#loc))) -> i32 attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32 loc(#loc1)
    %c1_i32 = arith.constant 1 : i32 loc(#loc1)
    %acc = arith.addi %n, %m : i32 loc(#loc7)
    %acc_0 = scf.for %off = %c0_i32 to %n step %c1_i32 iter_args(%acc_1 = %c0_i32) -> (i32)  : i32 {
      %acc_2 = arith.addi %acc_1, %off : i32 loc(#loc8)
      scf.yield %acc_2 : i32 loc(#loc2)
    } loc(#loc7)
    %0 = scf.for %x_1 = %c0_i32 to %m step %c1_i32 iter_args(%arg4 = %acc_0) -> (i32)  : i32 {
      %1 = arith.muli %arg4, %x_1 : i32 loc(#loc3)
      scf.yield %1 : i32 loc(#loc3)
    } loc(#loc2)
    scf.for %off = %c0_i32 to %n step %c1_i32  : i32 {
      %w = arith.addi %off, %0 : i32 loc(#loc9)
      tt.store %p, %w : !tt.ptr<i32> loc(#loc3)
    } loc(#loc3)
    tt.return %0 : i32 loc(#loc3)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("k.py":3:4)
#loc2 = loc("k.py":4:4)
#loc3 = loc("k.py":5:4)
#loc7 = loc("acc"(#loc1))
#loc8 = loc("acc"(#loc2))
#loc9 = loc("w"(#loc3))

