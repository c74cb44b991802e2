"""Make the Triton 3.6 reproducer and pipeline texts kept next to this script.

Run with a Python that has ``triton==3.6.0`` installed (a CPU is enough; no GPU is used)::

    python make_triton_reproducer.py ../shared/corpus test/inputs/reproducer

1. ``triton-ttir-to-llvm.repro.mlir``: Triton's pass manager, from its Python bindings, runs
   ``convert-triton-gpu-to-llvm`` on the corpus's ``cuda-sm90/add.ttir`` (TTIR: the
   TritonGPU stage was skipped), with ``TRITON_REPRODUCER_PATH`` set. The pass fails and
   Triton writes MLIR's local reproducer: the pass's input and the pass as its pipeline.
2. ``triton-3.6-pipelines.txt``: the pipeline of each pass manager ``triton.compile`` runs
   for the corpus's ``matmul`` kernel on cuda:80, cuda:90 and hip:gfx942, as Triton prints
   it (every option of every pass spelled out, as in the reproducers it writes).
"""

import importlib.util
import os
import shutil
import sys
import tempfile

os.environ["TRITON_ALWAYS_COMPILE"] = "1"  # a cached kernel runs no pass manager
import triton  # noqa: E402
from triton._C.libtriton import ir, nvidia  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402


def write_reproducer(corpus: str, out_dir: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TRITON_REPRODUCER_PATH"] = os.path.join(tmp, "repro.mlir")
        ctx = ir.context()
        ir.load_dialects(ctx)
        nvidia.load_dialects(ctx)
        module = ir.parse_mlir_module(os.path.join(corpus, "cuda-sm90", "add.ttir"), ctx)
        manager = ir.pass_manager(ctx)
        manager.enable_debug()
        nvidia.passes.ttgpuir.add_to_llvmir(manager, 90, 84)
        try:
            manager.run(module, "make_llir")
            raise SystemExit("the pass was expected to fail")
        except RuntimeError:
            pass
        del os.environ["TRITON_REPRODUCER_PATH"]
        # Triton 3.6 names the file <TRITON_REPRODUCER_PATH>.<stage>.repro.mlir
        shutil.copy(os.path.join(tmp, "repro.mlir.make_llir.repro.mlir"),
                    os.path.join(out_dir, "triton-ttir-to-llvm.repro.mlir"))


def write_pipelines(corpus: str, out_dir: str) -> None:
    spec = importlib.util.spec_from_file_location("kernels", os.path.join(corpus, "kernels.py"))
    kernels = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kernels)
    seen: list[str] = []
    run = ir.pass_manager.run

    def recording_run(self, module, *args):
        seen.append(self.get_pipeline_str())
        return run(self, module, *args)

    ir.pass_manager.run = recording_run
    kernel = kernels.KERNELS["matmul"]
    signature = dict(kernel["sig"], **{name: "constexpr" for name in kernel["const"]})
    attrs = {(list(signature).index(name),): [["tt.divisibility", 16]] for name in kernel["div"]}
    for target in (GPUTarget("cuda", 80, 32), GPUTarget("cuda", 90, 32),
                   GPUTarget("hip", "gfx942", 64)):
        source = ASTSource(fn=kernel["fn"], signature=signature, constexprs=kernel["const"],
                           attrs=attrs)
        try:
            triton.compile(source, target=target, options=kernel.get("opts", {}))
        except Exception as err:  # the assembler stages may need tools a CPU box lacks
            print(f"{target}: stopped after the MLIR stages ({type(err).__name__})",
                  file=sys.stderr)
    ir.pass_manager.run = run
    with open(os.path.join(out_dir, "triton-3.6-pipelines.txt"), "w") as out:
        out.write("\n".join(seen) + "\n")


if __name__ == "__main__":
    corpus_dir, output_dir = sys.argv[1], sys.argv[2]
    write_reproducer(corpus_dir, output_dir)
    write_pipelines(corpus_dir, output_dir)
