"""``optimize-amd-lds-usage`` keeps the answer: a conversion it splits in two, lowered by
convert-triton-amdgpu-to-llvm and executed by tileopt-run, moves every element where the
single conversion did.

The kernel loads a tensor in one layout, converts it and stores it with offsets computed in
the destination layout, so the output is the input exactly when each element reached the
thread that owns it in the destination. An ``lds-limit`` below the conversion's scratch
forces the split (the pipeline itself would only split past the architecture's 64 KiB).
A broken split (a wrong temporary layout, a lost use) stores elements at the wrong place.
"""

from __future__ import annotations

import numpy as np
import pytest

from tileopt.conversion.amd.optimize_lds_usage import OptimizeAMDLDSUsage, warp_splits
from tileopt.ir import make_context, parse_module
from tileopt.run.launch import compile_source, run_kernel

PIPELINES = {"gfx942": "amd-cdna3", "gfx1100": "amd-rdna3"}
WAVE = {"gfx942": 64, "gfx1100": 32}

KERNEL = """
#src = {src}
#dst = {dst}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:{arch}", "ttg.threads-per-warp" = {wave} : i32}} {{
  tt.func public @k(%x: !tt.ptr<f32> {{tt.divisibility = 16 : i32}}, %out: !tt.ptr<f32> {{tt.divisibility = 16 : i32}}) {{
{src_offsets}
{dst_offsets}
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<{R}x{C}x!tt.ptr<f32>, #src>
    %xp = tt.addptr %xs, %isrc : tensor<{R}x{C}x!tt.ptr<f32>, #src>, tensor<{R}x{C}xi32, #src>
    %v = tt.load %xp : tensor<{R}x{C}x!tt.ptr<f32>, #src>
    %w = ttg.convert_layout %v : tensor<{R}x{C}xf32, #src> -> tensor<{R}x{C}xf32, #dst>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<{R}x{C}x!tt.ptr<f32>, #dst>
    %op = tt.addptr %os, %idst : tensor<{R}x{C}x!tt.ptr<f32>, #dst>, tensor<{R}x{C}xi32, #dst>
    tt.store %op, %w : tensor<{R}x{C}x!tt.ptr<f32>, #dst>
    tt.return
  }}
}}
"""

OFFSETS = """\
    %r{L} = tt.make_range {{end = {R} : i32, start = 0 : i32}} : tensor<{R}xi32, #ttg.slice<{{dim = 1, parent = #{L}}}>>
    %c{L} = tt.make_range {{end = {C} : i32, start = 0 : i32}} : tensor<{C}xi32, #ttg.slice<{{dim = 0, parent = #{L}}}>>
    %r2{L} = tt.expand_dims %r{L} {{axis = 1 : i32}} : tensor<{R}xi32, #ttg.slice<{{dim = 1, parent = #{L}}}>> -> tensor<{R}x1xi32, #{L}>
    %c2{L} = tt.expand_dims %c{L} {{axis = 0 : i32}} : tensor<{C}xi32, #ttg.slice<{{dim = 0, parent = #{L}}}>> -> tensor<1x{C}xi32, #{L}>
    %n{L} = arith.constant dense<{C}> : tensor<{R}x1xi32, #{L}>
    %rw{L} = arith.muli %r2{L}, %n{L} : tensor<{R}x1xi32, #{L}>
    %rb{L} = tt.broadcast %rw{L} : tensor<{R}x1xi32, #{L}> -> tensor<{R}x{C}xi32, #{L}>
    %cb{L} = tt.broadcast %c2{L} : tensor<1x{C}xi32, #{L}> -> tensor<{R}x{C}xi32, #{L}>
    %i{L} = arith.addi %rb{L}, %cb{L} : tensor<{R}x{C}xi32, #{L}>"""

def _blocked(size: str, lanes: str, warps: str, order: str) -> str:
    return (f"#ttg.blocked<{{sizePerThread = [{size}], threadsPerWarp = [{lanes}], "
            f"warpsPerCTA = [{warps}], order = [{order}]}}>")


# name -> (arch, source layout, destination layout, LDS limit: half the conversion's scratch)
CASES = {
    # Into the accumulator layouts of the matrix instructions.
    "blocked-to-mfma": ("gfx942", _blocked("8, 1", "16, 4", "1, 4", "0, 1"),
                        "#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], "
                        "instrShape = [32, 32, 8], isTransposed = false}>", 8192),
    "blocked-to-wmma": ("gfx1100", _blocked("8, 1", "8, 4", "1, 4", "0, 1"),
                        "#ttg.amd_wmma<{version = 1, isTranspose = false, "
                        "warpsPerCTA = [1, 4]}>", 8192),
    # The warps turned from rows to columns, on both wave sizes.
    "warps-wave64": ("gfx942", _blocked("1, 4", "16, 4", "4, 1", "1, 0"),
                     _blocked("1, 4", "16, 4", "1, 4", "1, 0"), 8192),
    "warps-wave32": ("gfx1100", _blocked("1, 4", "8, 4", "4, 1", "1, 0"),
                     _blocked("1, 4", "8, 4", "1, 4", "1, 0"), 4096),
}
ROWS = COLS = 64


def _kernel(arch: str, src: str, dst: str) -> str:
    offsets = {f"{name}_offsets": OFFSETS.format(L=name, R=ROWS, C=COLS) for name in ("src", "dst")}
    return KERNEL.format(src=src, dst=dst, arch=arch, wave=WAVE[arch], R=ROWS, C=COLS, **offsets)


def _run(text: str, arch: str, x: np.ndarray):
    compiled = compile_source(text, "k.ttgir", PIPELINES[arch], start_at="llir")
    result = run_kernel(compiled, [x, np.zeros_like(x)], (1,))
    assert result.reports == []
    return result.outputs[1], compiled.shared_bytes


@pytest.mark.parametrize("case", CASES)
def test_split_conversion_moves_every_element(case):
    arch, src, dst, limit = CASES[case]
    text = _kernel(arch, src, dst)
    ctx = make_context()
    module = parse_module(text, "k.ttgir", ctx)
    OptimizeAMDLDSUsage(target_arch=arch, lds_limit=limit).apply(ctx, module)
    split = str(module)
    assert split.count("ttg.convert_layout") == 2, split

    x = np.arange(ROWS * COLS, dtype=np.float32) * 0.5 - 7
    whole, whole_lds = _run(text, arch, x)
    halves, halves_lds = _run(split, arch, x)
    np.testing.assert_array_equal(whole, x)
    np.testing.assert_array_equal(halves, x)
    assert halves_lds <= limit < whole_lds


def test_warp_splits_cover_every_factorisation_in_triton_order():
    # Triton's factorizePowerOf2: the first dimension grows slowest.
    assert list(warp_splits(4, 2)) == [(1, 4), (2, 2), (4, 1)]
    assert list(warp_splits(8, 3))[:4] == [(1, 1, 8), (1, 2, 4), (1, 4, 2), (1, 8, 1)]
    assert len(list(warp_splits(8, 3))) == 10  # (3 + 2 choose 2) ways to place 3 twos
    assert list(warp_splits(4, 1)) == [(4,)]
    with pytest.raises(ValueError):
        list(warp_splits(6, 2))
