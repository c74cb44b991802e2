"""Every TILEOPT_* environment variable the package reads is in the README's list."""

import ast
import re
from pathlib import Path

import tileopt

PACKAGE = Path(tileopt.__file__).parent
README = PACKAGE.parent / "README.md"


def variables_read() -> set[str]:
    """The string constants spelled like a tileopt variable anywhere in the package."""
    names = set()
    for file in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.fullmatch(r"TILEOPT_[A-Z0-9_]+", node.value):
                names.add(node.value)
    return names


def documented() -> set[str]:
    text = README.read_text()
    section = text.split("### Environment variables", 1)[1].split("\n#", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`(TILEOPT_[A-Z0-9_]+)", row.split(" | ")[0])}


def test_every_variable_is_documented():
    found = variables_read()
    assert {"TILEOPT_LLD", "TILEOPT_PIPELINE_PATH", "TILEOPT_DEBUG"} <= found  # the scan works
    assert sorted(found - documented()) == []
