"""predicate_op (tritongpu-pipeline's ExpandLoops): how an op is made to act only where a
predicate holds."""

from __future__ import annotations

import pytest

from tileopt.ir import make_context, parse_module, print_module
from tileopt.passes import PassFailure
from tileopt.transforms.ttgir.pipeliner.expand import predicate_op

SOURCE = """
#bl = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: tensor<512x!tt.ptr<f32>, #bl>, %x: tensor<512xf32, #bl>, %m: tensor<512xi1, #bl>, %c: i1, %q: !tt.ptr<i32>) {
    BODY
    tt.return
  }
}"""


def predicated(body: str, source: str = SOURCE, pred_arg: int = 3, skip: int = 0) -> str:
    """``body``'s ops (past the first ``skip`` of the function) predicated on argument
    ``pred_arg``."""
    module = parse_module(source.replace("BODY", body), "test", make_context())
    func = next(op for op in module.walk() if op.name == "tt.func")
    pred = func.body.block.args[pred_arg]
    for op in list(func.body.block.ops)[skip:-1]:
        predicate_op(op, pred)
    module.verify()
    return print_module(module)


def test_store_without_mask_gets_the_splat_predicate():
    text = predicated("tt.store %p, %x : tensor<512x!tt.ptr<f32>, #bl>")
    # Arguments print as triton-opt names them: %p, %x, %m, %c are %arg0 .. %arg3.
    assert "%0 = tt.splat %arg3 : i1 -> tensor<512xi1, #blocked>" in text
    assert "tt.store %arg0, %arg1, %0 :" in text


def test_masked_load_gets_predicate_and_mask():
    text = predicated("%y = tt.load %p, %m : tensor<512x!tt.ptr<f32>, #bl>")
    assert "%1 = arith.andi %0, %arg2 : tensor<512xi1, #blocked>" in text
    assert "tt.load %arg0, %1 :" in text


def test_pure_ops_and_waits_run_unguarded():
    body = ("%y = arith.addf %x, %x : tensor<512xf32, #bl>\n"
            "%t = ttg.async_wait {num = 0 : i32}")
    text = predicated(body)
    assert "tt.splat" not in text and "arith.andi" not in text


def test_an_op_it_cannot_guard_is_an_error():
    body = ("%v = arith.constant 0 : i32\n"
            "%o = tt.atomic_cas acq_rel, gpu, %q, %v, %v : (!tt.ptr<i32>, i32, i32) -> i32")
    with pytest.raises(PassFailure, match="cannot predicate 'tt.atomic_cas'"):
        predicated(body)


BARRIER_SOURCE = """
#S = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%c: i1, %phase: i32, %d: i1) {
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #S, #smem, mutable>
    BODY
    tt.return
  }
}"""


def barrier_predicated(body: str) -> str:
    """``body``'s ops (after the barrier's alloc) predicated on the first argument."""
    return predicated(body, BARRIER_SOURCE, pred_arg=0, skip=1)


def test_mbarrier_ops_and_their_predicate():
    # barrier_expect's predicate (%d is %arg2) is and-ed with the stage's (%arg0).
    text = barrier_predicated("ttng.barrier_expect %bar, 128, %d : "
                              "!ttg.memdesc<1xi64, #S, #smem, mutable>")
    assert "%1 = arith.andi %arg0, %arg2 : i1" in text
    assert "ttng.barrier_expect %0, 128, %1 :" in text
    # A wait_barrier without a predicate takes the stage's; with one, both.
    text = barrier_predicated("ttng.wait_barrier %bar, %phase : "
                              "!ttg.memdesc<1xi64, #S, #smem, mutable>")
    assert "ttng.wait_barrier %0, %arg1, %arg0 :" in text
    text = barrier_predicated("ttng.wait_barrier %bar, %phase, %d : "
                              "!ttg.memdesc<1xi64, #S, #smem, mutable>")
    assert "%1 = arith.andi %arg0, %arg2 : i1" in text
    assert "ttng.wait_barrier %0, %arg1, %1 :" in text
