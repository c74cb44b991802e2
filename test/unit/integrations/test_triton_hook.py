"""The Triton hook (tileopt/integrations/triton.py) and the driver's library API it uses.

The stage swapping, the metadata, the fallbacks and the cache keys are checked with stand-ins
for Triton's stage functions and options (no Triton needed): the corpus's Triton IR goes in,
tileopt's texts must come out, with the metadata Triton 3.6 recorded for the same kernel in
the corpus's ``.json``. Where Triton 3.6 is installed, ``triton.compile`` runs for real
(CPU only: Triton compiles for ``cuda:90`` without a GPU, ptxas included).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import tileopt
from tileopt.driver.library import load_pipeline, run_stages
from tileopt.integrations import triton as hook
from tileopt.ir import TileoptError

REPO = Path(__file__).resolve().parents[3]


@dataclass(frozen=True)
class Options:
    """The fields of Triton's CUDAOptions the hook reads."""

    num_warps: int = 4
    num_ctas: int = 1
    num_stages: int = 3
    enable_fp_fusion: bool = True
    maxnreg: int | None = None
    extern_libs: tuple = ()


class Module:
    """Stands for Triton's ``ir.module``: the hook only prints it."""

    def __init__(self, text: str):
        self.text = text

    def __str__(self) -> str:
        return self.text


@dataclass
class TritonStages:
    """Triton's stage functions, recording which ran; ``cubin_fails`` makes ptxas fail once."""

    calls: list[str] = field(default_factory=list)
    cubin_fails: bool = False

    def make(self) -> dict:
        def stage(name):
            def run(src, metadata):
                self.calls.append(name)
                if name == "cubin" and self.cubin_fails:
                    self.cubin_fails = False
                    raise RuntimeError("`ptxas` failed with error code 255\nmore")
                return f"triton-{name}({src if isinstance(src, str) else 'module'})"
            return run
        return {name: stage(name) for name in ("ttir", "ttgir", "llir", "ptx", "cubin")}


def _compile(text: str, *, options=Options(), stages=None, pipeline="nvidia-sm90",
             fallback=True, capability=90, first="ttir", language_ok=True):
    stages = stages or TritonStages()
    kernel = hook.KernelCompile(stages.make(), options, capability,
                                hook._Settings(pipeline, fallback),
                                language_ok=language_ok)
    metadata: dict = {"num_warps": options.num_warps}
    outputs = {}
    src = Module(text)
    for name in hook.STAGES[hook.STAGES.index(first):] + ("cubin",):
        src = kernel.run(name, src, metadata)
        outputs[name] = src
    return kernel, outputs, metadata, stages


def _corpus_kernel(corpus: Path, name: str) -> tuple[str, dict]:
    return ((corpus / "cuda-sm90" / f"{name}.ttir").read_text(),
            json.loads((corpus / "cuda-sm90" / f"{name}.json").read_text()))


@pytest.mark.parametrize("name", ["softmax", "transpose", "cumsum"])
def test_tileopt_texts_and_triton_metadata(corpus, name):
    text, expected = _corpus_kernel(corpus, name)
    kernel, outputs, metadata, stages = _compile(
        text, options=Options(num_warps=expected["num_warps"]))
    assert kernel.record.compiled_by == "tileopt", kernel.record.reason
    assert stages.calls == ["cubin"]  # Triton ran ptxas only
    assert f"tt.func public @{expected['name']}" in outputs["ttir"]
    assert "#ttg.blocked" not in outputs["ttir"]
    assert "#ttg.blocked" in outputs["ttgir"]
    assert f"define ptx_kernel void @{expected['name']}(" in outputs["llir"]
    assert f".visible .entry {expected['name']}(" in outputs["ptx"]
    assert outputs["cubin"] == f"triton-cubin({outputs['ptx']})"
    # What Triton 3.6 recorded for the same kernel.
    for key in ("name", "num_warps", "num_ctas", "shared"):
        assert metadata[key] == expected[key], key
    assert metadata["global_scratch_size"] == metadata["profile_scratch_size"] == 0
    assert metadata["tensordesc_meta"] == []


