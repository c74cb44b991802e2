"""tileopt-run's warp-wide matrix instructions against the PTX ISA's fragment layouts,
worked out here element by element (not from tileopt's own lowering), and the cp.async
group checker on a mutated matmul."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tileopt.run import tensor_core as TC
from tileopt.run.launch import run_kernel, with_llvm_ir
from tileopt.run.memory import KernelFault
from tileopt.testing.run_cases import CASES

LANE = np.arange(32)
G, T = LANE // 4, LANE % 4          # the ISA's groupID and threadID_in_group


def _pack(elems: np.ndarray, bits: int) -> np.ndarray:
    """(..., r * per) element bits -> (..., r) 32-bit registers, first element lowest."""
    per = 32 // bits
    e = elems.astype(np.uint64).reshape(elems.shape[:-1] + (-1, per))
    return (e << (np.arange(per, dtype=np.uint64) * np.uint64(bits))).sum(-1).astype(np.uint64)


def _f32_bits(x):
    return np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)


def _mma(shape, types, A, B, C, a_of, b_of, bits, to_bits):
    """Fragments built per lane from the ISA's tables (a_of(lane) -> [(row, col)...])."""
    a = np.array([[to_bits(A[r, c]) for r, c in a_of(l)] for l in range(32)])
    b = np.array([[to_bits(B[r, c]) for r, c in b_of(l)] for l in range(32)])
    c = np.array([[_f32_bits(C[r, col]) if types[0] == "f32" else int(C[r, col]) & 0xFFFFFFFF
                   for r, col in _cd_of(l)] for l in range(32)], np.uint64)
    d = TC.mma_sync(shape, types, _pack(a, bits)[None], _pack(b, bits)[None], c[None])[0]
    out = np.zeros_like(C, dtype=np.float64)
    for lane in range(32):
        for i, (r, col) in enumerate(_cd_of(lane)):
            raw = int(d[lane, i])
            out[r, col] = np.array([raw], np.uint32).view(np.float32)[0] if types[0] == "f32" \
                else np.array([raw], np.uint32).view(np.int32)[0]
    return out


def _cd_of(lane):
    g, t = lane // 4, lane % 4
    return [(g, 2 * t), (g, 2 * t + 1), (g + 8, 2 * t), (g + 8, 2 * t + 1)]


def test_mma_m16n8k16_f16_layout():
    rng = np.random.default_rng(0)
    A = rng.integers(-4, 5, (16, 16)).astype(np.float16)
    B = rng.integers(-4, 5, (16, 8)).astype(np.float16)
    C = rng.integers(-4, 5, (16, 8)).astype(np.float32)

    def a_of(lane):  # a0..a7: rows g, g, g+8, g+8, g, g, g+8, g+8; cols 2t(+1), then +8
        g, t = lane // 4, lane % 4
        return [(g, 2 * t), (g, 2 * t + 1), (g + 8, 2 * t), (g + 8, 2 * t + 1),
                (g, 2 * t + 8), (g, 2 * t + 9), (g + 8, 2 * t + 8), (g + 8, 2 * t + 9)]

    def b_of(lane):  # b0..b3: rows 2t, 2t+1, 2t+8, 2t+9; col g
        g, t = lane // 4, lane % 4
        return [(2 * t, g), (2 * t + 1, g), (2 * t + 8, g), (2 * t + 9, g)]

    f16 = lambda v: int(np.float16(v).view(np.uint16))  # noqa: E731
    got = _mma("m16n8k16", ["f32", "f16", "f16", "f32"], A, B, C, a_of, b_of, 16, f16)
    np.testing.assert_array_equal(got, A.astype(np.float64) @ B + C)
    bf16 = lambda v: int(np.float32(v).view(np.uint32)) >> 16  # noqa: E731
    got = _mma("m16n8k16", ["f32", "bf16", "bf16", "f32"], A, B, C, a_of, b_of, 16, bf16)
    np.testing.assert_array_equal(got, A.astype(np.float64) @ B + C)


