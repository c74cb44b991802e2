"""Axis info on small hand-written kernels, each expected value worked out by hand from the
definitions (contiguity: length of runs of consecutive integers; divisibility: largest
power of two dividing the start of each run; constancy: length of runs of equal values)
and Triton's rules where those are conventions (make_range's 0 start counts as 2**30)."""

from __future__ import annotations

import pytest

from tileopt.analysis.axis_info import MAX_DIVISOR, AxisInfo, AxisInfoAnalysis
from tileopt.ir import parse_module

R30 = 1 << 30  # Triton's "largest power of two dividing 0" for make_range's uint32 start


def analyse(body: str, args: str = "", layouts: str = "") -> tuple[AxisInfoAnalysis, dict]:
    return analyse_text(f"{layouts}\ntt.func @k({args}) {{\n{body}\n  tt.return\n}}\n")


def analyse_text(text: str) -> tuple[AxisInfoAnalysis, dict]:
    module = parse_module(text, "test.mlir")
    analysis = AxisInfoAnalysis(module)
    values = {}
    for op in module.walk():
        for result in op.results:
            if result.name_hint:
                values[result.name_hint] = result
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    if arg.name_hint:
                        values[arg.name_hint] = arg
    return analysis, values


def info(analysis: AxisInfoAnalysis, values: dict, name: str) -> tuple:
    i = analysis[values[name]]
    return i.contiguity, i.divisibility, i.constancy, i.constant_value


def test_make_range_is_one_contiguous_run():
    a, v = analyse("""
  %r0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %r64 = tt.make_range {end = 128 : i32, start = 64 : i32} : tensor<64xi32>""")
    assert info(a, v, "r0") == ((128,), (R30,), (1,), None)
    assert info(a, v, "r64") == ((64,), (64,), (1,), None)


def test_program_offsets_of_the_add_kernel():
    # offs = pid * 1024 + [0, 1024): one run of 1024 starting at a multiple of 1024.
    a, v = analyse("""
  %c1024 = arith.constant 1024 : i32
  %pid = tt.get_program_id x : i32
  %base = arith.muli %pid, %c1024 : i32
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %splat = tt.splat %base : i32 -> tensor<1024xi32>
  %offs = arith.addi %splat, %range : tensor<1024xi32>
  %ps = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %ns = tt.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>""",
        "%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}")
    assert info(a, v, "c1024") == ((1,), (1024,), (1,), 1024)
    assert info(a, v, "pid") == ((1,), (1,), (1,), None)
    assert info(a, v, "base") == ((1,), (1024,), (1,), None)
    assert info(a, v, "splat") == ((1,), (1024,), (1024,), None)
    assert info(a, v, "offs") == ((1024,), (1024,), (1,), None)
    # Pointers count bytes: 16-byte aligned base, offsets of 4-byte elements.
    assert info(a, v, "ptrs") == ((1024,), (16,), (1,), None)
    # offs < n (n a multiple of 16) can only flip at a multiple of 16.
    assert info(a, v, "mask") == ((1,), (1,), (16,), None)


def test_addptr_scales_offset_divisibility_by_the_element_size():
    a, v = analyse("""
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %c8 = arith.constant dense<8> : tensor<128xi32>
  %off = arith.muli %r, %c8 : tensor<128xi32>
  %s = tt.splat %p : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
  %q = tt.addptr %s, %r : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
  %w = tt.addptr %s, %off : tensor<128x!tt.ptr<f16>>, tensor<128xi32>""",
        "%p: !tt.ptr<f16> {tt.divisibility = 32 : i32}")
    # A constant tensor is one run of equal values; [0, 8, 16, ...] has no contiguity and
    # every element is a multiple of 8 (the run [0, 1, ...] only promises 1 per element).
    assert info(a, v, "c8") == ((1,), (8,), (128,), 8)
    assert info(a, v, "off") == ((1,), (8,), (1,), None)
    assert info(a, v, "q") == ((128,), (32,), (1,), None)
    # 8 f16 elements = 16 bytes.
    assert info(a, v, "w") == ((1,), (16,), (1,), None)


