"""``translate``, the entry point of ``tileopt-translate``, on Triton's real LLVM-dialect IR.

The inputs are the last LLVM-dialect dump of Triton's own pipeline for each kernel (what
Triton's ``make_llir`` hands to LLVM). The PTX must assemble with ptxas and keep Triton's
kernel signature and line table; the AMD output must link into an hsaco.
"""

from __future__ import annotations

import re
import struct
import subprocess

import pytest

from tileopt.ir import TileoptError
from tileopt.target import llvm_backend, parse_arch, translate
from tileopt.target.amdgpu import find_lld
from tileopt.target.gpu_target import GPUTarget
from tileopt.target.ptxas import find_ptxas


def last_llvm_dialect_dump(passes_root, target: str, kernel: str):
    folder = passes_root / target / "passes" / kernel
    dumps = sorted(p for p in folder.iterdir() if p.suffix == ".mlir")
    return dumps[-1]


def entry_signature(ptx: str) -> str:
    return re.search(r"\.visible \.entry .*?\)\s*(\.reqntid \d+)?", ptx, re.S).group(0)


@pytest.mark.parametrize("target,arch", [("cuda-sm80", "sm_80"), ("cuda-sm90", "sm_90a")])
@pytest.mark.parametrize("kernel", ["add", "softmax", "matmul_small", "gelu"])
def test_triton_llvm_dialect_to_ptx(passes_root, corpus, tmp_path, target, arch, kernel):
    dump = last_llvm_dialect_dump(passes_root, target, kernel)
    ptx = translate(dump.read_text(), "ptx", arch, str(dump))
    triton = (corpus / target / f"{kernel}.ptx").read_text()
    assert re.search(rf"^\.target {arch}$", ptx, re.M)
    assert entry_signature(ptx) == entry_signature(triton)
    lines = lambda text: {m.group(1) for m in re.finditer(r"\.loc\s+1 (\d+) ", text)}
    # LLVM 22.1's -O3 may fold away an instruction Triton's LLVM kept, never add a line.
    assert lines(ptx) <= lines(triton) and len(lines(ptx)) >= len(lines(triton)) - 2
    if ptxas := find_ptxas():
        path = tmp_path / "k.ptx"
        path.write_text(ptx)
        result = subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "k.o")],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


def test_arch_comes_from_ttg_target(passes_root):
    dump = last_llvm_dialect_dump(passes_root, "cuda-sm90", "add")
    assert 'ttg.target = "cuda:90"' in dump.read_text()
    ptx = translate(dump.read_text(), "ptx", None, str(dump))
    assert re.search(r"^\.target sm_90a$", ptx, re.M)


@pytest.mark.parametrize("target", ["hip-gfx942", "hip-gfx1100"])
@pytest.mark.parametrize("kernel", ["add", "softmax", "matmul_small"])
def test_triton_llvm_dialect_to_amdgcn(passes_root, corpus, target, kernel):
    dump = last_llvm_dialect_dump(passes_root, target, kernel)
    arch = target.split("-")[1]
    asm = translate(dump.read_text(), "amdgcn", arch, str(dump))
    triton = (corpus / target / f"{kernel}.amdgcn").read_text()
    for key in ("kernarg_segment_size", "wavefront_size", "max_flat_workgroup_size"):
        ours = re.search(rf"\.{key}:\s+(\d+)", asm).group(1)
        assert ours == re.search(rf"\.{key}:\s+(\d+)", triton).group(1), key


def _has_lld() -> bool:
    try:
        find_lld()
        return True
    except TileoptError:
        return False


@pytest.mark.skipif(not _has_lld(), reason="no ld.lld (pip install ziglang)")
def test_triton_llvm_dialect_to_hsaco(passes_root):
    dump = last_llvm_dialect_dump(passes_root, "hip-gfx942", "add")
    hsaco = translate(dump.read_text(), "hsaco", "gfx942", str(dump))
    assert hsaco[:4] == b"\x7fELF"
    assert struct.unpack_from("<HH", hsaco, 16) == (3, 224)  # ET_DYN, EM_AMDGPU


def test_llvm_ir_input_is_compiled_as_is(corpus):
    llir = (corpus / "cuda-sm90" / "add.llir").read_text()
    assert translate(llir, "ptx", "sm_90a") == translate(llir, "ptx", "sm_90a", opt_level=0)
    reprinted = translate(llir, "llvm-ir")
    assert "define ptx_kernel void @add_kernel" in reprinted


# --------------------------------------------------------------------------- errors

SIMPLE = """module {
  llvm.func @k() attributes {nvvm.kernel} {
    llvm.return
  }
}"""


