// RUN: tileopt %s -split-input-file -verify-diagnostics
// Verifier errors of the tt dialect name the problem and point at the op.

tt.func @make_range_order() {
  // expected-error @+1 {{start (4) must be less than end (0)}}
  %r = tt.make_range {end = 0 : i32, start = 4 : i32} : tensor<4xi32>
  tt.return
}

// -----

tt.func @make_range_power_of_two() {
  // expected-error @+1 {{number of elements must be power-of-two, but tensor<6xi32> doesn't follow the rule (6 elements)}}
  %r = tt.make_range {end = 6 : i32, start = 0 : i32} : tensor<6xi32>
  tt.return
}

// -----

tt.func @make_range_count() {
  // expected-error @+1 {{number of elements in returned tensor, 4, must match size of range [0, 8), which has 8 elements}}
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<4xi32>
  tt.return
}

// -----

tt.func @make_range_element_type() {
  // expected-error @+1 {{returned tensor must have i32 elements, got i64}}
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi64>
  tt.return
}

// -----

tt.func @dot_k_mismatch(%a: tensor<16x32xf16>, %b: tensor<16x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{K dimensions differ: A is 16x32 but B is 16x8}}
  %d = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x8xf16> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_accumulator_shape(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{accumulator C is 16x16 but A x B is 16x8}}
  %d = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_bit_widths(%a: tensor<16x32xf16>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{element types of operands A and B must have same bit width (f16 vs f32)}}
  %d = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf32> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @addptr_shapes(%p: tensor<4x!tt.ptr<f32>>, %o: tensor<8xi32>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %q = tt.addptr %p, %o : tensor<4x!tt.ptr<f32>>, tensor<8xi32>
  tt.return
}

// -----

tt.func @addptr_float_offset(%p: !tt.ptr<f32>, %o: f32) {
  // expected-error @+1 {{offset must be an integer or a tensor of integers, got f32}}
  %q = tt.addptr %p, %o : !tt.ptr<f32>, f32
  tt.return
}

// -----

tt.func @broadcast_non_unit(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{different dimensions at index 1 between source (2) and result (8); broadcast requires the source dimension to be 1}}
  %y = tt.broadcast %x : tensor<4x2xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @expand_dims_axis(%x: tensor<4xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a rank-1 source (expected 0..1)}}
  %y = tt.expand_dims %x {axis = 2 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  tt.return
}

// -----

tt.func @splat_element_type(%n: i32) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %s = tt.splat %n : i32 -> tensor<4xf32>
  tt.return
}

// -----

tt.func @trans_not_a_permutation(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{order [0, 0] must be a permutation of 0..1}}
  %y = tt.trans %x {order = array<i32: 0, 0>} : tensor<4x8xf32> -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @reshape_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{number of src and dst elements of reshape must be the same (32 vs 16)}}
  %y = tt.reshape %x : tensor<4x8xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @store_value_type(%p: tensor<4x!tt.ptr<f32>>, %v: tensor<4xf16>) {
  // expected-error @+1 {{value type tensor<4xf16> must be what the pointer operand points to: tensor<4xf32>}}
  "tt.store"(%p, %v) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<4x!tt.ptr<f32>>, tensor<4xf16>) -> ()
  tt.return
}

// -----

tt.func @load_mask_type(%p: tensor<4x!tt.ptr<f32>>, %m: tensor<4xi32>) {
  // expected-error @+1 {{mask must be tensor<4xi1> to match the pointer operand tensor<4x!tt.ptr<f32>>, got tensor<4xi32>}}
  %v = "tt.load"(%p, %m) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32, isVolatile = false, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<4x!tt.ptr<f32>>, tensor<4xi32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @reduce_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{axis 2 out of bounds for operand rank 2}}
  %r = "tt.reduce"(%x) <{axis = 2 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @reduce_region_arity(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{nested block must take 2 arguments, but given block with 1 arguments}}
  %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32):
    tt.reduce.return %a : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @scan_region_types(%x: tensor<8xf32>) {
  // expected-error @+1 {{type mismatch on combine operation. Expected argument 0 to have type f32 but got f16}}
  %r = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f16, %b: f16):
    %s = arith.addf %a, %b : f16
    tt.scan.return %s : f16
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @return_type(%x: i32) -> f32 {
  // expected-error @+1 {{type of return operand 0 (i32) doesn't match function result type (f32) in function @return_type}}
  tt.return %x : i32
}

// -----

tt.func private @callee(f32) -> f32

tt.func @call_operand_type(%x: i32) {
  // expected-error @+1 {{operand type mismatch: expected operand type f32, but provided i32 for operand number 0}}
  %y = tt.call @callee(%x) : (i32) -> f32
  tt.return
}

// -----

tt.func @call_missing() {
  // expected-error @+1 {{'missing' does not reference a valid function}}
  tt.call @missing() : () -> ()
  tt.return
}

// -----

tt.func @atomic_value_type(%p: !tt.ptr<f32>, %v: i32) {
  // expected-error @+1 {{pointer !tt.ptr<f32> must point to the value type i32}}
  %o = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<f32>, i32) -> i32
  tt.return
}

// -----

tt.func @fp_downcast_needs_rounding(%x: f32) {
  // expected-error @+1 {{rounding mode is required for FP downcast (f32 -> f16)}}
  %y = tt.fp_to_fp %x : f32 -> f16
  tt.return
}

// -----

tt.func @bitcast_width(%x: tensor<4xi32>) {
  // expected-error @+1 {{cannot bitcast data-type of size 32 to data-type of size 16}}
  %y = tt.bitcast %x : tensor<4xi32> -> tensor<4xf16>
  tt.return
}

// -----

tt.func @bad_enum(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error @+1 {{expected memory semantic (relaxed, acquire, release, acq_rel)}}
  %o = tt.atomic_rmw fadd, seq_cst, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
  tt.return
}
