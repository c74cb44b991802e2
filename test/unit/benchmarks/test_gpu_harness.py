"""The pure-Python parts of the GPU benchmark harness (benchmarks/gpu/): how kernels are
called (PTX entries, parameters from the corpus .json, grids), the float64 references at
small sizes against values worked out by hand, and the error measure. The GPU parts skip
cleanly where there is no PyTorch or no GPU."""

from __future__ import annotations

import ctypes
import json
import math
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tileopt.target.ptxas import find_ptxas

HARNESS = Path(__file__).resolve().parents[3] / "benchmarks" / "gpu"
sys.path.insert(0, str(HARNESS))

from array_ops import Array, ListOps, _round_to, max_relative_error  # noqa: E402
from cuda_driver import pack_parameters  # noqa: E402
from cuda_driver import DriverError  # noqa: E402
from run import error_limit, load_reading_ptx_version  # noqa: E402
from kernel_abi import AbiError, KernelMeta, evaluate_grid, kernel_parameters, parse_entry  # noqa: E402
from problems import (  # noqa: E402
    ALL_PROBLEMS,
    DOT_CASES,
    HAND_WRITTEN,
    KERNELS,
    MATMUL_SIZES,
    PROBLEMS,
    Problem,
    gelu_reference,
    layernorm_reference,
    matmul_tolerance,
    softmax_reference,
)

TARGETS = ("cuda-sm80", "cuda-sm90")

ADD_PTX = """
.version 8.7
.target sm_90a
.address_size 64
.extern .shared .align 16 .b8 global_smem[];
.visible .entry add_kernel(
	.param .u64 .ptr .global .align 1 add_kernel_param_0,
	.param .u64 .ptr .global .align 1 add_kernel_param_1,
	.param .u64 .ptr .global .align 1 add_kernel_param_2,
	.param .u32 add_kernel_param_3,
	.param .u64 .ptr .global .align 1 add_kernel_param_4,
	.param .u64 .ptr .global .align 1 add_kernel_param_5
)
.reqntid 128
{
	ret;
}
"""

ADD_META = KernelMeta("add_kernel", 4, 0, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32",
                                           "n": "i32"}, {"BLOCK": 1024}, "cdiv(n, 1024)",
                      divisible_by_16=("x_ptr", "y_ptr", "out_ptr", "n"))


# ------------------------------------------------------------------ calling convention


def test_parse_entry():
    entry = parse_entry(ADD_PTX)
    assert entry.name == "add_kernel"
    assert entry.param_types == ("u64", "u64", "u64", "u32", "u64", "u64")
    assert entry.reqntid == 128
    with pytest.raises(AbiError):
        parse_entry(".version 8.7\n.target sm_90a\n")


def test_parameters_follow_the_signature_then_null_scratch_pointers():
    values = {"x_ptr": 0x1000, "y_ptr": 0x2000, "out_ptr": 0x3000, "n": 1 << 26}
    params = kernel_parameters(ADD_META, parse_entry(ADD_PTX), values)
    assert params == [("u64", 0x1000), ("u64", 0x2000), ("u64", 0x3000), ("i32", 1 << 26),
                      ("u64", 0), ("u64", 0)]
    # Tensors go in by address.
    params = kernel_parameters(ADD_META, parse_entry(ADD_PTX),
                               {**values, "x_ptr": "X"}, address_of=lambda t: 0xAB0 if t == "X" else t)
    assert params[0] == ("u64", 0xAB0)
    # The first added pointer is the global scratch (TMA descriptors), the second null.
    params = kernel_parameters(ADD_META, parse_entry(ADD_PTX), values, scratch=0x9000)
    assert params[-2:] == [("u64", 0x9000), ("u64", 0)]


def test_parameter_mismatches_are_reported():
    entry = parse_entry(ADD_PTX)
    with pytest.raises(AbiError, match="no value"):
        kernel_parameters(ADD_META, entry, {"x_ptr": 16, "y_ptr": 32, "out_ptr": 48})
    wrong = KernelMeta("add_kernel", 4, 0, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32",
                                            "n": "fp32"}, {}, "1")
    with pytest.raises(AbiError, match="declares .u32"):
        kernel_parameters(wrong, entry, {"x_ptr": 1, "y_ptr": 2, "out_ptr": 3, "n": 1.0})
    too_many = KernelMeta("k", 4, 0, {f"p{i}": "*fp32" for i in range(7)}, {}, "1")
    with pytest.raises(AbiError, match="takes 6 parameters"):
        kernel_parameters(too_many, entry, {f"p{i}": 0 for i in range(7)})


