"""AMD matrix cores: ``llvm.amdgcn.mfma.*`` (CDNA3, waves of 64) and ``llvm.amdgcn.wmma.*``
(RDNA3, waves of 32), with the register layouts of AMD's documents, written independently
of tileopt's lowering.

MFMA ``f32.{M}x{N}x{K}{f16|bf16_1k}`` with one block (32x32x8, 16x16x16): lane l of the wave
holds A[l % M][kpl * (l // M) + i] and B[kpl * (l // N) + i][l % N] (kpl = the operand's
vector length, 4), and accumulator item v is D[v % 4 + 4 * (l // N) + 4 * (64 / N) * (v // 4)]
[l % N]. ``cbsz``, ``abid`` and ``blgp`` (broadcasts) must be 0.

WMMA ``f32.16x16x16.{f16|bf16}`` (wave 32): lane l holds row l % 16 of A and column l % 16 of
B, all 16 K elements each; RDNA3 requires lanes 16-31 to hold the same operands as lanes
0-15 (an error here otherwise); accumulator item v is D[2v + l // 16][l % 16].

Products are exact in float64 and each instruction's sum (with the accumulator) is rounded
to f32 once; the hardware's order and intermediate rounding are not modelled. Every lane of
the wave must execute the instruction together.
"""

from __future__ import annotations

import re

import numpy as np

from tileopt.run.amdgpu_lanes import Wave
from tileopt.run.memory import KernelFault


def _whole_waves(ex, size: int, what: str) -> np.ndarray:
    """The executing rows as (waves, size); every lane of each wave must be there."""
    w = Wave(ex, size)
    per_wave = np.bincount(w.rows // size, minlength=ex.n // size)
    if (per_wave[w.rows // size] != size).any():
        raise KernelFault(f"{what} needs every lane of its wave to execute it together (near "
                          f"{ex.lanes.describe(int(w.rows[0]))})")
    return w.rows.reshape(-1, size)


def _elements(ex, value, ty, waves: np.ndarray, elem: str) -> np.ndarray:
    """An operand of every lane as float64, shape (waves, lanes, items)."""
    a = np.asarray(ex.full(value, ty))[waves]
    if elem == "bf16":  # bf16 operands travel as i16
        return (a.astype(np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    return a.astype(np.float64)


def _scatter(shape, rows, cols, values) -> np.ndarray:
    """A (waves, *shape) matrix with values[:, lane, item] at [rows[lane, item], cols[...]]."""
    out = np.zeros((values.shape[0],) + shape)
    out[:, rows, cols] = values
    return out


_MFMA = re.compile(r"f32\.(\d+)x(\d+)x(\d+)(f16|bf16_1k|bf16\.1k)$")


def mfma(name: str, wave: int):
    m = _MFMA.match(name)
    if m is None or wave != 64:
        return None
    big_m, big_n, big_k = (int(g) for g in m.groups()[:3])
    elem = "f16" if m.group(4) == "f16" else "bf16"

    def run(ex, ins, args):
        a, b, c, cbsz, abid, blgp = args
        if any(np.asarray(x).any() for x in (cbsz, abid, blgp)):
            raise KernelFault("mfma with cbsz, abid or blgp (broadcasts) is not supported")
        waves = _whole_waves(ex, 64, "mfma")
        ty_a, ty_c = ins.args[0].type, ins.args[2].type
        kpl = ty_a.count
        groups = 64 // big_m
        if big_m != big_n or kpl * groups != big_k or ty_c.count * 64 != big_m * big_n:
            raise KernelFault(f"mfma shape {big_m}x{big_n}x{big_k} is not supported")
        lane = np.arange(64)[:, None]
        item = np.arange(kpl)[None, :]
        k = kpl * (lane // big_m) + item
        amat = _scatter((big_m, big_k), np.broadcast_to(lane % big_m, k.shape), k,
                        _elements(ex, a, ty_a, waves, elem))
        bmat = _scatter((big_k, big_n), k, np.broadcast_to(lane % big_n, k.shape),
                        _elements(ex, b, ins.args[1].type, waves, elem))
        v = np.arange(ty_c.count)[None, :]
        rows = v % 4 + 4 * (lane // big_n) + 4 * groups * (v // 4)
        cols = np.broadcast_to(lane % big_n, rows.shape)
        return _result(ex, waves, amat, bmat, c, ty_c, rows, cols)
    return run


_WMMA = re.compile(r"f32\.16x16x16\.(f16|bf16)(\.|$)")


def wmma(name: str, wave: int):
    m = _WMMA.match(name)
    if m is None:
        return None

    def run(ex, ins, args):
        if wave != 32:
            raise KernelFault("wmma of waves of 64 is not supported")
        a, b, c = args[:3]
        waves = _whole_waves(ex, 32, "wmma")
        ops = []
        for value, ty in ((a, ins.args[0].type), (b, ins.args[1].type)):
            bits = np.ascontiguousarray(np.asarray(ex.full(value, ty))[waves]).view(np.uint16)
            if (bits[:, :16] != bits[:, 16:]).any():
                raise KernelFault("wmma operands must be the same in lanes 16-31 as in lanes 0-15 "
                                  "(RDNA3 reads them replicated)")
            ops.append(_elements(ex, value, ty, waves, m.group(1))[:, :16])
        lane = np.arange(16)[:, None]
        k = np.broadcast_to(np.arange(16)[None, :], (16, 16))
        amat = _scatter((16, 16), np.broadcast_to(lane, k.shape), k, ops[0])
        bmat = _scatter((16, 16), k, np.broadcast_to(lane, k.shape), ops[1])
        ty_c = ins.args[2].type
        lanes = np.arange(32)[:, None]
        v = np.arange(ty_c.count)[None, :]
        rows = 2 * v + lanes // 16
        cols = np.broadcast_to(lanes % 16, rows.shape)
        return _result(ex, waves, amat, bmat, c, ty_c, rows, cols)
    return run


def _result(ex, waves, amat, bmat, c, ty_c, rows, cols):
    """D = A B + C, rounded to f32 once, back in the accumulator's register layout."""
    acc = _scatter(amat.shape[1:2] + bmat.shape[2:], rows, cols,
                   np.asarray(ex.full(c, ty_c))[waves].astype(np.float64))
    d = (np.einsum("wmk,wkn->wmn", amat, bmat) + acc)[:, rows, cols].astype(np.float32)
    out = np.zeros((ex.n, ty_c.count), np.float32)
    out[waves.reshape(-1)] = d.reshape(-1, ty_c.count)
    return out
