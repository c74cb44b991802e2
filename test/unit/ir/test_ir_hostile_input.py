"""Issue 13's reproducers, run through the ``tileopt`` command under a time limit.

A stray ``"`` made tileopt hang (exponential backtracking in xDSL's string rule) and an
attribute typed ``i99999999999`` made it take all the machine's memory. Each must now end
with one clean ``file:line:col: error:`` line, exit status 1, in a few seconds. The runs
are subprocesses with a time limit (and, where the platform allows, a memory limit), so
a regression fails this test instead of hanging the test run or the machine.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tileopt.ir import TileoptError, parse_module
from tileopt.ir.parse import MAX_INTEGER_WIDTH

try:
    import resource
except ImportError:  # not on Windows
    resource = None

TILEOPT = Path(sys.executable).parent / "tileopt"
LIT_FILE = Path(__file__).resolve().parents[2] / "lit" / "ir" / "hostile-input.mlir"
TIME_LIMIT = 5.0
MEMORY_LIMIT = 2 << 30
# One diagnostic: its line, then the source line and a caret under the column.
ONE_ERROR = re.compile(r"^(?P<file>[^\n]*):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>[^\n]*)\n"
                       r"[^\n]*\n *\^\n$")
ERRORS = re.compile(r"(?:[^\n]*:\d+:\d+: error: [^\n]*\n[^\n]*\n *\^\n)+")


def _excerpt(path: Path, line: int, col: int) -> str:
    text = path.read_text().splitlines()[line - 1]
    return f"{text}\n{' ' * (col - 1)}^\n"


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _tileopt(*args: str) -> tuple[subprocess.CompletedProcess, float]:
    if not TILEOPT.exists():
        pytest.skip("the tileopt command is not installed beside this Python")
    start = time.perf_counter()
    try:
        done = subprocess.run([str(TILEOPT), *args], capture_output=True, text=True,
                              timeout=TIME_LIMIT, check=False,
                              preexec_fn=_limit_memory if resource else None)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tileopt {' '.join(args)} still running after {TIME_LIMIT} s")
    return done, time.perf_counter() - start


def _mutate(source: Path, old: str, new: str, target: Path) -> Path:
    text = source.read_text()
    assert text.count(old) == 1, f"{old!r} is not once in {source}"
    target.write_text(text.replace(old, new))
    return target


def test_stray_quote_in_corpus_file(corpus: Path, tmp_path: Path):
    path = _mutate(corpus / "hip-gfx1100" / "gelu.ttgir",
                   "%2 = arith.cmpf ogt, %x_8, %cst", '%2 = arith.cmpf ogt, %x_8", %cst',
                   tmp_path / "gelu.ttgir")
    done, elapsed = _tileopt(str(path))
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert ONE_ERROR.match(done.stderr), done.stderr
    assert done.stderr == (f"{path}:34:30: error: expected '\"' in string literal\n"
                           + _excerpt(path, 34, 30))
    assert elapsed < TIME_LIMIT


def test_wide_integer_type_in_corpus_file(corpus: Path, tmp_path: Path):
    old = "%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}"
    path = _mutate(corpus / "hip-gfx942" / "add.ttir", old,
                   old.replace("i32", "i99999999999"), tmp_path / "add.ttir")
    done, elapsed = _tileopt(str(path), "--pass-pipeline=amd-cdna3")
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert done.stderr == (f"{path}:7:75: error: integer bitwidth is limited to 16777215 "
                           "bits\n" + _excerpt(path, 7, 75))
    assert elapsed < TIME_LIMIT


def test_lit_file_under_a_time_limit():
    """lit has no time limit here (it needs psutil): run the lit file's parts this way."""
    done, elapsed = _tileopt("--split-input-file", str(LIT_FILE))
    assert done.returncode == 1
    errors = [line for line in done.stderr.splitlines() if ": error: " in line]
    assert len(errors) == LIT_FILE.read_text().count("// -----") + 1, done.stderr
    assert ERRORS.fullmatch(done.stderr), done.stderr
    assert elapsed < TIME_LIMIT


def test_stray_quote_as_first_token(tmp_path: Path):
    """The first token is lexed by tileopt's lexer too (xDSL's constructor lexes it)."""
    path = tmp_path / "first.mlir"
    path.write_text('"' + "x, %cst : tensor<1024xf32, #blocked> loc(#loc20) " * 4 + "\n")
    done, elapsed = _tileopt(str(path))
    assert done.returncode == 1
    assert elapsed < TIME_LIMIT


@pytest.mark.parametrize("spelling", ["i", "si", "ui"])
def test_integer_width_limit(spelling: str):
    widest = f"{spelling}{MAX_INTEGER_WIDTH}"
    module = parse_module(f"func.func private @f(%a: {widest}, %b: {spelling}01)")
    assert widest in str(module)
    for width in (MAX_INTEGER_WIDTH + 1, 99999999999, "9" * 5000, "0" * 20 + "16777216"):
        text = f"func.func private @f(%a: tensor<4x{spelling}{width}>)"
        with pytest.raises(TileoptError) as err:
            parse_module(text, "w.mlir")
        assert err.value.format() == (
            "w.mlir:1:35: error: integer bitwidth is limited to 16777215 bits")
