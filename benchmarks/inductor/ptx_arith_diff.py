"""Where tileopt's code computes differently from Triton's for the same kernel (issue 18).

    python benchmarks/inductor/ptx_arith_diff.py TRITON_PYTHON [--dir test/inputs/inductor]
        [-k SUBSTR] [--run] [--cache DIR] [-v]

``TRITON_PYTHON`` is a Python with ``triton==3.6.0`` (its own virtual environment is fine;
tileopt does not import Triton). For every pinned kernel (``K.ttir``, Triton's ``K.ttgir``
and ``K.json``, sm_90 ones):

- Triton's side, in ``TRITON_PYTHON``: Triton's ``.ttgir`` through its ``make_llir`` and
  ``make_ptx`` for capability 90 with the ``.json``'s options, on the CPU;
- tileopt's side, here: ``K.ttir`` through ``nvidia-sm90`` with the same options, to PTX,
  and to the LLVM IR NVPTX code generation gets (``-O3``; libdevice linked, Triton's copy,
  as ``tileopt.integrations.triton`` links it: CUDA's other versions compute some functions
  differently);
- **static**: the floating-point instructions of both PTX files, counted by opcode with
  every modifier (``fma.rn.ftz.f32``, ``div.full.f32``, ``ex2.approx.ftz.f32``,
  ``max.NaN.f32``, ``cvt.rn.bf16.f32``...), and the float immediates; registers, addresses,
  moves, selects, shuffles and barriers are left out. Forms that round alike are counted
  as one: a ``cvt`` of a pair as two, ``sub`` as ``add`` (``x - y`` is ``x + -y``), a vector
  atomic as one per element. Printed: the operations that round (or pick NaNs) whose counts
  differ; with ``-v`` also exact ones (``neg``, ``abs``, ``setp``, ``copysign``...) and
  constants;
- **run** (``--run``): both LLVM IR files executed by tileopt-run on the same arguments
  (``tileopt/testing/inductor_cases.py``) and every output compared bit for bit. This is
  what sees the *order* of a reduction (which static counts cannot): per-thread
  accumulation, butterflies, the combine across warps. tileopt-run computes approximate
  instructions (``ex2.approx``, ``rsqrt.approx``) exactly rounded, the same on both sides,
  and does not fuse multiply-adds (the static part covers that). Triton's ``__nvvm_reflect``
  calls (resolved only in its code generation) are resolved here as NVPTX does (``__CUDA_FTZ``
  from ``enable_reflect_ftz``: 1).

The summary counts kernels compared, kernels with differences in rounding operations, and
kernels whose run differs. ``--cache DIR`` keeps both sides' files for the next run.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

# --------------------------------------------------------------------------- Triton's side
# (runs in TRITON_PYTHON: only Triton and the standard library)


def triton_side(root: Path, out: Path, names: list[str]) -> None:
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia.compiler import CUDABackend

    backend = CUDABackend(GPUTarget("cuda", 90, 32))
    out.mkdir(parents=True, exist_ok=True)
    libdevice = dict(backend.parse_options({}).extern_libs)["libdevice"]
    (out / "libdevice").write_text(libdevice)
    for name in names:
        ttgir = root / f"{name}.ttgir"
        dest = out / name
        if dest.with_suffix(".ptx").exists():
            continue
        meta = json.loads(ttgir.with_suffix(".json").read_text())
        options = backend.parse_options({
            "num_warps": meta["num_warps"], "num_ctas": meta["num_ctas"],
            "num_stages": meta["num_stages"],
            "enable_fp_fusion": meta.get("enable_fp_fusion", True)})
        try:
            ctx = ir.context()
            ir.load_dialects(ctx)
            backend.load_dialects(ctx)
            module = ir.parse_mlir_module(str(ttgir), ctx)
            module.context = ctx
            metadata: dict = {}
            llir = backend.make_llir(module, metadata, options, 90)
            ptx = backend.make_ptx(llir, metadata, options, 90)
        except Exception as err:  # noqa: BLE001 - reported, the others go on
            print(f"{name}: Triton failed: {str(err).splitlines()[0]}", file=sys.stderr)
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.with_suffix(".ll").write_text(llir)
        dest.with_suffix(".ptx").write_text(ptx)


# --------------------------------------------------------------------------- PTX features

_FLOAT_TYPES = {"f16", "f32", "f64", "bf16", "f16x2", "bf16x2", "e4m3x2", "e5m2x2", "tf32"}
# No arithmetic: data movement, selects, exchanges (the run checks where values go).
_MOVES = {"ld", "st", "mov", "selp", "shfl", "cp", "prmt", "ldmatrix", "stmatrix", "bar",
          "barrier", "cvta"}
# Exact: no rounding, no NaN choice.
_EXACT = {"neg", "abs", "copysign", "setp", "set", "testp"}


def _instructions(ptx: str):
    """(opcode, operands) of each instruction of the kernels' bodies (inline asm included)."""
    for line in ptx.split(".section")[0].splitlines():
        text = line.split("//")[0].strip()
        if not text or text.startswith((".", "$", "{", "}", ")")):
            continue
        for piece in text.split(";"):
            piece = re.sub(r"^@!?%?\$?\w+\s+", "", piece.strip())
            if piece:
                opcode, _, operands = piece.partition(" ")
                yield opcode, operands


