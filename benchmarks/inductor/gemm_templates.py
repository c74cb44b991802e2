"""Inductor's GEMM template kernels through tileopt and through Triton 3.6, on the CPU:
does each compile, and ``ptxas -v`` registers and spills of both PTX side by side.

    python benchmarks/inductor/gemm_templates.py INPUT... [--configs 4:2,8:3]
        [--arch sm90,sm80] [--triton-python PY] [--json FILE]
    python benchmarks/inductor/gemm_templates.py INPUT --pin DIR --configs W:S
        --triton-python PY

INPUT is a ``.ttir`` (Triton's, as pinned under test/inputs/inductor), a frontend TTIR
(``NAME-HASH.ttir.mlir``, what the hook gives tileopt: run_models.py's
``failed_inputs.tar.gz``) or such a ``.tar.gz``. Kernels whose text differs only in
locations are compiled once. Each goes through ``nvidia-smNN{num-warps=W num-stages=S}`` for
every ``W:S`` of ``--configs`` (Inductor's autotuning choices repeat one TTIR with other
warps and stages; the default covers 4 and 8 warps, 2 to 5 stages) and to PTX; with
``--triton-python`` (an interpreter with ``triton==3.6.0``; tileopt does not import Triton),
Triton's ``make_ttir`` (frontend input only), ``make_ttgir``, ``make_llir`` and
``make_ptx`` on the same options give Triton's PTX. A row per kernel, config and arch:
registers / spill stores / spill loads / stack bytes, tileopt beside Triton, or the first
line of the error.

``--pin DIR`` keeps, instead, Triton's ``.ttir``, ``.ttgir`` and options (``.json``) of
each input under ``DIR`` as pin.py keeps a collected kernel: how the autotuning choices
under test/inputs/inductor/{bmm_scale_residual_fp16,addmm_gelu_bf16} were pinned (pin.py
leaves ``triton_mm``/``triton_bmm`` out, and rebuilds the folder: pin these again after it).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

CAPABILITY = {"sm90": 90, "sm80": 80}
PTXAS_ARCH = {"sm90": "sm_90a", "sm80": "sm_80"}
TILEOPT = "from tileopt.cli import tileopt_main; tileopt_main()"  # the command, in this venv


def triton_side(ttir: str, warps: int, stages: int, capability: int, out: str) -> None:
    """Run under Triton's interpreter: Triton's PTX of ``ttir`` into ``out``, and beside it
    (same stem) Triton's ``.ttir``, ``.ttgir`` and the options as ``.json`` (what pin.py
    keeps of a collected kernel)."""
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia.compiler import CUDABackend

    backend = CUDABackend(GPUTarget("cuda", capability, 32))
    options = backend.parse_options({"num_warps": warps, "num_stages": stages})
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    module = ir.parse_mlir_module(ttir, ctx)
    module.context = ctx
    metadata: dict = {}
    if not ttir.endswith(".ttir"):  # the frontend's TTIR: Triton's own ttir stage first
        module = backend.make_ttir(module, metadata, options, capability)
    stem = Path(out).with_suffix("")
    stem.with_suffix(".ttir").write_text(str(module))
    module = backend.make_ttgir(module, metadata, options, capability)
    stem.with_suffix(".ttgir").write_text(str(module))
    llir = backend.make_llir(module, metadata, options, capability)
    Path(out).write_text(backend.make_ptx(llir, metadata, options, capability))
    stem.with_suffix(".json").write_text(json.dumps({
        "name": metadata["name"], "num_warps": warps, "num_ctas": 1, "num_stages": stages,
        "warp_size": 32, "arch": f"sm{capability}", "enable_fp_fusion": True,
        "default_dot_input_precision": "tf32", "shared": metadata["shared"],
        "triton_version": "3.6.0"}, indent=1) + "\n")


def inputs(paths: list[Path], work: Path) -> dict[str, Path]:
    """Name -> file, one per distinct kernel text (locations dropped)."""
    from pin import body_key

    files: list[Path] = []
    for path in paths:
        if path.name.endswith((".tar.gz", ".tgz")):
            with tarfile.open(path) as tar:
                tar.extractall(work, filter="data")
            files += sorted(work.rglob("*.ttir.mlir"))
        else:
            files.append(path)
    seen: dict[str, Path] = {}
    for path in files:
        seen.setdefault(body_key(path.read_text()), path)
    return {p.name.split(".")[0]: p for p in seen.values()}


def dot_shape(text: str) -> str:
    import re

    m = re.search(r"tt\.dot [^:]*: tensor<(\d+)x(\d+)x(\w+)> \* tensor<\d+x(\d+)x", text)
    return f"{m.group(1)}x{m.group(4)}x{m.group(2)} {m.group(3)}" if m else "?"


def tileopt_ptx(path: Path, arch: str, warps: int, stages: int, out: Path) -> str | None:
    """tileopt's PTX into ``out``; None, or the first error line."""
    pipeline = f"nvidia-{arch}{{num-warps={warps} num-stages={stages}}}"
    result = subprocess.run([sys.executable, "-c", TILEOPT, str(path),
                             f"--pass-pipeline={pipeline}", "--emit=ptx", "-o", str(out)],
                            capture_output=True, text=True)
    if result.returncode:
        errors = [l for l in result.stderr.splitlines() if "error" in l] or ["failed"]
        return errors[0].split("error: ", 1)[-1][:140]
    return None


