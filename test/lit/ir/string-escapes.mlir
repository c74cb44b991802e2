// Strings with characters MLIR prints as byte escapes read back as the same string (found
// by the fuzzer, issue 13: a zero-width space in ttg.target printed as "\E2\80\8B" read
// back as bytes, which the module verifier then refused).
// RUN: tileopt %s | FileCheck %s
// RUN: tileopt %s | tileopt | FileCheck %s
// RUN: tileopt %s | tileopt --mlir-print-op-generic | tileopt | FileCheck %s
// CHECK: module attributes {note = "caf\C3\A9 \E2\80\8B!", ttg.target = "cuda:90"}
module attributes {note = "café ​!", ttg.target = "cuda:90"} {
}
