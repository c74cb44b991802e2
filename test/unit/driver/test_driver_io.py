"""Input splitting keeps file line numbers; output is atomic and only on success."""

from __future__ import annotations

import os

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
