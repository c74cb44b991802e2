"""Triton's own AMD LLVM IR (the corpus .llir of hip-gfx942 and hip-gfx1100) run by
tileopt-run at small sizes with ragged tails against float64 numpy references, and
mutations of it as a lowering bug would make them (a wrong DPP control, permlane select or
ds_bpermute lane, a dropped s_barrier): the run must notice each."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from tileopt.pipelines import resolve_pass_pipeline
from tileopt.run.launch import Compiled, compile_source, run_kernel, with_llvm_ir
from tileopt.run.memory import KernelFault
from tileopt.testing.run_cases import CASES, DOT, NON_DOT

TARGETS = {"hip-gfx942": "gfx942", "hip-gfx1100": "gfx1100"}
BARRIER = re.compile(r"\n\s*tail call void @llvm\.amdgcn\.s\.barrier\(\)[^\n]*")


@pytest.fixture(scope="module")
def llir(corpus: Path):
    """llir(target, kernel) -> the corpus kernel's .llir, read for the target's arch."""

    @lru_cache(maxsize=None)
    def build(target: str, kernel: str) -> Compiled:
        path = corpus / target / f"{kernel}.llir"
        return compile_source(path.read_text(), path.name, arch=TARGETS[target])

    return build


def launch(compiled: Compiled, kernel: str, llvm_ir: str | None = None):
    case = CASES[kernel](np.random.default_rng(0))
    c = compiled if llvm_ir is None else with_llvm_ir(compiled, llvm_ir)
    return case, run_kernel(c, case.args, case.grid)


def assert_wrong(case, result) -> None:
    with pytest.raises(AssertionError):
        case.check(result.outputs)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("kernel", NON_DOT)
def test_corpus_llir_matches_reference(llir, target, kernel):
    case = CASES[kernel](np.random.default_rng(0))
    grid = tuple(case.grid) + (1,) * (3 - len(case.grid))
    assert grid[0] * grid[1] * grid[2] >= 2
    c = llir(target, kernel)
    result = run_kernel(c, case.args, case.grid)
    # Triton's block: num_warps (4) waves of the arch's size
    assert result.threads == 4 * {"gfx942": 64, "gfx1100": 32}[TARGETS[target]]
    assert result.reports == []
    case.check(result.outputs)


@pytest.mark.parametrize("k_steps", [1, 4])
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("kernel", DOT)
def test_corpus_dot_llir_matches_reference(llir, target, kernel, k_steps):
    """The three tt.dot kernels: mfma 32x32x8 f16 on gfx942, wmma 16x16x16 f16 on gfx1100,
    two blocks along M and N with ragged tails, a K loop of two or five steps (the pipelined
    loop's steady state) with a ragged last one."""
    case = CASES[kernel](np.random.default_rng(0), k_steps=k_steps)
    result = run_kernel(llir(target, kernel), case.args, case.grid)
    assert result.reports == []
    case.check(result.outputs)


AMD_PIPELINES = {"hip-gfx942": "amd-cdna3", "hip-gfx1100": "amd-rdna3"}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("kernel", NON_DOT)
def test_tileopt_amd_pipeline_matches_reference(corpus, target, kernel):
    """The corpus .ttir through tileopt's own AMD pipeline, once it reaches LLVM (issue 10):
    the same references as Triton's .llir."""
    pipeline = AMD_PIPELINES[target]
    if "convert-triton-amdgpu-to-llvm" in resolve_pass_pipeline(pipeline).missing.get("llir", []):
        pytest.skip(f"{pipeline} does not lower to LLVM yet (convert-triton-amdgpu-to-llvm is "
                    "!missing in its YAML)")
    path = corpus / target / f"{kernel}.ttir"
    compiled = compile_source(path.read_text(), path.name, pipeline)
    case = CASES[kernel](np.random.default_rng(0))
    result = run_kernel(compiled, case.args, case.grid)
    assert result.threads == 4 * {"gfx942": 64, "gfx1100": 32}[TARGETS[target]]
    assert result.reports == []
    case.check(result.outputs)


# ------------------------------------------------------------------ mutations

def _mutated(text: str, pattern: str, repl: str) -> str:
    out, n = re.subn(pattern, repl, text, count=1)
    assert n, f"the mutation found nothing to change: {pattern}"
    return out


# (target, kernel, DPP control, wrong control): the first DPP of the kernel with that
# control gets another one; the reduction then sums the wrong lanes
DPP_MUTATIONS = [
    ("hip-gfx942", "sum_rows", 280, 276),    # row_shr:8 -> row_shr:4
    ("hip-gfx942", "sum_rows", 273, 274),    # row_shr:1 -> row_shr:2
    ("hip-gfx942", "sum_rows", 322, 323),    # row_bcast:15 -> row_bcast:31
    ("hip-gfx942", "sum_rows", 323, 322),    # row_bcast:31 -> row_bcast:15
    ("hip-gfx942", "sum_cols", 177, 78),     # quad_perm [1,0,3,2] -> [2,3,0,1]
    ("hip-gfx942", "layernorm_fwd", 78, 177),
    ("hip-gfx1100", "sum_rows", 280, 276),
    ("hip-gfx1100", "sum_rows", 177, 78),
    ("hip-gfx1100", "layernorm_fwd", 273, 274),
    ("hip-gfx1100", "sum_cols", 78, 177),
]


@pytest.mark.parametrize("target,kernel,ctrl,wrong", DPP_MUTATIONS)
def test_wrong_dpp_control_gives_a_wrong_result(llir, target, kernel, ctrl, wrong):
    c = llir(target, kernel)
    ir = _mutated(c.llvm_ir, rf"(update\.dpp\.\w+\([^)]*)i32 {ctrl},", rf"\g<1>i32 {wrong},")
    case, result = launch(c, kernel, ir)
    assert_wrong(case, result)


@pytest.mark.parametrize("target,call", [("hip-gfx942", "mfma.f32.32x32x8f16"),
                                         ("hip-gfx1100", "wmma.f32.16x16x16.f16.v8f32.v16f16")])
def test_swapped_matrix_operands_give_a_wrong_result(llir, target, call):
    """A and B of the first matrix instruction exchanged: A's rows become B's columns."""
    c = llir(target, "matmul_small")
    ir = _mutated(c.llvm_ir, rf"{re.escape(call)}\((<\d+ x half>) (%\d+), <\d+ x half> (%\d+),",
                  rf"{call}(\1 \3, \1 \2,")
    case, result = launch(c, "matmul_small", ir)
    assert_wrong(case, result)


def test_wrong_permlanex16_select_gives_a_wrong_result(llir):
    """gfx1100 folds the two 16-lane rows of a wave with permlanex16 reading lane 15 of
    the other row (selects all ones); lane 0 of it is a partial sum."""
    c = llir("hip-gfx1100", "sum_rows")
    ir = _mutated(c.llvm_ir, r"permlanex16\.i32\(i32 poison, i32 (%\d+), i32 -1, i32 -1",
                  r"permlanex16.i32(i32 poison, i32 \1, i32 0, i32 0")
    case, result = launch(c, "sum_rows", ir)
    assert_wrong(case, result)


@pytest.mark.parametrize("target", TARGETS)
def test_wrong_bpermute_lane_gives_a_wrong_scan(llir, target):
    """cumsum scans a wave with ds_bpermute from lane - 1, - 2, - 4, ...: reading lane 0
    in the first step instead breaks the prefix sums."""
    c = llir(target, "cumsum")
    ir = _mutated(c.llvm_ir, r"ds\.bpermute\(i32 %\d+,", "ds.bpermute(i32 0,")
    case, result = launch(c, "cumsum", ir)
    assert_wrong(case, result)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("kernel", [k for k in NON_DOT
                                    if k not in ("add", "add_nodiv", "axpy_f16", "gelu")])
def test_every_s_barrier_in_the_corpus_is_needed(llir, target, kernel):
    """Each s_barrier of Triton's AMD code guards an LDS exchange: drop any one and the
    race checker reports it."""
    c = llir(target, kernel)
    barriers = list(BARRIER.finditer(c.llvm_ir))
    assert barriers
    for m in barriers:
        _, result = launch(c, kernel, c.llvm_ir[:m.start()] + c.llvm_ir[m.end():])
        assert any(r.startswith("shared-memory race: ") for r in result.reports), \
            (c.llvm_ir[:m.start()].count("\n") + 2, result.reports)


# The first two s_barriers of these kernels each guard what the other guards too: the first
# sits between the prologue's stores of the two pipeline stages, the second at the top of the
# loop before its LDS reads; dropped alone, the other still separates the stores from the
# reads; dropped together, the race is reported.
REDUNDANT_PAIR = {("hip-gfx942", "matmul"), ("hip-gfx1100", "matmul"),
                  ("hip-gfx1100", "block_ptr_matmul")}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("kernel", DOT)
def test_every_s_barrier_of_the_dot_kernels_is_needed(llir, target, kernel):
    """With a K loop of five steps (so that the pipelined loop reuses its LDS buffers)."""
    c = llir(target, kernel)
    barriers = list(BARRIER.finditer(c.llvm_ir))
    case = CASES[kernel](np.random.default_rng(0), k_steps=4)
    pair = (target, kernel) in REDUNDANT_PAIR
    drops = [[m] for m in barriers[2 if pair else 0:]] + ([barriers[:2]] if pair else [])
    for dropped in drops:
        ir = c.llvm_ir
        for m in reversed(dropped):
            ir = ir[:m.start()] + ir[m.end():]
        result = run_kernel(with_llvm_ir(c, ir), case.args, case.grid)
        assert any(r.startswith("shared-memory race: ") for r in result.reports), \
            ([c.llvm_ir[:m.start()].count("\n") + 2 for m in dropped], result.reports)
    if pair:  # each of the two alone is not
        for m in barriers[:2]:
            result = run_kernel(with_llvm_ir(c, c.llvm_ir[:m.start()] + c.llvm_ir[m.end():]),
                                case.args, case.grid)
            assert result.reports == []


# ------------------------------------------------------------------ buffer range checks

@pytest.mark.parametrize("target", TARGETS)
def test_buffer_masked_lanes_are_not_out_of_bounds_but_real_ones_are(llir, target):
    """softmax masks its buffer loads and stores with an offset past num_records in the
    lanes beyond n_cols (1000 of a block of 1024, the rows 1008 floats apart): the last
    row's masked lanes point past the array and are not reported. A fourth row that is not
    there (grid 4 over 3 rows) is read inside num_records: a real out-of-bounds load."""
    c = llir(target, "softmax")
    case, result = launch(c, "softmax")
    assert result.reports == []
    case.check(result.outputs)
    with pytest.raises(KernelFault, match=r"out-of-bounds load of 4 bytes at byte offset "
                                          r"12096 of argument 1 .* of block \(3,0,0\)"):
        run_kernel(c, case.args, (4,))