def test_mma_m16n8k8_tf32_layout_and_truncation():
    rng = np.random.default_rng(1)
    A = rng.integers(-4, 5, (16, 8)).astype(np.float32)
    B = rng.integers(-4, 5, (8, 8)).astype(np.float32)
    A[0, 0] = 1 + 2.0 ** -12            # below tf32's 10 mantissa bits: read as 1
    C = np.zeros((16, 8), np.float32)

    def a_of(lane):  # a0..a3: (g, t), (g+8, t), (g, t+4), (g+8, t+4)
        g, t = lane // 4, lane % 4
        return [(g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4)]

    def b_of(lane):  # b0, b1: (t, g), (t+4, g)
        g, t = lane // 4, lane % 4
        return [(t, g), (t + 4, g)]

    got = _mma("m16n8k8", ["f32", "tf32", "tf32", "f32"], A, B, C, a_of, b_of, 32,
               lambda v: int(np.float32(v).view(np.uint32)))
    A[0, 0] = 1
    np.testing.assert_array_equal(got, A.astype(np.float64) @ B)


def test_mma_m16n8k32_s8_layout():
    rng = np.random.default_rng(2)
    A = rng.integers(-128, 128, (16, 32))
    B = rng.integers(-128, 128, (32, 8))
    C = rng.integers(-1000, 1000, (16, 8))

    def a_of(lane):  # a0..a15: rows g (a0-3, a8-11), g+8; cols 4t + i%4, +16 for a8..
        g, t = lane // 4, lane % 4
        return [(g + 8 * ((i // 4) % 2), 4 * t + i % 4 + 16 * (i // 8)) for i in range(16)]

    def b_of(lane):  # b0..b7: rows 4t + i%4, +16 for b4..; col g
        g, t = lane // 4, lane % 4
        return [(4 * t + i % 4 + 16 * (i // 4), g) for i in range(8)]

    got = _mma("m16n8k32", ["s32", "s8", "s8", "s32"], A, B, C, a_of, b_of, 8,
               lambda v: int(v) & 0xFF)
    np.testing.assert_array_equal(got, A @ B + C)


def test_unsupported_mma_is_an_error_naming_it():
    z = np.zeros((1, 32, 4), np.uint64)
    with pytest.raises(KernelFault, match=r"mma.sync .m16n8k4 with .f32.f64.f64.f32"):
        TC.mma_sync("m16n8k4", ["f32", "f64", "f64", "f32"], z, z, z)


class _Smem:
    """Shared memory as a plain byte array, for ldmatrix/stmatrix alone."""

    def __init__(self, size):
        self.b = np.zeros(size, np.uint8)

    def read(self, space, addr, size, lanes, align, where):
        return self.b[addr[:, None] + np.arange(size)]

    def write(self, space, addr, data, lanes, align, where):
        self.b[addr[:, None] + np.arange(data.shape[1])] = data


@pytest.mark.parametrize("count", [1, 2, 4])
@pytest.mark.parametrize("trans", [False, True])
def test_ldmatrix_and_stmatrix(count, trans):
    """Matrix i's rows are 16 bytes at the addresses of lanes 8i..8i+7 (here row r of
    matrix i at 256 * i + 32 * r, not contiguous); lane l's register i holds row l//4,
    elements 2(l%4) and 2(l%4)+1, of the matrix (of its transpose with .trans)."""
    mem = _Smem(1024)
    vals = np.arange(4 * 8 * 8, dtype=np.uint16).reshape(4, 8, 8) * 3 + 1
    addr = np.array([256 * (l // 8) + 32 * (l % 8) for l in range(32)])
    for i in range(4):
        for r in range(8):
            mem.b[256 * i + 32 * r:256 * i + 32 * r + 16] = vals[i, r].view(np.uint8)
    got = TC.ldmatrix(mem, addr[None], LANE[None], count, trans, "")[0]
    for lane in range(32):
        for i in range(count):
            m = vals[i].T if trans else vals[i]
            lo, hi = m[lane // 4, 2 * (lane % 4)], m[lane // 4, 2 * (lane % 4) + 1]
            assert got[lane, i] == int(lo) | int(hi) << 16
    back = _Smem(1024)
    TC.stmatrix(back, addr[None], got[None], LANE[None], trans, "")
    for i in range(count):
        for r in range(8):
            np.testing.assert_array_equal(back.b[256 * i + 32 * r:256 * i + 32 * r + 16],
                                          vals[i, r].view(np.uint8))


def _desc(start, lbo, sbo, mode):
    return np.array([(start >> 4) | (lbo >> 4) << 16 | (sbo >> 4) << 32 | mode << 62], np.uint64)


def test_descriptor_k_major_128b_swizzle():
    """f16, 8 x 64 K-major, 128-byte swizzle: row r's 16-byte chunk j lives at chunk
    j ^ (r % 8) of the row's 128 bytes; the next 8 rows at SBO."""
    addr = TC.descriptor_addresses(_desc(1024, 16, 1024, 1), 16, 64, 2, False)[0]
    for r in (0, 3, 7, 9):
        for k in (0, 8, 17, 63):
            chunk = (k // 8) ^ (r % 8)
            want = 1024 + (r // 8) * 1024 + (r % 8) * 128 + chunk * 16 + (k % 8) * 2
            assert addr[r, k] == want, (r, k)


@pytest.mark.parametrize("mode,width", [(2, 64), (3, 32)])
def test_descriptor_k_major_narrow_swizzles(mode, width):
    """64 B: chunk j ^ ((r % 8) // 2) within 64-byte rows; 32 B: chunk j ^ ((r % 8) // 4)
    within 32-byte rows (the XOR takes address bits 7 and up, 8 rows being 512 / 256 B)."""
    n = width // 2
    addr = TC.descriptor_addresses(_desc(2048, 16, 8 * width, mode), 16, n, 2, False)[0]
    for r in range(16):
        for k in range(n):
            chunk = (k // 8) ^ ((r % 8) // (128 // width))
            want = 2048 + (r // 8) * 8 * width + (r % 8) * width + chunk * 16 + (k % 8) * 2
            assert addr[r, k] == want, (r, k)


def test_descriptor_mn_major_128b_and_no_swizzle():
    """MN-major (e.g. B with N contiguous): 8 K-rows of 128 B (64 f16 along N), swizzled,
    the next 64 along N at LBO, the next 8 K-rows at SBO. No swizzle: core matrices of
    8 K-rows x 16 B, the next along K at LBO, along M/N at SBO."""
    addr = TC.descriptor_addresses(_desc(0, 4096, 1024, 1), 128, 16, 2, True)[0]
    for nn in (0, 9, 64, 127):
        for k in (0, 5, 8, 15):
            chunk = ((nn % 64) // 8) ^ (k % 8)
            want = (nn // 64) * 4096 + (k // 8) * 1024 + (k % 8) * 128 + chunk * 16 + (nn % 8) * 2
            assert addr[nn, k] == want, (nn, k)
    addr = TC.descriptor_addresses(_desc(0, 256, 512, 0), 16, 16, 2, True)[0]
    assert addr[9, 10] == (10 // 8) * 256 + (9 // 8) * 512 + (10 % 8) * 16 + (9 % 8) * 2


# ------------------------------------------------------------------ cp.async groups

WAIT = re.compile(r"\n\s*call void @llvm\.nvvm\.cp\.async\.wait\.group\(i32 \d+\)[^\n]*")


@pytest.mark.parametrize("pipeline", ["nvidia-sm80", "nvidia-sm90"])
def test_read_before_the_copy_group_is_waited_for_is_reported(compiled, pipeline):
    """Every cp.async.wait_group of matmul_small dropped: the ldmatrix / wgmma reads of
    buffers whose copies have not landed are reported (the result is wrong too)."""
    c = compiled("matmul_small", pipeline)
    ir, n = WAIT.subn("", c.llvm_ir)
    assert n
    case = CASES["matmul_small"](np.random.default_rng(0))
    result = run_kernel(with_llvm_ir(c, ir), case.args, case.grid)
    assert any("the destination of a cp.async whose group has not been waited for" in r
               for r in result.reports), result.reports
    with pytest.raises(AssertionError):
        case.check(result.outputs)


def test_wait_group_leaves_the_newest_groups_pending(compiled):
    """wait_group N with N > 0 keeps N groups in flight: waiting for one group fewer than
    the pipeline needs (every wait_group made one larger) is a read of a pending copy."""
    c = compiled("matmul_small", "nvidia-sm80")
    ir = re.sub(r"(cp\.async\.wait\.group\(i32 )(\d+)\)",
                lambda m: f"{m.group(1)}{int(m.group(2)) + 1})", c.llvm_ir)
    case = CASES["matmul_small"](np.random.default_rng(0))
    result = run_kernel(with_llvm_ir(c, ir), case.args, case.grid)
    assert any("has not been waited for" in r for r in result.reports), result.reports


def test_zero_fill_of_masked_copies(compiled):
    """K = 48 with BLOCK_K = 32: the second K step's copies past K have src-size 0 and
    must fill zeros (a garbage fill would change every dot product)."""
    c = compiled("matmul_small", "nvidia-sm80")
    ir = c.llvm_ir.replace('cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x10, $2;"',
                           'cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x10, 16;"')
    assert ir != c.llvm_ir
    case = CASES["matmul_small"](np.random.default_rng(0))
    with pytest.raises(KernelFault, match="out-of-bounds"):
        run_kernel(with_llvm_ir(c, ir), case.args, case.grid)


def test_wgmma_operands_in_flight_until_wait_group(compiled):
    """Every wgmma.wait_group of matmul_small keeping one more group in flight: the next
    cp.async into a buffer that a wgmma may still read is reported."""
    c = compiled("matmul_small", "nvidia-sm90")
    ir, n = re.subn(r"wgmma\.wait_group\.sync\.aligned (\d+);",
                    lambda m: f"wgmma.wait_group.sync.aligned {int(m.group(1)) + 1};", c.llvm_ir)
    assert n
    case = CASES["matmul_small"](np.random.default_rng(0))
    result = run_kernel(with_llvm_ir(c, ir), case.args, case.grid)
    assert any("an operand of a wgmma whose group has not been waited for" in r
               for r in result.reports), result.reports


@pytest.mark.parametrize("pipeline,pattern,repl", [
    # A's second and third registers swapped: rows g+8 and columns 2t+8 exchanged
    ("nvidia-sm80", r"(mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32 \{[^}]*\}, "
                    r"\{ \$\d+, )(\$\d+), (\$\d+),", r"\1\3, \2,"),
    # B read as K-major instead of N-major (imm-trans-b 1 -> 0)
    ("nvidia-sm90", r"(wgmma\.mma_async[^\"]*\$\d+, \$\d+, \$\d+, 1, 1, 0, )1;", r"\g<1>0;"),
])
def test_wrong_fragment_layout_is_caught(compiled, pipeline, pattern, repl):
    """By a wrong result, or (the K-major B reads past its buffer) the bounds check."""
    c = compiled("matmul_small", pipeline)
    ir, n = re.subn(pattern, repl, c.llvm_ir)
    assert n
    case = CASES["matmul_small"](np.random.default_rng(0))
    with pytest.raises((AssertionError, KernelFault)):
        case.check(run_kernel(with_llvm_ir(c, ir), case.args, case.grid).outputs)
