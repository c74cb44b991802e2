"""LLVM IR -> AMDGCN assembly, object, and hsaco (the loadable code object) for AMD GPUs.

As Triton 3.6's ``make_amdgcn``/``make_hsaco``: LLVM's AMDGPU back end for
``amdgcn-amd-amdhsa`` and the GPU's ``gfxNNNN`` CPU name makes a relocatable ELF object,
which ``ld.lld -shared`` links into the hsaco that HIP loads. The code object version
(5) comes from the module flag ``amdhsa_code_object_version`` (``module_to_llvm_ir`` adds
it for AMD targets; Triton's ``.llir`` has it). Calls of ROCm's ``__ocml_*`` / ``__ockl_*``
functions link ``ocml.bc`` / ``ockl.bc`` (``rocm_device_libs.py``).

``ld.lld`` is looked for as ``$TILEOPT_LLD``, on ``PATH``, in ``/opt/rocm/llvm/bin``, and
finally as the ``ld.lld`` of the ``ziglang`` Python package (``pip install ziglang``).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tileopt.ir import TileoptError
from tileopt.target import llvm_backend, rocm_device_libs
from tileopt.target.gpu_target import GPUTarget, parse_arch

_ROCM_LLD = Path("/opt/rocm/llvm/bin/ld.lld")


def find_lld() -> list[str]:
    """The command that runs ``ld.lld``; a TileoptError saying how to get one otherwise."""
    if explicit := os.environ.get("TILEOPT_LLD"):
        return [explicit]
    if on_path := shutil.which("ld.lld"):
        return [on_path]
    if _ROCM_LLD.is_file():
        return [str(_ROCM_LLD)]
    if importlib.util.find_spec("ziglang") is not None:
        return [sys.executable, "-m", "ziglang", "ld.lld"]
    raise TileoptError("linking an hsaco needs ld.lld: install LLVM's lld (or ROCm), or "
                       "`pip install ziglang` (the tileopt[amd] extra), or set TILEOPT_LLD")


def _amd_target(arch: str | GPUTarget) -> GPUTarget:
    target = parse_arch(arch) if isinstance(arch, str) else arch
    if not target.is_amd:
        raise TileoptError(f"AMDGCN is for AMD GPUs; '{target.arch}' is an NVIDIA GPU")
    return target


def _generate(llvm_ir: str, target: GPUTarget, opt_level: int, filename: str,
              as_object: bool, fp_fusion: bool) -> bytes:
    kind = "object" if as_object else "assembly"
    return llvm_backend.run_isolated(
        _code, (llvm_ir, target, opt_level, filename, as_object, fp_fusion),
        f"AMDGCN {kind} generation for {target.arch}")


def _code(llvm_ir: str, target: GPUTarget, opt_level: int, filename: str, as_object: bool,
          fp_fusion: bool) -> bytes:
    """Optimise and compile (run in the LLVM worker: its errors, a parse error with its
    location or a missing device library, reach the caller as they are raised here)."""
    module = llvm_backend.parse(llvm_ir, filename)
    libraries = rocm_device_libs.library_paths(module)
    machine = llvm_backend.target_machine(target)
    llvm_backend.prepare_for_target(module, target)
    module = rocm_device_libs.link(module, machine, target, libraries)
    llvm_backend.inline_everything(module)
    llvm_backend.optimize(module, machine, opt_level)
    llvm_backend.verify(module, filename)
    if fp_fusion:  # Triton's make_amdgcn fuses multiply-adds as make_ptx does
        module = llvm_backend.with_contraction(module)
    if as_object:
        return machine.emit_object(module)
    return machine.emit_assembly(module).encode()


def llvm_ir_to_amdgcn(llvm_ir: str, arch: str | GPUTarget = "gfx942", opt_level: int = 3,
                      *, filename: str = "<llvm-ir>", fp_fusion: bool = True) -> str:
    """AMDGCN assembly (with its ``.amdgpu_metadata``) for LLVM IR text.

    Give Triton's already optimised ``.llir`` ``opt_level=0`` to reproduce ``make_amdgcn``;
    ``fp_fusion`` mirrors Triton's ``enable_fp_fusion``.
    """
    return _generate(llvm_ir, _amd_target(arch), opt_level, filename, False, fp_fusion).decode()


def llvm_ir_to_amdgcn_object(llvm_ir: str, arch: str | GPUTarget = "gfx942", opt_level: int = 3,
                             *, filename: str = "<llvm-ir>", fp_fusion: bool = True) -> bytes:
    """The relocatable ELF object LLVM emits (input to ``ld.lld``)."""
    return _generate(llvm_ir, _amd_target(arch), opt_level, filename, True, fp_fusion)


def link_hsaco(obj: bytes) -> bytes:
    """``ld.lld -shared``: relocatable AMDGPU object -> hsaco shared object."""
    command = find_lld()
    with tempfile.TemporaryDirectory(prefix="tileopt-hsaco-") as work:
        obj_path = Path(work) / "kernel.o"
        out_path = Path(work) / "kernel.hsaco"
        obj_path.write_bytes(obj)
        try:
            result = subprocess.run([*command, "-shared", str(obj_path), "-o", str(out_path)],
                                    capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise TileoptError(f"cannot run ld.lld ({' '.join(command)}): {err}") from None
        if result.returncode != 0:
            detail = (result.stderr or result.stdout).strip().splitlines()[-3:]
            raise TileoptError("ld.lld failed to link the hsaco: " + " | ".join(detail))
        return out_path.read_bytes()


def llvm_ir_to_hsaco(llvm_ir: str, arch: str | GPUTarget = "gfx942", opt_level: int = 3,
                     *, filename: str = "<llvm-ir>", fp_fusion: bool = True) -> bytes:
    """A loadable hsaco (ELF ``ET_DYN``, ``EM_AMDGPU``) for LLVM IR text."""
    return link_hsaco(llvm_ir_to_amdgcn_object(llvm_ir, arch, opt_level, filename=filename,
                                               fp_fusion=fp_fusion))