def _normalised(opcode: str) -> tuple[str, int]:
    """The opcode counted, and how many element operations it stands for."""
    parts = opcode.split(".")
    if parts[0] == "sub":
        parts[0] = "add"
    if parts[0] == "cvt" and parts[-2] in ("bf16x2", "f16x2"):
        parts[-2] = parts[-2][:-2]
        return ".".join(parts), 2
    if parts[0] in ("atom", "red"):
        width = next((int(p[1:]) for p in parts if re.fullmatch(r"v\d", p)), 1)
        return ".".join(p for p in parts if not re.fullmatch(r"v\d", p)), width
    return ".".join(parts), 1


def features(ptx: str) -> tuple[Counter, Counter]:
    """(rounding operations, exact operations and constants) of a PTX file."""
    rounding, other = Counter(), Counter()
    for opcode, operands in _instructions(ptx):
        parts = opcode.split(".")
        if parts[0] in _MOVES or not _FLOAT_TYPES & set(parts[1:]):
            continue
        key, count = _normalised(opcode)
        (other if parts[0] in _EXACT else rounding)[key] += count
        for constant in re.findall(r"0[fd][0-9A-Fa-f]{8,16}", operands):
            other[f"constant {constant}"] += 1
    return rounding, other


def counter_diff(a: Counter, b: Counter) -> list[tuple[str, int, int]]:
    return [(k, a[k], b[k]) for k in sorted(set(a) | set(b)) if a[k] != b[k]]


# --------------------------------------------------------------------------- tileopt's side


def tileopt_side(ttir: Path) -> tuple[str, str]:
    """(PTX, the LLVM IR code generation gets) of ``ttir`` through nvidia-sm90."""
    import contextlib
    import io

    from tileopt.target import translate
    from tileopt.target.nvptx import llvm_ir_for_code_generation
    from tileopt.testing.inductor_cases import lower_with_options

    meta = json.loads(ttir.with_suffix(".json").read_text())
    with contextlib.redirect_stderr(io.StringIO()):  # the pipeline's incomplete-stage notes
        lowered = lower_with_options(ttir, "nvidia-sm90")
    llvm_ir = translate(lowered, emit="llvm-ir", filename=str(ttir))
    fusion = meta.get("enable_fp_fusion", True)
    ptx = translate(llvm_ir, emit="ptx", arch="sm_90a", opt_level=3, filename=str(ttir),
                    fp_fusion=fusion)
    return ptx, llvm_ir_for_code_generation(llvm_ir, "sm_90a", 3, fp_fusion=fusion,
                                            filename=str(ttir))


# --------------------------------------------------------------------------- the run

# __nvvm_reflect as NVPTX code generation answers it for Triton's modules.
_REFLECT = {"__CUDA_FTZ": 1, "__CUDA_ARCH": 900}


def resolve_reflect(llvm_ir: str) -> str:
    strings = dict(re.findall(r'^(@[\w.]+) = .*c"(\w+)\\00"', llvm_ir, re.M))

    def answer(match: re.Match) -> str:
        value = _REFLECT.get(strings.get(match.group(2), ""), 0)
        return f"{match.group(1)} = add i32 0, {value}"

    return re.sub(r"(%[\w.]+) = (?:tail )?call i32 @__nvvm_reflect\(ptr (?:nonnull )?"
                  r"(@[\w.]+)\)[^\n]*", answer, llvm_ir)


def _runnable(llvm_ir: str) -> str:
    """LLVM IR tileopt-run reads: libdevice's inline ``rcp.approx.ftz.f32`` as the NVVM
    intrinsic it is, contraction flags dropped (the run does not fuse)."""
    llvm_ir = re.sub(r'call float asm "rcp\.approx\.ftz\.f32 \$0,\s*\$1;", "=f,f"\((float [^)]*)\)',
                     r"call float @llvm.nvvm.rcp.approx.ftz.f(\1)", llvm_ir)
    if "declare float @llvm.nvvm.rcp.approx.ftz.f(" not in llvm_ir and \
            "@llvm.nvvm.rcp.approx.ftz.f(" in llvm_ir:
        llvm_ir += "\ndeclare float @llvm.nvvm.rcp.approx.ftz.f(float)\n"
    return re.sub(r"\b(fadd|fsub|fmul|fneg) contract\b", r"\1", llvm_ir)