def test_a_ttgir_input_starts_at_the_ttgir_stage(corpus):
    # Triton compiling a .ttir file skips its ttir stage: the hook then starts there.
    text, expected = _corpus_kernel(corpus, "softmax")
    kernel, outputs, metadata, _ = _compile(text, first="ttgir")
    assert kernel.record.compiled_by == "tileopt"
    assert "ttir" not in outputs and metadata["shared"] == expected["shared"]


def test_num_warps_reaches_the_pipeline(corpus):
    text, _ = _corpus_kernel(corpus, "softmax")
    _, outputs, metadata, _ = _compile(text, options=Options(num_warps=8))
    assert metadata["num_warps"] == 8
    assert '"ttg.num-warps" = 8' in outputs["ttgir"]
    assert ".reqntid 256" in outputs["ptx"]


def test_a_kernel_tileopt_cannot_read_is_compiled_by_triton():
    bad = 'module {\n  tt.func public @k() {\n    "tt.no_such_op"() : () -> ()\n' \
          '    tt.return\n  }\n}\n'
    kernel, outputs, metadata, stages = _compile(bad)
    record = kernel.record
    assert (record.compiled_by, record.failed_at, record.name) == ("triton", "pipeline", "k")
    assert record.reason.startswith("k.ttir:3:5: error:")
    assert stages.calls == ["ttir", "ttgir", "llir", "ptx", "cubin"]
    assert outputs["cubin"].startswith("triton-cubin(")
    assert "name" not in metadata or metadata["name"] != "k"  # nothing of tileopt's leaked
    assert kernel.recorded


def test_ptxas_failure_reruns_triton_from_the_untouched_module(corpus):
    text, _ = _corpus_kernel(corpus, "softmax")
    kernel, outputs, _, stages = _compile(text, stages=TritonStages(cubin_fails=True))
    record = kernel.record
    assert (record.compiled_by, record.failed_at) == ("triton", "ptxas")
    assert record.reason == "RuntimeError: `ptxas` failed with error code 255"
    # ptxas on tileopt's PTX, then Triton's whole pipeline from the frontend module.
    assert stages.calls == ["cubin", "ttir", "ttgir", "llir", "ptx", "cubin"]
    assert outputs["cubin"] == "triton-cubin(triton-ptx(triton-llir(triton-ttgir(" \
                               "triton-ttir(module)))))"


def test_without_fallback_the_error_is_raised():
    with pytest.raises(TileoptError, match="unknown"):
        _compile('module {\n  "tt.no_such_op"() : () -> ()\n}\n', fallback=False)


def test_a_pipeline_that_stops_early_falls_back(tmp_path, corpus):
    short = tmp_path / "short.yaml"
    short.write_text("name: short\nstages:\n  ttir:\n    - canonicalize\n")
    text, _ = _corpus_kernel(corpus, "add")
    kernel, _, _, _ = _compile(text, pipeline=str(short))
    assert kernel.record.compiled_by == "triton"
    assert "stops before the LLVM dialect" in kernel.record.reason


@pytest.mark.parametrize("change, reason", [
    (dict(capability=75), "no tileopt pipeline for sm_75"),
    (dict(language_ok=False), "Gluon"),
    (dict(options=Options(maxnreg=128)), "maxnreg"),
    (dict(first="ptx"), "starts at ptx"),
])
def test_kernels_the_hook_leaves_to_triton(corpus, change, reason):
    text, _ = _corpus_kernel(corpus, "add")
    kernel, _, _, stages = _compile(text, pipeline=None, **change)
    assert kernel.record.compiled_by == "triton" and kernel.record.failed_at == "hook"
    assert reason in kernel.record.reason
    assert stages.calls[-1] == "cubin" and kernel.record.seconds == 0.0


