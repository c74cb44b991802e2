"""Collect the Triton kernels PyTorch writes, with Triton 3.6's own output for each.

Runs on the GPU machine (torch + triton there). It torch.compiles a few models (a small
transformer block forward+backward in bf16 and in fp32, an MLP with normalisation layers,
max-autotune GEMMs with Triton-only backends) and launches a set of hand-written kernels that
use the ops Inductor and users reach for beyond the corpus (split/join, sort, gather,
histogram, inline asm, rand, debug_barrier, assume, fp8, several dot shapes). Every kernel
Triton compiles lands in a fresh TRITON_CACHE_DIR; this script packs, per kernel, its
`.ttir` (what tileopt reads), `.ttgir`, `.ptx`, `.json` (options and metadata) and `.source`
into `$OUT/kernels.tar.xz` as `<group>/<kernel>-<hash8>.<ext>`, and prints a count by kind.

    python3 benchmarks/inductor/collect.py          # on the device machine, OUT set

`pin.py` (here, on the CPU) picks the small pinned set the CI tests read from that archive.
"""
from __future__ import annotations

import glob
import os
import shutil
import sys
import tarfile
import traceback

OUT = os.environ.get("OUT", "collect-out")
CACHE = "/tmp/tileopt-collect-cache"
shutil.rmtree(CACHE, ignore_errors=True)
os.makedirs(OUT, exist_ok=True)
os.environ["TRITON_CACHE_DIR"] = CACHE
os.environ["TORCHINDUCTOR_CACHE_DIR"] = "/tmp/tileopt-collect-inductor"
shutil.rmtree("/tmp/tileopt-collect-inductor", ignore_errors=True)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

torch._inductor.config.compile_threads = 1
DEV = "cuda"
GROUPS: dict[str, str] = {}   # cache entry -> group that first compiled it
LOG: list[str] = []


def claim(group: str) -> None:
    for d in glob.glob(CACHE + "/*"):
        GROUPS.setdefault(d, group)


def attempt(group: str, fn) -> None:
    try:
        fn()
        torch.cuda.synchronize()
        LOG.append(f"ok    {group}")
    except Exception as err:  # one failing model must not lose the others
        LOG.append(f"FAIL  {group}: {type(err).__name__}: {str(err).splitlines()[0][:200]}")
        traceback.print_exc()
    claim(group)


# --------------------------------------------------------------------------- models

