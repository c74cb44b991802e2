"""tileopt's AMD lowering (convert-triton-amdgpu-to-llvm) executed by tileopt-run, on
hand-written TTGIR that reaches every cross-lane path of ``conversion/amd/hooks.py``:

- a reduction over part of a wave: butterflies of 1 and 2 lanes (DPP quad_perm), 4 and 8
  (two DPP row shifts with bank masks), 16 (``ds_swizzle``) and 32 (``ds_bpermute``);
- a reduction over a whole wave: DPP row shifts, then row broadcasts (gfx942) or
  ``permlanex16`` (gfx1100), then ``readlane``;
- a scan: shuffles up through ``ds_bpermute``;
- narrow (f16) and wide (i64) values, which travel in 32-bit registers.

Each result is numpy's: a wrong lane anywhere gives a wrong sum.
"""

from __future__ import annotations

import numpy as np
import pytest

from tileopt.run.launch import compile_source, run_kernel

PIPELINES = {"gfx942": "amd-cdna3", "gfx1100": "amd-rdna3"}
WAVE = {"gfx942": 64, "gfx1100": 32}

REDUCE_ROWS = """
#b = #ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [{tr}, {tc}], warpsPerCTA = [1, 1], order = [{order}]}}>
#s = #ttg.slice<{{dim = 1, parent = #b}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:{arch}", "ttg.threads-per-warp" = {wave} : i32}} {{
  tt.func public @rows(%x: !tt.ptr<{ty}> {{tt.divisibility = 16 : i32}}, %out: !tt.ptr<{ty}> {{tt.divisibility = 16 : i32}}) {{
    %r = tt.make_range {{end = {tr} : i32, start = 0 : i32}} : tensor<{tr}xi32, #s>
    %c = tt.make_range {{end = {tc} : i32, start = 0 : i32}} : tensor<{tc}xi32, #ttg.slice<{{dim = 0, parent = #b}}>>
    %r2 = tt.expand_dims %r {{axis = 1 : i32}} : tensor<{tr}xi32, #s> -> tensor<{tr}x1xi32, #b>
    %c2 = tt.expand_dims %c {{axis = 0 : i32}} : tensor<{tc}xi32, #ttg.slice<{{dim = 0, parent = #b}}>> -> tensor<1x{tc}xi32, #b>
    %w = arith.constant dense<{tc}> : tensor<{tr}x1xi32, #b>
    %rw = arith.muli %r2, %w : tensor<{tr}x1xi32, #b>
    %rb = tt.broadcast %rw : tensor<{tr}x1xi32, #b> -> tensor<{tr}x{tc}xi32, #b>
    %cb = tt.broadcast %c2 : tensor<1x{tc}xi32, #b> -> tensor<{tr}x{tc}xi32, #b>
    %i = arith.addi %rb, %cb : tensor<{tr}x{tc}xi32, #b>
    %xs = tt.splat %x : !tt.ptr<{ty}> -> tensor<{tr}x{tc}x!tt.ptr<{ty}>, #b>
    %xp = tt.addptr %xs, %i : tensor<{tr}x{tc}x!tt.ptr<{ty}>, #b>, tensor<{tr}x{tc}xi32, #b>
    %v = tt.load %xp : tensor<{tr}x{tc}x!tt.ptr<{ty}>, #b>
    %s = "tt.reduce"(%v) <{{axis = 1 : i32}}> ({{
    ^bb0(%a: {ty}, %e: {ty}):
      %d = {add} %a, %e : {ty}
      tt.reduce.return %d : {ty}
    }}) : (tensor<{tr}x{tc}x{ty}, #b>) -> tensor<{tr}x{ty}, #s>
    %os = tt.splat %out : !tt.ptr<{ty}> -> tensor<{tr}x!tt.ptr<{ty}>, #s>
    %op = tt.addptr %os, %r : tensor<{tr}x!tt.ptr<{ty}>, #s>, tensor<{tr}xi32, #s>
    tt.store %op, %s : tensor<{tr}x!tt.ptr<{ty}>, #s>
    tt.return
  }}
}}
"""

SCAN = """
#b = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [{wave}], warpsPerCTA = [1], order = [0]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:{arch}", "ttg.threads-per-warp" = {wave} : i32}} {{
  tt.func public @prefix(%x: !tt.ptr<i32> {{tt.divisibility = 16 : i32}}, %out: !tt.ptr<i32> {{tt.divisibility = 16 : i32}}) {{
    %r = tt.make_range {{end = {wave} : i32, start = 0 : i32}} : tensor<{wave}xi32, #b>
    %xs = tt.splat %x : !tt.ptr<i32> -> tensor<{wave}x!tt.ptr<i32>, #b>
    %xp = tt.addptr %xs, %r : tensor<{wave}x!tt.ptr<i32>, #b>, tensor<{wave}xi32, #b>
    %v = tt.load %xp : tensor<{wave}x!tt.ptr<i32>, #b>
    %s = "tt.scan"(%v) <{{axis = 0 : i32, reverse = false}}> ({{
    ^bb0(%a: i32, %e: i32):
      %d = arith.addi %a, %e : i32
      tt.scan.return %d : i32
    }}) : (tensor<{wave}xi32, #b>) -> tensor<{wave}xi32, #b>
    %os = tt.splat %out : !tt.ptr<i32> -> tensor<{wave}x!tt.ptr<i32>, #b>
    %op = tt.addptr %os, %r : tensor<{wave}x!tt.ptr<i32>, #b>, tensor<{wave}xi32, #b>
    tt.store %op, %s : tensor<{wave}x!tt.ptr<i32>, #b>
    tt.return
  }}
}}
"""