def test_use_refuses_another_cache_manager(monkeypatch):
    monkeypatch.setenv("TRITON_CACHE_MANAGER", "mine:Manager")
    monkeypatch.delenv(hook.ENV_PIPELINE, raising=False)
    with pytest.raises(TileoptError, match="already set to 'mine:Manager'"):
        hook.use("nvidia-sm90")
    assert hook.ENV_PIPELINE not in os.environ  # nothing was changed


def test_default_pipeline_by_capability():
    assert [hook.default_pipeline(c) for c in (90, 89, 80, 75, 100)] == \
        ["nvidia-sm90", "nvidia-sm80", "nvidia-sm80", None, None]


def test_salted_cache_keys():
    key = "A" * 52
    salted = hook.salted_key(key, "nvidia-sm90")
    assert len(salted) == 52 and salted.isalnum() and salted != key
    assert salted == hook.salted_key(key, "nvidia-sm90")
    assert salted != hook.salted_key(key, "nvidia-sm80")
    assert salted != hook.salted_key("B" * 52, "nvidia-sm90")


def test_salted_key_follows_a_yaml_files_contents(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("name: p\n")
    first = hook.salted_key("A" * 52, str(path))
    path.write_text("name: p\n# changed\n")
    assert hook.salted_key("A" * 52, str(path)) != first


def test_failing_inputs_are_dumped(tmp_path, monkeypatch):
    monkeypatch.setenv(hook.ENV_DUMP, str(tmp_path / "failed"))
    bad = 'module {\n  tt.func public @bad() {\n    "x.y"() : () -> ()\n  }\n}\n'
    _compile(bad)
    [dumped] = (tmp_path / "failed").iterdir()
    assert dumped.name.startswith("bad-") and dumped.name.endswith(".ttir.mlir")
    assert dumped.read_text() == bad


def test_log_lines(tmp_path, monkeypatch):
    log = tmp_path / "log.jsonl"
    monkeypatch.setenv(hook.ENV_LOG, str(log))
    kernel, _, _, _ = _compile('module {\n  tt.func public @bad() {\n    "x.y"() : () -> ()\n'
                               '  }\n}\n')
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["name"], e["compiled_by"], e["pid"]) for e in lines] == \
        [("bad", "triton", os.getpid())]
    # records() reads every process's lines, past other lines and a line cut short.
    other = dict(lines[0], name="from_a_worker", compiled_by="tileopt", pid=1)
    with log.open("a") as out:
        out.write(json.dumps({"model": "m"}) + "\n" + json.dumps(other) + "\n{\"name\": ")
    assert [(r.name, r.pid) for r in hook.records()] == [("bad", os.getpid()),
                                                         ("from_a_worker", 1)]


# The library API --------------------------------------------------------------------

def test_load_pipeline_sets_only_declared_parameters():
    pipeline = load_pipeline("nvidia-sm90", {"num-warps": 8, "not-a-parameter": 1})
    assert "num-warps=8" in pipeline.text()


def test_parameters_written_in_the_spec_win():
    pipeline = load_pipeline("nvidia-sm90{num-warps=2}", {"num-warps": 8})
    assert "num-warps=2" in pipeline.text() and "num-warps=8" not in pipeline.text()


@pytest.mark.parametrize("spec, message", [
    ("nvidia-sm90{bogus=1}", "has no parameter 'bogus'"),
    ("builtin.module(cse)", "is not a YAML pipeline"),
    ("no-such-pipeline-anywhere", "unknown pipeline .* nvidia-sm90"),
])
def test_load_pipeline_errors(spec, message):
    with pytest.raises(TileoptError, match=message):
        load_pipeline(spec)


