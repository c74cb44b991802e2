"""The back end: LLVM-dialect MLIR (or LLVM IR) -> LLVM IR, PTX (and a cubin through
ptxas), AMDGCN, hsaco.

``translate`` is what ``tileopt-translate`` calls. Its input is either

- MLIR in the LLVM dialect (with ``nvvm``/``rocdl`` ops), as Triton's ``make_llir``
  pipeline leaves it: translated by ``llvm_ir`` (``module_to_llvm_ir`` for LLVM IR,
  ``module_to_code`` for code), then optimised at ``-O3`` and compiled, which is Triton's
  ``make_llir`` + ``make_ptx``/``make_amdgcn``;
- or LLVM IR text (Triton's ``.llir``): compiled as it is, which is ``make_ptx`` alone.

The GPU comes from ``arch`` (``sm_90a``, ``gfx942``, ``cuda:90``, ...) or else from the
module's ``ttg.target`` attribute or the LLVM IR's target triple.
"""

from __future__ import annotations

import re

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from tileopt.ir import TileoptError, make_context, parse_module
from tileopt.ir.gc_scans import heap_frozen
from tileopt.target.amdgpu import find_lld, llvm_ir_to_amdgcn, llvm_ir_to_hsaco
from tileopt.target.gpu_target import GPUTarget, parse_arch, target_of_module
from tileopt.target.llvm_backend import TranslatedIR
from tileopt.target.llvm_ir import module_to_code, module_to_llvm_ir
from tileopt.target.nvptx import llvm_ir_to_ptx
from tileopt.target.ptxas import find_ptxas

# The vendors' op families register their converters in conversion_table.CONVERTERS when
# imported; the package's front door is the one place that knows every vendor (as MLIR's
# registerAllTranslations), so the shared translator (llvm_ir.py) names none of them.
from tileopt.target import nvvm_ops, rocdl_ops  # noqa: E402,F401  (after the back ends)

EMITS = ("llvm-ir", "ptx", "cubin", "amdgcn", "hsaco")

__all__ = [
    "EMITS",
    "external_tools",
    "GPUTarget",
    "llvm_ir_to_amdgcn",
    "llvm_ir_to_hsaco",
    "llvm_ir_to_ptx",
    "looks_like_llvm_ir",
    "module_to_llvm_ir",
    "parse_arch",
    "parse_llvm_dialect",
    "translate",
    "translation_context",
]

_LLVM_IR_START = re.compile(
    r"\s*(;|target\s+(datalayout|triple)|source_filename|define\s|declare\s|@[\w.$\"]+\s*=|"
    r"%[\w.$\"]+\s*=\s*type|attributes\s+#|!\w)")


def external_tools() -> dict[str, str]:
    """The programs the back ends run that are found here: ``ptxas`` (for ``cubin``) and
    ``ld.lld`` (for ``hsaco``), each with the command line that runs it."""
    found = {}
    if ptxas := find_ptxas():
        found["ptxas"] = ptxas
    try:
        found["ld.lld"] = " ".join(find_lld())
    except TileoptError:
        pass
    return found


def looks_like_llvm_ir(text: str) -> bool:
    """LLVM IR starts with ``;`` comments, ``target``, ``define``...; MLIR never does."""
    return bool(_LLVM_IR_START.match(text))


def translation_context() -> Context:
    """The context for reading Triton's LLVM-dialect output: ``make_context()`` already has
    the complete ``llvm`` dialect (``LLVM_EXT``), ``nvvm`` and the LLVM-level ``rocdl`` ops."""
    return make_context()


def parse_llvm_dialect(text: str, filename: str = "<stdin>") -> ModuleOp:
    """Parse LLVM-dialect MLIR (Triton's ``make_llir`` output) into an xDSL module."""
    return parse_module(text, filename, ctx=translation_context())


def _target(arch: str | GPUTarget | None, default: GPUTarget | None) -> GPUTarget | None:
    if isinstance(arch, GPUTarget):
        return arch
    if arch:
        return parse_arch(arch)
    return default


def _target_of_llvm_ir(text: str) -> GPUTarget | None:
    """The GPU named by ``target triple``/``"target-cpu"`` in LLVM IR text, if both are there."""
    cpu = re.search(r'"target-cpu"="([\w-]+)"', text)
    return parse_arch(cpu.group(1)) if cpu else None


@heap_frozen
def translate(module_or_text: ModuleOp | str, emit: str = "llvm-ir", arch: str | None = None,
              filename: str = "<stdin>", *, opt_level: int | None = None,
              debug_info: bool = True, fp_fusion: bool = True) -> str | bytes:
    """LLVM IR / PTX / AMDGCN text, or hsaco bytes, for an LLVM-dialect module or LLVM IR.

    ``opt_level`` (default: 3 for MLIR input, 0 for LLVM IR input, none for
    ``emit="llvm-ir"``) is the LLVM ``-O`` level run before code generation.
    """
    if emit not in EMITS:
        raise TileoptError(f"unknown output kind '{emit}' (expected one of: {', '.join(EMITS)})")
    if isinstance(module_or_text, str) and looks_like_llvm_ir(module_or_text):
        target = _target(arch, _target_of_llvm_ir(module_or_text))
        if emit == "llvm-ir":
            from tileopt.target import llvm_backend

            return str(llvm_backend.parse(module_or_text, filename))
        return _code(module_or_text, emit, target, 0 if opt_level is None else opt_level,
                     filename, fp_fusion)
    module = module_or_text if isinstance(module_or_text, ModuleOp) else \
        parse_llvm_dialect(module_or_text, filename)
    target = _target(arch, target_of_module(module))
    if emit == "llvm-ir":
        return module_to_llvm_ir(module, target, debug_info=debug_info, filename=filename)
    level = 3 if opt_level is None else opt_level
    return module_to_code(module, target, lambda translated: _code(
        translated, emit, target, level, filename, fp_fusion), debug_info=debug_info)


def _code(llvm_ir: str | TranslatedIR, emit: str, target: GPUTarget | None, level: int,
          filename: str, fp_fusion: bool) -> str | bytes:
    """PTX, a cubin, AMDGCN or an hsaco for LLVM IR text or a translation."""
    if target is None:
        raise TileoptError(f"--emit={emit} needs a GPU: give --arch (e.g. sm_90a or gfx942)")
    if emit in ("ptx", "cubin"):
        ptx = llvm_ir_to_ptx(llvm_ir, target, level, fp_fusion=fp_fusion, filename=filename)
        if emit == "ptx":
            return ptx
        from tileopt.target.ptxas import PtxasError, assemble
        try:
            return assemble(ptx, target.arch)
        except PtxasError as err:
            raise TileoptError(str(err), filename) from None
    if emit == "amdgcn":
        return llvm_ir_to_amdgcn(llvm_ir, target, level, filename=filename, fp_fusion=fp_fusion)
    return llvm_ir_to_hsaco(llvm_ir, target, level, filename=filename, fp_fusion=fp_fusion)
