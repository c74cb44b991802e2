"""ROCm's device libraries (``ocml.bc`` math, ``ockl.bc`` printf/hostcall) for AMD kernels.

As Triton 3.6's AMD ``make_llir``: a library is linked when the module declares one of its
functions (``__ocml_*``, ``__ockl_*``), its functions become internal so that only what the
kernel calls survives (the optimiser inlines them and drops the rest), and the module gets
the ``__oclc_*`` control constants the libraries read (ISA version, code object ABI,
wave size, finite-only / unsafe-math off, correctly rounded f32 sqrt on), each
``linkonce_odr`` so that unused ones vanish. The printf functions stay out of line
(``noinline``: inlining them costs compile time, as Triton notes), and the libraries'
``llvm.ident`` / ``opencl.ocl.version`` metadata is dropped (the latter would make LLVM
describe the kernels as OpenCL C in the code object's metadata).

The libraries are looked for in ``$TILEOPT_ROCM_DEVICE_LIBS`` (a folder), ``$ROCM_PATH``
and ``/opt/rocm`` (``amdgcn/bitcode``, or the ``lib/llvm/lib/clang/*/lib/amdgcn/bitcode``
of newer ROCm), then Triton's wheel (``triton/backends/amd/lib``, found without importing
Triton).
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

from tileopt.ir import TileoptError
from tileopt.target import llvm_backend
from tileopt.target.llvm_backend import llvm  # LLVM's library, loaded on first use
from tileopt.target.gpu_target import GPUTarget

LIBRARIES = ("ocml", "ockl")
ENVIRONMENT = "TILEOPT_ROCM_DEVICE_LIBS"
_ROCM_DEFAULT = Path("/opt/rocm")
# Triton marks these noinline after linking.
_OUT_OF_LINE_PREFIXES = ("__ockl_printf", "__ockl_fprintf")
_DROPPED_METADATA = re.compile(r"^!(llvm\.ident|opencl\.ocl\.version) = .*$", re.M)


def library_folders() -> list[Path]:
    """Folders searched for ``ocml.bc`` / ``ockl.bc``, in order."""
    folders = []
    if explicit := os.environ.get(ENVIRONMENT):
        folders.append(Path(explicit))
    roots = [Path(p) for p in (os.environ.get("ROCM_PATH"), os.environ.get("HIP_PATH")) if p]
    for root in [*roots, _ROCM_DEFAULT]:
        folders.append(root / "amdgcn" / "bitcode")
        folders += sorted(root.glob("lib/llvm/lib/clang/*/lib/amdgcn/bitcode"), reverse=True)
    # find_spec reads where a package is without importing it (Triton stays optional).
    triton = importlib.util.find_spec("triton")
    if triton is not None and triton.origin:
        folders.append(Path(triton.origin).parent / "backends" / "amd" / "lib")
    return folders


def find_library(name: str) -> Path | None:
    """``NAME.bc`` in the first of :func:`library_folders` that has it."""
    return next((f / f"{name}.bc" for f in library_folders() if (f / f"{name}.bc").is_file()),
                None)


def needed_libraries(module: llvm.ModuleRef) -> dict[str, list[str]]:
    """Library name -> the functions of it that ``module`` declares (Triton's
    ``need_extern_lib``). CUDA's libdevice names have no AMD meaning: refused, as Triton
    refuses them."""
    needed: dict[str, list[str]] = {}
    for function in module.functions:
        if not function.is_declaration:
            continue
        if function.name.startswith("__nv_"):
            raise TileoptError(
                f"the module calls CUDA's libdevice function {function.name}, which does not "
                "exist on AMD GPUs: use triton.language.extra.libdevice (it calls ROCm's "
                "__ocml_* functions on AMD) instead of triton.language.extra.cuda")
        for name in LIBRARIES:
            if function.name.startswith(f"__{name}_"):
                needed.setdefault(name, []).append(function.name)
    return needed


def library_paths(module: llvm.ModuleRef) -> list[Path]:
    """The bitcode files ``module`` needs, or a TileoptError naming the missing library."""
    paths = []
    for name, functions in needed_libraries(module).items():
        path = find_library(name)
        if path is None:
            called = ", ".join(sorted(functions)[:3]) + (", ..." if len(functions) > 3 else "")
            raise TileoptError(
                f"the module calls ROCm device-library functions ({called}) but {name}.bc was "
                f"not found in ${ENVIRONMENT}, $ROCM_PATH, /opt/rocm or the Triton wheel: "
                f"install ROCm or triton, or set {ENVIRONMENT} to a folder holding {name}.bc")
        paths.append(path)
    return paths


def isa_version(arch: str) -> int:
    """LLVM's ``getIsaVersion`` as one number: ``gfx942`` -> 9402, ``gfx90a`` -> 9010,
    ``gfx1100`` -> 11000 (major, then minor and stepping as hexadecimal digits)."""
    match = re.fullmatch(r"gfx(\d+)([0-9a-f])([0-9a-f])", arch.split(":")[0])
    if match is None:
        raise TileoptError(f"'{arch}' is not an AMD gfx architecture name")
    major, minor, stepping = int(match.group(1)), int(match.group(2), 16), int(match.group(3), 16)
    return major * 1000 + minor * 100 + stepping


def control_constants(target: GPUTarget) -> dict[str, tuple[int, int]]:
    """``__oclc_*`` name -> (bit width, value), the values Triton 3.6 sets."""
    wave64 = target.warp_size == 64
    return {
        "__oclc_ISA_version": (32, isa_version(target.arch)),
        "__oclc_ABI_version": (32, 500),
        "__oclc_finite_only_opt": (8, 0),
        "__oclc_correctly_rounded_sqrt32": (8, 1),
        "__oclc_unsafe_math_opt": (8, 0),
        "__oclc_wavefrontsize64": (8, int(wave64)),
        # Not set by Triton; ockl's wave-level functions read it (ROCm's own
        # oclc_wavefrontsize64 libraries define it with the flag above).
        "__oclc_wavefrontsize_log2": (8, 6 if wave64 else 5),
    }


def _control_constants_ir(module: llvm.ModuleRef, target: GPUTarget) -> str:
    lines = [f'target triple = "{module.triple}"', f'target datalayout = "{module.data_layout}"']
    for name, (bits, value) in control_constants(target).items():
        lines.append(f"@{name} = linkonce_odr protected local_unnamed_addr addrspace(4) "
                     f"constant i{bits} {value}, align {bits // 8}")
    return "\n".join(lines) + "\n"


def link(module: llvm.ModuleRef, machine: llvm.TargetMachine, target: GPUTarget,
         paths: list[Path]) -> llvm.ModuleRef:
    """``module`` with the libraries at ``paths`` linked in, only the called functions kept,
    and the control constants set; the module returned replaces ``module``."""
    if not paths:
        return module
    for path in paths:
        llvm_backend.link_bitcode(module, str(path))
    module.link_in(llvm.parse_assembly(_control_constants_ir(module, target)))
    llvm_backend.drop_unused(module, machine)
    for function in module.functions:
        if function.name.startswith(_OUT_OF_LINE_PREFIXES) and not function.is_declaration:
            function.add_function_attribute("noinline")
    return llvm_backend.parse(_DROPPED_METADATA.sub("", str(module)), "<linked module>")
