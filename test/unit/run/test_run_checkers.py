"""The checkers (bounds, shared-memory races, uninitialised shared reads) and mutation
tests: a compiled kernel's LLVM IR is broken the way a lowering bug would break it (a
wrong shuffle lane, a dropped barrier, a mask off by one) and the run must notice."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tileopt.run.launch import run_kernel, with_llvm_ir
from tileopt.run.memory import KernelFault
from tileopt.testing.run_cases import CASES, DOT, NON_DOT

BARRIER = re.compile(r"\n\s*call void @llvm\.nvvm\.barrier\.cta\.sync\.aligned\.all\(i32 0\)[^\n]*")


def mutate(text: str, pattern: str, repl: str, count: int = 0) -> str:
    out, n = re.subn(pattern, repl, text, count=count)
    assert n, f"the mutation found nothing to change: {pattern}"
    return out


def launch(compiled, kernel, llvm_ir=None, checks=True):
    case = CASES[kernel](np.random.default_rng(0))
    c = compiled if llvm_ir is None else with_llvm_ir(compiled, llvm_ir)
    return case, run_kernel(c, case.args, case.grid, checks=checks)


def right(case, result) -> bool:
    try:
        case.check(result.outputs)
    except AssertionError:
        return False
    return True


# ------------------------------------------------------------------ bounds (memcheck)

def test_out_of_bounds_load_names_thread_block_argument_and_offset(compiled):
    c = compiled("add", "nvidia-sm90")
    n = 2512
    x, y, out = (np.zeros(n, np.float32) for _ in range(3))
    with pytest.raises(KernelFault) as err:
        # n says 4096 elements, the buffers hold 2512: element 2512 is the first one out,
        # byte 10048 of x; with 8 elements a thread as two 4-wide vectors 512 apart, it is
        # thread (2512 - 2048) / 4 = 116 of block 2 that loads it
        run_kernel(c, [x, y, out, 4096], (4,), arg_names=["x.npy", "y.npy", "out.npy", "4096"])
    # at the tt.load of x in the .ttir (loc "kernels.py":15:16)
    assert str(err.value).startswith(
        "kernels.py:15:16: error: out-of-bounds load of 16 bytes at byte offset 10048 of "
        "argument 0 (x.npy, 10048 bytes) by thread (116,0,0) of block (2,0,0) (LLVM IR line ")


def test_out_of_bounds_store_is_caught(compiled):
    c = compiled("add", "nvidia-sm80")
    x, y = np.zeros(2048, np.float32), np.zeros(2048, np.float32)
    with pytest.raises(KernelFault, match="out-of-bounds store .* of argument 2"):
        run_kernel(c, [x, y, np.zeros(2000, np.float32), 2048], (2,))


def test_scratch_pointers_are_null(compiled):
    """Triton's trailing scratch pointers are not given: any use of them is an error."""
    c = compiled("add", "nvidia-sm90")
    ir = mutate(c.llvm_ir, r"(getelementptr float, ptr addrspace\(1\)) %0,", r"\1 %4,", 1)
    case = CASES["add"](np.random.default_rng(0))
    with pytest.raises(KernelFault, match="through a null pointer"):
        run_kernel(with_llvm_ir(c, ir), case.args, case.grid)


# ------------------------------------------------------------------ races (racecheck)

@pytest.mark.parametrize("pipeline", ["nvidia-sm80", "nvidia-sm90"])
@pytest.mark.parametrize("which", [0, 1, 2, 3, 4])
def test_dropped_barrier_is_a_race(compiled, pipeline, which):
    c = compiled("softmax", pipeline)
    barriers = list(BARRIER.finditer(c.llvm_ir))
    assert len(barriers) == 5  # as Triton's PTX: two per cross-warp reduction, one between
    m = barriers[which]
    ir = c.llvm_ir[:m.start()] + c.llvm_ir[m.end():]
    case, result = launch(c, "softmax", ir)
    assert any(r.startswith("shared-memory race: ") for r in result.reports), result.reports
    # threads run in lock step here, so the numbers stay right: only the checker sees it
    _, unchecked = launch(c, "softmax", ir, checks=False)
    assert unchecked.reports == [] and right(case, unchecked)


@pytest.mark.parametrize("kernel,pipeline", [
    (k, p) for k in NON_DOT + DOT if k not in ("add", "add_nodiv", "axpy_f16", "gelu")
    for p in ("nvidia-sm80", "nvidia-sm90") if (k, p) != ("block_ptr_matmul", "nvidia-sm90")])
