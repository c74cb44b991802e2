"""Reading the input and splitting it into chunks like mlir-opt's ``--split-input-file``."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from tileopt.ir import TileoptError, split_input_file

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
        return sys.stdin.read(), "<stdin>"
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read(), path
    except FileNotFoundError as err:
        raise TileoptError(f"could not open input file '{path}': no such file") from err
    except IsADirectoryError as err:
        raise TileoptError(f"could not open input file '{path}': is a directory") from err
    except UnicodeDecodeError as err:
        raise TileoptError(f"could not read input file '{path}': not UTF-8 text") from err
    except OSError as err:
        raise TileoptError(f"could not open input file '{path}': {err.strerror}") from err


def split_input(text: str, split: bool) -> list[InputChunk]:
    """Split on lines starting with ``// -----`` (when asked), keeping line numbers."""
    if not split:
        return [InputChunk(text, 1)]
    return [InputChunk(chunk, line) for chunk, line in split_input_file(text)]
