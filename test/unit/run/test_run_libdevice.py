"""libdevice run from its own bitcode (linked into the kernel as NVPTX code generation
links it), and what its bodies need of tileopt-run: ``__nvvm_reflect``, NVVM's arithmetic
intrinsics in every rounding mode, and inline PTX arithmetic with the carry flag. Expected
values: numpy float64 (libdevice's functions, within a few ulps), or worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from tileopt.ir import TileoptError
from tileopt.run.launch import compile_source, run_kernel
from tileopt.target.nvptx import find_libdevice

HEAD = """target triple = "nvptx64-nvidia-cuda"
@.ftz = private unnamed_addr constant [11 x i8] c"__CUDA_FTZ\\00", align 1
@.arch = private unnamed_addr constant [12 x i8] c"__CUDA_ARCH\\00", align 1
@.other = private unnamed_addr constant [6 x i8] c"OTHER\\00", align 1
"""
TAIL = """
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @__nvvm_reflect(ptr)
attributes #0 = {{ "nvvm.reqntid"="128" }}
!llvm.module.flags = !{{!0}}
!0 = !{{i32 4, !"nvvm-reflect-ftz", i32 {ftz}}}
"""


def kernel(body: str, declare: str = "", ftz: int = 1, params: str =
           "ptr addrspace(1) %x, ptr addrspace(1) %out") -> str:
    return (HEAD + declare + f"\ndefine ptx_kernel void @k({params}) #0 {{\nentry:\n"
            "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
            "  %px = getelementptr float, ptr addrspace(1) %x, i32 %t\n"
            "  %po = getelementptr float, ptr addrspace(1) %out, i32 %t\n"
            f"{body}\n  ret void\n}}\n" + TAIL.format(ftz=ftz))


def run(text: str, *arrays):
    return run_kernel(compile_source(text, "k.ll"), list(arrays), (1,))


def unary(fn: str, x: np.ndarray, ftz: int = 1) -> np.ndarray:
    text = kernel(f"""  %a = load float, ptr addrspace(1) %px, align 4
  %r = call float @{fn}(float %a)
  store float %r, ptr addrspace(1) %po, align 4""", f"declare float @{fn}(float)", ftz)
    return run(text, x.astype(np.float32), np.zeros(128, np.float32)).outputs[1]


def ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|got - want| in units of the f32 spacing at want."""
    w = want.astype(np.float32)
    return np.abs(got.astype(np.float64) - want) / np.spacing(np.abs(w)).astype(np.float64)


needs_libdevice = pytest.mark.skipif(find_libdevice() is None,
                                     reason="libdevice.10.bc is not installed "
                                            "(pip install -e '.[test]' brings it)")
RNG = np.random.default_rng(18)


@needs_libdevice
@pytest.mark.parametrize("fn, ref, x, tol", [
    ("__nv_expf", np.exp, RNG.uniform(-80, 80, 128), 2),
    ("__nv_tanhf", np.tanh, RNG.uniform(-10, 10, 128), 2),
    ("__nv_rsqrtf", lambda v: 1 / np.sqrt(v), RNG.uniform(1e-3, 1e6, 128), 2),
    ("__nv_log10f", np.log10, RNG.uniform(1e-6, 1e6, 128), 2),
    # small arguments (Cody-Waite reduction) and, from 105615 on, libdevice's
    # Payne-Hanek reduction: a local array, a global table and mad.cc/madc asm
    ("__nv_sinf", np.sin, np.concatenate([RNG.uniform(-50, 50, 96),
                                          RNG.uniform(2e5, 1e30, 32)]), 2),
    ("__nv_cosf", np.cos, np.concatenate([RNG.uniform(-50, 50, 96),
                                          -RNG.uniform(2e5, 1e30, 32)]), 2),
])
def test_libdevice_functions_within_their_ulps(fn, ref, x, tol):
    x = x.astype(np.float32)
    got = unary(fn, x)
    want = ref(x.astype(np.float64))
    assert ulps(got, want).max() <= tol