def test_emit_needs_a_gpu():
    with pytest.raises(TileoptError, match="needs a GPU: give --arch"):
        translate(SIMPLE, "ptx")


def test_ptx_for_an_amd_gpu_is_refused():
    with pytest.raises(TileoptError, match="PTX is for NVIDIA GPUs"):
        translate(SIMPLE, "ptx", "gfx942")


def test_unknown_emit_kind():
    with pytest.raises(TileoptError, match="unknown output kind 'spirv'"):
        translate(SIMPLE, "spirv", "sm_90a")


def test_op_without_translation_is_reported_at_its_location():
    text = """module {
  llvm.func @k(%a: i32) {
    %0 = "test.unknown"(%a) : (i32) -> i32 loc("kern.py":7:3)
    llvm.return
  }
}"""
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.parser import Parser

    from tileopt.target import translation_context

    ctx = translation_context()
    ctx.allow_unregistered = True
    module = Parser(ctx, text).parse_module()
    assert isinstance(module, ModuleOp)
    with pytest.raises(TileoptError) as info:
        translate(module, "llvm-ir")
    assert info.value.format() == (
        "kern.py:7:3: error: cannot translate 'test.unknown' to LLVM IR: no translation for this op")


@pytest.mark.parametrize("emit", ["llvm-ir", "ptx"])
def test_type_mismatch_is_an_error_not_a_traceback(emit):
    # For code too, where the LLVM worker is the first to parse the translation.
    text = """module {
  llvm.func @k(%a: i32, %p: !llvm.ptr<1>) {
    %0 = llvm.bitcast %a : i32 to i64 loc("kern.py":3:9)
    llvm.store %0, %p : i64, !llvm.ptr<1>
    llvm.return
  }
}"""
    with pytest.raises(TileoptError) as info:
        translate(text, emit, "sm_80")
    assert info.value.format() == ("kern.py:3:9: error: LLVM rejects the translation of "
                                   "'llvm.bitcast': invalid cast opcode for cast from 'i32' to 'i64'")


def test_invalid_llvm_ir_points_at_the_line():
    text = "; ModuleID = 'x'\ndefine void @f() {\n  %1 = add i32 1, %nothing\n  ret void\n}\n"
    with pytest.raises(TileoptError) as info:
        translate(text, "ptx", "sm_80", "bad.ll")
    assert (info.value.file, info.value.line) == ("bad.ll", 3)


def test_unknown_intrinsic_is_caught_before_code_generation():
    text = ("declare i32 @llvm.nvvm.no.such.thing(i32)\n"
            "define ptx_kernel void @k(ptr addrspace(1) %p) {\n"
            "  %x = call i32 @llvm.nvvm.no.such.thing(i32 1)\n"
            "  store i32 %x, ptr addrspace(1) %p\n  ret void\n}\n")
    with pytest.raises(TileoptError, match=r"unknown LLVM intrinsic: @llvm\.nvvm\.no\.such\.thing"):
        translate(text, "ptx", "sm_90a")


def _with_debug_info(version: int, body: str = "  ret void, !dbg !6") -> str:
    return ("define void @f() !dbg !3 {\n" + body + "\n}\n"
            "!llvm.module.flags = !{!0}\n!llvm.dbg.cu = !{!1}\n"
            f'!0 = !{{i32 2, !"Debug Info Version", i32 {version}}}\n'
            "!1 = distinct !DICompileUnit(language: DW_LANG_C, file: !2, emissionKind: FullDebug)\n"
            '!2 = !DIFile(filename: "k.py", directory: "")\n'
            '!3 = distinct !DISubprogram(name: "f", scope: !2, file: !2, line: 1, type: !4, '
            "spFlags: DISPFlagDefinition, unit: !1)\n"
            "!4 = !DISubroutineType(types: !5)\n!5 = !{}\n"
            "!6 = !DILocation(line: 2, column: 1, scope: !3)\n")


def test_debug_info_upgrade_is_skipped_only_for_current_debug_info():
    # LLVM's parser drops debug info of an older version (its upgrade); text known to carry
    # the current version skips the upgrade, and the next parse of other text upgrades again.
    old = _with_debug_info(2)
    assert "!dbg" not in str(llvm_backend.parse(old))
    assert "!dbg" in str(llvm_backend.parse(old, current_debug_info=True))
    assert "!dbg" not in str(llvm_backend.parse(old))
    assert "!dbg" in str(llvm_backend.parse(_with_debug_info(3)))


