"""Input splitting keeps file line numbers; output is atomic and only on success."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tileopt.driver.input import read_input, split_input
from tileopt.driver.output import write_output
from tileopt.ir import TileoptError

TEXT = "a\nb\n// -----\nc\n// ----- trailing words\n\nd\n"


def test_no_split_is_one_chunk():
    (chunk,) = split_input(TEXT, split=False)
    assert chunk.text == TEXT and chunk.first_line == 1


def test_split_chunks_and_their_first_lines():
    chunks = split_input(TEXT, split=True)
    assert [c.text for c in chunks] == ["a\nb\n", "c\n", "\nd\n"]
    assert [c.first_line for c in chunks] == [1, 4, 6]
    # Padding puts every chunk's text on its lines of the whole file.
    for chunk in chunks:
        padded = chunk.padded_text().split("\n")
        original = TEXT.split("\n")
        for offset, line in enumerate(chunk.text.split("\n")[:-1]):
            assert padded[chunk.first_line - 1 + offset] == line
            assert original[chunk.first_line - 1 + offset] == line


def test_marker_must_start_a_line():
    assert len(split_input("x // ----- y\n", split=True)) == 1


def test_read_missing_file(tmp_path):
    with pytest.raises(TileoptError, match="could not open input file .*: no such file"):
        read_input(str(tmp_path / "absent.mlir"))
    with pytest.raises(TileoptError, match="is a directory"):
        read_input(str(tmp_path))


def test_write_replaces_atomically(tmp_path):
    target = tmp_path / "out.mlir"
    target.write_text("old")
    write_output("new text", str(target))
    assert target.read_text() == "new text"
    assert os.listdir(tmp_path) == ["out.mlir"]  # no temporary left behind
    mode = target.stat().st_mode & 0o777
    assert mode & 0o600 == 0o600


def test_write_bytes(tmp_path):
    target = tmp_path / "k.hsaco"
    write_output(b"\x7fELF", str(target))
    assert target.read_bytes() == b"\x7fELF"


def test_write_into_missing_directory_is_an_error(tmp_path):
    with pytest.raises(TileoptError, match="cannot write output file"):
        write_output("x", str(tmp_path / "no" / "such" / "dir.mlir"))


def test_devices_are_written_not_replaced(tmp_path):
    write_output("ignored", os.devnull)
    assert not os.path.isfile(os.devnull)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    import threading

    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    write_output("through a pipe", str(fifo))
    reader.join(timeout=10)
    assert received == ["through a pipe"]
    assert not fifo.is_file()


def test_write_keeps_mode_and_follows_symlink(tmp_path):
    # As LLVM's tools: an existing output keeps its permissions, and a symbolic link is
    # written through (the file it names changes, the link stays a link).
    real = tmp_path / "real.mlir"
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "link.mlir"
    link.symlink_to("real.mlir")
    write_output("new", str(link))
    assert link.is_symlink() and real.read_text() == "new"
    assert (real.stat().st_mode & 0o777) == 0o640


def test_non_utf8_input_has_a_position(tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_bytes(b"module {\n  \"x\xff\"\n}\n")
    with pytest.raises(TileoptError) as err:
        read_input(str(path))
    assert err.value.format().endswith("bad.mlir:2:5: error: input is not UTF-8 text (byte 0xff)")


# The two tools end with one clean line, exit status 1, whatever happens to their streams.
TOOLS = Path(sys.executable).parent
SMALL = "module {\n}\n"


def _run_shell(command: str, tmp_path) -> subprocess.CompletedProcess:
    (tmp_path / "in.mlir").write_text(SMALL)
    return subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PATH": f"{TOOLS}:"
                                                      f"{os.environ.get('PATH', '')}"})


@pytest.mark.parametrize("command, message", [
    ("tileopt in.mlir >&-", "error: cannot write standard output: it is closed"),
    ("tileopt <&-", "error: could not read standard input: it is closed"),
    ("tileopt in.mlir > /dev/full",
     "error: cannot write standard output: No space left on device"),
    ("tileopt-translate --emit=ptx --arch=sm_90a < /dev/null",
     "<stdin>:1:1: error: the input is empty: nothing to translate"),
])
def test_stream_failures_are_clean_errors(tmp_path, command, message):
    if "/dev/full" in command and not os.path.exists("/dev/full"):
        pytest.skip("this system has no /dev/full")
    result = _run_shell(command, tmp_path)
    assert result.returncode == 1
    assert message in result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


def test_translate_quiet_when_reader_goes_away(tmp_path):
    # `tileopt-translate ... | true`: the reader left, so stop quietly (exit 1, no message).
    (tmp_path / "big.mlir").write_text(
        "module {\n" + "".join(f"  llvm.func @f{i}() {{\n    llvm.return\n  }}\n"
                               for i in range(3000)) + "}\n")
    result = _run_shell("tileopt-translate big.mlir --emit=llvm-ir | true; "
                        "echo ${PIPESTATUS[0]} >&2", tmp_path)
    assert result.stderr.splitlines() == ["1"]  # no message; the exit status of the tool


def test_timeout_stops_a_long_run(tmp_path):
    body = "".join(f"  %v{i} = arith.addi %a, %a : i32\n" for i in range(60000))
    (tmp_path / "big.mlir").write_text(
        f"func.func @f(%a: i32) -> i32 {{\n{body}  func.return %a : i32\n}}\n")
    (tmp_path / "out.mlir").write_text("kept")
    result = _run_shell("tileopt big.mlir --canonicalize --timeout=0.5 -o out.mlir", tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip() == ("error: the run took longer than --timeout=0.5 seconds "
                                     "and was stopped")
    assert (tmp_path / "out.mlir").read_text() == "kept"  # a failed run clobbers nothing


@pytest.mark.parametrize("value", ["abc", "0", "-1", "inf"])
def test_timeout_value_must_be_positive_seconds(tmp_path, value):
    result = _run_shell(f"tileopt in.mlir --timeout={value}", tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip() == (f"error: --timeout expects a number of seconds above "
                                     f"0, not '{value}'")
