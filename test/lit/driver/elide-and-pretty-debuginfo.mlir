// --mlir-elide-elementsattrs-if-larger=N: a dense attribute of more than N elements prints as
// dense_resource<__elided__> (splats never, as in MLIR). --mlir-pretty-debuginfo: with
// --mlir-print-debuginfo, locations in MLIR's pretty form (no loc(...), no #loc aliases);
// alone it changes nothing.
// RUN: tileopt %s --mlir-elide-elementsattrs-if-larger=3 | FileCheck %s --check-prefix=ELIDE
// RUN: tileopt %s --mlir-elide-elementsattrs-if-larger=4 | FileCheck %s --check-prefix=KEEP
// RUN: tileopt %s --mlir-print-debuginfo --mlir-pretty-debuginfo | FileCheck %s --check-prefix=PRETTY
// RUN: tileopt %s --mlir-pretty-debuginfo | FileCheck %s --check-prefix=ALONE
// RUN: not tileopt %s --mlir-elide-elementsattrs-if-larger=many 2>&1 | FileCheck %s --check-prefix=BAD

// ELIDE: arith.constant dense_resource<__elided__> : tensor<4xi32>
// ELIDE-NEXT: arith.constant dense<7> : tensor<4xi32>
// KEEP: arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// PRETTY: arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32> k.py:3:7
// PRETTY-NEXT: arith.constant dense<7> : tensor<4xi32> "g"(k.py:1:2) at k.py:9:1
// PRETTY-NEXT: arith.addi %{{.+}}, %{{.+}} : tensor<4xi32> [unknown]
// PRETTY-NEXT: return %{{.+}} : tensor<4xi32> [a.py:1:1, b.py:2:2]
// PRETTY-NOT: loc(
// ALONE-NOT: k.py
// BAD: error: --mlir-elide-elementsattrs-if-larger takes a number of elements, not 'many'
func.func @f() -> tensor<4xi32> {
  %0 = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32> loc("k.py":3:7)
  %1 = arith.constant dense<7> : tensor<4xi32> loc(callsite("g"("k.py":1:2) at "k.py":9:1))
  %2 = arith.addi %0, %1 : tensor<4xi32> loc(unknown)
  func.return %2 : tensor<4xi32> loc(fused["a.py":1:1, "b.py":2:2])
}