@needs_libdevice
def test_powf_with_two_arguments():
    x = RNG.uniform(0.01, 20, 128).astype(np.float32)
    text = kernel("""  %a = load float, ptr addrspace(1) %px, align 4
  %r = call float @__nv_powf(float %a, float 2.500000e+00)
  store float %r, ptr addrspace(1) %po, align 4""", "declare float @__nv_powf(float, float)")
    got = run(text, x, np.zeros(128, np.float32)).outputs[1]
    assert ulps(got, x.astype(np.float64) ** 2.5).max() <= 2


@needs_libdevice
def test_the_ftz_flag_reaches_libdevice():
    # __nv_fabsf of a subnormal: flushed to zero under nvvm-reflect-ftz = 1, kept under 0
    x = np.full(128, 1e-40, np.float32)
    assert (unary("__nv_fabsf", x, ftz=1) == 0).all()
    assert (unary("__nv_fabsf", x, ftz=0) == np.float32(1e-40)).all()


def test_reflect_answers_as_nvvm_reflect():
    text = kernel("""  %f = call i32 @__nvvm_reflect(ptr @.ftz)
  %a = call i32 @__nvvm_reflect(ptr @.arch)
  %o = call i32 @__nvvm_reflect(ptr @.other)
  %s1 = mul i32 %a, 10
  %s2 = add i32 %s1, %f
  %s3 = mul i32 %o, 1000
  %s = add i32 %s2, %s3
  %pi = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %s, ptr addrspace(1) %pi, align 4""")
    compiled = compile_source(text.replace('target triple', 'target triple'), "k.ll",
                              arch="sm_80")
    got = run_kernel(compiled, [np.zeros(128, np.float32), np.zeros(128, np.int32)], (1,))
    assert (got.outputs[1] == 800 * 10 + 1).all()   # __CUDA_ARCH 800, __CUDA_FTZ 1, else 0


def test_a_missing_libdevice_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv("TILEOPT_LIBDEVICE", str(tmp_path / "nowhere.bc"))
    with pytest.raises(TileoptError, match=r"calls libdevice functions \(__nv_expf\) but "
                                           r"TILEOPT_LIBDEVICE=.*nowhere.bc is not a file"):
        compile_source(kernel("", "declare float @__nv_expf(float)"), "k.ll")


# ------------------------------------------------------------------ NVVM arithmetic intrinsics

def intrinsic(call: str, ret: str, args: str, *arrays):
    """One call per thread of ``llvm.nvvm.<call>`` on the loaded operands ``args``."""
    loads, names = [], []
    for k, (ty, arr) in enumerate(zip(args.split(","), arrays)):
        ty = ty.strip()
        loads.append(f"  %p{k} = getelementptr {ty}, ptr addrspace(1) %in{k}, i32 %t\n"
                     f"  %a{k} = load {ty}, ptr addrspace(1) %p{k}, align 4")
        names.append(f"{ty} %a{k}")
    params = ", ".join(f"ptr addrspace(1) %in{k}" for k in range(len(arrays)))
    text = (HEAD + f"declare {ret} @llvm.nvvm.{call}({args})\n"
            f"define ptx_kernel void @k({params}, ptr addrspace(1) %out) #0 {{\nentry:\n"
            "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n" + "\n".join(loads) +
            f"\n  %r = call {ret} @llvm.nvvm.{call}({', '.join(names)})\n"
            f"  %po = getelementptr {ret}, ptr addrspace(1) %out, i32 %t\n"
            f"  store {ret} %r, ptr addrspace(1) %po\n  ret void\n}}\n" + TAIL.format(ftz=1))
    out_type = {"float": np.float32, "double": np.float64, "i32": np.int32, "i64": np.int64}[ret]
    full = [np.resize(a, 128) for a in arrays]
    return run(text, *full, np.zeros(128, out_type)).outputs[len(arrays)][:len(arrays[0])]


