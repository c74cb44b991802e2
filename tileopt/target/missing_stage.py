"""What to tell someone who hands the back end Triton IR: which pipeline stages it still
needs before it is the LLVM dialect (issue 16: ``'tt.func' cannot be translated`` said
nothing about why)."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation

from tileopt.dialects.triton_version import module_version
from tileopt.pipelines.loader import pipelines_for_target

_TRITON_DIALECTS = ("tt.", "ttg.", "ttng.", "amdg.")


def not_llvm_dialect_message(op: Operation, module: ModuleOp) -> str:
    """The diagnostic for ``op``, at module level, that is neither an ``llvm.func`` nor an
    ``llvm.mlir.global``."""
    generic = (f"'{op.name}' cannot be translated to LLVM IR (only llvm.func and "
               "llvm.mlir.global may be at module level)")
    if not op.name.startswith(_TRITON_DIALECTS):
        return generic
    # A TTGIR module carries its warps (convert-triton-to-tritongpu sets them); TTIR not.
    ttgir = "ttg.num-warps" in module.attributes
    kind, missing, start = (("TritonGPU IR (TTGIR)", "the 'llir' stage is", "llir") if ttgir
                            else ("Triton IR (TTIR)", "the 'ttgir' and 'llir' stages are",
                                  "ttgir"))
    target = module.attributes.get("ttg.target")
    names = []
    if isinstance(target, StringAttr) and ":" in target.data:
        names = pipelines_for_target(*target.data.split(":", 1), module_version(module))
    pipeline = names[0] if len(names) == 1 else "PIPELINE"
    hint = f"tileopt --pass-pipeline={pipeline} --start-at={start} FILE"
    if pipeline == "PIPELINE":
        hint += " (PIPELINE: see tileopt --list-pipelines)"
    return (f"the input is {kind}, not the LLVM dialect yet: {missing} missing; run "
            f"{hint} first ('{op.name}' cannot be translated to LLVM IR)")
