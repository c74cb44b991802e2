"""Where ``ptxas`` is: the one lookup every test, benchmark and lit feature uses, and
``assemble`` (``tileopt-translate --emit=cubin``).

PTX is tileopt's own last stage; ptxas assembles it into a cubin on request, and checks
that the PTX is valid and reports registers and spills. CI has no GPU and no CUDA toolkit, so
the ``test`` extra installs the ``nvidia-cuda-nvcc`` wheel, which ships a self-contained
ptxas inside the ``nvidia`` namespace package: ``nvidia/cu13/bin/ptxas`` for CUDA 13
wheels (``nvidia/cuda_nvcc/bin/ptxas`` in the CUDA 12 ``-cu12`` wheels). That copy comes
first, so a run does not depend on which toolkit happens to be on the PATH; a ptxas on the
PATH, then ``$CUDA_HOME/bin/ptxas``, are the fallbacks.

Standard library only: the GPU benchmark harness loads this file by path on a machine
where tileopt's dependencies are not installed.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

_WHEEL_LOCATIONS = (Path("cu13") / "bin" / "ptxas", Path("cuda_nvcc") / "bin" / "ptxas")


def find_ptxas() -> str | None:
    """Path of the ``nvidia-cuda-nvcc`` wheel's ptxas, else of the ptxas on PATH or in
    ``$CUDA_HOME/bin``, else None."""
    try:
        spec = importlib.util.find_spec("nvidia")
    except (ImportError, ValueError):
        spec = None
    for root in (spec.submodule_search_locations or []) if spec is not None else []:
        for relative in _WHEEL_LOCATIONS:
            candidate = Path(root) / relative
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
    if on_path := shutil.which("ptxas"):
        return on_path
    if cuda_home := os.environ.get("CUDA_HOME"):
        return shutil.which(os.path.join(cuda_home, "bin", "ptxas"))
    return None


class PtxasError(Exception):
    """ptxas is missing or refused the PTX; the message says which, in one line."""


def assemble(ptx: str, arch: str) -> bytes:
    """The cubin ptxas makes of ``ptx`` for ``arch`` (``sm_90a``)."""
    ptxas = find_ptxas()
    if ptxas is None:
        raise PtxasError("--emit=cubin needs ptxas: install the nvidia-cuda-nvcc wheel (the "
                         "'test' extra has it), put ptxas on PATH or set CUDA_HOME")
    with tempfile.TemporaryDirectory(prefix="tileopt-ptxas-") as tmp:
        source, output = Path(tmp) / "kernel.ptx", Path(tmp) / "kernel.cubin"
        source.write_text(ptx)
        run = subprocess.run([ptxas, f"-arch={arch}", str(source), "-o", str(output)],
                             capture_output=True, text=True)
        if run.returncode != 0:
            said = [line for line in (run.stderr + run.stdout).splitlines() if line.strip()]
            raise PtxasError("ptxas failed: " + (said[0] if said else
                                                 f"exit status {run.returncode}"))
        return output.read_bytes()


__all__ = ["PtxasError", "assemble", "find_ptxas"]
