// RUN: tileopt %s -split-input-file --verify-diagnostics

module {
  tt.func public @assume_not_i1(%arg0: i32) {
    // expected-error @below {{'llvm.intr.assume' op Expected attribute i1 but got i32}}
    llvm.intr.assume %arg0 : i32
    tt.return
  }
}
