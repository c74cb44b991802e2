"""The malformed-input lit files of test/lit/ir, checked against the IR layer directly.

Each ``test/lit/ir/invalid-*.mlir`` runs under lit as ``not tileopt --split-input-file``
piped to FileCheck. Here the same file goes through ``split_input_file`` and
``parse_module`` (which verifies), each chunk's ``TileoptError`` is formatted as the
driver prints it, and FileCheck checks that text: the diagnostics of the IR layer are
tested even where the driver behaves differently. Every chunk must fail, with no
exception other than ``TileoptError``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tileopt.ir import TileoptError, make_context, parse_module
from tileopt.ir.parse import split_input_file

LIT_DIR = Path(__file__).resolve().parents[2] / "lit" / "ir"
FILECHECK = Path(sys.executable).parent / "filecheck"
CASE_FILES = sorted(LIT_DIR.glob("invalid-*.mlir"))


def _diagnostics(path: Path) -> tuple[str, list[int]]:
    """What ``tileopt --split-input-file`` should print, and the chunks that passed."""
    lines = []
    accepted = []
    for chunk, first_line in split_input_file(path.read_text()):
        try:
            parse_module(chunk, str(path), make_context(), first_line=first_line)
        except TileoptError as err:
            lines.append(err.format(excerpt=True))
        else:
            accepted.append(first_line)
    return "\n".join(lines) + "\n", accepted


def test_there_are_enough_cases():
    chunks = sum(len(split_input_file(p.read_text())) for p in CASE_FILES)
    assert len(CASE_FILES) >= 6
    assert chunks >= 40


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.name)
def test_every_case_fails_with_its_diagnostic(path: Path):
    if not FILECHECK.exists():
        pytest.skip("filecheck is not installed beside this Python")
    output, accepted = _diagnostics(path)
    assert not accepted, f"chunks starting at lines {accepted} were accepted"
    result = subprocess.run([str(FILECHECK), str(path)], input=output, text=True,
                            capture_output=True)
    assert result.returncode == 0, result.stderr + "\n--- diagnostics ---\n" + output


@pytest.mark.parametrize("name, line, col, message", [
    ("binary-junk.bin", 1, 1, "unexpected control character 0x7F: this looks like binary data"),
    ("control-chars.bin", 2, 1, "unexpected control character 0x00: this looks like binary data"),
    ("not-utf8.mlir", 2, 9, "input is not UTF-8 text (byte 0xE9"),
    ("truncated.mlir", 8, 56, "expected an identifier after '#' (at end of file: is the "
                              "input truncated?)"),
])
def test_inputs_that_are_not_mlir_text(name, line, col, message):
    path = LIT_DIR / "Inputs" / name
    with pytest.raises(TileoptError) as info:
        parse_module(path.read_bytes(), name)
    assert (info.value.file, info.value.line, info.value.col) == (name, line, col)
    assert info.value.message.startswith(message)


def test_an_empty_file_is_an_empty_module():
    module = parse_module((LIT_DIR / "Inputs" / "empty.mlir").read_bytes(), "empty.mlir")
    assert not module.body.block.ops
