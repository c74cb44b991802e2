"""tileopt's AMD code beside Triton's, per corpus kernel and architecture (issues 10 and 11).

For each kernel of the corpus on ``hip-gfx942`` and ``hip-gfx1100`` three versions of the
code are compared:

- ``triton``: Triton 3.6's own ``.amdgcn`` (the corpus), LDS from its ``.json``;
- ``llir``:   Triton's ``.llir`` through ``tileopt-translate --emit=amdgcn|hsaco`` at -O0,
              i.e. Triton's ``make_amdgcn`` on llvmlite's LLVM: where it differs from
              ``triton`` the LLVM version is the cause, not a lowering;
- ``tileopt``: the kernel's ``.ttir`` through ``tileopt --pass-pipeline=amd-cdna3|amd-rdna3``
              (num-warps, num-ctas, num-stages from the ``.json``) and ``tileopt-translate``,
              in-process. Until the AMD lowering exists this row says ``no lowering: ...``;
- ``ttgir``:  dot kernels only: Triton's own final ``.ttgir`` through the same pipeline from
              its ``llir`` stage (``--start-at=llir``), so the lowering of the dot kernels is
              measured apart from tileopt's TritonGPU passes.

Each version gives VGPRs (on gfx942 VGPRs and AGPRs together, the unified file), SGPRs,
AGPRs, LDS bytes (static + the launcher's dynamic LDS), scratch bytes, occupancy (waves per
SIMD for the kernel's workgroup), the global/buffer and LDS memory instructions by mnemonic
and width, the MFMA/WMMA count, and the number of instructions. The last column names the
targets a version misses against Triton: LDS equal to the ``.json``, no scratch, memory
instructions of Triton's widths, VGPRs at most 10% above Triton's, and for the dot kernels
(issue 11's) as many MFMA/WMMA instructions as Triton.

    python benchmarks/amd/compare.py [--corpus DIR] [--target hip-gfx942] [--kernel NAME]
                                     [--markdown]   # also writes benchmarks/amd/RESULTS.md
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tileopt.driver.pass_manager import PassManager  # noqa: E402
from tileopt.ir import make_context, parse_module  # noqa: E402
from tileopt.pipelines import resolve_pass_pipeline, slice_stages  # noqa: E402
from tileopt.target import llvm_ir_to_amdgcn, llvm_ir_to_hsaco, translate  # noqa: E402
from tileopt.target.amdgpu_occupancy import Occupancy, occupancy  # noqa: E402
from tileopt.target.hsaco_metadata import (  # noqa: E402
    KernelResources,
    launch_lds,
    read_amdgcn,
    read_hsaco,
)
from tileopt.testing.corpus_compare import find_corpus  # noqa: E402

TARGETS = {"hip-gfx942": ("gfx942", "amd-cdna3"), "hip-gfx1100": ("gfx1100", "amd-rdna3")}
KERNELS = ("add", "add_nodiv", "axpy_f16", "gelu", "softmax", "layernorm_fwd", "sum_rows",
           "sum_cols", "cumsum", "transpose", "atomic_hist")
DOT_KERNELS = ("matmul", "matmul_small", "block_ptr_matmul")  # issue 11's
SIDES = ("triton", "llir", "tileopt", "ttgir")
VGPR_MARGIN = 1.10
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"

_INSTRUCTION = re.compile(r"^\s+([a-z_][a-z0-9_]*)\b", re.M)
_GLOBAL = re.compile(r"^(global|buffer|flat)_(load|store|atomic)")
_LDS = re.compile(r"^ds_(read|write|load|store)")
_MATRIX = re.compile(r"^v_(mfma|smfmac|wmma|swmmac)_")


def kernel_body(amdgcn: str, name: str) -> str:
    """The assembly of kernel ``name``: from its label to its ``.Lfunc_end``."""
    start = re.search(rf"^{re.escape(name)}:", amdgcn, re.M)
    if start is None:
        raise ValueError(f"no label '{name}:' in the AMDGCN")
    end = amdgcn.find(".Lfunc_end", start.end())
    return amdgcn[start.end():end if end >= 0 else len(amdgcn)]


def instruction_counts(body: str) -> Counter:
    """Instructions by mnemonic (directives, labels and comments are none)."""
    return Counter(_INSTRUCTION.findall(body))


def access_bits(mnemonic: str) -> int:
    """Bits one lane moves: ``global_load_dwordx4`` 128, ``buffer_store_short`` 16,
    ``ds_read2_b64`` 128 (two addresses), ``global_atomic_add`` 32."""
    if found := re.search(r"dwordx(\d)", mnemonic):
        bits = 32 * int(found.group(1))
    elif "dword" in mnemonic:
        bits = 32
    elif found := re.search(r"_[bui](\d+)(?:_|$)", mnemonic):
        bits = int(found.group(1))
    elif "short" in mnemonic:
        bits = 16
    elif "byte" in mnemonic:
        bits = 8
    else:  # atomics name their width only for 64 bits (_x2)
        bits = 64 if mnemonic.endswith("_x2") else 32
    if re.search(r"(read|write|load|store)2|2addr", mnemonic):
        bits *= 2
    return bits


def memory_kind(mnemonic: str) -> tuple[str, str] | None:
    """(``global``|``lds``, direction) of a data memory instruction, None otherwise
    (cache maintenance such as ``buffer_inv``, cross-lane ``ds_bpermute``, scalar loads)."""
    if found := _GLOBAL.match(mnemonic):
        return "global", found.group(2)
    if found := _LDS.match(mnemonic):
        return "lds", "load" if found.group(1) in ("read", "load") else "store"
    return None


def memory_widths(counts: Counter) -> Counter:
    """``{(space, direction, bits): count}`` of the global/buffer and LDS instructions."""
    widths: Counter = Counter()
    for mnemonic, count in counts.items():
        if kind := memory_kind(mnemonic):
            widths[(*kind, access_bits(mnemonic))] += count
    return widths


@dataclass
class Figures:
    """What one version of one kernel uses and holds."""

    resources: KernelResources
    lds: int
    occupancy: Occupancy
    counts: Counter = field(repr=False)

    @property
    def memory(self) -> Counter:
        return memory_widths(self.counts)

    @property
    def matrix(self) -> int:
        return sum(n for m, n in self.counts.items() if _MATRIX.match(m))

    @property
    def instructions(self) -> int:
        return sum(self.counts.values())

    @property
    def memory_mnemonics(self) -> str:
        return " ".join(f"{m}×{n}" for m, n in sorted(self.counts.items())
                        if memory_kind(m) or m.startswith("scratch_"))


def figures(amdgcn: str, arch: str, dynamic_lds: int, hsaco: bytes | None = None) -> Figures:
    """Figures of one kernel's code; registers from the hsaco's note when there is one."""
    (kernel,) = read_hsaco(hsaco) if hsaco is not None else read_amdgcn(amdgcn)
    lds = kernel.group_segment_size + dynamic_lds
    return Figures(kernel, lds,
                   occupancy(arch, kernel.vgpr_count, kernel.sgpr_count, lds,
                             kernel.max_flat_workgroup_size),
                   instruction_counts(kernel_body(amdgcn, kernel.name)))


def _meta(corpus: Path, target: str, kernel: str) -> dict:
    return json.loads((corpus / target / f"{kernel}.json").read_text())


def triton_figures(corpus: Path, target: str, kernel: str) -> Figures:
    arch = TARGETS[target][0]
    return figures((corpus / target / f"{kernel}.amdgcn").read_text(), arch,
                   _meta(corpus, target, kernel)["shared"])


def llir_figures(corpus: Path, target: str, kernel: str) -> Figures:
    """Triton's LLVM IR through tileopt's back end (``make_amdgcn`` at -O0)."""
    arch = TARGETS[target][0]
    path = corpus / target / f"{kernel}.llir"
    llir = path.read_text()
    return figures(llvm_ir_to_amdgcn(llir, arch, 0, filename=str(path)), arch,
                   _meta(corpus, target, kernel)["shared"],
                   llvm_ir_to_hsaco(llir, arch, 0, filename=str(path)))


def pipeline_text(corpus: Path, target: str, kernel: str) -> str:
    meta = _meta(corpus, target, kernel)
    return (f"{TARGETS[target][1]}{{num-warps={meta['num_warps']} "
            f"num-ctas={meta['num_ctas']} num-stages={meta['num_stages']}}}")


def tileopt_figures(corpus: Path, target: str, kernel: str,
                    stage: str = "ttir") -> Figures | str:
    """The ``.ttir`` (``stage`` ``ttgir``: Triton's ``.ttgir`` from the ``llir`` stage on)
    through tileopt's AMD pipeline and back end; the first line of the error as
    ``no lowering: ...`` where that fails."""
    arch = TARGETS[target][0]
    source = corpus / target / f"{kernel}.{stage}"
    try:
        ctx = make_context()
        module = parse_module(source.read_text(), str(source), ctx)
        pipeline = resolve_pass_pipeline(pipeline_text(corpus, target, kernel))
        if stage == "ttgir":
            pipeline = slice_stages(pipeline, "llir", None)
        PassManager(pipeline, str(source)).run(ctx, module)
        amdgcn = translate(module, emit="amdgcn", arch=arch, filename=str(source))
        hsaco = translate(module, emit="hsaco", arch=arch, filename=str(source))
        return figures(amdgcn, arch, launch_lds(module), hsaco)
    except Exception as err:  # noqa: BLE001 - the table reports every failure
        return "no lowering: " + (str(err).strip().splitlines() or [type(err).__name__])[0]


def unmet_targets(ours: Figures, triton: Figures, expected_lds: int, is_dot: bool) -> list[str]:
    """The targets ``ours`` misses against Triton's code."""
    missed = []
    if ours.lds != expected_lds:
        missed.append(f"LDS {ours.lds} != {expected_lds}")
    if ours.resources.private_segment_size:
        missed.append(f"scratch {ours.resources.private_segment_size}")
    if set(ours.memory) != set(triton.memory):
        only_ours = sorted(set(ours.memory) - set(triton.memory))
        only_triton = sorted(set(triton.memory) - set(ours.memory))
        missed.append("widths " + " ".join([f"+{_width(w)}" for w in only_ours]
                                           + [f"-{_width(w)}" for w in only_triton]))
    if ours.resources.vgpr_count > VGPR_MARGIN * triton.resources.vgpr_count:
        missed.append(f"VGPRs {ours.resources.vgpr_count} > 110% of "
                      f"{triton.resources.vgpr_count}")
    if is_dot and ours.matrix != triton.matrix:
        missed.append(f"MFMA/WMMA {ours.matrix} != {triton.matrix}")
    return missed


def _width(key: tuple[str, str, int]) -> str:
    space, direction, bits = key
    return f"{'g' if space == 'global' else 'ds'}.{direction[:2]}{bits}"


@dataclass
class Row:
    target: str
    kernel: str
    is_dot: bool
    expected_lds: int
    sides: dict[str, Figures | str]

    def unmet(self, side: str) -> str:
        """Against Triton's code; Triton's own row can miss only LDS and scratch."""
        figures_ = self.sides.get(side, "")
        if isinstance(figures_, str):
            return ""
        return "; ".join(unmet_targets(figures_, self.sides["triton"], self.expected_lds,
                                       self.is_dot)) or "all met"


def compare_row(corpus: Path, target: str, kernel: str) -> Row:
    """The three versions of one kernel on one target."""
    is_dot = kernel in DOT_KERNELS
    sides = {"triton": triton_figures(corpus, target, kernel),
             "llir": llir_figures(corpus, target, kernel),
             "tileopt": tileopt_figures(corpus, target, kernel)}
    if is_dot:
        sides["ttgir"] = tileopt_figures(corpus, target, kernel, "ttgir")
    return Row(target, kernel, is_dot, _meta(corpus, target, kernel)["shared"], sides)


COLUMNS = ("target", "kernel", "version", "VGPR", "SGPR", "AGPR", "LDS", "scratch", "waves",
           "memory (width: count)", "MFMA", "instrs", "targets not met")


def cells(row: Row, side: str) -> list[str]:
    head = [row.target, row.kernel + (" (11)" if row.is_dot else ""), side]
    fig = row.sides[side]
    if isinstance(fig, str):
        return head + [fig] + [""] * (len(COLUMNS) - len(head) - 1)
    r = fig.resources
    memory = " ".join(f"{_width(k)}:{n}" for k, n in sorted(fig.memory.items()))
    return head + [str(r.vgpr_count), str(r.sgpr_count), str(r.agpr_count), str(fig.lds),
                   str(r.private_segment_size), str(fig.occupancy), memory, str(fig.matrix),
                   str(fig.instructions), row.unmet(side)]


def text_table(rows: list[Row]) -> str:
    lines = [[*COLUMNS]] + [cells(row, side) for row in rows for side in row.sides]
    widths = [max(len(line[i]) for line in lines if len(line[i]) < 60) for i in
              range(len(COLUMNS))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip()
                     for line in lines) + "\n"


def markdown(rows: list[Row]) -> str:
    out = ["# AMD: tileopt beside Triton 3.6", "",
           "Written by `python benchmarks/amd/compare.py --markdown` (see its docstring). "
           "`triton`: the corpus `.amdgcn`; `llir`: Triton's `.llir` through tileopt's back "
           "end (llvmlite's LLVM); `tileopt`: the `.ttir` through tileopt's AMD pipeline; "
           "`ttgir` (dot kernels): Triton's `.ttgir` through tileopt's lowering alone. "
           "VGPR counts AGPRs too on gfx942 (unified file); LDS is static + the launcher's "
           "dynamic LDS; waves: occupancy in waves per SIMD for the kernel's workgroup; "
           "memory: `g`lobal/buffer or `ds` (LDS), `lo`ad/`st`ore/`at`omic, bits per lane. "
           "(11) marks issue 11's dot kernels.", "",
           "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in cells(row, side)) + " |"
            for row in rows for side in row.sides]
    out += ["", "## Memory instructions by mnemonic", ""]
    for row in rows:
        for side, fig in row.sides.items():
            if not isinstance(fig, str):
                out.append(f"- {row.target} {row.kernel} {side}: {fig.memory_mnemonics or '-'}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--target", choices=tuple(TARGETS), action="append")
    parser.add_argument("--kernel", action="append")
    parser.add_argument("--markdown", action="store_true",
                        help=f"also write {RESULTS.relative_to(REPO)}")
    args = parser.parse_args(argv)
    corpus = args.corpus or find_corpus()
    if corpus is None:
        parser.error("no corpus: give --corpus (../shared/corpus beside the repository)")
    rows = []
    for target in args.target or TARGETS:
        for kernel in args.kernel or KERNELS + DOT_KERNELS:
            row = compare_row(corpus, target, kernel)
            rows.append(row)
            for side, fig in row.sides.items():
                detail = fig if isinstance(fig, str) else fig.memory_mnemonics
                print(f"{target} {kernel} {side}: {detail}", flush=True)
    print()
    print(text_table(rows), end="")
    if args.markdown:
        RESULTS.write_text(markdown(rows))
        print(f"wrote {RESULTS.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