def test_expand_dims_and_broadcast_build_a_2d_tile():
    a, v = analyse("""
  %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %cols = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %st = tt.splat %stride : i32 -> tensor<64x1xi32>
  %roff = arith.muli %r2, %st : tensor<64x1xi32>
  %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rb = tt.broadcast %roff : tensor<64x1xi32> -> tensor<64x128xi32>
  %cb = tt.broadcast %c2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %off = arith.addi %rb, %cb : tensor<64x128xi32>""",
        "%stride: i32 {tt.divisibility = 16 : i32}")
    # The new dim of a run [0, 1, ...] only has divisibility 1.
    assert info(a, v, "r2") == ((64, 1), (R30, 1), (1, 1), None)
    assert info(a, v, "c2") == ((1, 128), (1, R30), (1, 1), None)
    # rows * stride: every element a multiple of 16, no runs.
    assert info(a, v, "roff") == ((1, 1), (16, 16), (1, 1), None)
    assert info(a, v, "rb") == ((1, 1), (16, 16), (1, 128), None)
    assert info(a, v, "cb") == ((1, 128), (1, R30), (64, 1), None)
    # Row starts are multiples of 16 plus a run of 128 along dim 1.
    assert info(a, v, "off") == ((1, 128), (1, 16), (1, 1), None)


def test_div_and_rem_by_a_power_of_two():
    a, v = analyse("""
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %c32 = arith.constant dense<32> : tensor<128xi32>
  %q = arith.divsi %r, %c32 : tensor<128xi32>
  %m = arith.remsi %r, %c32 : tensor<128xi32>
  %one = arith.constant dense<1> : tensor<128xi32>
  %same = arith.divsi %r, %one : tensor<128xi32>
  %zero = arith.remsi %r, %one : tensor<128xi32>""")
    # [0..128) / 32 = 0 x32, 1 x32, ...; [0..128) % 32 = runs [0..32).
    assert info(a, v, "q") == ((1,), (1,), (32,), None)
    assert info(a, v, "m") == ((32,), (32,), (1,), None)
    assert info(a, v, "same") == ((128,), (R30,), (1,), None)
    # x % 1 is the constant 0: one run of equal values, divisible by anything.
    assert info(a, v, "zero") == ((1,), (MAX_DIVISOR,), (128,), 0)


def test_constants_fold_through_arithmetic():
    a, v = analyse("""
  %c6 = arith.constant 6 : i32
  %c4 = arith.constant 4 : i32
  %s = arith.addi %c6, %c4 : i32
  %d = arith.subi %c4, %c6 : i32
  %p = arith.muli %c6, %c4 : i32
  %sh = arith.shli %c6, %c4 : i32
  %mn = arith.minsi %c6, %c4 : i32
  %m1 = arith.constant -1 : i32
  %z = arith.constant 0 : i32""")
    assert info(a, v, "s") == ((1,), (2,), (1,), 10)
    assert info(a, v, "d") == ((1,), (2,), (1,), -2)
    assert info(a, v, "p") == ((1,), (8,), (1,), 24)
    assert info(a, v, "sh") == ((1,), (32,), (1,), 96)
    # Triton's min/max of two constants keep only the value.
    assert info(a, v, "mn") == ((1,), (1,), (1,), 4)
    # Integer constants are read zero-extended, as Triton's getZExtValue does.
    assert info(a, v, "m1") == ((1,), (1,), (1,), 0xFFFFFFFF)
    assert info(a, v, "z") == ((1,), (MAX_DIVISOR,), (1,), 0)


def test_select_on_a_constant_condition_takes_that_side():
    a, v = analyse("""
  %t = arith.constant true
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %c = arith.constant dense<48> : tensor<64xi32>
  %pick = arith.select %t, %r, %c : tensor<64xi32>
  %either = arith.select %b, %r, %c : tensor<64xi32>""", "%b: i1")
    assert info(a, v, "pick") == ((64,), (R30,), (1,), None)
    # Either a run [0..64) or all 48. Runs of different lengths cut each other, so the
    # divisibility also takes the contiguities in: gcd(2**30, 16, 64, 1) = 1.
    assert info(a, v, "either") == ((1,), (1,), (1,), None)


def test_loop_carried_pointer_is_joined_to_a_fixpoint():
    a, v = analyse("""
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %init = tt.addptr %s, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %step = arith.constant dense<64> : tensor<64xi32>
  %bump = tt.splat %k : i32 -> tensor<64xi32>
  %res:2 = scf.for %iv = %c0 to %n step %c32 iter_args(%ptr = %init, %off = %r) -> (tensor<64x!tt.ptr<f32>>, tensor<64xi32>) : i32 {
    %next = tt.addptr %ptr, %step : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %moved = arith.addi %off, %bump : tensor<64xi32>
    scf.yield %next, %moved : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  }""", "%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %k: i32")
    # iv = 0, 32, 64, ...: divisible by gcd(divisibility of 0, 32) = 32.
    assert info(a, v, "iv") == ((1,), (32,), (1,), None)
    # Advancing by 64 elements (256 bytes) keeps the run of 64 and 16-byte alignment.
    assert info(a, v, "ptr") == ((64,), (16,), (1,), None)
    assert info(a, v, "next") == ((64,), (16,), (1,), None)
    # Adding an unknown k keeps the run but loses alignment: the fixpoint sees both.
    assert info(a, v, "off") == ((64,), (1,), (1,), None)
    loop = v["iv"].block.parent_op()
    assert a[loop.results[0]] == AxisInfo((64,), (16,), (1,))
    assert a[loop.results[1]] == AxisInfo((64,), (1,), (1,))