def triton_ptx(python: str, path: Path, arch: str, warps: int, stages: int,
               out: Path) -> str | None:
    result = subprocess.run([python, __file__, "--triton-side", str(path), str(warps),
                             str(stages), str(CAPABILITY[arch]), str(out)],
                            capture_output=True, text=True)
    if result.returncode:
        lines = [l for l in result.stderr.splitlines() if "error" in l.lower()] or ["failed"]
        return lines[0][:140]
    return None


def pin(args, config: tuple[int, int], arch: str) -> None:
    """Triton's stages of each input as pin.py keeps a collected kernel (machine paths
    stripped), named after the kernel."""
    from pin import strip_machine_paths

    args.pin.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tileopt-gemm-") as tmp:
        for name, path in inputs(args.inputs, Path(tmp) / "in").items():
            kernel = name.rsplit("-", 1)[0]
            out = args.pin / f"{kernel}.ptx"
            err = triton_ptx(args.triton_python, path, arch, *config, out)
            if err:
                raise SystemExit(f"{name}: {err}")
            out.unlink()
            for suffix in (".ttir", ".ttgir"):
                kept = out.with_suffix(suffix)
                kept.write_text(strip_machine_paths(kept.read_text()))
            print(f"pinned {name} as {args.pin / kernel}.ttir ({config[0]} warps, "
                  f"{config[1]} stages)")


def main() -> None:
    if sys.argv[1:2] == ["--triton-side"]:
        ttir, warps, stages, capability, out = sys.argv[2:7]
        triton_side(ttir, int(warps), int(stages), int(capability), out)
        return
    from ptx_vs_triton import ptxas_stats

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="+", type=Path)
    parser.add_argument("--configs", default="4:2,4:3,4:4,4:5,8:2,8:3,8:4,8:5")
    parser.add_argument("--arch", default="sm90,sm80")
    parser.add_argument("--triton-python")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    parser.add_argument("--pin", type=Path, metavar="DIR",
                        help="instead: keep Triton's .ttir/.ttgir/.json of each input for "
                             "the first config and arch in DIR (a test/inputs/inductor group)")
    args = parser.parse_args()
    configs = [tuple(int(x) for x in c.split(":")) for c in args.configs.split(",")]
    if args.pin:
        pin(args, configs[0], args.arch.split(",")[0])
        return
    rows = []
    print(f"{'kernel':22s} {'dot MxNxK':18s} {'arch':5s} {'W':>2s} {'S':>2s}  "
          f"{'tileopt regs st ld stack':26s} {'triton regs st ld stack':26s}")
    with tempfile.TemporaryDirectory(prefix="tileopt-gemm-") as tmp:
        work = Path(tmp)
        for name, path in sorted(inputs(args.inputs, work / "in").items()):
            shape = dot_shape(path.read_text())
            for arch in args.arch.split(","):
                for warps, stages in configs:
                    cells = {}
                    for side in ("tileopt", "triton"):
                        if side == "triton" and not args.triton_python:
                            cells[side] = "-"
                            continue
                        out = work / f"{name}-{arch}-{warps}-{stages}-{side}.ptx"
                        err = tileopt_ptx(path, arch, warps, stages, out) if side == "tileopt" \
                            else triton_ptx(args.triton_python, path, arch, warps, stages, out)
                        cells[side] = err or ptxas_stats(out.read_text(), PTXAS_ARCH[arch])
                    rows.append({"kernel": name, "dot": shape, "arch": arch, "warps": warps,
                                 "stages": stages, **{k: str(v) for k, v in cells.items()}})
                    print(f"{name:22s} {shape:18s} {arch:5s} {warps:2d} {stages:2d}  "
                          f"{str(cells['tileopt']):26s} {str(cells['triton']):26s}",
                          flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