def test_every_barrier_in_the_corpus_is_needed(compiled, kernel, pipeline):
    """Each barrier the lowering emits guards a shared-memory exchange: drop any one and
    the race checker reports it (in the dot kernels, also the barrier that keeps a
    cp.async from overwriting what another warp's wgmma may still read)."""
    c = compiled(kernel, pipeline)
    barriers = list(BARRIER.finditer(c.llvm_ir))
    assert barriers
    for k, m in enumerate(barriers):
        _, result = launch(c, kernel, c.llvm_ir[:m.start()] + c.llvm_ir[m.end():])
        raced = any(r.startswith("shared-memory race: ") for r in result.reports)
        assert raced != (k < UNGUARDED.get(kernel, 0)), \
            (c.llvm_ir[:m.start()].count("\n") + 2, result.reports)


# matmul's first barrier sits between the copies of its first two pipeline stages, into
# different buffers that nothing has touched yet: it guards no exchange (Triton's PTX has
# the same number of barriers).
UNGUARDED = {"matmul": 1}


def test_race_report_names_both_threads(compiled):
    c = compiled("softmax", "nvidia-sm90")
    first = next(BARRIER.finditer(c.llvm_ir))
    _, result = launch(c, "softmax", c.llvm_ir[:first.start()] + c.llvm_ir[first.end():])
    # warp 1's lane 0 (thread 32) writes its partial maximum at byte 4, the slot thread 1
    # reads for the second round of the reduction
    assert result.reports[0].startswith(
        "shared-memory race: thread (1,0,0) of block (0,0,0) reads byte offset 4, "
        "written by thread (32,0,0) of the same block since the last barrier")


def test_transpose_through_shared_memory_has_no_race(compiled):
    _, result = launch(compiled("transpose", "nvidia-sm90"), "transpose")
    assert result.reports == []


# ------------------------------------------------------------------ uninitialised shared reads

def test_read_of_shared_memory_never_written(compiled):
    c = compiled("softmax", "nvidia-sm90")
    ir = mutate(c.llvm_ir, r"\n\s*call void asm sideeffect \"@\$2 st\.shared[^\n]*", "", 1)
    _, result = launch(c, "softmax", ir)
    # the second round of the reduction reads the warps' partials, one slot a thread
    line = _line_of_first(ir, "ld.shared.b32")
    assert len(result.reports) == 1
    assert re.fullmatch(r"read of uninitialised shared memory at byte offset 0 by thread "
                        r"\(0,0,0\) of block \(0,0,0\) \(kernels\.py:\d+:\d+, LLVM IR line "
                        rf"{line}\)", result.reports[0]), result.reports


def _line_of_first(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


# ------------------------------------------------------------------ mutations of the lowering

@pytest.mark.parametrize("pipeline", ["nvidia-sm80", "nvidia-sm90"])
def test_wrong_shuffle_lane_gives_a_wrong_result(compiled, pipeline):
    c = compiled("softmax", pipeline)
    ir = mutate(c.llvm_ir, r"(shfl\.sync\.bfly\.i32\(i32 -1, i32 %\d+, i32) 16,", r"\1 8,")
    case, result = launch(c, "softmax", ir)
    assert not right(case, result)
    case, result = launch(c, "softmax")
    assert right(case, result)


def test_wrong_scan_shuffle_gives_a_wrong_result(compiled):
    c = compiled("cumsum", "nvidia-sm90")
    ir = mutate(c.llvm_ir, r"(shfl\.sync\.up\.i32\(i32 -1, i32 %\d+, i32) 2,", r"\1 1,", 1)
    case, result = launch(c, "cumsum", ir)
    assert not right(case, result)


@pytest.mark.parametrize("pipeline", ["nvidia-sm80", "nvidia-sm90"])
def test_mask_off_by_one_reads_out_of_bounds(compiled, pipeline):
    c = compiled("add", pipeline)  # n (%3) is exactly the buffers' length
    ir = mutate(c.llvm_ir, r"icmp slt (i32 %\d+, %3)\b", r"icmp sle \1")
    with pytest.raises(KernelFault, match="out-of-bounds load"):
        launch(c, "add", ir)


@pytest.mark.parametrize("pipeline", ["nvidia-sm80", "nvidia-sm90"])
def test_mask_off_by_one_clobbers_the_row_padding(compiled, pipeline):
    c = compiled("softmax", pipeline)  # n_cols (%4) < the row stride: no bounds error
    ir = mutate(c.llvm_ir, r"icmp slt (i32 %\d+, %4)\b", r"icmp sle \1")
    case, result = launch(c, "softmax", ir)
    assert result.reports == [] and not right(case, result)