def test_if_results_join_both_branches():
    a, v = analyse("""
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %c2 = arith.constant dense<2> : tensor<128xi32>
  %x = scf.if %b -> (tensor<128xi32>) {
    scf.yield %r : tensor<128xi32>
  } else {
    %t = arith.muli %r, %c2 : tensor<128xi32>
    scf.yield %t : tensor<128xi32>
  }""", "%b: i1")
    # [0..128) or [0, 2, 4, ...] (divisibility 2, no runs): runs of different lengths,
    # so the divisibility is gcd(2**30, 2, 128, 1) = 1.
    assert info(a, v, "t") == ((1,), (2,), (1,), None)
    assert info(a, v, "x") == ((1,), (1,), (1,), None)


def test_hints_on_ops_override_the_rules():
    a, v = analyse("""
  %l = tt.load %p {tt.divisibility = dense<[16]> : tensor<1xi32>, tt.contiguity = dense<[8]> : tensor<1xi32>} : tensor<64x!tt.ptr<i32>>""",
        "%p: tensor<64x!tt.ptr<i32>>")
    assert info(a, v, "l") == ((8,), (16,), (1,), None)


def test_join_is_gcd_per_dim():
    x = AxisInfo((64, 1), (16, 8), (1, 4), 3)
    y = AxisInfo((16, 1), (4, 32), (2, 8), 3)
    # Contiguities differ in dim 0: runs of 16 inside runs of 64 start at multiples of 16.
    assert x.join(y) == AxisInfo((16, 1), (4, 8), (1, 4), 3)
    # "Unknown" (everything divides, runs as long as you like) is the identity, except
    # that it knows no constant; an uninitialised (rank 0) value is a true identity.
    assert AxisInfo.unknown(2).join(y) == AxisInfo(y.contiguity, y.divisibility, y.constancy)
    assert AxisInfo((), (), ()).join(y) == y
    assert x.join(AxisInfo((64, 1), (16, 8), (1, 4), 5)).constant_value is None


def test_cf_loop_carried_pointer_keeps_its_alignment():
    # The scf.for above after convert-scf-to-cf: the carried pointer is a block argument
    # that only the two branches define. It starts as p + [0, 64) and moves by k elements,
    # k a multiple of 16 (64 bytes), so every iteration is a run of 64 at a 16-byte address.
    a, v = analyse_text(LAYOUTS + """
tt.func @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %k: i32 {tt.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #row}>>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #row}>>
  %init = tt.addptr %s, %r : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #row}>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #row}>>
  %step = tt.splat %k : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #row}>>
  cf.br ^bb1(%c0, %init : i32, tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #row}>>)
^bb1(%iv: i32, %ptr: tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #row}>>):
  %more = arith.cmpi slt, %iv, %n : i32
  cf.cond_br %more, ^bb2, ^bb3
^bb2:
  %x = tt.load %ptr : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #row}>>
  %next = tt.addptr %ptr, %step : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #row}>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #row}>>
  %iv_next = arith.addi %iv, %c32 : i32
  cf.br ^bb1(%iv_next, %next : i32, tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #row}>>)
^bb3:
  tt.return
}
""")
    # iv is 0 or iv + 32: divisible by 32, no longer the constant 0.
    assert info(a, v, "iv") == ((1,), (32,), (1,), None)
    assert info(a, v, "ptr") == ((64,), (16,), (1,), None)
    assert info(a, v, "next") == ((64,), (16,), (1,), None)
    # 16 bytes = 4 f32 per aligned vector, all of which a thread of #row holds.
    assert a.alignment(v["ptr"]) == 4
    assert a.contiguity(v["ptr"]) == 4