F = np.float32


def test_fma_in_each_rounding_mode():
    # (1 + 2^-23)(1 + 2^-23) - 3 * 2^-24 = 1 + 2^-24 + 2^-46: just past halfway between 1
    # and the next f32, 1 + 2^-23; (1 + 2^-23)(1 - 2^-24) = 1 + 2^-24 - 2^-47: just short
    a = np.array([1 + 2 ** -23] * 2, F)
    b = np.array([1 + 2 ** -23, 1 - 2 ** -24], F)
    c = np.array([-3 * 2 ** -24, 0], F)
    up = F(1 + 2 ** -23)
    for mode, want in (("rn", [up, 1]), ("rz", [1, 1]), ("rm", [1, 1]), ("rp", [up, up])):
        got = intrinsic(f"fma.{mode}.f", "float", "float, float, float", a, b, c)
        assert list(got) == [F(w) for w in want], mode


def test_add_and_mul_directed_and_ftz():
    one, tiny = np.array([1, -1], F), np.array([2 ** -30, 2 ** -30], F)
    # 1 + 2^-30 and -1 + 2^-30: up gives the next f32 above each, toward zero the first
    # one's 1 and the second one's -(1 - 2^-24)
    assert list(intrinsic("add.rp.f", "float", "float, float", one, tiny)) == \
        [np.nextafter(F(1), F(2)), np.nextafter(F(-1), F(0))]
    assert list(intrinsic("add.rz.f", "float", "float, float", one, tiny)) == \
        [F(1), np.nextafter(F(-1), F(0))]
    sub = np.array([1e-39, -1e-39], F)      # subnormal: flushed to zero of its sign
    got = intrinsic("mul.rn.ftz.f", "float", "float, float", sub, np.array([1, 1], F))
    assert list(got) == [0, 0] and list(np.signbit(got)) == [False, True]
    assert intrinsic("mul.rn.f", "float", "float, float", sub, np.array([1, 1], F))[0] == sub[0]


def test_division_and_square_root_are_correctly_rounded():
    x = RNG.uniform(0.5, 2, 64).astype(F)
    y = RNG.uniform(0.5, 2, 64).astype(F)
    want = (x.astype(np.float64) / y).astype(F)   # double then single: no tie at 24 bits
    assert (intrinsic("div.rn.f", "float", "float, float", x, y) == want).all()
    assert (intrinsic("sqrt.rn.f", "float", "float", x) == np.sqrt(x.astype(np.float64)).astype(F)).all()
    # the nearest f32 to 1/3 is above it (0x3EAAAAAB): up is the same, down the one before
    three = np.array([3], F)
    assert intrinsic("rcp.rn.f", "float", "float", three)[0].view(np.uint32) == 0x3EAAAAAB
    assert intrinsic("rcp.rp.f", "float", "float", three)[0].view(np.uint32) == 0x3EAAAAAB
    assert intrinsic("rcp.rm.f", "float", "float", three)[0].view(np.uint32) == 0x3EAAAAAA


@pytest.mark.parametrize("call, ret, arg, x, want", [
    ("f2i.rn", "i32", "float", [2.5, 3.5, -2.5, np.nan, 3e9, -3e9], [2, 4, -2, 0, 2 ** 31 - 1, -2 ** 31]),
    ("f2i.rz", "i32", "float", [2.7, -2.7], [2, -2]),
    ("f2i.rm", "i32", "float", [2.7, -2.2], [2, -3]),
    ("f2ui.rz", "i32", "float", [-1.0, 3e9, 5e9], [0, np.int32(np.uint32(3_000_000_000).view(np.int32)), -1]),
    ("round.f", "float", "float", [2.5, 3.5, -0.5], [2, 4, -0.0]),   # cvt.rni: ties to even
    ("trunc.f", "float", "float", [-2.7], [-2]),
    ("saturate.f", "float", "float", [-1, 0.25, 7, np.nan], [0, 0.25, 1, 0]),
    ("fmax.f", "float", "float, float", None, None),
])
def test_conversions_and_rounding_functions(call, ret, arg, x, want):
    if x is None:  # a NaN operand gives the other one
        got = intrinsic(call, ret, arg, np.array([np.nan, 1], F), np.array([2, np.nan], F))
        assert list(got) == [2, 1]
        return
    got = intrinsic(call, ret, arg, np.array(x, F))
    assert list(got) == list(np.array(want, got.dtype))