def test_invalid_ir_with_current_debug_info_is_an_error():
    # The upgrade would verify it and abort; without it, verify reports the problem.
    text = _with_debug_info(3, "  %x = add i32 %x, 1, !dbg !6\n  ret void, !dbg !6")
    with pytest.raises(TileoptError, match="does not verify"):
        llvm_backend.parse(text, "k.ll", current_debug_info=True)


def test_instruction_selection_failure_does_not_kill_the_process():
    """wgmma exists only on sm_90a: LLVM aborts in instruction selection for sm_80."""
    text = """module {
  llvm.func @k() attributes {nvvm.kernel} {
    nvvm.wgmma.fence.aligned
    llvm.return
  }
}"""
    with pytest.raises(TileoptError, match="Cannot select: intrinsic %llvm.nvvm.wgmma.fence"):
        translate(text, "ptx", "sm_80")
    assert "wgmma.fence.sync.aligned" in translate(text, "ptx", "sm_90a")


def test_missing_lld_explains_how_to_get_one(monkeypatch):
    import tileopt.target.amdgpu as amdgpu

    monkeypatch.delenv("TILEOPT_LLD", raising=False)
    monkeypatch.setattr(amdgpu.shutil, "which", lambda name: None)
    monkeypatch.setattr(amdgpu, "_ROCM_LLD", amdgpu.Path("/nonexistent/ld.lld"))
    monkeypatch.setattr(amdgpu.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(TileoptError, match="pip install ziglang"):
        find_lld()


# --------------------------------------------------------------------------- architectures


@pytest.mark.parametrize("text,vendor,arch,features", [
    ("sm_90a", "nvidia", "sm_90a", "+ptx87"),
    ("sm80", "nvidia", "sm_80", "+ptx87"),
    ("cuda:90", "nvidia", "sm_90a", "+ptx87"),
    ("cuda:80", "nvidia", "sm_80", "+ptx87"),
    ("gfx942", "amd", "gfx942", ""),
    ("hip:gfx1100", "amd", "gfx1100", ""),
    ("gfx942:sramecc+:xnack-", "amd", "gfx942", "+sramecc,-xnack"),
])
def test_parse_arch(text, vendor, arch, features):
    target = parse_arch(text)
    assert (target.vendor, target.arch, target.features) == (vendor, arch, features)


def test_wave_sizes():
    assert parse_arch("gfx942").warp_size == 64
    assert parse_arch("gfx1100").warp_size == 32
    assert parse_arch("sm_80").warp_size == 32


def test_unknown_arch():
    with pytest.raises(TileoptError, match="unknown GPU architecture 'pentium'"):
        parse_arch("pentium")


def test_target_machines_are_kept_per_target_and_level(corpus):
    machine = llvm_backend.target_machine(parse_arch("sm_90a"))
    assert llvm_backend.target_machine(parse_arch("sm_90a")) is machine
    assert llvm_backend.target_machine(parse_arch("sm_80")) is not machine
    assert llvm_backend.target_machine(parse_arch("sm_90a"), 0) is not machine
    # A kept machine compiles a module as a new one does, whatever it compiled before.
    add, softmax = ((corpus / "hip-gfx942" / f"{k}.llir").read_text() for k in ("add", "softmax"))
    first = translate(add, "amdgcn", "gfx942", opt_level=3)
    translate(softmax, "amdgcn", "gfx942", opt_level=3)
    assert translate(add, "amdgcn", "gfx942", opt_level=3) == first
    # A processor LLVM does not know is refused at every use, never kept.
    for _ in range(2):
        with pytest.raises(TileoptError, match="unknown GPU architecture 'gfx9000'"):
            llvm_backend.target_machine(GPUTarget("amd", "gfx9000"))


def test_fp_fusion_off_keeps_separate_rounding(corpus):
    """Triton's ``enable_fp_fusion=False``: adds are ``add.rn`` (never fused into an fma)."""
    llir = (corpus / "cuda-sm90" / "add.llir").read_text()
    assert "add.rn.f32" not in translate(llir, "ptx", "sm_90a")
    assert "add.rn.f32" in translate(llir, "ptx", "sm_90a", fp_fusion=False)


def test_debug_flag_removal_is_the_regex_over_the_whole_ptx():
    # The windowed scan must give what Triton's regex gives over the whole text.
    import random

    from tileopt.target.nvptx import _DEBUG_FLAG, without_debug_flag

    pieces = [",", " ", "\n", "\t", "\u2003", "debug", "d", "ebug", "x", "debug,", ", debug"]
    rng = random.Random(14)
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert without_debug_flag(text) == re.sub(_DEBUG_FLAG, "", text), repr(text)
    assert without_debug_flag(".target sm_80, debug\n.section .debug_info {\n") == \
        ".target sm_80\n.section .debug_info {\n"