def test_cf_block_argument_joins_every_predecessor():
    a, v = analyse_text("""
tt.func @k(%b: i1, %x16: i32 {tt.divisibility = 16 : i32}, %x8: i32 {tt.divisibility = 8 : i32}) {
  %c48 = arith.constant 48 : i32
  cf.cond_br %b, ^bb1, ^bb2
^bb1:
  cf.br ^bb3(%x16, %c48 : i32, i32)
^bb2:
  cf.br ^bb3(%x8, %c48 : i32, i32)
^bb3(%j: i32, %same: i32):
  %j4 = arith.muli %j, %c48 : i32
  tt.return
}
""")
    # 16-divisible or 8-divisible: 8. The same constant from both sides stays that constant.
    assert info(a, v, "j") == ((1,), (8,), (1,), None)
    assert info(a, v, "same") == ((1,), (16,), (1,), 48)
    # Ops in the join block see the joined value: 8 * 16 (48 = 16 * 3).
    assert info(a, v, "j4") == ((1,), (128,), (1,), None)


LAYOUTS = """
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
"""


@pytest.mark.parametrize("layout, alignment, contiguity, mask", [
    # Along dim 1: runs of 64, 16-byte rows => 8 f16 per aligned vector; the row layout
    # holds 4 contiguous elements per thread; the mask changes only at multiples of 16.
    ("#row", 8, 4, 16),
    # Along dim 0 nothing is contiguous, but the mask is the same for all 32 rows.
    ("#col", 1, 1, 32),
])
def test_vector_width_queries(layout, alignment, contiguity, mask):
    a, v = analyse(f"""
  %cols = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 0, parent = {layout}}}>>
  %c2 = tt.expand_dims %cols {{axis = 0 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 0, parent = {layout}}}>> -> tensor<1x64xi32, {layout}>
  %cb = tt.broadcast %c2 : tensor<1x64xi32, {layout}> -> tensor<32x64xi32, {layout}>
  %s = tt.splat %p : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, {layout}>
  %ptrs = tt.addptr %s, %cb : tensor<32x64x!tt.ptr<f16>, {layout}>, tensor<32x64xi32, {layout}>
  %ns = tt.splat %n : i32 -> tensor<32x64xi32, {layout}>
  %mask = arith.cmpi slt, %cb, %ns : tensor<32x64xi32, {layout}>""",
        "%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}",
        LAYOUTS)
    assert a.alignment(v["ptrs"]) == alignment
    assert a.contiguity(v["ptrs"]) == contiguity
    assert a.mask_alignment(v["mask"]) == mask


def test_reshape_to_a_unit_dim_is_expand_dims():
    # Triton 3.9 writes tt.reshape where 3.6 wrote expand_dims (tensor descriptors
    # rewritten to pointers): both must give the same facts.
    a, v = analyse("""
  %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %st = tt.splat %stride : i32 -> tensor<64xi32>
  %srow = arith.muli %rows, %st : tensor<64xi32>
  %e1 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %r1 = tt.reshape %rows : tensor<64xi32> -> tensor<64x1xi32>
  %e0 = tt.expand_dims %rows {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %r0 = tt.reshape %rows : tensor<64xi32> -> tensor<1x64xi32>
  %es = tt.expand_dims %srow {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rs = tt.reshape %srow : tensor<64xi32> -> tensor<1x64xi32>""",
        "%stride: i32 {tt.divisibility = 16 : i32}")
    assert info(a, v, "r1") == info(a, v, "e1") == ((64, 1), (R30, 1), (1, 1), None)
    assert info(a, v, "r0") == info(a, v, "e0") == ((1, 64), (1, R30), (1, 1), None)
    assert info(a, v, "rs") == info(a, v, "es") == ((1, 1), (16, 16), (1, 1), None)


def test_reshape_splits_and_merges_runs():
    a, v = analyse("""
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %split = tt.reshape %r : tensor<128xi32> -> tensor<2x64xi32>
  %back = tt.reshape %split : tensor<2x64xi32> -> tensor<128xi32>
  %s = tt.splat %n : i32 -> tensor<128xi32>
  %ssplit = tt.reshape %s : tensor<128xi32> -> tensor<4x32xi32>
  %any = tt.reshape %r allow_reorder : tensor<128xi32> -> tensor<2x64xi32>""",
        "%n: i32 {tt.divisibility = 8 : i32}")
    # [[0..63], [64..127]]: runs of 64 along dim 1 starting at 0 and 64; each column
    # steps by 64 along dim 0, so no run, and element 1 is odd: divisibility 1 there.
    assert info(a, v, "split") == ((1, 64), (1, 64), (1, 1), None)
    # merged back: the run of 64 is all that is known (the rows' starts were multiples of 64)
    assert info(a, v, "back") == ((64,), (64,), (1,), None)
    # a splat stays constant across every destination dim, its divisibility everywhere
    assert info(a, v, "ssplit") == ((1, 1), (8, 8), (4, 32), None)
    # allow_reorder may move elements: no runs survive
    assert info(a, v, "any") == ((1, 1), (1, 1), (1, 1), None)
