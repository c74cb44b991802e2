"""Reading the input and splitting it into chunks like mlir-opt's ``--split-input-file``."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from tileopt.ir import TileoptError, split_input_file
from tileopt.ir.source_positions import byte_line_col

SPLIT_MARKER = "// -----"


@dataclass
class InputChunk:
    """A piece of the input; ``first_line`` is its 1-based line in the whole file."""

    text: str
    first_line: int

    def padded_text(self) -> str:
        """The chunk preceded by blank lines, so parser positions are the file's lines."""
        return "\n" * (self.first_line - 1) + self.text


def read_input(path: str) -> tuple[str, str]:
    """Return (text, name used in diagnostics) for a path or ``-`` (stdin)."""
    if path == "-":
        if sys.stdin is None:  # started with standard input closed (`<&-`)
            raise TileoptError("could not read standard input: it is closed")
        try:
            return decode_source(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
        except OSError as err:
            raise TileoptError(f"could not read standard input: {err.strerror}") from err
    try:
        with open(path, "rb") as handle:
            return decode_source(handle.read(), path), path
    except FileNotFoundError as err:
        raise TileoptError(f"could not open input file '{path}': no such file") from err
    except IsADirectoryError as err:
        raise TileoptError(f"could not open input file '{path}': is a directory") from err
    except OSError as err:
        raise TileoptError(f"could not open input file '{path}': {err.strerror}") from err


def decode_source(data: bytes, name: str) -> str:
    """``data`` as UTF-8 text; else an error at the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, col = byte_line_col(data, err.start)
        raise TileoptError(f"input is not UTF-8 text (byte 0x{data[err.start]:02x})",
                           name, line, col) from None


def split_input(text: str, split: bool) -> list[InputChunk]:
    """Split on lines starting with ``// -----`` (when asked), keeping line numbers."""
    if not split:
        return [InputChunk(text, 1)]
    return [InputChunk(chunk, line) for chunk, line in split_input_file(text)]