_TYPES = {"f32": (np.float32, "arith.addf"), "f16": (np.float16, "arith.addf"),
          "i64": (np.int64, "arith.addi")}


def _run(text: str, arch: str, args):
    compiled = compile_source(text, "k.ttgir", PIPELINES[arch], start_at="llir")
    result = run_kernel(compiled, args, (1,))
    assert result.reports == []
    return result.outputs[1], compiled.llvm_ir  # the second argument is the output


@pytest.mark.parametrize(("arch", "lanes_per_row"),
                         [(arch, lanes) for arch, wave in WAVE.items()
                          for lanes in (2, 4, 8, 16, 32, 64) if lanes <= wave])
@pytest.mark.parametrize("ty", ("f32", "f16", "i64"))
@pytest.mark.parametrize("order", ("1, 0", "0, 1"))
def test_row_sums_over_any_lane_bits(arch, ty, lanes_per_row, order):
    """Rows spread over ``lanes_per_row`` lanes: with order [1, 0] the row's lanes are the
    low lane bits (butterflies 1, 2, 4...), with [0, 1] the high ones (..., 16, 32); a row
    over the whole wave takes the DPP wave reduction (one operand, 32 bits or fewer)."""
    wave = WAVE[arch]
    rows = wave // lanes_per_row
    dtype, add = _TYPES[ty]
    rng = np.random.default_rng(lanes_per_row)
    x = rng.integers(-8, 8, size=(rows, lanes_per_row)).astype(dtype)
    text = REDUCE_ROWS.format(tr=rows, tc=lanes_per_row, order=order, arch=arch, wave=wave,
                              ty=ty, add=add)
    out, llvm_ir = _run(text, arch, [x.reshape(-1), np.zeros(rows, dtype)])
    np.testing.assert_array_equal(out, x.sum(axis=1, dtype=dtype))
    if lanes_per_row == wave and ty != "i64":
        assert "llvm.amdgcn.readlane" in llvm_ir


@pytest.mark.parametrize("arch", ("gfx942", "gfx1100"))
def test_prefix_sum_over_a_wave(arch):
    wave = WAVE[arch]
    x = np.arange(1, wave + 1, dtype=np.int32) * 3
    out, llvm_ir = _run(SCAN.format(arch=arch, wave=wave), arch,
                        [x, np.zeros(wave, np.int32)])
    np.testing.assert_array_equal(out, np.cumsum(x))
    assert "llvm.amdgcn.ds.bpermute" in llvm_ir


BUFFER_CAS = """
#b = #ttg.blocked<{{sizePerThread = [2], threadsPerWarp = [{wave}], warpsPerCTA = [1], order = [0]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:{arch}", "ttg.threads-per-warp" = {wave} : i32}} {{
  tt.func public @cas(%x: !tt.ptr<i64> {{tt.divisibility = 16 : i32}}, %out: !tt.ptr<i64> {{tt.divisibility = 16 : i32}}) {{
    %r = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32, #b>
    %cmp = arith.constant dense<0> : tensor<{n}xi64, #b>
    %val = arith.constant dense<7> : tensor<{n}xi64, #b>
    %old = amdg.buffer_atomic_cas acq_rel, gpu, %cmp, %val, %x[%r] : tensor<{n}xi64, #b>
    amdg.buffer_store %old, %out[%r] : tensor<{n}xi64, #b>
    tt.return
  }}
}}
"""


@pytest.mark.parametrize("arch", ("gfx942", "gfx1100"))
def test_buffer_atomic_cas_swaps_where_memory_holds_cmp(arch):
    """``amdg.buffer_atomic_cas``: 7 goes where the memory holds 0; the old values come
    back (``raw.ptr.buffer.atomic.cmpswap`` takes the new value first, then cmp)."""
    wave = WAVE[arch]
    n = 2 * wave
    x = (np.arange(n, dtype=np.int64) % 3)  # 0 at every third element
    compiled = compile_source(BUFFER_CAS.format(arch=arch, wave=wave, n=n), "k.ttgir",
                              PIPELINES[arch], start_at="llir")
    result = run_kernel(compiled, [x.copy(), np.zeros(n, np.int64)], (1,))
    assert result.reports == []
    np.testing.assert_array_equal(result.outputs[1], x)
    np.testing.assert_array_equal(result.outputs[0], np.where(x == 0, 7, x))
    assert "llvm.amdgcn.raw.ptr.buffer.atomic.cmpswap" in compiled.llvm_ir