def test_divisibility_the_kernel_was_compiled_for_is_enforced():
    entry = parse_entry(ADD_PTX)
    good = {"x_ptr": 0x1000, "y_ptr": 0x2000, "out_ptr": 0x3000, "n": 4096}
    kernel_parameters(ADD_META, entry, good)
    with pytest.raises(AbiError, match="multiple of 16"):
        kernel_parameters(ADD_META, entry, {**good, "n": 4100})
    with pytest.raises(AbiError, match="16-byte aligned"):
        kernel_parameters(ADD_META, entry, {**good, "y_ptr": 0x2004})


def test_packed_parameters_point_at_their_values():
    array, keep = pack_parameters([("u64", 0x1234), ("i32", -5), ("f32", 1.5)])
    assert ctypes.cast(array[0], ctypes.POINTER(ctypes.c_uint64)).contents.value == 0x1234
    assert ctypes.cast(array[1], ctypes.POINTER(ctypes.c_int32)).contents.value == -5
    assert ctypes.cast(array[2], ctypes.POINTER(ctypes.c_float)).contents.value == 1.5
    assert len(keep) == 3


def test_grid_expressions():
    assert evaluate_grid("cdiv(n, 1024)", {"n": 1 << 26}) == (65536, 1, 1)
    assert evaluate_grid("cdiv(n, 1024)", {"n": 1025}) == (2, 1, 1)
    assert evaluate_grid("(cdiv(M,64), cdiv(N,64))", {"M": 8192, "N": 100}) == (128, 2, 1)
    assert evaluate_grid("rows", {"rows": 65536}) == (65536, 1, 1)
    assert evaluate_grid("cdiv(M,128)*cdiv(N,128)", {"M": 256, "N": 512}) == (8, 1, 1)
    with pytest.raises(AbiError):
        evaluate_grid("rows", {})
    with pytest.raises(AbiError):
        evaluate_grid("__import__('os')", {})


# ------------------------------------------------------------------ references by hand


def test_softmax_reference():
    ops = ListOps()
    out = softmax_reference(ops, ops.from_rows([[0.0, math.log(2.0)], [5.0, 5.0]], "f64"))
    assert out.shape == (2, 2)
    assert out.data == pytest.approx([1 / 3, 2 / 3, 0.5, 0.5], rel=1e-15)


def test_gelu_reference():
    ops = ListOps()
    out = gelu_reference(ops, ops.from_rows([-1.0, 0.0, 1.0, 2.0], "f64")).tolist()
    # x <= 0: sigmoid(x) * x; x > 0: x * Phi(x) (erf form)
    assert out == pytest.approx([-1 / (1 + math.e), 0.0, 0.8413447460685429, 1.9544997361036416],
                                rel=1e-14)


def test_layernorm_reference():
    ops = ListOps()
    x = ops.from_rows([[1.0, 2.0, 3.0, 4.0]], "f64")
    w = ops.from_rows([1.0, 1.0, 2.0, 1.0], "f64")
    b = ops.from_rows([0.0, 0.5, 0.0, 0.0], "f64")
    y, mean, rstd = layernorm_reference(ops, x, w, b, 0.0)
    # mean 2.5, variance (2.25 + 0.25 + 0.25 + 2.25) / 4 = 1.25
    r = 1 / math.sqrt(1.25)
    assert mean.tolist() == [2.5]
    assert rstd.tolist() == pytest.approx([r])
    assert y.shape == (1, 4)
    assert y.data == pytest.approx([-1.5 * r, -0.5 * r + 0.5, 2 * 0.5 * r, 1.5 * r])


