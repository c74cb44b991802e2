"""The TTIR reference evaluator (tileopt.run.reference) on small hand-written kernels whose
results are worked out by hand in the comments, and the ``tileopt-run --reference`` flag."""

from __future__ import annotations

import numpy as np
import pytest

from tileopt.ir import TileoptError
from tileopt.run.cli import run_cli
from tileopt.run.reference import run_reference
from tileopt.testing.run_cases import CASES, DOT, NON_DOT

def _loads_x(signature: str, ty: str) -> str:
    """A kernel's opening: %v = the four elements of %x (of type ``ty``), %r = 0..3."""
    return f"""
tt.func public @{signature} {{
  %r = tt.make_range {{end = 4 : i32, start = 0 : i32}} : tensor<4xi32>
  %xp = tt.splat %x : !tt.ptr<{ty}> -> tensor<4x!tt.ptr<{ty}>>
  %xa = tt.addptr %xp, %r : tensor<4x!tt.ptr<{ty}>>, tensor<4xi32>
  %v = tt.load %xa : tensor<4x!tt.ptr<{ty}>>
"""


_RETURN = "  tt.return\n}\n"


MASKED_LOAD = """
tt.func public @masked(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32) {
  %pid = tt.get_program_id x : i32
  %c4 = arith.constant 4 : i32
  %base = arith.muli %pid, %c4 : i32
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %b = tt.splat %base : i32 -> tensor<4xi32>
  %i = arith.addi %b, %r : tensor<4xi32>
  %nn = tt.splat %n : i32 -> tensor<4xi32>
  %m = arith.cmpi slt, %i, %nn : tensor<4xi32>
  %xp = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %xa = tt.addptr %xp, %i : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  %other = arith.constant dense<-1.0> : tensor<4xf32>
  %v = tt.load %xa, %m, %other : tensor<4x!tt.ptr<f32>>
  %yp = tt.splat %y : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %ya = tt.addptr %yp, %i : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  tt.store %ya, %v : tensor<4x!tt.ptr<f32>>
  tt.return
}
"""


def test_masked_load_takes_other_where_the_mask_is_off():
    # two programs of 4; n = 6: lanes 6 and 7 of the second program read `other` (-1)
    x = np.array([10, 20, 30, 40, 50, 60], np.float32)
    y = np.zeros(8, np.float32)
    res = run_reference(MASKED_LOAD, [x, y, 6], (2,))
    assert res.outputs[1].tolist() == [10, 20, 30, 40, 50, 60, -1, -1]
    assert res.touched == {0: 24, 1: 32}         # x read only where the mask is on


def test_an_access_past_the_buffer_is_an_error_at_its_op():
    with pytest.raises(TileoptError, match=r"<input>:17:3: error: out-of-bounds store of "
                       r"bytes \[16, 32\) of argument 1 \(arg1, 24 bytes\) in program \(1, 0, 0\)"):
        run_reference(MASKED_LOAD, [np.zeros(6, np.float32), np.zeros(6, np.float32), 6], (2,))


ARGMAX = _loads_x("argmax(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %idx: !tt.ptr<i32>)",
                  "f32") + """\
  %m:2 = "tt.reduce"(%v, %r) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %eq = arith.cmpf oeq, %a, %b : f32
    %lt = arith.cmpi slt, %ai, %bi : i32
    %tie = arith.andi %eq, %lt : i1
    %pa = arith.ori %gt, %tie : i1
    %rv = arith.select %pa, %a, %b : f32
    %ri = arith.select %pa, %ai, %bi : i32
    tt.reduce.return %rv, %ri : f32, i32
  }) : (tensor<4xf32>, tensor<4xi32>) -> (f32, i32)
  tt.store %out, %m#0 : !tt.ptr<f32>
  tt.store %idx, %m#1 : !tt.ptr<i32>
""" + _RETURN


@pytest.mark.parametrize("x, value, index", [
    ([3, 7, 7, 1], 7, 1),          # a tie: the smaller index wins
    ([3, 1, 2, 9], 9, 3),
    ([5, 5, 5, 5], 5, 0),
])
def test_argmax_reduce_with_two_operands(x, value, index):
    res = run_reference(ARGMAX, [np.array(x, np.float32), np.zeros(1, np.float32),
                                 np.zeros(1, np.int32)], (1,))
    assert res.outputs[1][0] == value and res.outputs[2][0] == index


SCAN = _loads_x("scan(%x: !tt.ptr<i32>, %y: !tt.ptr<i32>, %z: !tt.ptr<i32>)", "i32") + """\
  %s = "tt.scan"(%v) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    tt.scan.return %c : i32
  }) : (tensor<4xi32>) -> tensor<4xi32>
  %t = "tt.scan"(%v) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    tt.scan.return %c : i32
  }) : (tensor<4xi32>) -> tensor<4xi32>
  %yp = tt.splat %y : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
  %ya = tt.addptr %yp, %r : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
  tt.store %ya, %s : tensor<4x!tt.ptr<i32>>
  %zp = tt.splat %z : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
  %za = tt.addptr %zp, %r : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
  tt.store %za, %t : tensor<4x!tt.ptr<i32>>
""" + _RETURN


