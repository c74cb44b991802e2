"""The models run_models.py compiles with torch.compile (needs PyTorch and a CUDA GPU).

Each entry of MODELS builds its module and inputs from a fixed seed (on the CPU, then moved
to the GPU, so every process starts from the same numbers) and returns a Case:

- ``step()`` runs once and returns the loss (training models: forward, backward, SGD step)
  or the output (the GEMMs); the first call compiles;
- ``tensors()`` are the tensors compared between runs after the first step (gradients of
  every parameter, or the output).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import torch
import torch.nn.functional as F
from torch import nn


# run_models.py --device cpu --backend aot_eager checks the harness without a GPU.
DEVICE = "cuda"
BACKEND = "inductor"


@dataclass
class Case:
    step: Callable[[], torch.Tensor]
    tensors: Callable[[], dict[str, torch.Tensor]]
    # torch._inductor.config values the first (compiling) call runs under.
    inductor_config: dict


# The transformer block ---------------------------------------------------------------

class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        variance = x.float().pow(2).mean(-1, keepdim=True)
        return (x.float() * torch.rsqrt(variance + self.eps)).to(x.dtype) * self.weight


def rotary_tables(seq: int, head_dim: int) -> tuple[torch.Tensor, torch.Tensor]:
    inv_freq = 1.0 / (10000 ** (torch.arange(0, head_dim, 2).float() / head_dim))
    angles = torch.outer(torch.arange(seq).float(), inv_freq)
    angles = torch.cat([angles, angles], dim=-1)
    return angles.cos(), angles.sin()


def apply_rotary(x, cos, sin):
    half = x.shape[-1] // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
    return x * cos.to(x.dtype) + rotated * sin.to(x.dtype)


class Block(nn.Module):
    """Embedding, RMSNorm, causal attention with rotary positions, a SiLU-gated MLP and a
    GELU MLP, LayerNorm, the vocabulary projection and cross-entropy."""

    def __init__(self, vocab: int, dim: int, heads: int, seq: int):
        super().__init__()
        self.heads = heads
        self.embed = nn.Embedding(vocab, dim)
        self.norm_attn = RMSNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)
        self.norm_mlp = RMSNorm(dim)
        hidden = 4 * dim * 2 // 3
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)
        self.norm_gelu = nn.LayerNorm(dim)
        self.fc_in = nn.Linear(dim, 2 * dim)
        self.fc_out = nn.Linear(2 * dim, dim)
        self.norm_out = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        cos, sin = rotary_tables(seq, dim // heads)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def forward(self, tokens, targets):
        x = self.embed(tokens)
        batch, seq, dim = x.shape
        qkv = self.qkv(self.norm_attn(x)).view(batch, seq, 3, self.heads, dim // self.heads)
        q, k, v = (t.transpose(1, 2) for t in qkv.unbind(2))
        q = apply_rotary(q, self.cos, self.sin)
        k = apply_rotary(k, self.cos, self.sin)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(dim // self.heads)
        causal = torch.ones(seq, seq, dtype=torch.bool, device=x.device).triu(1)
        attn = torch.softmax(scores.masked_fill(causal, float("-inf")).float(), dim=-1)
        y = (attn.to(v.dtype) @ v).transpose(1, 2).reshape(batch, seq, dim)
        x = x + self.out(y)
        h = self.norm_mlp(x)
        x = x + self.down(F.silu(self.gate(h)) * self.up(h))
        x = x + self.fc_out(F.gelu(self.fc_in(self.norm_gelu(x)), approximate="tanh"))
        logits = self.head(self.norm_out(x))
        return F.cross_entropy(logits.float().view(-1, logits.shape[-1]), targets.view(-1))


# The MLP with normalisation layers -----------------------------------------------------

class NormMLP(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(dim, 2 * dim), nn.BatchNorm1d(2 * dim), nn.ReLU(),
            nn.Linear(2 * dim, dim), nn.LayerNorm(dim), nn.GELU(),
            nn.Linear(dim, dim), nn.GroupNorm(8, dim), nn.SiLU(),
            nn.Linear(dim, dim // 4))

    def forward(self, x, target):
        return F.mse_loss(self.layers(x), target)


def _training_case(model: nn.Module, inputs: tuple, dtype: torch.dtype) -> Case:
    model = model.to(device=DEVICE, dtype=dtype)
    inputs = tuple(t.to(DEVICE) for t in inputs)
    compiled = torch.compile(model, backend=BACKEND)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    grads: dict[str, torch.Tensor] = {}

    def step():
        optimizer.zero_grad(set_to_none=True)
        loss = compiled(*inputs)
        loss.backward()
        if not grads:  # the first step's gradients, before any update
            grads.update({name: p.grad.detach().float().cpu()
                          for name, p in model.named_parameters() if p.grad is not None})
        optimizer.step()
        return loss.detach()

    return Case(step, lambda: grads, {})


def block(dtype: torch.dtype) -> Callable[[], Case]:
    def make() -> Case:
        vocab, dim, heads, batch, seq = 8192, 512, 8, 8, 256
        model = Block(vocab, dim, heads, seq)
        generator = torch.Generator().manual_seed(1)
        tokens = torch.randint(0, vocab, (batch, seq), generator=generator)
        targets = torch.randint(0, vocab, (batch, seq), generator=generator)
        return _training_case(model, (tokens, targets), dtype)
    return make


def norm_mlp() -> Case:
    dim, batch = 1024, 4096
    model = NormMLP(dim)
    generator = torch.Generator().manual_seed(2)
    x = torch.randn(batch, dim, generator=generator)
    target = torch.randn(batch, dim // 4, generator=generator)
    return _training_case(model, (x, target), torch.float32)


# GEMM templates under max-autotune ------------------------------------------------------

# Inductor decides whether to fuse a template's epilogue by timing the fused kernel against
# template + pointwise; the decision flips between runs (H100, 2026-11-26: the tileopt
# phase kept the GELU out of the addmm template in two runs, triton-b once kept the
# bias+ReLU out of the mm template), and the graph, its kernels and their rounding with
# it. Off, every phase fuses wherever it may: one graph to compare.
MAX_AUTOTUNE = {"max_autotune_gemm_backends": "TRITON", "max_autotune_gemm_search_space": "DEFAULT",
                "benchmark_epilogue_fusion": False}


def _gemm_case(fn, shapes: list[tuple[int, ...]], dtype: torch.dtype, seed: int) -> Case:
    generator = torch.Generator().manual_seed(seed)
    args = [(torch.randn(shape, generator=generator) / math.sqrt(shape[-1])).to(DEVICE, dtype)
            for shape in shapes]
    if BACKEND == "inductor":
        compiled = torch.compile(fn, mode="max-autotune-no-cudagraphs")
    else:
        compiled = torch.compile(fn, backend=BACKEND)
    out: dict[str, torch.Tensor] = {}

    def step():
        with torch.no_grad():
            result = compiled(*args)
        if not out:
            out["output"] = result.float().cpu()
        return result.float().abs().mean()

    return Case(step, lambda: out, MAX_AUTOTUNE)


def mm_bias_relu(x, w, b):
    return torch.relu(x @ w + b)


def bmm_scale_residual(a, b, residual):
    return torch.bmm(a, b) * 0.125 + residual


def addmm_gelu(x, w, b):
    return F.gelu(torch.addmm(b, x, w))


# In the order they run (the most telling first: a phase may run out of time).
MODELS: dict[str, Callable[[], Case]] = {
    "block_bf16": block(torch.bfloat16),
    "norm_mlp_fp32": norm_mlp,
    "mm_bias_relu_fp16": lambda: _gemm_case(
        mm_bias_relu, [(2048, 1024), (1024, 1024), (1024,)], torch.float16, 3),
    "block_fp32": block(torch.float32),
    "bmm_scale_residual_fp16": lambda: _gemm_case(
        bmm_scale_residual, [(16, 256, 128), (16, 128, 256), (16, 256, 256)], torch.float16, 4),
    "addmm_gelu_bf16": lambda: _gemm_case(
        addmm_gelu, [(1024, 768), (768, 3072), (3072,)], torch.bfloat16, 5),
}