def test_run_stages_from_a_later_stage(corpus):
    text = (corpus / "cuda-sm90" / "softmax.ttgir").read_text()
    run = run_stages(text, load_pipeline("nvidia-sm90"), filename="softmax.ttgir",
                     start_at="llir")
    assert list(run.texts) == ["llir"] and "llvm.func" in run.texts["llir"]


# Triton stays optional --------------------------------------------------------------

def test_only_the_integrations_import_triton_or_torch():
    package = Path(tileopt.__file__).parent
    offenders = []
    for path in package.rglob("*.py"):
        if "integrations" in path.relative_to(package).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level \
                else []
            offenders += [f"{path.name}: {n}" for n in names
                          if n.split(".")[0] in ("triton", "torch")]
    assert offenders == []


def test_the_hook_module_imports_without_triton():
    code = ("import sys; sys.modules['triton'] = None\n"
            "import tileopt.integrations.triton as h\n"
            "print(h.default_pipeline(90))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "nvidia-sm90"


# With Triton 3.6 installed: the real thing, on the CPU ------------------------------

TRITON_KERNELS = '''
import triton
import triton.language as tl


@triton.jit
def scale_rows(out, inp, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(inp + row * n + offs, mask=offs < n, other=0.0)
    tl.store(out + row * n + offs, x / tl.sum(x * x, 0), mask=offs < n)
'''

SIGNATURE = {"out": "*fp32", "inp": "*fp32", "n": "i32", "BLOCK": "constexpr"}


def _triton():
    triton = pytest.importorskip("triton", reason="Triton is not installed (optional)")
    if not triton.__version__.startswith("3.6"):
        pytest.skip(f"the hook targets Triton 3.6, this is {triton.__version__}")
    return triton


@pytest.fixture
def kernels_module(tmp_path, monkeypatch):
    _triton()
    (tmp_path / "hook_kernels.py").write_text(TRITON_KERNELS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "cache"))
    import importlib
    return importlib.import_module("hook_kernels")


def test_triton_compile_through_the_hook(kernels_module, monkeypatch):
    triton = _triton()
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    monkeypatch.setattr(hook, "_records", [])
    try:
        hook.use("nvidia-sm90")
        src = ASTSource(kernels_module.scale_rows, SIGNATURE, constexprs={"BLOCK": 256})
        compiled = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                                  options={"num_warps": 2})
        again = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                               options={"num_warps": 2})
    finally:
        hook.stop()
    [record] = hook.records()  # the second compile was a cache hit
    assert record.compiled_by == "tileopt", record.reason
    assert (compiled.name, compiled.metadata.num_warps) == ("scale_rows", 2)
    assert compiled.metadata.shared == record.shared
    assert compiled.asm["ptx"] == again.asm["ptx"]
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    # The PTX Triton assembled is tileopt's.
    outputs, _ = hook.compile_text(compiled.asm["ttir"], "nvidia-sm90", "ttgir",
                                   {"num-warps": 2})
    assert compiled.asm["ptx"] == outputs["ptx"]


def test_environment_alone_reaches_a_fresh_process(kernels_module, tmp_path):
    _triton()
    log = tmp_path / "log.jsonl"
    code = ("import hook_kernels, triton\n"
            "from triton.backends.compiler import GPUTarget\n"
            "from triton.compiler import ASTSource\n"
            f"src = ASTSource(hook_kernels.scale_rows, {SIGNATURE!r}, "
            "constexprs={'BLOCK': 128})\n"
            "print(triton.compile(src, target=GPUTarget('cuda', 90, 32)).name)\n")
    env = dict(os.environ, TRITON_CACHE_MANAGER=hook.CACHE_MANAGER,
               TILEOPT_TRITON_PIPELINE="nvidia-sm90", TILEOPT_TRITON_LOG=str(log),
               PYTHONPATH=os.pathsep.join([str(tmp_path), str(REPO)]))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    [entry] = [json.loads(line) for line in log.read_text().splitlines()]
    assert (entry["name"], entry["compiled_by"]) == ("scale_rows", "tileopt")