def test_inclusive_scans_forward_and_reverse():
    # [1, 2, 3, 4]: running sums 1 3 6 10; from the end 10 9 7 4; i32 wraps at 2^31
    res = run_reference(SCAN, [np.array([1, 2, 3, 4], np.int32), np.zeros(4, np.int32),
                               np.zeros(4, np.int32)], (1,))
    assert res.outputs[1].tolist() == [1, 3, 6, 10]
    assert res.outputs[2].tolist() == [10, 9, 7, 4]
    big = np.array([2**31 - 1, 1, 0, 0], np.int32)
    res = run_reference(SCAN, [big, np.zeros(4, np.int32), np.zeros(4, np.int32)], (1,))
    assert res.outputs[1].tolist() == [2**31 - 1, -2**31, -2**31, -2**31]


LOOP = """
tt.func public @loop(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %nn = tt.splat %n : i32 -> tensor<4xi32>
  %xp = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %acc = scf.for %k = %c0 to %n step %c4 iter_args(%a = %zero) -> (tensor<4xf32>) : i32 {
    %kk = tt.splat %k : i32 -> tensor<4xi32>
    %i = arith.addi %kk, %r : tensor<4xi32>
    %m = arith.cmpi slt, %i, %nn : tensor<4xi32>
    %xa = tt.addptr %xp, %i : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %v = tt.load %xa, %m, %zero : tensor<4x!tt.ptr<f32>>
    %s = arith.addf %a, %v : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  %yp = tt.splat %y : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %ya = tt.addptr %yp, %r : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  tt.store %ya, %acc : tensor<4x!tt.ptr<f32>>
  tt.return
}
"""


def test_scf_for_accumulates_over_a_ragged_loop():
    # x = 1..10, three steps of 4 (the last with two lanes): 1+5+9, 2+6+10, 3+7, 4+8
    res = run_reference(LOOP, [np.arange(1, 11, dtype=np.float32), np.zeros(4, np.float32),
                               10], (1,))
    assert res.outputs[1].tolist() == [15, 18, 10, 12]


BF16 = """
tt.func public @bf16(%x: !tt.ptr<bf16>, %y: !tt.ptr<bf16>) {
  %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  %xp = tt.splat %x : !tt.ptr<bf16> -> tensor<2x!tt.ptr<bf16>>
  %xa = tt.addptr %xp, %r : tensor<2x!tt.ptr<bf16>>, tensor<2xi32>
  %v = tt.load %xa : tensor<2x!tt.ptr<bf16>>
  %h = arith.constant dense<3.906250e-03> : tensor<2xbf16>
  %s = arith.addf %v, %h : tensor<2xbf16>
  %yp = tt.splat %y : !tt.ptr<bf16> -> tensor<2x!tt.ptr<bf16>>
  %ya = tt.addptr %yp, %r : tensor<2x!tt.ptr<bf16>>, tensor<2xi32>
  tt.store %ya, %s : tensor<2x!tt.ptr<bf16>>
  tt.return
}
"""


def test_bf16_rounds_after_each_op_to_even():
    # bf16 has 8 significant bits: 1 + 2^-8 is halfway between 1 and 1 + 2^-7 and rounds to
    # the even 1; (1 + 2^-7) + 2^-8 is halfway to 1 + 2^-6, the even one. Bits: 0x3f80 = 1.0
    x = np.array([0x3F80, 0x3F81], np.uint16)
    res = run_reference(BF16, [x, np.zeros(2, np.uint16)], (1,))
    assert res.outputs[1].tolist() == [0x3F80, 0x3F82]


def test_an_unsupported_op_is_named():
    text = """
tt.func public @asm(%x: !tt.ptr<i32>) {
  %v = tt.load %x : !tt.ptr<i32>
  %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %v : i32 -> i32
  tt.store %x, %y : !tt.ptr<i32>
  tt.return
}
"""
    with pytest.raises(TileoptError, match="4:3: error: the reference evaluator does not "
                       "support 'tt.elementwise_inline_asm'"):
        run_reference(text, [np.zeros(1, np.int32)], (1,))


def test_cli_reference_flag(tmp_path, capsys):
    (tmp_path / "k.ttir").write_text(MASKED_LOAD)
    np.save(tmp_path / "x.npy", np.arange(1, 7, dtype=np.float32))
    np.save(tmp_path / "y.npy", np.zeros(8, np.float32))
    rc = run_cli([str(tmp_path / "k.ttir"), "--reference", "--grid", "2",
                  str(tmp_path / "x.npy"), str(tmp_path / "y.npy"), "6", "--out",
                  str(tmp_path / "r")])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert out.startswith("masked: grid 2x1x1, TTIR reference, ")
    assert np.load(tmp_path / "r" / "arg1.npy").tolist() == [1, 2, 3, 4, 5, 6, -1, -1]
    rc = run_cli([str(tmp_path / "k.ttir"), "--reference", "--pass-pipeline=nvidia-sm90",
                  "--grid", "2", str(tmp_path / "x.npy"), str(tmp_path / "y.npy"), "6"])
    assert rc == 1
    assert "error: --reference evaluates the .ttir as it is" in capsys.readouterr().err


@pytest.mark.parametrize("kernel", NON_DOT + DOT)
def test_corpus_ttir_against_the_float64_references(corpus, kernel):
    """A cross-check of the evaluator itself: Triton's .ttir of the 14 corpus kernels,
    evaluated, against run_cases' float64 numpy references (not tileopt's lowering)."""
    case = CASES[kernel](np.random.default_rng(0))
    path = corpus / "cuda-sm90" / f"{kernel}.ttir"
    res = run_reference(path.read_text(), case.args, case.grid, filename=path.name)
    case.check(res.outputs)
