"""LLVM IR -> PTX with LLVM's NVPTX back end, as Triton 3.6's ``make_ptx`` does it.

Same target (``nvptx64-nvidia-cuda``, CPU ``sm_XX[a]``, ``+ptx87``), same options
(32-bit shared pointers, ``mad.wide``, contracted FMAs, PIC, ``-O3`` instruction selection)
and the same post-processing (the ``, debug`` that would stop ptxas from optimising is
removed from ``.target``). Given Triton's own optimised ``.llir`` with ``opt_level=0``,
the result is Triton's PTX for every corpus kernel whose code generation LLVM 22.1 does
not do differently from Triton's LLVM (see ``test/unit/target/test_corpus_ptx.py``).

``__nv_*`` functions (libdevice: ``erff``, ``sqrtf``, ...) are linked from CUDA's
``libdevice.10.bc`` when the module declares them, as Triton links its ``extern_libs``; a
module that needs it where none is found is refused with an error naming the library.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

from tileopt.ir import TileoptError
from tileopt.target import llvm_backend
from tileopt.target.gpu_target import GPUTarget, parse_arch
from tileopt.target.llvm_backend import TranslatedIR
from tileopt.target.ptxas import find_ptxas

_LIBDEVICE = "libdevice.10.bc"
_LIBDEVICE_RELATIVE = Path("nvvm") / "libdevice" / _LIBDEVICE


def libdevice_candidates() -> list[Path]:
    """Where ``libdevice.10.bc`` is looked for, in order: ``$CUDA_HOME``, ``$CUDA_PATH``,
    the toolkit that holds ``find_ptxas()``, the ``nvidia`` pip packages (``nvidia-nvvm``,
    ``nvidia-cuda-nvcc``: ``nvidia/cu13/nvvm/...``, ``nvidia/cuda_nvcc/nvvm/...``), the
    Triton wheel (``triton/backends/nvidia/lib``), ``/usr/local/cuda``."""
    roots = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")]
    if ptxas := find_ptxas():
        roots.append(str(Path(ptxas).resolve().parent.parent))
    candidates = [Path(root) / _LIBDEVICE_RELATIVE for root in roots if root]
    # find_spec reads where a package is without importing it (Triton stays optional).
    nvidia = importlib.util.find_spec("nvidia")
    for folder in (nvidia.submodule_search_locations or []) if nvidia else []:
        candidates += sorted(Path(folder).glob(f"*/{_LIBDEVICE_RELATIVE}"))
    triton = importlib.util.find_spec("triton")
    if triton is not None and triton.origin:
        candidates.append(Path(triton.origin).parent / "backends" / "nvidia" / "lib" / _LIBDEVICE)
    candidates.append(Path("/usr/local/cuda") / _LIBDEVICE_RELATIVE)
    return candidates


def find_libdevice() -> Path | None:
    """``$TILEOPT_LIBDEVICE`` if set, else the first of :func:`libdevice_candidates` that
    exists."""
    if explicit := os.environ.get("TILEOPT_LIBDEVICE"):
        return Path(explicit)
    return next((c for c in libdevice_candidates() if c.is_file()), None)


def _libdevice_for(missing: list[str]) -> Path:
    """The libdevice to link into a module that calls ``missing``, or a clear error."""
    names = ", ".join(sorted(missing)[:4]) + (", ..." if len(missing) > 4 else "")
    found = find_libdevice()
    if found is not None and found.is_file():
        return found
    where = (f"TILEOPT_LIBDEVICE={found} is not a file" if found is not None else
             f"{_LIBDEVICE} (CUDA's libdevice) was not found in CUDA_HOME, CUDA_PATH, the "
             "CUDA toolkit of ptxas, the nvidia-nvvm / nvidia-cuda-nvcc pip packages or the "
             "Triton wheel")
    raise TileoptError(f"the module calls libdevice functions ({names}) but {where}: "
                       "install nvidia-nvvm or set TILEOPT_LIBDEVICE or CUDA_HOME")


def _needs_libdevice(module) -> list[str]:
    return [f.name for f in module.functions if f.is_declaration and f.name.startswith("__nv_")]


def link_libdevice(module) -> bool:
    """Link libdevice into ``module`` (an llvmlite module) if it calls ``__nv_*``
    functions (an error naming the library if none is found); whether it did."""
    missing = _needs_libdevice(module)
    if missing:
        llvm_backend.link_bitcode(module, str(_libdevice_for(missing)))
    return bool(missing)


def _nvidia_target(arch: str | GPUTarget) -> GPUTarget:
    target = parse_arch(arch) if isinstance(arch, str) else arch
    if not target.is_nvidia:
        raise TileoptError(f"PTX is for NVIDIA GPUs; '{target.arch}' is an AMD GPU")
    return target


def llvm_ir_to_ptx(llvm_ir: str | TranslatedIR, arch: str | GPUTarget = "sm_90a", opt_level: int = 3,
                   *, fp_fusion: bool = True, filename: str = "<llvm-ir>") -> str:
    """PTX assembly for LLVM IR text.

    ``opt_level`` runs LLVM's ``-O<n>`` pipeline before code generation (Triton's
    ``make_llir`` runs ``-O3``; its ``.llir`` output is already optimised, so give such
    input ``opt_level=0`` to reproduce ``make_ptx`` alone). ``fp_fusion`` mirrors Triton's
    ``enable_fp_fusion``.
    """
    target, args = _code_generation_input(llvm_ir, arch, opt_level, fp_fusion, filename)
    ptx = llvm_backend.run_isolated(_ptx, args, f"PTX generation for {target.arch}").decode()
    return without_debug_flag(ptx)


_DEBUG_FLAG = r",\s*debug|debug,\s*"  # compiled at the first use (re's cache)


def without_debug_flag(ptx: str) -> str:
    """``re.sub(_DEBUG_FLAG, "", ptx)``, as Triton removes ``, debug`` (on ``.target``, it would
    make ptxas skip its optimisations), with the regex run only around each ``debug``: every
    match holds one, and a scan of the whole PTX (an attempt at every comma) cost 0.3 ms
    for 20 KB. A window reaches back over whitespace to a comma and on over a comma and
    whitespace, so no match crosses its edges; overlapping windows are merged."""
    windows: list[list[int]] = []
    found = ptx.find("debug")
    while found >= 0:
        begin = found
        while begin > 0 and ptx[begin - 1].isspace():
            begin -= 1
        if begin > 0 and ptx[begin - 1] == ",":
            begin -= 1
        end = found + 5
        if ptx.startswith(",", end):
            end += 1
            while end < len(ptx) and ptx[end].isspace():
                end += 1
        if windows and begin <= windows[-1][1]:
            windows[-1][1] = max(windows[-1][1], end)
        else:
            windows.append([begin, end])
        found = ptx.find("debug", found + 5)
    pieces, done = [], 0
    for begin, end in windows:
        pieces += (ptx[done:begin], re.sub(_DEBUG_FLAG, "", ptx[begin:end]))
        done = end
    pieces.append(ptx[done:])
    return "".join(pieces)


def llvm_ir_for_code_generation(llvm_ir: str | TranslatedIR, arch: str | GPUTarget = "sm_90a",
                                opt_level: int = 3, *, fp_fusion: bool = True,
                                filename: str = "<llvm-ir>") -> str:
    """The LLVM IR that :func:`llvm_ir_to_ptx` hands to NVPTX code generation (libdevice
    linked, ``-O<opt_level>``, contraction flags): what to compare with Triton's ``.llir``."""
    target, args = _code_generation_input(llvm_ir, arch, opt_level, fp_fusion, filename)
    return llvm_backend.run_isolated(_code_generation_llvm_ir, args,
                                     f"LLVM IR for {target.arch}").decode()