def test_list_ops_reductions_and_shapes():
    ops = ListOps()
    x = ops.from_rows([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "f64")
    assert ops.sum(x, axis=1).tolist() == [6.0, 15.0]
    assert ops.sum(x, axis=0).tolist() == [5.0, 7.0, 9.0]
    assert ops.cumsum(x, axis=1).tolist() == [[1.0, 3.0, 6.0], [4.0, 9.0, 15.0]]
    assert ops.transpose(x).tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
    assert ops.columns(x, 1, 3).tolist() == [[2.0, 3.0], [5.0, 6.0]]
    assert ops.bincount(Array((5,), [0, 3, 3, 1, 3], "i32"), 4).tolist() == [1, 1, 0, 3]
    # f16 rounding of inputs: 1/3 is not representable.
    assert ops.from_rows([1 / 3], "f16").tolist() == [0.333251953125]


def test_max_relative_error():
    ops = ListOps()
    ref = ops.from_rows([1.0, 2.2, 0.0], "f64")
    out = ops.from_rows([1.0, 2.0, 0.0001], "f64")
    # |diff| = [0, 0.2, 1e-4]; the near-zero element is measured against 1e-3 * 2.2.
    assert max_relative_error(ops, out, ref) == pytest.approx(0.2 / 2.2)
    assert max_relative_error(ops, ops.from_rows([1.0, 2.2, math.nan], "f64"), ref) == math.inf
    assert max_relative_error(ops, ref, ref) == 0.0


@pytest.mark.parametrize("kernel", KERNELS)
def test_problems_build_at_tiny_size(kernel):
    ops = ListOps(seed=1)
    problem = PROBLEMS[kernel](ops, "tiny")
    assert problem.kernel == kernel
    for out in problem.outputs:
        buffer = problem.args[out.name]
        region = out.written(buffer) if out.written else buffer
        expected = problem.reference[out.name]
        assert region.shape == expected.shape
        if problem.exact:
            assert sum(expected.data) == problem.grid_values["n"]  # every value counted once
        else:
            assert all(v != v for v in region.data)  # poisoned with NaN
            assert all(v == v for v in expected.data)
        if out.unwritten:
            assert all(v != v for v in out.unwritten(buffer).data)
    assert problem.bytes_moved > 0


def test_reference_accepts_a_correct_float32_result():
    """A kernel that computes add in float32 passes, one that drops an element does not."""
    ops = ListOps(seed=2)
    problem = PROBLEMS["add"](ops, "tiny")
    x, y = problem.args["x_ptr"], problem.args["y_ptr"]
    result = ops.cast(x + y, "f32")
    assert max_relative_error(ops, result, problem.reference["out_ptr"]) <= problem.tolerance
    result.data[3] = math.nan
    assert max_relative_error(ops, result, problem.reference["out_ptr"]) == math.inf


# ------------------------------------------------------------------ against the corpus


@pytest.mark.parametrize("size", ["tiny", "small"])
@pytest.mark.parametrize("target", TARGETS)
def test_every_corpus_kernel_can_be_called(corpus, target, size):
    """Each problem names every runtime parameter of the kernel's .json signature, with
    values the kernel was specialised for (multiples of 16), the .json grid evaluates with
    the problem's values, and the corpus PTX takes the signature plus pointer extras."""
    ops = ListOps()
    for kernel in KERNELS:
        meta = KernelMeta.load(corpus / target / f"{kernel}.json")
        entry = parse_entry((corpus / target / f"{kernel}.ptx").read_text())
        assert entry.name == meta.name
        assert entry.reqntid == meta.threads
        problem = PROBLEMS[kernel](ops, size)
        params = kernel_parameters(meta, entry, problem.args, address_of=lambda t: 0x10000)
        assert len(params) == len(entry.param_types)
        assert len(params) - len(meta.runtime_params) == 2  # Triton 3.6's scratch pointers
        grid = evaluate_grid(meta.grid, problem.grid_values)
        assert all(g >= 1 for g in grid)


@pytest.mark.parametrize("target", TARGETS)
def test_desc_matmul_can_be_called(corpus39, target):
    """desc_matmul (corpus-3.9 only): matmul's problem fits its signature and grid."""
    meta = KernelMeta.load(corpus39 / target / "desc_matmul.json")
    entry = parse_entry((corpus39 / target / "desc_matmul.ptx").read_text())
    problem = ALL_PROBLEMS["desc_matmul"](ListOps(), "small")
    params = kernel_parameters(meta, entry, problem.args, address_of=lambda t: 0x10000,
                               scratch=0x20000)
    assert params[len(meta.runtime_params)] == ("u64", 0x20000)
    assert all(g >= 1 for g in evaluate_grid(meta.grid, problem.grid_values))


def test_full_size_grids(corpus):
    ops = ListOps()
    expected = {"add": (65536, 1, 1), "axpy_f16": (32768, 1, 1), "softmax": (65536, 1, 1),
                "layernorm_fwd": (16384, 1, 1), "sum_rows": (2048, 1, 1), "sum_cols": (256, 1, 1),
                "transpose": (128, 128, 1), "cumsum": (65536, 1, 1), "atomic_hist": (16384, 1, 1)}
    from problems import SIZES
    full = SIZES["full"]
    values = {"add": {"n": full["n"]}, "axpy_f16": {"n": full["n"]},
              "softmax": {"rows": full["rows_softmax"]}, "layernorm_fwd": {"rows": full["ln_rows"]},
              "sum_rows": {"M": full["rows_sum"], "N": full["cols_sum"]},
              "sum_cols": {"M": full["cols_sum"], "N": full["rows_sum"]},
              "transpose": {"M": full["transpose"], "N": full["transpose"]},
              "cumsum": {"rows": full["cumsum_rows"]}, "atomic_hist": {"n": full["hist_n"]}}
    for kernel, grid in expected.items():
        meta = KernelMeta.load(corpus / "cuda-sm90" / f"{kernel}.json")
        assert evaluate_grid(meta.grid, values[kernel]) == grid, kernel
    del ops


# ------------------------------------------------------------------ scripts and GPU


def test_shell_scripts_parse():
    for script in ("build.sh", "device_run.sh"):
        result = subprocess.run(["bash", "-n", str(HARNESS / script)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


def test_selftest_on_a_gpu():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA GPU")
    if not (HARNESS / "out" / "triton").is_dir():
        pytest.skip("benchmarks/gpu/out not built (run benchmarks/gpu/build.sh)")
    import run
    assert run.main(["--selftest"]) == 0


def test_selftest_ptx_assembles():
    ptxas = find_ptxas()
    if ptxas is None:
        pytest.skip("ptxas not found (nvidia-cuda-nvcc wheel or PATH)")
    import run
    import tempfile
    with tempfile.TemporaryDirectory() as work:
        source = Path(work) / "t.ptx"
        source.write_text(run.SELFTEST_PTX)
        result = subprocess.run([ptxas, "-arch=sm_80", str(source), "-o", str(Path(work) / "t.cubin")],
                                capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# ------------------------------------------------------------------ the dots


def test_matmul_reference_is_the_product():
    ops = ListOps(seed=3)
    problem = PROBLEMS["matmul"](ops, "tiny")
    a, b = problem.args["a_ptr"], problem.args["b_ptr"]
    m, k = a.shape
    n = b.shape[1]
    ref = problem.reference["c_ptr"]
    assert ref.shape == (m, n)
    assert ref.data[n + 2] == pytest.approx(sum(a.data[k + x] * b.data[x * n + 2] for x in range(k)))
    assert problem.flops == 2 * m * n * k


@pytest.mark.parametrize("name", sorted(HAND_WRITTEN))
def test_hand_written_dots_have_a_kernel_for_every_target(name):
    """Each hand-written dot problem has one .ttir (no layouts, no target) and a .json per
    target whose signature the problem fills, and its reference adds C only where the
    kernel reads it (the accumulating dot loads C; the chained dot loads it as B)."""
    ops = ListOps(seed=4)
    problem = HAND_WRITTEN[name](ops, "tiny")
    text = (HARNESS / "dots" / f"{name}.ttir").read_text()
    assert "#ttg." not in text and "ttg.target" not in text
    assert ("tt.load %c_ptrs" in text) == (DOT_CASES[name].acc or bool(DOT_CASES[name].chain_n))
    for target in TARGETS:
        path = HARNESS / "dots" / target / f"{name}.json"
        meta = KernelMeta.load(path)
        assert json.loads(path.read_text())["target"] == f"cuda:{target[-2:]}"
        assert {p for p, _ in meta.runtime_params} == set(problem.args)
        elements = {"*fp16": "f16", "*bf16": "bf16", "*fp32": "f32"}
        for param, ty in meta.runtime_params:  # the .ttir's arguments have these types
            assert f"%{param}: !tt.ptr<{elements[ty]}>" in text
        assert evaluate_grid(meta.grid, problem.grid_values) == (1, 1, 1)
    d = problem.reference["d_ptr"]
    a, b, c = (problem.args[p] for p in ("a_ptr", "b_ptr", "c_ptr"))
    k, n = a.shape[1], b.shape[1]
    first = [sum(a.data[x] * b.data[x * n + j] for x in range(k)) for j in range(n)]
    if DOT_CASES[name].chain_n:
        row = ops.cast(ops.from_rows(first, "f64"), "f16").data
        want = sum(row[j] * c.data[j * c.shape[1]] for j in range(n))
    else:
        want = first[0] + (c.data[0] if DOT_CASES[name].acc else 0.0)
    assert d.data[0] == pytest.approx(want)


# ------------------------------------------------------------------ dot tolerances
#
# A dot "kernel" simulated in Python the way the hardware rounds: inputs as the instruction
# reads them (tf32: the low 13 fraction bits dropped), every product and every sum rounded
# to f32 in turn, k ascending. Its error must stay within the problem's tolerance (the
# derivation beside DotCase.tolerance), and a dot that reads the wrong elements must not.


def _tf32(value: float) -> float:
    bits = struct.unpack("I", struct.pack("f", value))[0] & 0xFFFFE000
    return struct.unpack("f", struct.pack("I", bits))[0]


def _simulated_dot(a: Array, b: Array, c: Array | None, read=lambda v: v, a_column=None):
    (m, k), n = a.shape, b.shape[1]
    a_column = a_column or (lambda x: x)
    out = []
    for i in range(m):
        for j in range(n):
            acc = c.data[i * n + j] if c is not None else 0.0
            for x in range(k):
                product = _round_to("f32", read(a.data[i * k + a_column(x)]) * read(b.data[x * n + j]))
                acc = _round_to("f32", acc + product)
            out.append(acc)
    return Array((m, n), out, "f32")


def _dot_error(ops, problem: Problem, out: Array, scaled: bool = True) -> float:
    return max_relative_error(ops, out, problem.reference["d_ptr"],
                              problem.scale.get("d_ptr") if scaled else None)


def test_tf32_rounding_is_within_the_tf32_tolerance():
    """The GPU's 1.95e-01 on dot_tf32_64x64x32 was tf32's input rounding under the floored
    metric (an element cancelling to 1e-3 max|ref| meets the full 2^-10 error of its
    terms), not wrong elements: truncating the inputs to tf32 reproduces it."""
    ops = ListOps(seed=5)
    problem = HAND_WRITTEN["dot_tf32_64x64x32"](ops, "full")
    a, b = problem.args["a_ptr"], problem.args["b_ptr"]
    for read in (_tf32, lambda v: _tf32(v + math.copysign(abs(v) * 2.0 ** -11, v))):
        out = _simulated_dot(a, b, None, read)
        assert _dot_error(ops, problem, out) <= problem.tolerance
        assert _dot_error(ops, problem, out, scaled=False) > 2e-2  # the old verdict
    # A fragment that swaps k and k + 4 (a1/a2 confused) is far outside it.
    wrong = _simulated_dot(a, b, None, _tf32, a_column=lambda x: x ^ 4)
    assert _dot_error(ops, problem, wrong) > 100 * problem.tolerance


@pytest.mark.parametrize("name", ["dot_fma_f32_32x32x16", "dot_acc_f16_64x64x32",
                                  "dot_bf16_64x32x16"])
def test_f32_rounding_is_within_the_dot_tolerance(name):
    """dot_fma_f32 (1.23e-05) and dot_acc_f16 (2.00e-05) over the old 1e-5 were f32
    rounding on elements near the floor: a plain IEEE f32 dot reaches the same figures."""
    ops = ListOps(seed=6)
    problem = HAND_WRITTEN[name](ops, "full")
    a, b = problem.args["a_ptr"], problem.args["b_ptr"]
    c = problem.args["c_ptr"] if DOT_CASES[name].acc else None
    out = _simulated_dot(a, b, c)
    assert _dot_error(ops, problem, out) <= problem.tolerance
    wrong = _simulated_dot(a, b, c, a_column=lambda x: x ^ 1)
    assert _dot_error(ops, problem, wrong) > 100 * problem.tolerance


def test_matmul_tolerance_takes_f16_output_rounding():
    """The corpus matmul's rounding (f32 sums, f16 out) is within its tolerance; a result
    one f16 ulp off everywhere (twice the rounding) is not, at every size."""
    ops = ListOps(seed=7)
    problem = PROBLEMS["matmul"](ops, "tiny")
    a, b = problem.args["a_ptr"], problem.args["b_ptr"]
    out = ops.cast(_simulated_dot(a, b, None), "f16")
    ref, scale = problem.reference["c_ptr"], problem.scale["c_ptr"]
    assert max_relative_error(ops, out, ref, scale) <= problem.tolerance
    wrong = ops.cast(ops.from_rows([[v + math.copysign(2 * 2.0 ** -11 * abs(v), v)
                                     for v in out.data]], "f64"), "f16")
    wrong = Array(out.shape, wrong.data, "f16")
    assert max_relative_error(ops, wrong, ref, scale) > problem.tolerance
    # K = 4096: 4 K 2^-24 of accumulation and 2^-11 of output rounding.
    assert matmul_tolerance(MATMUL_SIZES["full"][2]) == pytest.approx(1.466e-3, rel=1e-3)


class _M:
    def __init__(self, error):
        self.error = error


def test_tileopt_is_held_to_tritons_error_on_the_same_inputs():
    assert error_limit(1e-3, "tileopt", _M(2e-3)) == pytest.approx(2.5e-3)
    assert error_limit(1e-3, "tileopt", _M(1e-4)) == 1e-3
    assert error_limit(1e-3, "tileopt", _M(math.nan)) == 1e-3
    assert error_limit(1e-3, "tileopt", None) == 1e-3
    assert error_limit(1e-3, "triton", _M(2e-3)) == 1e-3


class _DriverReadingUpTo:
    """A driver stand-in that refuses PTX whose ``.version`` is past ``newest``, as
    cuModuleLoadData does, and otherwise loads it (keeping the text it was given)."""

    def __init__(self, newest):
        self.newest, self.loaded = newest, []

    def load_module(self, ptx):
        version = tuple(int(x) for x in ptx.split(".version ")[1].split()[0].split("."))
        if version > self.newest:
            raise DriverError("cuModuleLoadData failed: CUDA_ERROR_UNSUPPORTED_PTX_VERSION")
        self.loaded.append(ptx)
        return len(self.loaded)

    def get_function(self, module, name):
        return name

    def attribute(self, function, which):
        return 0


def test_ptx_too_new_for_the_driver_is_read_under_the_newest_version_it_takes():
    ptx = "//\n.version 9.4\n.target sm_90a\n.visible .entry k()\n{\n}\n"
    driver = _DriverReadingUpTo((9, 0))
    kernel, note = load_reading_ptx_version(driver, ptx, "k", 0)
    assert note == "PTX .version 9.4 loaded as 9.0 (driver)"
    assert driver.loaded == [ptx.replace(".version 9.4", ".version 9.0")]
    # A version the driver reads is loaded as written, without a note.
    driver = _DriverReadingUpTo((9, 4))
    assert load_reading_ptx_version(driver, ptx, "k", 0)[1] == ""
    assert driver.loaded == [ptx]


def test_other_load_failures_are_not_retried():
    class Refusing(_DriverReadingUpTo):
        def load_module(self, ptx):
            raise DriverError("cuModuleLoadData failed: CUDA_ERROR_INVALID_PTX")
    with pytest.raises(DriverError, match="INVALID_PTX"):
        load_reading_ptx_version(Refusing((9, 0)), ".version 9.4\n", "k", 0)
