// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s
// RUN: not tileopt --split-input-file %s 2>&1 | FileCheck %s --check-prefix=CLEAN
// A bad character at the very start of the input (of a part) is one clean error at
// line:1 of that part, as anywhere else, and the parts after it still run (issue 13).
// CLEAN-NOT: {{Traceback|internal error}}

// A byte-order mark before the module (editors on Windows add one).
// CHECK: {{.*}}first-character.mlir:9:1: error: unexpected character: U+FEFF (ZERO WIDTH NO-BREAK SPACE)
﻿module {
}

// -----

// A stray '$' as the first character.
// CHECK: {{.*}}first-character.mlir:16:1: error: unexpected character: $
$ module {
}

// -----

// A no-break space as the first character.
// CHECK: {{.*}}first-character.mlir:23:1: error: unexpected character: U+00A0 (NO-BREAK SPACE)
 module {
}

// -----

// A zero-width space as the first character.
// CHECK: {{.*}}first-character.mlir:30:1: error: unexpected character: U+200B (ZERO WIDTH SPACE)
​module {
}

// -----

// An unterminated string as the first token.
// CHECK: {{.*}}first-character.mlir:37:1: error: expected '"' in string literal
"abc

// -----

// The part after the bad ones is still processed.
// CHECK: module {
// CHECK-NEXT: }
module {
}

