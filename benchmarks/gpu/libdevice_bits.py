"""libdevice on the CPU (tileopt-run) against libdevice on the GPU, bit for bit.

tileopt-run runs libdevice's functions from their bitcode (docs/tileopt-run.md,
"libdevice"): exact wherever the GPU's instructions are, within their documented error
where libdevice uses ``.approx`` instructions (computed here in float64, rounded once).
This measures how close that is on the GPU itself.

Two steps:

    # here (tileopt installed): one kernel per function, its PTX (llvm_ir_to_ptx, -O3, as
    # tileopt's NVIDIA pipeline makes it), the inputs, and tileopt-run's results
    python benchmarks/gpu/libdevice_bits.py build benchmarks/gpu/out/libdevice

    # on the GPU machine (needs numpy and cuda-bindings or CuPy, and PyTorch for memory),
    # one device call with carry ["benchmarks/gpu/out"]:
    python3 benchmarks/gpu/libdevice_bits.py run benchmarks/gpu/out/libdevice

``run`` prints, per function: the inputs whose results are bit-equal, the largest
difference in f32 ulps, and an example input where they differ.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
THREADS, BLOCKS = 128, 64          # 8192 inputs per function
FUNCTIONS = {                      # name -> (arguments, input range)
    "__nv_expf": (1, (-90, 90)), "__nv_logf": (1, (1e-30, 1e30)),
    "__nv_log2f": (1, (1e-30, 1e30)), "__nv_log10f": (1, (1e-30, 1e30)),
    "__nv_powf": (2, (1e-3, 40)), "__nv_rsqrtf": (1, (1e-30, 1e30)),
    "__nv_sqrtf": (1, (0, 1e30)), "__nv_tanhf": (1, (-12, 12)),
    "__nv_sinf": (1, (-1e6, 1e6)), "__nv_cosf": (1, (-1e6, 1e6)),
    "__nv_tanf": (1, (-100, 100)), "__nv_erff": (1, (-5, 5)),
}


def kernel_ir(name: str, arguments: int) -> str:
    """One call per thread on x[i] (and y[i]), stored to out[i]."""
    params = ", ".join("float" for _ in range(arguments))
    loads = "".join(f"  %p{k} = getelementptr float, ptr addrspace(1) %in{k}, i32 %i\n"
                    f"  %a{k} = load float, ptr addrspace(1) %p{k}, align 4\n"
                    for k in range(arguments))
    args = ", ".join(f"float %a{k}" for k in range(arguments))
    ins = ", ".join(f"ptr addrspace(1) %in{k}" for k in range(arguments))
    return f"""target triple = "nvptx64-nvidia-cuda"