def test_saturating_forms_and_unknown_modifiers():
    got = intrinsic("fma.rn.sat.f", "float", "float, float, float", np.array([2, -2], F),
                    np.array([2, 2], F), np.array([0, 0], F))
    assert list(got) == [1, 0]
    with pytest.raises(TileoptError, match=r"call to '@llvm\.nvvm\.fma\.rn\.relu\.f' is not "
                                           r"supported"):
        intrinsic("fma.rn.relu.f", "float", "float, float, float", *[np.ones(1, F)] * 3)


def test_double_words():
    d = np.array([1.5, -2.0 ** 70], np.float64)
    bits = d.view(np.uint64)
    hi = intrinsic("d2i.hi", "i32", "double", d)
    lo = intrinsic("d2i.lo", "i32", "double", d)
    assert list(hi.view(np.uint32)) == list((bits >> np.uint64(32)).astype(np.uint32))
    assert list(lo.view(np.uint32)) == list(bits.astype(np.uint32))
    back = intrinsic("lohi.i2d", "double", "i32, i32", lo, hi)
    assert list(back) == list(d)


def test_int_to_float_in_each_mode():
    big = np.array([2 ** 24 + 1, -(2 ** 24 + 1)], np.int32)   # between two f32 values
    assert list(intrinsic("i2f.rn", "float", "i32", big)) == [2 ** 24, -2 ** 24]
    assert list(intrinsic("i2f.rp", "float", "i32", big)) == [2 ** 24 + 2, -2 ** 24]
    assert list(intrinsic("i2f.rm", "float", "i32", big)) == [2 ** 24, -2 ** 24 - 2]


# ------------------------------------------------------------------ inline PTX arithmetic

def asm(text: str, constraints: str, ret: str, args: list[tuple[str, object]]):
    operands = ", ".join(f"{ty} {v}" for ty, v in args)
    esc = text.replace("\n", "\\0A\\09")
    body = (f'  %r = call {ret} asm sideeffect "{esc}", "{constraints}"({operands})\n'
            f"  %po = getelementptr {ret}, ptr addrspace(1) %out, i32 %t\n"
            f"  store {ret} %r, ptr addrspace(1) %po\n  ret void")
    text = (HEAD + "define ptx_kernel void @k(ptr addrspace(1) %out) #0 {\nentry:\n"
            "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n" + body + "\n}\n" +
            TAIL.format(ftz=1))
    out = {"i32": np.int32, "i64": np.int64, "float": np.float32, "i16": np.int16}[ret]
    return run(text, np.zeros(128, out)).outputs[0][0]


def test_a_carry_chain_gives_the_64_bit_product():
    # libdevice's 32 x 64 -> 96-bit step: lo(a*b) + c with carry, then hi(a*b) + carry
    a, b, c = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFF
    lo = asm("{\nmad.lo.cc.u32 $0, $1, $2, $3;\nmadc.hi.u32 $0, $1, $2, 0;\n}", "=r,r,r,r",
             "i32", [("i32", -1), ("i32", -2), ("i32", -1)])
    assert int(np.uint32(lo.view(np.uint32))) == ((a * b) >> 32) + ((a * b % 2 ** 32 + c) >> 32)