def _code_generation_input(llvm_ir: str | TranslatedIR, arch: str | GPUTarget, opt_level: int,
                           fp_fusion: bool, filename: str) -> tuple[GPUTarget, tuple]:
    """The target, and the arguments of the work run in the LLVM worker (``_prepared``):
    errors in LLVM IR text are found here, in this process, and the libdevice to link is
    chosen here."""
    target = _nvidia_target(arch)
    missing = _needs_libdevice(llvm_backend.source_module(llvm_ir, filename))
    libdevice = str(_libdevice_for(missing)) if missing else None
    return target, (*llvm_backend.worker_source(llvm_ir), target, opt_level, fp_fusion,
                    filename, libdevice)


def _prepared(llvm_ir: str, translated: bool, target: GPUTarget, opt_level: int,
              fp_fusion: bool, filename: str, libdevice: str | None):
    """The target machine and the module code generation gets (run in the LLVM worker)."""
    llvm_backend.set_fp_fusion(fp_fusion)
    machine = llvm_backend.target_machine(target)
    module = llvm_backend.read(llvm_ir, translated, filename)
    llvm_backend.prepare_for_target(module, target)
    if libdevice is not None:
        llvm_backend.link_bitcode(module, libdevice)
    llvm_backend.inline_everything(module)
    # Not verified again after -O3: the module was verified when read (``read``,
    # ``source_module``), libdevice is LLVM's own bitcode, and LLVM's passes keep IR valid.
    llvm_backend.optimize(module, machine, opt_level, drop_unused=libdevice is not None)
    if fp_fusion:
        module = llvm_backend.with_contraction(module)
    return machine, module


def _ptx(*args) -> bytes:
    machine, module = _prepared(*args)
    return machine.emit_assembly(module).encode()


def _code_generation_llvm_ir(*args) -> bytes:
    return str(_prepared(*args)[1]).encode()