def run_both(ttir: Path, triton_ir: str, tileopt_ir: str) -> str:
    """'same', 'N of M elements of ARG differ ...', or 'cannot run: why'."""
    import numpy as np

    from tileopt.run import launch
    from tileopt.target.gpu_target import parse_arch
    from tileopt.testing.inductor_cases import case_for, sized

    try:
        case = case_for(ttir)
        args, _ = sized(case)
    except Exception as err:  # noqa: BLE001
        return f"cannot run: no arguments ({str(err).splitlines()[0][:100]})"
    outputs = []
    for side, text in (("Triton", resolve_reflect(triton_ir)), ("tileopt", tileopt_ir)):
        text = _runnable(text)
        try:
            compiled = launch.Compiled(text, launch.read_module(text), launch.DEFAULT_SHARED_BYTES,
                                       None, parse_arch("sm_90a"))
            copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            result = launch.run_kernel(compiled, copies, case.grid, arg_names=case.names,
                                       checks=False)
        except Exception as err:  # noqa: BLE001
            return f"cannot run {side}'s: {str(err).splitlines()[0][:140]}"
        outputs.append(result.outputs)
    found = []
    for pos, want in outputs[0].items():
        got = outputs[1][pos]
        if want.tobytes() != got.tobytes():
            bits = f"u{want.itemsize}"
            bad = np.flatnonzero(want.reshape(-1).view(bits) != got.reshape(-1).view(bits))
            found.append(f"{bad.size} of {want.size} elements of {case.names[pos]} differ "
                         f"(first at {bad[0]}: Triton {want.reshape(-1)[bad[0]]!r}, "
                         f"tileopt {got.reshape(-1)[bad[0]]!r})")
    return "; ".join(found) or "same"


# --------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("triton_python")
    parser.add_argument("--dir", type=Path, default=Path("test/inputs/inductor"))
    parser.add_argument("-k", default="")
    parser.add_argument("--run", action="store_true", help="also run both on the CPU")
    parser.add_argument("--cache", type=Path, help="keep both sides' files here")
    parser.add_argument("-v", action="store_true", help="also exact operations, constants")
    args = parser.parse_args()
    names = []
    for ttir in sorted(args.dir.rglob("*.ttir")):
        meta = json.loads(ttir.with_suffix(".json").read_text())
        rel = ttir.relative_to(args.dir).with_suffix("").as_posix()
        if meta.get("arch", "sm90") == "sm90" and args.k in rel and \
                ttir.with_suffix(".ttgir").exists():
            names.append(rel)
    cache = args.cache or Path(tempfile.mkdtemp(prefix="ptx_arith_diff-"))
    triton_dir, tileopt_dir = cache / "triton", cache / "tileopt"
    print(f"Triton 3.6 ({args.triton_python}) on {len(names)} kernels ...", flush=True)
    subprocess.run([args.triton_python, __file__, "--triton-side", str(args.dir.resolve()),
                    str(triton_dir)] + names, check=True)

    # The libdevice Triton links (its wheel's): another one computes sinf/powf... otherwise.
    os.environ["TILEOPT_LIBDEVICE"] = (triton_dir / "libdevice").read_text()
    totals = Counter()
    for name in names:
        theirs = triton_dir / f"{name}.ptx"
        ours = tileopt_dir / f"{name}.ptx"
        if not theirs.exists():
            continue
        if not ours.exists():
            try:
                ptx, llvm_ir = tileopt_side(args.dir / f"{name}.ttir")
            except Exception as err:  # noqa: BLE001
                print(f"{name}\n    tileopt failed: {str(err).splitlines()[0][:160]}")
                totals["tileopt failed"] += 1
                continue
            ours.parent.mkdir(parents=True, exist_ok=True)
            ours.with_suffix(".ll").write_text(llvm_ir)
            ours.write_text(ptx)
        totals["compared"] += 1
        t_round, t_other = features(theirs.read_text())
        o_round, o_other = features(ours.read_text())
        rounding = counter_diff(t_round, o_round)
        other = counter_diff(t_other, o_other) if args.v else []
        lines = [f"    {k:44s} Triton {x:5d}  tileopt {y:5d}" for k, x, y in rounding + other]
        if rounding:
            totals["rounding operations differ"] += 1
        if args.run:
            verdict = run_both(args.dir / f"{name}.ttir", theirs.with_suffix(".ll").read_text(),
                               ours.with_suffix(".ll").read_text())
            totals["run: " + ("same" if verdict == "same" else "cannot run"
                              if verdict.startswith("cannot") else "differs")] += 1
            if verdict != "same" or lines:
                lines.append(f"    run: {verdict}")
        if lines:
            print(name)
            print("\n".join(lines), flush=True)
    print()
    for key in ("compared", "rounding operations differ", "run: same", "run: differs",
                "run: cannot run", "tileopt failed"):
        if key in totals or key in ("compared", "rounding operations differ"):
            print(f"{key:28s} {totals[key]}")
    if not args.cache:
        print(f"(files in {cache})")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--triton-side":
        triton_side(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4:])
    else:
        main()