def test_named_registers_and_packing_moves():
    # 64-bit (2^32 + 3) * 5 through declared registers, unpacked and repacked
    got = asm("{\n.reg .u32 lo, hi;\nmov.b64 {lo, hi}, $1;\nmul.lo.u32 lo, lo, 5;\n"
              "mul.lo.u32 hi, hi, 5;\nmov.b64 $0, {lo, hi};\n}", "=l,l", "i64",
              [("i64", 2 ** 32 + 3)])
    assert got == 5 * 2 ** 32 + 15


def test_subtract_with_borrow_across_words():
    # (2^32 + 0) - 1 as two words: the borrow of the low word reaches the high word
    got = asm("{\n.reg .u32 r0, r1;\nsub.cc.u32 r0, 0, 1;\nsubc.u32 r1, 1, 0;\n"
              "mov.b64 $0, {r0, r1};\n}", "=l", "i64", [])
    assert got == 2 ** 32 - 1


def test_setp_selp_bfind_and_float_asm():
    assert asm("{ .reg .pred p;\nsetp.equ.f32 p, $1, $1;\nselp.u32 $0, 7, 9, p;\n}",
               "=r,f", "i32", [("float", "0x7FF8000000000000")]) == 7   # unordered: NaN
    assert asm("{ .reg .pred p;\nsetp.eq.f32 p, $1, $1;\nselp.u32 $0, 7, 9, p;\n}",
               "=r,f", "i32", [("float", "0x7FF8000000000000")]) == 9   # ordered: false
    assert asm("bfind.shiftamt.u32 $0, $1;", "=r,r", "i32", [("i32", 4096)]) == 19
    assert asm("bfind.u32 $0, $1;", "=r,r", "i32", [("i32", 0)]) == -1
    assert asm("sub.rn.f32 $0, $1, $2;", "=f,f,f", "float",
               [("float", "1.0"), ("float", "0.25")]) == F(0.75)
    assert asm("rcp.approx.ftz.f32 $0, $1;", "=f,f", "float", [("float", "4.0")]) == F(0.25)


@pytest.mark.parametrize("kind, x, code", [
    ("e4m3x2", 1.0, 0x38), ("e4m3x2", -2.0, 0xC0), ("e4m3x2", 448.0, 0x7E),
    ("e4m3x2", 1e6, 0x7E),            # satfinite: the largest finite value
    ("e4m3x2", 1.0625, 0x38), ("e4m3x2", 1.1875, 0x3A),   # ties to the even code
    ("e4m3x2", 2.0 ** -9, 0x01), ("e4m3x2", "0x7FF8000000000000", 0x7F),
    ("e5m2x2", 1.0, 0x3C), ("e5m2x2", 57344.0, 0x7B), ("e5m2x2", -1e6, 0xFB),
])
def test_fp8_conversions_in_pairs(kind, x, code):
    value = x if isinstance(x, str) else repr(float(x)) if abs(x) < 1e5 else f"{x:e}"
    pair = asm(f"cvt.rn.satfinite.{kind}.f32 $0, $1, $2;", "=h,f,f", "i16",
               [("float", "1.0"), ("float", value)])
    one = {"e4m3x2": 0x38, "e5m2x2": 0x3C}[kind]
    assert int(np.uint16(pair.view(np.uint16))) == (one << 8) | code   # a high, b low
    back = asm(f"cvt.rn.f16x2.{kind} $0, $1;", "=r,h", "i32", [("i16", (one << 8) | code)])
    halves = np.array([back], np.int32).view(np.float16)
    assert halves[1] == 1.0
    if code & 0x7F != 0x7F:
        expect = np.clip(float(x) if not isinstance(x, str) else 0, -57344, 57344)
        limit = 448 if kind == "e4m3x2" else 57344
        expect = np.clip(expect, -limit, limit)
        assert abs(float(halves[0]) - expect) <= abs(expect) / 8
