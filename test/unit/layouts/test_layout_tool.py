"""The ``tileopt-layout`` tool and the text/picture views behind it."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from tileopt.layout_cli import main
from tileopt.layouts.encodings import Blocked, SwizzledShared, to_linear_layout
from tileopt.layouts.views import element_holders, hardware_view, tensor_view

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"


def run(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_tensor_view_names_every_holder():
    layout = to_linear_layout(Blocked([1, 4], [8, 4], [4, 1], [1, 0]), [16, 16])
    rows = tensor_view(layout, [16, 16]).splitlines()
    assert len(rows) == 16
    cells = [c.strip() for c in rows[0].strip("[] ").split(",")]
    # Row 0: thread 0 holds columns 0..3 in registers 0..3, thread 1 the next four; warp 2
    # (threads 64..) holds a copy because the tensor has half the tile's rows.
    assert cells[:5] == ["T0:0| T64:0", "T0:1| T64:1", "T0:2| T64:2", "T0:3| T64:3", "T1:0| T65:0"]
    assert rows[8].lstrip(" [").startswith("T32:0| T96:0")
    holders = element_holders(layout)
    assert sorted(len(h) for h in holders.values()) == [2] * 256


def test_hardware_view_lists_each_lane():
    layout = to_linear_layout(Blocked([1, 4], [8, 4], [4, 1], [1, 0]), [32, 16])
    lines = hardware_view(layout, [32, 16]).splitlines()
    assert lines[0] == "Warp0:"
    assert re.findall(r"\([^)]*\)", lines[1])[:5] == ["( 0, 0)", "( 0, 4)", "( 0, 8)", "( 0,12)", "( 1, 0)"]
    assert lines[2].startswith("( 0, 1), ")
    assert lines[5] == "Warp1:"


def test_shared_views_show_offsets():
    layout = to_linear_layout(SwizzledShared(2, 1, 4, [1, 0]), [4, 8])
    rows = tensor_view(layout, [4, 8]).splitlines()
    # Row 1 has phase 1: its 2-element chunks are swapped pairwise.
    assert [c.strip() for c in rows[1].strip("[] ").split(",")] == ["O10", "O11", "O8", "O9", "O14", "O15", "O12", "O13"]
    assert hardware_view(layout, [4, 8]).splitlines()[8] == "Offset  8: (1,2)"


def test_cli_prints_header_and_table():
    code, out = run("-l", BLOCKED, "-t", "tensor<16x16xf16>")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"Layout: {BLOCKED}"
    assert lines[1] == "Tensor: 16x16xf16"
    assert lines[2] == "registers per thread: 4, threads per warp: 32, warps: 4, copies of each element: 2"
    assert lines[3].startswith("[[  T0:0| T64:0,")
    assert len(lines) == 3 + 16


def test_cli_hw_view_and_bases():
    code, out = run("-l", BLOCKED, "-t", "32x16", "--view", "hw", "--show-bases")
    assert code == 0
    assert " - register=1 -> (0, 1)" in out and "Warp3:" in out


def test_cli_aliases_from_a_file(corpus):
    path = corpus / "cuda-sm80" / "matmul.ttgir"
    code, out = run("-i", str(path), "-l", "#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>", "-t", "tensor<32x32xf16>")
    assert code == 0 and "Tensor: 32x32xf16" in out
    code, out = run("-i", str(path), "-t", "tensor<128x64xf16>", "--alias-names", "shared")
    assert code == 0 and out.startswith("Layout: #shared\n") and "offsets: 8192" in out


@pytest.mark.parametrize(
    "args,message",
    [
        (["-l", "#ttg.blocked<{}>", "-t", "tensor<4x4xf32>"], "needs 'sizePerThread'"),
        (["-l", BLOCKED, "-t", "tensor<16x16x16xf32>"], "rank 2 used with a tensor of rank 3"),
        (["-l", BLOCKED, "-t", "tensor<12x16xf32>"], "not a power of two"),
        (["-l", BLOCKED, "-t", "tensor<16x16xf16>", "--num-warps", "8"], "4 warps but --num-warps is 8"),
        (["-l", BLOCKED, "-t", "tensor<16x16xf16>", "--threads-per-warp", "64"], "--threads-per-warp is 64"),
        (["-l", BLOCKED], "give the tensor type"),
        (["-t", "tensor<4xf32>"], "give a layout"),
        (["-l", BLOCKED, "-t", "vector<4xf32>"], "expected a tensor type"),
        (["-i", "/nonexistent/file.mlir", "-t", "tensor<4xf32>"], "cannot read"),
    ],
)
def test_cli_errors_are_one_line(args, message):
    code, out = run(*args)
    assert code == 1
    assert out.count("\n") == 1 and out.startswith("tileopt-layout: error: ") and message in out


def test_cli_png(tmp_path):
    pytest.importorskip("PIL")
    from PIL import Image

    png = tmp_path / "mma.png"
    mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
    code, _ = run("-l", mma, "-t", "tensor<32x32xf16>", "--png", str(png))
    assert code == 0
    image = Image.open(png).convert("RGB")
    width, height = image.size
    assert width > 32 * 20 and height > 32 * 10
    # Warps 0 and 1 share the top 16 rows (8 columns each), warps 2 and 3 the bottom ones:
    # one sample inside each gets four different colours.
    samples = {image.getpixel((int(width * x), int(height * y))) for x in (0.1, 0.35) for y in (0.4, 0.85)}
    assert len(samples) == 4


def test_runs_as_a_module():
    done = subprocess.run(
        [sys.executable, "-m", "tileopt.layout_cli", "-l", BLOCKED, "-t", "tensor<8x16xf16>"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0 and done.stdout.startswith("Layout: ")


def test_layouts_package_does_not_import_xdsl():
    code = (
        "import sys; sys.modules['xdsl'] = None\n"
        "import tileopt.layouts.linear_layout, tileopt.layouts.encodings, tileopt.layouts.tiling\n"
        "import tileopt.layouts.views, tileopt.layouts.picture\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