declare float @{name}({params})
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
define ptx_kernel void @k({ins}, ptr addrspace(1) %out) #0 {{
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bt = mul i32 %b, {THREADS}
  %i = add i32 %bt, %t
{loads}  %r = call float @{name}({args})
  %po = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float %r, ptr addrspace(1) %po, align 4
  ret void
}}
attributes #0 = {{ "nvvm.reqntid"="{THREADS}" }}
!llvm.module.flags = !{{!0}}
!0 = !{{i32 4, !"nvvm-reflect-ftz", i32 1}}
"""


def inputs(lo: float, hi: float, arguments: int, seed: int) -> list[np.ndarray]:
    """Uniform over the range, log-uniform over its magnitudes, and edge values."""
    rng = np.random.default_rng(seed)
    n = THREADS * BLOCKS
    edges = np.array([0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-40, -1e-40, np.inf, -np.inf,
                      np.nan, 3.4e38, 1e-38, 88.72, 89.0, 1e4, 105615.0, 3.14159265])
    # magnitudes from the range's smallest positive one (1e-6 where it holds 0) to its
    # largest, both signs where it has negative values
    smallest = lo if lo > 0 else 1e-6
    largest = max(abs(lo), abs(hi))
    out = []
    for _ in range(arguments):
        uniform = rng.uniform(lo, hi, n // 2)
        mags = np.exp(rng.uniform(np.log(smallest), np.log(largest), n - n // 2 - len(edges)))
        signs = np.where(rng.random(len(mags)) < (0.5 if lo < 0 else 0), -1, 1)
        out.append(np.concatenate([uniform, mags * signs, edges]).astype(np.float32))
    return out


def build(folder: Path) -> None:
    from tileopt.run.launch import compile_source, run_kernel
    from tileopt.target.nvptx import llvm_ir_to_ptx

    folder.mkdir(parents=True, exist_ok=True)
    index = {}
    for seed, (name, (arguments, (lo, hi))) in enumerate(FUNCTIONS.items()):
        ir = kernel_ir(name, arguments)
        xs = inputs(lo, hi, arguments, seed)
        out = np.zeros(THREADS * BLOCKS, np.float32)
        for level in (0, 3):
            got = run_kernel(compile_source(ir, f"{name}.ll", opt_level=level,
                                                  arch="sm_90a"), xs + [out],
                             (BLOCKS,), checks=False)
            np.save(folder / f"{name}.cpu{level}.npy", got.outputs[arguments])
        (folder / f"{name}.ptx").write_text(llvm_ir_to_ptx(ir, "sm_90a", opt_level=3))
        for k, x in enumerate(xs):
            np.save(folder / f"{name}.in{k}.npy", x)
        index[name] = arguments
        print(f"{name}: PTX and tileopt-run results written")
    (folder / "index.json").write_text(json.dumps(index))


def ulp_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """|a - b| in f32 ulps (order of the bit patterns); 0 where both are NaN."""
    def ordered(x):
        bits = x.view(np.int32).astype(np.int64)
        return np.where(bits < 0, -(bits & 0x7FFFFFFF), bits)
    diff = np.abs(ordered(a) - ordered(b))
    return np.where(np.isnan(a) & np.isnan(b), 0, diff)


def compare(name: str, x: list[np.ndarray], gpu: np.ndarray, cpu: dict[int, np.ndarray]) -> str:
    parts = [f"{name:14s}"]
    for level, values in cpu.items():
        d = ulp_difference(gpu, values)
        equal = int((d == 0).sum())
        worst = int(d.max())
        at = int(np.argmax(d))
        example = "" if worst == 0 else \
            f" (x={x[0][at]!r}: GPU {gpu[at]!r}, CPU {values[at]!r})"
        parts.append(f"-O{level}: {equal}/{len(d)} bit-equal, max {worst} ulp{example}")
    return "  ".join(parts)


def run(folder: Path) -> int:
    import torch
    sys.path.insert(0, str(HERE))
    from cuda_driver import LoadedKernel, open_driver  # noqa: E402

    torch.zeros(1, device="cuda")  # the primary context, current on this thread
    driver = open_driver()
    for name, arguments in json.loads((folder / "index.json").read_text()).items():
        xs = [np.load(folder / f"{name}.in{k}.npy") for k in range(arguments)]
        cpu = {level: np.load(folder / f"{name}.cpu{level}.npy") for level in (0, 3)}
        kernel = LoadedKernel(driver, (folder / f"{name}.ptx").read_text(), "k", 0)
        dev = [torch.from_numpy(x).cuda() for x in xs]
        out = torch.zeros(len(xs[0]), dtype=torch.float32, device="cuda")
        params = [("u64", t.data_ptr()) for t in dev + [out]]
        kernel.launch((BLOCKS, 1, 1), (THREADS, 1, 1), 0, params)
        torch.cuda.synchronize()
        print(compare(name, xs, out.cpu().numpy(), cpu))
        kernel.close()
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=("build", "run"))
    parser.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    if args.step == "build":
        build(args.folder)
        return 0
    return run(args.folder)


if __name__ == "__main__":
    sys.exit(main())
