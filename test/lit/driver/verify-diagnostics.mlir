// RUN: tileopt %s -split-input-file -verify-diagnostics --load-pass-plugin=%S/Inputs/test_passes.py --test-option-probe=warn=true | FileCheck %s
// Diagnostics are matched against expected-* comments: on their own line, @above, @below,
// @+N and @-N; the run succeeds, and the output is still printed.

// CHECK-LABEL: func.func @same_line
func.func @same_line() { // expected-remark {{count=1}}
  // expected-warning@-1 {{probe warning}}
  func.return
}

// -----

// CHECK-LABEL: func.func @below
// expected-remark@below {{scale=0.5}}
// expected-warning@below {{probe}}
func.func @below() {
  func.return
}

// -----

func.func @above() {
// expected-remark@above {{enabled=False}}
// expected-warning@above {{probe warning}}
  func.return
}

// -----

// expected-remark@+2 {{label=none}}
// expected-warning@+1 {{probe warning}}
func.func @offset_plus() {
  func.return
}

// -----

func.func @offset_minus() {
  func.return
}
// expected-remark@-3 {{mode=fast}}
// expected-warning-re@-4 {{probe {{w[a-z]+}}}}