class RMSNorm(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.w


def rotary(x, cos, sin):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


class Block(torch.nn.Module):
    """Embedding, RMSNorm, rotary attention, SwiGLU and GELU MLPs, LayerNorm, CE loss."""

    def __init__(self, vocab=1000, d=256, heads=4):
        super().__init__()
        self.heads = heads
        self.emb = torch.nn.Embedding(vocab, d)
        self.n1 = RMSNorm(d)
        self.qkv = torch.nn.Linear(d, 3 * d, bias=False)
        self.proj = torch.nn.Linear(d, d)
        self.n2 = torch.nn.LayerNorm(d)
        self.gate = torch.nn.Linear(d, 2 * d)
        self.up = torch.nn.Linear(d, 2 * d)
        self.down = torch.nn.Linear(2 * d, d)
        self.fc = torch.nn.Linear(d, 2 * d)
        self.fc_out = torch.nn.Linear(2 * d, d)
        self.head = torch.nn.Linear(d, vocab)

    def forward(self, tokens, targets):
        b, t = tokens.shape
        x = self.emb(tokens)
        h = self.n1(x)
        q, k, v = self.qkv(h).view(b, t, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        pos = torch.arange(t, device=tokens.device, dtype=torch.float32)
        freq = 1.0 / (10000 ** (torch.arange(0, q.shape[-1] // 2, device=tokens.device) * 2.0
                                / q.shape[-1]))
        ang = pos[:, None] * freq[None, :]
        cos, sin = ang.cos().to(x.dtype), ang.sin().to(x.dtype)
        q, k = rotary(q, cos, sin), rotary(k, cos, sin)
        att = (q @ k.transpose(-1, -2)) * (q.shape[-1] ** -0.5)
        mask = torch.ones(t, t, device=tokens.device, dtype=torch.bool).tril()
        att = att.masked_fill(~mask, float("-inf")).softmax(-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, -1)
        x = x + self.proj(y)
        h = self.n2(x)
        x = x + self.down(F.silu(self.gate(h)) * self.up(h))
        x = x + self.fc_out(F.gelu(self.fc(h), approximate="tanh"))
        logits = self.head(x).float()
        return F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))


def train_block(dtype):
    def run():
        torch.manual_seed(0)
        model = Block().to(DEV, dtype)
        opt = torch.optim.SGD(model.parameters(), lr=1e-2)
        step = torch.compile(model)
        tokens = torch.randint(0, 1000, (4, 64), device=DEV)
        targets = torch.randint(0, 1000, (4, 64), device=DEV)
        for _ in range(2):
            loss = step(tokens, targets)
            loss.backward()
            opt.step()
            opt.zero_grad()
        LOG.append(f"      loss {dtype}: {loss.item():.6f}")
    return run


def mlp_norms():
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(128, 256), torch.nn.BatchNorm1d(256), torch.nn.ReLU(),
        torch.nn.Linear(256, 256), torch.nn.LayerNorm(256), torch.nn.SiLU(),
        torch.nn.Linear(256, 128), torch.nn.Dropout(0.1), torch.nn.Tanh(),
        torch.nn.Linear(128, 10)).to(DEV)
    f = torch.compile(model)
    x = torch.randn(96, 128, device=DEV)
    loss = F.log_softmax(f(x), -1).mean() + f(x).pow(2).sum() * 1e-3
    loss.backward()


def gemms():
    cfg = torch._inductor.config
    cfg.max_autotune_gemm_backends = "TRITON"
    cfg.max_autotune_conv_backends = "TRITON"
    torch.manual_seed(0)

    def mm_bias_relu(a, b, c):
        return torch.relu(a @ b + c)

    def addmm_gelu(a, b, c):
        return F.gelu(torch.addmm(c, a, b))

    def bmm_scale(a, b):
        return torch.bmm(a, b) * 0.125 + 1.0

    for fn, args in [
        (mm_bias_relu, (torch.randn(512, 256, device=DEV, dtype=torch.float16),
                        torch.randn(256, 384, device=DEV, dtype=torch.float16),
                        torch.randn(384, device=DEV, dtype=torch.float16))),
        (addmm_gelu, (torch.randn(256, 512, device=DEV, dtype=torch.bfloat16),
                      torch.randn(512, 256, device=DEV, dtype=torch.bfloat16),
                      torch.randn(256, device=DEV, dtype=torch.bfloat16))),
        (bmm_scale, (torch.randn(8, 128, 64, device=DEV, dtype=torch.float16),
                     torch.randn(8, 64, 128, device=DEV, dtype=torch.float16))),
        (mm_bias_relu, (torch.randn(300, 200, device=DEV),
                        torch.randn(200, 160, device=DEV),
                        torch.randn(160, device=DEV))),
    ]:
        torch._dynamo.reset()
        f = torch.compile(fn, mode="max-autotune-no-cudagraphs")
        f(*args)
    cfg.max_autotune_gemm_backends = "ATEN,TRITON"


# --------------------------------------------------------------------------- hand kernels

