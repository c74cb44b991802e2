"""The out-of-tree recipe of docs/out-of-tree.md, end to end: a throw-away test suite with
its own pass plugin, a YAML pipeline using it and a lit test, configured by
tileopt.testing.lit_config alone, passes under lit."""

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("lit")

DOCS = Path(__file__).resolve().parents[3] / "docs" / "out-of-tree.md"

PLUGIN = '''
from tileopt.passes import Pass, register_pass
from xdsl.dialects.builtin import UnitAttr


@register_pass
class TagFunctions(Pass):
    """Mark every tt.func with a unit attribute ``my.tagged``."""

    name = "my-tag-functions"
    anchor = None

    def apply(self, ctx, op):
        for func in op.walk():
            if func.name == "tt.func":
                func.attributes["my.tagged"] = UnitAttr()
'''

PIPELINE = '''
name: my-pipeline
plugins:
  - my_passes.py
stages:
  ttir:
    - my-tag-functions
    - cse
'''

TEST = '''
// RUN: tileopt %s --pass-pipeline=%S/Inputs/my-pipeline.yaml | FileCheck %s
// RUN: not tileopt %s --pass-pipeline=%S/no-such.yaml 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: tileopt-translate --version | FileCheck %s --check-prefix=VERSION
// CHECK-LABEL: tt.func @f
// CHECK-SAME:    my.tagged
// ERR: error:
// VERSION: tileopt {{[0-9]}}
tt.func @f() {
  tt.return
}
'''


def _recipe_config() -> str:
    """The lit.cfg.py the docs page shows (its one ```python block), so the page is tested."""
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(), re.S)
    assert len(blocks) == 1, "docs/out-of-tree.md shows one lit.cfg.py"
    return blocks[0]


def test_out_of_tree_suite_passes(tmp_path: Path):
    (tmp_path / "lit.cfg.py").write_text(_recipe_config())
    # Inputs/: not tests (a .yaml file elsewhere would be one).
    (tmp_path / "Inputs").mkdir()
    (tmp_path / "Inputs" / "my_passes.py").write_text(PLUGIN)
    (tmp_path / "Inputs" / "my-pipeline.yaml").write_text(textwrap.dedent(PIPELINE))
    (tmp_path / "tag.mlir").write_text(TEST.lstrip())
    result = subprocess.run([sys.executable, "-c", "import lit.main; lit.main.main()", "-v",
                             str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS: my-passes :: tag.mlir" in result.stdout, result.stdout