@triton.jit
def split_join(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    pairs = tl.load(x_ptr + offs[:, None] * 2 + tl.arange(0, 2)[None, :])
    a, b = tl.split(pairs)
    tl.store(y_ptr + offs, a + b)
    both = tl.interleave(b, a)
    tl.store(y_ptr + 2 * BLOCK + tl.arange(0, 2 * BLOCK), both)


@triton.jit
def sort_rows(x_ptr, y_ptr, N: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * N + tl.arange(0, N))
    tl.store(y_ptr + row * N + tl.arange(0, N), tl.sort(x, descending=True))


@triton.jit(noinline=True)
def scaled_relu(x, scale):
    return tl.maximum(x * scale, 0.0)


@triton.jit
def call_noinline(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, scaled_relu(x, 2.0), mask=offs < n)


@triton.jit
def gather_rows(x_ptr, idx_ptr, y_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    idx = tl.load(idx_ptr + offs)
    tl.store(y_ptr + offs, tl.gather(x, idx, 0))


@triton.jit
def histogram(x_ptr, y_ptr, BLOCK: tl.constexpr, BINS: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(y_ptr + tl.arange(0, BINS), tl.histogram(x, BINS))


@triton.jit
def inline_asm(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $1, 3;", "=r,r", [x],
                                  dtype=tl.uint32, is_pure=True, pack=1)
    tl.store(y_ptr + offs, y)


@triton.jit
def rand_dropout(x_ptr, y_ptr, n, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    keep = tl.rand(seed, offs) > 0.25
    tl.store(y_ptr + offs, tl.where(keep, x / 0.75, 0.0), mask=offs < n)


@triton.jit
def barrier_assume(x_ptr, y_ptr, n, stride, BLOCK: tl.constexpr):
    tl.assume(stride > 0)
    tl.assume(n % 16 == 0)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs * stride, mask=offs < n)
    tl.debug_barrier()
    tl.store(y_ptr + offs, x, mask=offs < n)


@triton.jit
def math_misc(x_ptr, u_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    u = tl.load(u_ptr + offs)
    r = tl.sqrt_rn(tl.abs(x)) + tl.div_rn(x, 3.0) + tl.clamp(x, -0.5, 0.5)
    r += tl.umulhi(u, u).to(tl.float32) * 1e-9
    r += x.to(tl.float8e4nv).to(tl.float32) + x.to(tl.bfloat16).to(tl.float32)
    tl.store(y_ptr + offs, r)


@triton.jit
def dot_case(a_ptr, b_ptr, c_ptr, d_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
             PRECISION: tl.constexpr, ACC: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    acc = tl.load(c_ptr + rm[:, None] * N + rn[None, :]) if ACC else tl.zeros((M, N), tl.float32)
    d = tl.dot(a, b, acc, input_precision=PRECISION)
    tl.store(d_ptr + rm[:, None] * N + rn[None, :], d)


@triton.jit
def chained_dot(q_ptr, k_ptr, v_ptr, o_ptr, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    rm, rn, rd = tl.arange(0, M), tl.arange(0, N), tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    k = tl.load(k_ptr + rn[:, None] * D + rd[None, :])
    v = tl.load(v_ptr + rn[:, None] * D + rd[None, :])
    s = tl.dot(q, tl.trans(k))
    p = tl.exp(s - tl.max(s, 1)[:, None])
    p = p / tl.sum(p, 1)[:, None]
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], tl.dot(p.to(v.dtype), v))


def hand_kernels():
    f32, f16, bf16 = torch.float32, torch.float16, torch.bfloat16
    r = lambda *s, dtype=f32: torch.randn(*s, device=DEV, dtype=dtype)  # noqa: E731
    e = lambda *s, dtype=f32: torch.empty(*s, device=DEV, dtype=dtype)  # noqa: E731
    cases = [
        ("split_join", lambda: split_join[(1,)](r(256), e(512), BLOCK=128)),
        ("sort", lambda: sort_rows[(4,)](r(4, 128), e(4, 128), N=128)),
        ("call_noinline", lambda: call_noinline[(2,)](r(1000), e(1000), 1000, BLOCK=512)),
        ("gather", lambda: gather_rows[(1,)](r(128), torch.randint(0, 128, (128,), device=DEV,
                                                               dtype=torch.int32), e(128), N=128)),
        ("histogram", lambda: histogram[(1,)](torch.randint(0, 16, (256,), device=DEV,
                                                            dtype=torch.int32),
                                              e(16, dtype=torch.int32), BLOCK=256, BINS=16)),
        ("inline_asm", lambda: inline_asm[(1,)](torch.randint(0, 1 << 30, (128,), device=DEV,
                                                              dtype=torch.int32).view(torch.uint32),
                                                e(128, dtype=torch.uint32), BLOCK=128)),
        ("rand", lambda: rand_dropout[(2,)](r(1000), e(1000), 1000, 1234, BLOCK=512)),
        ("barrier_assume", lambda: barrier_assume[(2,)](r(2048), e(1024), 1024, 2, BLOCK=512)),
        ("math_misc", lambda: math_misc[(1,)](r(128), torch.randint(0, 1 << 30, (128,), device=DEV,
                                                                   dtype=torch.int32).view(torch.uint32),
                                              e(128), BLOCK=128)),
        ("dot_bf16_64x32x16", lambda: dot_case[(1,)](r(64, 16, dtype=bf16), r(16, 32, dtype=bf16),
                                                    r(64, 32), e(64, 32), M=64, N=32, K=16,
                                                    PRECISION="ieee", ACC=False)),
        ("dot_f32_tf32", lambda: dot_case[(1,)](r(64, 32), r(32, 64), r(64, 64), e(64, 64),
                                               M=64, N=64, K=32, PRECISION="tf32", ACC=True)),
        ("dot_f32_ieee", lambda: dot_case[(1,)](r(32, 16), r(16, 32), r(32, 32), e(32, 32),
                                               M=32, N=32, K=16, PRECISION="ieee", ACC=True)),
        ("dot_f16_acc", lambda: dot_case[(1,)](r(128, 64, dtype=f16), r(64, 128, dtype=f16),
                                              r(128, 128), e(128, 128), M=128, N=128, K=64,
                                              PRECISION="ieee", ACC=True)),
        ("chained_dot", lambda: chained_dot[(1,)](r(64, 64, dtype=f16), r(64, 64, dtype=f16),
                                                 r(64, 64, dtype=f16), e(64, 64, dtype=f16),
                                                 M=64, N=64, D=64)),
    ]
    for name, launch in cases:
        attempt(f"hand/{name}", launch)


# --------------------------------------------------------------------------- pack

def kind_of(name: str) -> str:
    for prefix, kind in (("triton_poi", "pointwise"), ("triton_red", "reduction"),
                         ("triton_per", "persistent_reduction"), ("triton_tem", "template")):
        if name.startswith(prefix):
            return kind
    return "other"


def pack() -> None:
    counts: dict[tuple[str, str], int] = {}
    with tarfile.open(os.path.join(OUT, "kernels.tar.xz"), "w:xz") as tar:
        for entry in sorted(glob.glob(CACHE + "/*")):
            ttirs = glob.glob(entry + "/*.ttir")
            if not ttirs:
                continue
            group = GROUPS.get(entry, "unknown").replace("/", "_")
            stem = os.path.basename(ttirs[0])[:-5]
            tag = f"{group}/{stem}-{os.path.basename(entry)[:8]}"
            for ext in ("ttir", "ttgir", "ptx", "json", "source"):
                path = os.path.join(entry, f"{stem}.{ext}")
                if os.path.exists(path):
                    tar.add(path, arcname=f"{tag}.{ext}")
            key = (group, kind_of(stem))
            counts[key] = counts.get(key, 0) + 1
    lines = [f"{g:28s} {k:22s} {n:4d}" for (g, k), n in sorted(counts.items())]
    summary = "\n".join(LOG + ["", "group                        kind                   kernels"] + lines)
    with open(os.path.join(OUT, "collect-summary.txt"), "w") as f:
        f.write(summary + "\n")
    print(summary)


if __name__ == "__main__":
    print("torch", torch.__version__, "triton", triton.__version__,
          torch.cuda.get_device_name(0), file=sys.stderr)
    hand_kernels()
    attempt("block_fp32", train_block(torch.float32))
    attempt("block_bf16", train_block(torch.bfloat16))
    attempt("mlp_norms", mlp_norms)
    attempt("gemm_autotune", gemms)
    pack()
